"""What the ratings cost: one game's update, and the fold of a club's games with its leaderboard.

Run by hand; prints numbers (never timed by the tests)::

    python bench/bench_ratings.py                                  # 100,000 accounts, 200,000 games
    python bench/bench_ratings.py --accounts 100000 --games 400000 --repeat 2000

One update: :func:`dvtui.ratings.update` of a game of 3, 4 and 5 seats of settled players, without a
tie, with two sharing a place, and with everyone tied (the worst case: 120 orders for the model);
the median of ``--repeat`` runs. The fold: ``--games`` games of 3 to 5 seats drawn from a seeded
random club of ``--accounts`` accounts (one seat in five a ladder bot), folded from nothing (as a
server rebuilds its cache at start), then the leaderboard's first 100 and the whole of it sorted,
then a game arriving late (ended before the last ``--late`` games, folded in its place and those
folded again: a failover's worst ordinary case), and the resident memory of the process.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.ratings import MARKS, BotSeat, FinishedGame, Holder, Ledger, Person, Rating, update

SETTLED = Rating(1400.0, 50.0)


def one_update(players: int, scores: tuple[int, ...], repeat: int) -> float:
    """The median seconds of one update of ``players`` settled people finishing with ``scores``."""
    seats = tuple(Person(f"p{i}") for i in range(players))
    ratings = {f"p{i}": Rating(SETTLED.mu + 40 * i, SETTLED.sigma) for i in range(players)}
    game = FinishedGame(game="g", ended=0, seats=seats, scores=scores)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        update(game, ratings)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def club_games(accounts: int, games: int, seed: int) -> list[FinishedGame]:
    """``games`` finished games among ``accounts`` accounts, one seat in five a ladder bot, seeded."""
    rng = random.Random(seed)
    levels = [level for level, _ in MARKS]
    made = []
    for g in range(games):
        n = rng.randint(3, 5)
        people = rng.sample(range(accounts), n)
        seats: list[Holder] = [
            BotSeat(rng.choice(levels)) if i and rng.random() < 0.2 else Person(f"a{p}") for i, p in enumerate(people)
        ]
        scores = tuple(rng.randint(0, 60) for _ in range(n))
        resigned = (rng.randrange(n),) if rng.random() < 0.02 else ()
        made.append(FinishedGame(game=f"t{g % 977}/{g}", ended=g, seats=tuple(seats), scores=scores, resigned=resigned))
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--accounts", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=1000, help="runs of one update, for its median")
    ap.add_argument("--late", type=int, default=100, help="games that ended after the late one")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    print("one update, median of", args.repeat)
    for players in (3, 4, 5):
        plain = one_update(players, tuple(range(players, 0, -1)), args.repeat)
        pair = one_update(players, (9, 9, *range(players - 2, 0, -1)), args.repeat)
        everyone = one_update(players, (5,) * players, max(1, args.repeat // 20))
        tied = f"two tied {pair * 1e6:6.0f} µs, all tied {everyone * 1e6:6.0f} µs"
        print(f"  {players} players: {plain * 1e6:6.0f} µs, {tied}")

    games = club_games(args.accounts, args.games, args.seed)
    late, rest = games[-args.late - 1], games[: -args.late - 1] + games[-args.late :]
    start = time.perf_counter()
    ledger = Ledger(rest)
    folded = time.perf_counter() - start
    print(
        f"fold of {len(rest):,} games over {ledger.accounts():,} accounts: {folded:.1f} s"
        f" ({folded / len(rest) * 1e6:.0f} µs a game)"
    )
    start = time.perf_counter()
    top = ledger.leaderboard(top=100)
    head = time.perf_counter() - start
    start = time.perf_counter()
    whole = ledger.leaderboard()
    everyone_sorted = time.perf_counter() - start
    print(f"leaderboard: the first 100 {head * 1e3:.0f} ms, all {len(whole):,} sorted {everyone_sorted * 1e3:.0f} ms")
    print(f"  first: {top[0].account} {top[0].rating.shown} ({top[0].games} games)")
    start = time.perf_counter()
    ledger.add(late)
    print(f"a game arriving before the last {args.late} folded: {(time.perf_counter() - start) * 1e3:.0f} ms")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
