"""``dvtui replay FILE --text``: print a game as readable text (headless: no Textual import).

Reads the file exactly as ``dvtui verify`` does (a torn tail is recovered and said so); never
writes to it.
"""

from __future__ import annotations

import argparse
import sys

from ..replay.export import export_text
from ..store import read_game


def run_text_export(args: argparse.Namespace) -> int:
    loaded = read_game(args.file)
    text = export_text(
        loaded.events,
        label=str(args.file),
        notices=loaded.notices,
        decisions_only=loaded.decisions_only,
    )
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0
