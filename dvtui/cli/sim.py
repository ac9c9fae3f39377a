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

from ..engine import Seat
from ..play.seats import SeatError, parse_players
from ..play.tournament import Plan, run, seatings
from ..play.tournament import report as make_report
from ..store import SaveError
from .errors import UsageError


def simulate(
    seats: list[Seat], games: int, seed: int = 0, out: Path | None = None, jobs: int = 1
) -> dict[str, object]:
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
        raise UsageError("choose --games (one game per deal) or --deals (every seating of each deal)")
    if args.rotations is not None and args.deals is None:
        raise UsageError("--rotations goes with --deals")
    count = args.deals if args.deals is not None else (args.games if args.games is not None else 100)
    if count < 1:
        raise UsageError(f"{'--deals' if args.deals is not None else '--games'} must be at least 1, not {count}")
    if args.rotations is not None and not 1 <= args.rotations <= len(seats):
        raise UsageError(f"--rotations must be 1 to {len(seats)}, not {args.rotations}")
    jobs = args.jobs if args.jobs is not None else 1
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {jobs}")
    out: Path | None = None
    if args.out:
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out}: not a directory")
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


def print_report(result: dict, seats: list[Seat], duplicate: bool, seed: int) -> None:  # type: ignore[type-arg]
    games = result["games"]
    deals = result["deals"]
    if duplicate:
        print(f"{games} games: {deals} deals x {len(result['seatings'])} seatings, seeds {seed}..{seed + deals - 1}")
    else:
        print(f"{games} games, seeds {seed}..{seed + games - 1}")
    # a level with several seats wins a game with any of them: its share of the games won, and the
    # share per seat (what its interval is about, and what compares levels seated unequally)
    print(f"{'bot':<16} {'seats':>5} {'wins':>9} {'of games':>9} {'per seat':>9} {'95% interval':>16} "
          f"{'mean score':>12} {'rank':>5}" + (f" {'move ms median/p95':>19}" if duplicate else ""))
    for b in result["bots"]:
        low, high = b["win_share_95"]
        line = (
            f"{b['bot']:<16} {b['seats_in_lineup']:>5} {b['wins']:>9.2f} {b['share_of_games']:>9.1%} "
            f"{b['win_share']:>9.1%} {f'[{low:.1%}, {high:.1%}]':>16} {b['mean_score']:>12,.0f} "
            f"{b['mean_rank']:>5.2f}"
        )
        if duplicate and b["move_seconds_median"] is not None:
            line += f" {b['move_seconds_median'] * 1000:>10.2f} / {b['move_seconds_p95'] * 1000:<7.2f}"
        print(line)
    print(f"{'seat':<5} {'player':<20} {'wins':>9} {'of games':>9} {'mean score':>12} {'rank':>5}")
    for s in result["seats"]:
        who = "" if duplicate else f"{seats[s['seat']].name} ({seats[s['seat']].bot})"
        print(
            f"{s['seat'] + 1:<5} {who:<20} {s['wins']:>9.2f} {s['win_share']:>9.1%} "
            f"{s['mean_score']:>12,.0f} {s['mean_rank']:>5.2f}"
        )
    secs = result["seconds"]
    print(f"{result['games_per_second']:,.0f} games/s, {result['moves_per_second']:,.0f} moves/s ({secs:.3f} s)")
