"""``dvtui sim``: bot-only games, as fast as the engine goes, with results that say how sure they are.

Two ways to choose the games:

- ``--games N``: N deals, each played once in the order of ``--players``. Game ``i`` is dealt with
  seed ``SEED+i`` and started by seat ``(SEED+i) mod players``, so each game is fixed by its own seed
  (``dvtui new --seed S --first S%players+1`` replays it: people count seats from 1) and no seat always starts.
- ``--deals D``: duplicate games. Each of D deals is played in every distinct seating of the bots
  (or ``--rotations K`` cyclic rotations), so every bot meets every deal from every seat and the
  luck of the deal cancels out. Bot moves are timed (median and p95 per bot).

Both run on ``--jobs`` processes if asked; the games played, and so the results, do not depend on it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..describe import decimal, percent
from ..engine import Seat
from ..i18n import _, ngettext
from ..play.seats import SeatError, parse_players
from ..play.tournament import Plan, run, seatings
from ..play.tournament import report as make_report
from ..store import SaveError
from .errors import UsageError


def simulate(seats: list[Seat], games: int, seed: int = 0, out: Path | None = None, jobs: int = 1) -> dict[str, object]:
    """Plain mode: ``games`` deals, each once, seated as given. Returns the report."""
    plan = plain_plan(seats, seed, games, out)
    tally, seconds = run(plan, jobs)
    return make_report(plan, tally, seconds)


def plain_plan(seats: list[Seat], seed: int, games: int, out: Path | None) -> Plan:
    """``--games``: deals SEED.., each played once in the given seating, moves not timed (the
    timer would cost the games/s this mode is measured by)."""
    entrants = tuple(s.bot or "" for s in seats)
    return Plan(entrants, tuple(range(seed, seed + games)), (tuple(range(len(seats))),), out, time_moves=False)


def run_sim(args: argparse.Namespace) -> int:
    try:
        seats = parse_players(args.players, bots_only=True)
    except SeatError as e:
        raise UsageError(str(e)) from None
    entrants = tuple(s.bot or "" for s in seats)
    if args.games is not None and args.deals is not None:
        raise UsageError(_("choose --games (one game per deal) or --deals (every seating of each deal)"))
    if args.rotations is not None and args.deals is None:
        raise UsageError(_("--rotations goes with --deals"))
    count = args.deals if args.deals is not None else (args.games if args.games is not None else 100)
    if count < 1:
        flag = "--deals" if args.deals is not None else "--games"
        raise UsageError(_("{flag} must be at least 1, not {count}").format(flag=flag, count=count))
    if args.rotations is not None and not 1 <= args.rotations <= len(seats):
        said = _("--rotations must be 1 to {most}, not {count}").format(most=len(seats), count=args.rotations)
        raise UsageError(said)
    jobs = args.jobs if args.jobs is not None else 1
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if jobs < 0:
        raise UsageError(_("--jobs must be 0 (all cores) or more, not {count}").format(count=jobs))
    out: Path | None = None
    if args.out:
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise UsageError(_("--out {path}: not a directory").format(path=out))
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SaveError(f"{out}: cannot create directory: {e.strerror or e}") from None
    duplicate = args.deals is not None
    if duplicate:
        deals = tuple(range(args.seed, args.seed + count))
        plan = Plan(entrants, deals, tuple(seatings(entrants, args.rotations)), out)
    else:
        plan = plain_plan(seats, args.seed, count, out)
    tally, seconds = run(plan, jobs)
    result = make_report(plan, tally, seconds)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print_report(result, seats, duplicate, args.seed)
    return 0


def _table(heads: list[str], widths: list[int], rows: list[list[str]]) -> None:
    """``heads`` over ``rows``, each column ``abs(width)`` wide (on its left when the width is
    negative), or as wide as its heading in the language spoken, should that be wider."""
    wide = [(-1 if w < 0 else 1) * max(abs(w), len(h)) for h, w in zip(heads, widths, strict=False)]

    def line(cells: list[str]) -> str:
        return " ".join(c.ljust(-w) if w < 0 else c.rjust(w) for c, w in zip(cells, wide, strict=False))

    print(line(heads))
    for row in rows:
        print(line(row))


def print_report(result: dict, seats: list[Seat], duplicate: bool, seed: int) -> None:  # type: ignore[type-arg]
    games = result["games"]
    deals = result["deals"]
    if duplicate:
        print(
            _("{games} games: {deals} deals x {seatings} seatings, seeds {first}..{last}").format(
                games=games, deals=deals, seatings=len(result["seatings"]), first=seed, last=seed + deals - 1
            )
        )
    else:
        print(
            ngettext("{games} game, seeds {first}..{last}", "{games} games, seeds {first}..{last}", games).format(
                games=games, first=seed, last=seed + games - 1
            )
        )
    # a level with several seats wins a game with any of them: its share of the games won, and the
    # share per seat (what its interval is about, and what compares levels seated unequally)
    interval = _("{share} interval").format(share=percent(0.95, 0))
    heads = [_("bot"), _("seats"), _("wins"), _("of games"), _("per seat"), interval, _("mean score"), _("rank"),
             _("move ms median/p95")]  # fmt: skip
    rows = []
    for b in result["bots"]:
        low, high = b["win_share_95"]
        row = [b["bot"], str(b["seats_in_lineup"]), decimal(b["wins"], 2), percent(b["share_of_games"]),
               percent(b["win_share"]), f"[{percent(low)}, {percent(high)}]", decimal(b["mean_score"], 0),
               decimal(b["mean_rank"], 2)]  # fmt: skip
        if duplicate and b["move_seconds_median"] is not None:
            median, p95 = decimal(b["move_seconds_median"] * 1000, 2), decimal(b["move_seconds_p95"] * 1000, 2)
            row.append(f"{median:>10} / {p95:<7}")
        rows.append(row)
    _table(heads[: 9 if duplicate else 8], [-16, 5, 9, 9, 9, 16, 12, 5, 19], rows)
    rows = []
    for s in result["seats"]:
        who = "" if duplicate else f"{seats[s['seat']].name} ({seats[s['seat']].bot})"
        rows.append([str(s["seat"] + 1), who, decimal(s["wins"], 2), percent(s["win_share"]),
                     decimal(s["mean_score"], 0), decimal(s["mean_rank"], 2)])  # fmt: skip
    _table([_("seat"), _("player"), _("wins"), _("of games"), _("mean score"), _("rank")], [-5, -20, 9, 9, 12, 5], rows)
    secs = result["seconds"]
    print(_("{games} games/s, {moves} moves/s ({seconds} s)").format(
        games=decimal(result["games_per_second"], 0), moves=decimal(result["moves_per_second"], 0),
        seconds=decimal(secs, 3)))  # fmt: skip
