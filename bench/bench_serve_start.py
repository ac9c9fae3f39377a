"""How soon a table server with a club's ratings serves after its start: listening, a table request
answered, and a ``ratings`` request answered (once its records are read and folded).

Run by hand; prints numbers (never timed by the tests)::

    python bench/bench_serve_start.py                                  # 100,000 accounts, 100,000 games
    python bench/bench_serve_start.py --accounts 10000 --games 20000

``--games`` rated records among ``--accounts`` accounts (drawn as ``bench_ratings.py`` draws a
club's games) are written into a games directory's ``rated.jsonl``; then a :class:`Server` starts on
it in a thread of this process, and the bench measures, from the start: when it listens, when a
``list_tables`` asked then is answered, and when a ``ratings`` request asked right after is answered
(it waits for the fold). Each time from the server's start, in seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import msgspec
from bench_ratings import club_games

from dvtui.server.main import Server
from dvtui.server.stores.files import RATED_FILE
from dvtui.tables import ServerPlace, list_tables
from dvtui.tables.ratings import leaderboard
from dvtui.tables.where import make_private_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--accounts", type=int, default=100_000)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="dvt-", dir="/tmp"))  # (a socket's path is short)
    try:
        place = ServerPlace(directory, personal=False)
        make_private_dir(place.games)
        encoder = msgspec.json.Encoder()
        games = club_games(args.accounts, args.games, seed=7)
        (place.games / RATED_FILE).write_bytes(b"".join(encoder.encode(game) + b"\n" for game in games))
        del games
        server = Server(place, signals=False, log=lambda line: None, workers=1)
        loop = asyncio.new_event_loop()
        start = time.perf_counter()
        thread = threading.Thread(target=lambda: loop.run_until_complete(server.run()), daemon=True)
        thread.start()
        while not server.listening.is_set():
            time.sleep(0.001)
        listening = time.perf_counter() - start
        asyncio.run(list_tables(place))
        table = time.perf_counter() - start
        board = asyncio.run(leaderboard(place, 20))
        ratings = time.perf_counter() - start
        print(f"{args.games:,} rated games over {board.accounts:,} accounts: listening after {listening:.2f} s, "
              f"a table request answered after {table:.2f} s, ratings answered after {ratings:.2f} s")  # fmt: skip
        loop.call_soon_threadsafe(server.stopping.set)
        thread.join()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
