"""What ``dvtui new`` checks of its set-up flags (``--players``, ``--first``, ``--seed``), for a
local game and a table alike: a module of its own, so that ``dvtui new --table``, which opens the
game on a server and shows nothing, checks them without loading the app's side of the command line
(:mod:`.play`)."""

from __future__ import annotations

import argparse

from ..engine import SEED_LIMIT, Seat
from ..i18n import _
from ..play.seats import SeatError, parse_players
from .errors import UsageError


def checked_setup(args: argparse.Namespace) -> list[Seat] | None:
    """The seats of ``--players`` (None without it), once ``--players``, ``--first`` and ``--seed``
    are each known to be allowed: a refused flag is refused before anything starts, for a local
    game and a table alike."""
    seats = None
    if args.players:
        try:
            seats = parse_players(args.players)
        except SeatError as e:
            raise UsageError(str(e)) from None
    if args.first is not None:
        count = len(seats) if seats else 5
        if not 1 <= args.first <= count:
            said = _("--first must be a seat from 1 to {last}, not {first}")
            raise UsageError(said.format(last=count, first=args.first))
    if args.seed is not None and not 0 <= args.seed < SEED_LIMIT:  # what a game file can hold
        said = _("--seed must be a whole number from 0 to {last}, not {seed}")
        raise UsageError(said.format(last=SEED_LIMIT - 1, seed=str(args.seed)[:30]))
    return seats


def first_player(args: argparse.Namespace) -> int:
    """``--first`` (a seat as people count them, from 1; checked by :func:`checked_setup`) as the
    seat index the game and the protocol hold (from 0); the first seat without it."""
    return 0 if args.first is None else args.first - 1
