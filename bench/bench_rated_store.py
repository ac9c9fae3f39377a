"""What a table server's ratings cost with their store: keeping a rated game's end, the start
(every record read and folded), and a ``ratings`` request (the leaderboard's first 20, a profile's
rank), on files or PostgreSQL.

Run by hand; prints numbers (never timed by the tests)::

    python bench/bench_rated_store.py                                 # files, 20,000 games, 10,000 accounts
    python bench/bench_rated_store.py --store postgresql:///bench --games 20000 --accounts 10000

``--keep`` games' ends are kept one by one as the server keeps them (fsync on files, a row each on
PostgreSQL): the median time of one. Then ``--games`` records (drawn as ``bench_ratings.py`` draws a
club's games) are written straight into the store, and a new :class:`~dvtui.server.rated.Rater`
loads them (the start); then the leaderboard's first 20 and a profile, each the median of ten
requests. On PostgreSQL the bench's rows are removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import msgspec
from bench_ratings import club_games

from dvtui.server.rated import Rater
from dvtui.server.stores.files import RATED_FILE, FileStore
from dvtui.tables.clubwire import AskProfile, AskRatings

T = TypeVar("T")


async def _now(fn: Callable[[], T]) -> T:
    return fn()


def median_of(times: int, work: Callable[[], Any]) -> float:
    taken = []
    for _ in range(times):
        start = time.perf_counter()
        work()
        taken.append(time.perf_counter() - start)
    return statistics.median(taken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="a PostgreSQL connection string (default: files in a temporary directory)")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--keep", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        games = club_games(args.accounts, args.games + args.keep, seed=7)
        encoder = msgspec.json.Encoder()
        if args.store:
            from dvtui.server.stores.pg import PgStore

            store: Any = PgStore(args.store, Path(directory))
        else:
            store = FileStore(Path(directory))
        try:
            kept = [encoder.encode(game) for game in games[args.games :]]
            pairs = iter([(game.game, data) for game, data in zip(games[args.games :], kept, strict=True)])
            keep = median_of(args.keep, lambda: store.keep_rated(*next(pairs)))
            print(f"keep one rated game's end: {keep * 1e3:.2f} ms (median of {args.keep})")
            if args.store:
                import psycopg

                with (
                    psycopg.connect(args.store, autocommit=True) as conn,
                    conn.cursor() as cursor,
                    cursor.copy("COPY dvtui_ratings (game, record) FROM STDIN") as copy,
                ):
                    for game in games[: args.games]:
                        copy.write_row((game.game, encoder.encode(game)))
            else:
                with open(Path(directory) / RATED_FILE, "ab") as out:
                    out.write(b"".join(encoder.encode(game) + b"\n" for game in games[: args.games]))
            rater = Rater(store, _now, lambda line: None)
            start = time.perf_counter()
            rater.load()
            loaded = time.perf_counter() - start
            print(f"start: {rater.ledger.games():,} records read and folded in {loaded:.1f} s, "
                  f"{rater.ledger.accounts():,} accounts")  # fmt: skip
            board = median_of(10, lambda: asyncio.run(rater.leaderboard(AskRatings(top=20))))
            print(f"ratings --top 20: {board * 1e3:.1f} ms (median of 10)")
            someone = rater.ledger.leaderboard(1)[0].account
            shown = median_of(10, lambda: asyncio.run(rater.profile(AskProfile(account=someone), someone)))
            print(f"profile: {shown * 1e3:.1f} ms (median of 10)")
        finally:
            if args.store:
                import psycopg

                with psycopg.connect(args.store, autocommit=True) as conn:
                    conn.execute("DELETE FROM dvtui_ratings")
            store.close()


if __name__ == "__main__":
    main()
