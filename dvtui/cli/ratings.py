"""``dvtui ratings`` (the leaderboard) and ``dvtui profile`` (an account's rating, its history as a
chart, its places and its latest rated games), asked of the table server; ``--json`` prints what
the server answered, as it is. The words are :mod:`dvtui.tables.ratingwords`'."""

from __future__ import annotations

import argparse
import asyncio
import sys

import msgspec

from ..i18n import _
from ..printable import printable
from ..tables import Diverged, Dropped, Refused, Unreachable, server_place
from ..tables.clubwire import MAX_TOP
from ..tables.ratings import NoRatings, leaderboard, profile
from ..tables.ratingwords import leaderboard_lines, profile_lines
from ..tables.wire import MAX_PERSON_CHARS, VOUCHED_PREFIX
from ..web.tab import vouched
from .errors import EXIT_BAD_FILE, EXIT_OK, UsageError

MAX_ACCOUNT_ARG = len(VOUCHED_PREFIX) + MAX_PERSON_CHARS
"""The longest name ``dvtui profile`` takes (what the protocol carries)."""


def run_ratings(args: argparse.Namespace) -> int:
    """``dvtui ratings`` or ``dvtui profile``."""
    try:
        if args.command == "ratings":
            return _ratings(args)
        return _profile(args)
    except (Unreachable, Refused, Diverged, Dropped, NoRatings) as e:
        print(_("dvtui: error: {message}").format(message=printable(str(e))), file=sys.stderr)
        return EXIT_BAD_FILE


def _ratings(args: argparse.Namespace) -> int:
    top = 20 if args.top is None else args.top
    if not 1 <= top <= MAX_TOP:
        raise UsageError(_("--top {top}: give 1 to {most}").format(top=top, most=MAX_TOP))
    place = server_place(args.server)
    board = asyncio.run(leaderboard(place, top, user=vouched()))
    if args.json:
        print(_json({"accounts": board.accounts, "standings": board.standings}))
    elif not board.standings:
        print(_("no rated games at {directory} yet").format(directory=printable(str(place.directory))))
    else:
        print("\n".join(leaderboard_lines(board)))
    return EXIT_OK


def _account(text: str | None) -> str | None:
    """``ACCOUNT`` as typed, checked before any server is asked: a name, not anything else."""
    if text is None:
        return None
    name = text.strip()
    if not name or len(name) > MAX_ACCOUNT_ARG or not name.isprintable() or any(c.isspace() for c in name):
        said = _("{account}: not an account's name (or web:NAME, a person 'dvtui web' vouches for)")
        raise UsageError(said.format(account=repr(text)))
    return name


def _profile(args: argparse.Namespace) -> int:
    account = _account(args.account)
    found = asyncio.run(profile(server_place(args.server), account, user=vouched()))
    if args.json:
        print(_json({"standing": found.standing, "places": found.places, "history": found.history}))
    else:
        print("\n".join(profile_lines(found)))
    return EXIT_OK


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


__all__ = ["run_ratings"]
