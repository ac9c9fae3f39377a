"""The types of the command line's numeric options: argparse's own ``int`` and ``float`` name the
Python type in their error (``invalid int value: 'x'``), a word no player should meet and no
catalogue can translate; these say what the option wants, in the language spoken."""

from __future__ import annotations

import argparse
import math

from ..i18n import _


def whole(text: str) -> int:
    """A whole number (``--seed``, ``--jobs``, ``--port``...): its range is checked where it is used."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("'{text}' is not a whole number").format(text=text)) from None


def decimal(text: str) -> float:
    """A number that may have a decimal point (``--bot-delay 0.5``, ``--idle``, ``--keep-days``),
    finite: ``nan`` and ``inf`` are words Python's ``float`` takes that no option means."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(_("'{text}' is not a number (e.g. 2 or 0.5)").format(text=text))
    return value
