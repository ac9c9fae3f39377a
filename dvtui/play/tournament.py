"""Bot tournaments: duplicate deals, seat rotations, and statistics that say how sure they are.

Luck of the deal is the largest noise in a card game, so a strength comparison plays every deal in
every seating of the bots (duplicate games, as in duplicate bridge): each bot meets each deal from
each seat. Results are kept in mergeable tallies so several processes can share the work, and the
games played do not depend on how many processes played them.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..bots import Mover, bot_fn, bot_seeds, parse_bot
from ..engine import COLORS, Game, Outcome, Placement, Seat, new_game
from ..store import GameWriter
from .autoplay import run_bots

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed: split ties)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def seatings(entrants: Sequence[str], rotations: int | None = None) -> list[tuple[int, ...]]:
    """Seatings as tuples ``seat -> entrant index``.

    Default: every distinct seating (permutations that differ in which bot sits where; two
    identical bots swapping seats is the same seating). ``rotations=K``: the first K cyclic
    rotations, for lineups whose distinct seatings would be too many.
    """
    n = len(entrants)
    if rotations is not None:
        return [tuple((seat + r) % n for seat in range(n)) for r in range(rotations)]
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[int, ...]] = []
    for perm in itertools.permutations(range(n)):
        key = tuple(entrants[e] for e in perm)
        if key not in seen:
            seen.add(key)
            out.append(perm)
    return out


@dataclass
class Tally:
    """Everything a run measures, as sums that merge (``+=``) across processes."""

    n: int
    games: int = 0
    moves: int = 0
    wins: list[float] = field(default_factory=list)  # per entrant
    score_sum: list[int] = field(default_factory=list)  # per entrant
    rank_sum: list[float] = field(default_factory=list)  # per entrant
    seat_wins: list[float] = field(default_factory=list)
    seat_score_sum: list[int] = field(default_factory=list)
    seat_rank_sum: list[float] = field(default_factory=list)
    move_times: list[list[float]] = field(default_factory=list)  # per entrant, seconds per move

    def __post_init__(self) -> None:
        for name in ("wins", "rank_sum", "seat_wins", "seat_rank_sum"):
            if not getattr(self, name):
                setattr(self, name, [0.0] * self.n)
        for name in ("score_sum", "seat_score_sum"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.n)
        if not self.move_times:
            self.move_times = [[] for _ in range(self.n)]

    def add_game(self, outcome: Outcome, seating: Sequence[int]) -> None:
        """One finished game: its outcome (scores by seat), ``seating[seat]`` the entrant there."""
        self.games += 1
        scores = outcome.scores
        winners = outcome.winners
        ordered = sorted(scores, reverse=True)
        share = 1.0 / len(winners)  # R8: a shared victory is split
        distinct = len(set(ordered)) == len(ordered)  # the usual case: rank = place
        wins, score_sum, rank_sum = self.wins, self.score_sum, self.rank_sum
        seat_wins, seat_score_sum, seat_rank_sum = self.seat_wins, self.seat_score_sum, self.seat_rank_sum
        for seat, score in enumerate(scores):
            entrant = seating[seat]
            # rank 1 is best; players with equal scores share the mean of their places
            place = ordered.index(score)
            rank = place + 1 if distinct else place + (ordered.count(score) + 1) / 2
            score_sum[entrant] += score
            rank_sum[entrant] += rank
            seat_score_sum[seat] += score
            seat_rank_sum[seat] += rank
            if seat in winners:
                wins[entrant] += share
                seat_wins[seat] += share

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.moves += other.moves
        for name in ("wins", "score_sum", "rank_sum", "seat_wins", "seat_score_sum", "seat_rank_sum"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, v in enumerate(theirs):
                mine[i] += v
        for i, times in enumerate(other.move_times):
            self.move_times[i].extend(times)


@dataclass(frozen=True)
class Plan:
    """What to play: the entrants (bot specs, in --players order), which deals, which seatings."""

    entrants: tuple[str, ...]
    seeds: tuple[int, ...]
    seatings: tuple[tuple[int, ...], ...]
    out: Path | None = None
    time_moves: bool = True


def _timed(fn: Mover, bucket: list[float]) -> Mover:
    clock = time.perf_counter

    def move(game: Game, seed: int) -> Placement:
        t = clock()
        choice = fn(game, seed)
        bucket.append(clock() - t)
        return choice

    return move


def play(plan: Plan) -> Tally:
    """Play every deal of ``plan`` in every seating of it; the unit of work of one process."""
    n = len(plan.entrants)
    tally = Tally(n)
    specs = [parse_bot(text) for text in plan.entrants]
    fns = [bot_fn(spec) for spec in specs]
    lineups = [  # the seats of each seating, made once: games share them, nobody mutates a Seat
        [Seat(name=f"Bot {e + 1}", kind="bot", bot=str(specs[e]), color=COLORS[i]) for i, e in enumerate(seating)]
        for seating in plan.seatings
    ]
    movers = [  # each seating's move function per seat, timed when asked
        [_timed(fns[e], tally.move_times[e]) if plan.time_moves else fns[e] for e in seating]
        for seating in plan.seatings
    ]
    for seed in plan.seeds:
        first = seed % n  # the same start for every seating of a deal: only the seating varies
        seeds = bot_seeds(seed, n)  # by seat, whoever sits there
        for k, seating in enumerate(plan.seatings):
            created = new_game(lineups[k], first_player=first, seed=seed)
            game = Game(created, trusted=True)
            players: list[tuple[Mover, int] | None] = list(zip(movers[k], seeds, strict=True))
            if plan.out is None:
                run_bots(game, None, players)
            else:
                name = f"game-{seed}-s{k + 1}.dvr" if len(plan.seatings) > 1 else f"game-{seed}.dvr"
                with GameWriter.create(plan.out / name, created, stamp=False) as writer:
                    run_bots(game, writer.append, players)
            tally.moves += len(game.created.players) * 5 * game.rounds
            outcome = game.outcome()
            assert outcome is not None  # bots play every seat to the end
            tally.add_game(outcome, seating)
    return tally


def run(plan: Plan, jobs: int = 1, progress: Callable[[int], None] | None = None) -> tuple[Tally, float]:
    """Play ``plan`` on ``jobs`` processes; returns the merged tally and the wall time."""
    start = time.perf_counter()
    if jobs <= 1 or len(plan.seeds) <= 1:
        tally = play(plan)
        return tally, time.perf_counter() - start
    from concurrent.futures import ProcessPoolExecutor

    chunks = max(1, min(len(plan.seeds), jobs * 4))
    parts = [plan.seeds[i::chunks] for i in range(chunks)]
    plans = [Plan(plan.entrants, part, plan.seatings, plan.out, plan.time_moves) for part in parts if part]
    tally = Tally(len(plan.entrants))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(play, plans):
            tally.merge(part)
            if progress is not None:
                progress(tally.games)
    return tally, time.perf_counter() - start


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    i = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[i]


def report(plan: Plan, tally: Tally, seconds: float) -> dict[str, object]:
    """The results as plain data (the ``--json`` output, and what the table prints)."""
    n = len(plan.entrants)
    by_bot: dict[str, list[int]] = {}
    for e, spec in enumerate(plan.entrants):
        by_bot.setdefault(spec, []).append(e)
    bots = []
    for spec, members in by_bot.items():
        trials = tally.games * len(members)
        wins = sum(tally.wins[e] for e in members)
        low, high = wilson(wins, trials)
        times = [t for e in members for t in tally.move_times[e]]
        bots.append(
            {
                "bot": spec,
                "seats_in_lineup": len(members),
                "games": tally.games,
                "wins": wins,
                "share_of_games": wins / tally.games if tally.games else 0.0,
                "win_share": wins / trials if trials else 0.0,
                "win_share_95": [low, high],
                "mean_score": sum(tally.score_sum[e] for e in members) / trials if trials else 0.0,
                "mean_rank": sum(tally.rank_sum[e] for e in members) / trials if trials else 0.0,
                "moves_timed": len(times),
                "move_seconds_median": statistics.median(times) if times else None,
                "move_seconds_p95": percentile(times, 0.95) if times else None,
            }
        )
    seats = [
        {
            "seat": s,
            "wins": tally.seat_wins[s],
            "win_share": tally.seat_wins[s] / tally.games if tally.games else 0.0,
            "mean_score": tally.seat_score_sum[s] / tally.games if tally.games else 0.0,
            "mean_rank": tally.seat_rank_sum[s] / tally.games if tally.games else 0.0,
        }
        for s in range(n)
    ]
    return {
        "players": list(plan.entrants),
        "deals": len(plan.seeds),
        "seatings": [list(s) for s in plan.seatings],
        "games": tally.games,
        "moves": tally.moves,
        "seconds": round(seconds, 6),
        "games_per_second": tally.games / seconds if seconds else None,
        "moves_per_second": tally.moves / seconds if seconds else None,
        "bots": bots,
        "seats": seats,
    }


__all__ = ["Plan", "Tally", "percentile", "play", "report", "run", "seatings", "wilson"]
