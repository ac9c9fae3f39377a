"""``dvtui sim``: bot-only games, as fast as the engine goes, with a results table.

Game ``i`` is dealt with seed ``SEED+i`` and started by seat ``(SEED+i) mod players``: each game is
fixed by its own seed alone (``dvtui new --seed S --first S%players`` replays it), and no seat
always starts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import Game, Seat, new_game
from ..headless import run_bots
from ..seats import SeatError, parse_players
from ..store import GameWriter, SaveError


@dataclass
class SimResult:
    seats: list[Seat]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    score_sum: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "seconds": round(self.seconds, 6),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "players": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "wins": self.wins[i],
                    "win_share": self.wins[i] / self.games if self.games else 0.0,
                    "mean_score": self.score_sum[i] / self.games if self.games else 0.0,
                }
                for i, s in enumerate(self.seats)
            ],
        }


def simulate(
    seats: list[Seat], games: int, seed: int = 0, out: Path | None = None
) -> SimResult:
    n = len(seats)
    result = SimResult(seats, wins=[0.0] * n, score_sum=[0] * n)
    wins = result.wins
    sums = result.score_sum
    start = time.perf_counter()
    for i in range(games):
        created = new_game(seats, first_player=(seed + i) % n, seed=seed + i)
        game = Game(created, trusted=True)
        if out is None:
            run_bots(game, None)
        else:
            with GameWriter.create(out / f"game-{seed + i}.dvr", created, stamp=False) as writer:
                run_bots(game, writer.append)
        scores = game.worth
        best = max(scores)
        winners = [p for p in range(n) if scores[p] == best]
        share = 1.0 / len(winners)
        for p in winners:
            wins[p] += share
        for p in range(n):
            sums[p] += scores[p]
    result.games = games
    result.seconds = time.perf_counter() - start
    return result


def run_sim(args: argparse.Namespace) -> int:
    from ..cli import UsageError

    try:
        seats = parse_players(args.players, bots_only=True)
    except SeatError as e:
        raise UsageError(str(e)) from None
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    out: Path | None = None
    if args.out:
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out}: not a directory")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SaveError(f"{out}: cannot create directory: {e.strerror or e}") from None
    result = simulate(seats, args.games, args.seed, out)
    if args.json:
        json.dump(result.as_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"{result.games} games, seeds {args.seed}..{args.seed + result.games - 1}")
    print(f"{'seat':<5} {'player':<10} {'bot':<14} {'wins':>9} {'share':>7} {'mean score':>12}")
    for i, s in enumerate(seats):
        w = result.wins[i]
        print(
            f"{i:<5} {s.name:<10} {s.bot or '':<14} {w:>9.2f} {w / result.games:>7.1%} "
            f"{result.score_sum[i] / result.games:>12,.0f}"
        )
    rate = result.games / result.seconds if result.seconds else float("inf")
    print(f"{rate:,.0f} games/s ({result.seconds:.3f} s)")
    return 0
