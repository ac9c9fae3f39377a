"""Decisions a second through the PostgreSQL store alone, no server and no client (run by hand):

    python bench/bench_pgstore.py "host=/tmp/pg dbname=bench" --threads 32 --seconds 8

``--threads`` threads (as the server's threads for files and the database), each deciding in
turn on tables of its own (four each): a placement checked and saved, each committed before it
returns, as a table's decision is before its lines are sent. Prints the decisions a second, the
p50 and p99 of a decision's time, how many transactions saved them, and this process's CPU per
decision (user + system, every thread: the store's own cost, which a server pays on its core,
far less sensitive to a shared machine's load than the times). The database's dvtui
tables are dropped first (use a database of its own).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dvtui.engine import new_game  # noqa: E402
from dvtui.play.seats import parse_players  # noqa: E402
from dvtui.play.session import PlaySession  # noqa: E402
from dvtui.server.stores.base import TableRecord  # noqa: E402
from dvtui.server.stores.pg import PgStore  # noqa: E402

TABLES = (
    "dvtui_chat",
    "dvtui_presence",
    "dvtui_servers",
    "dvtui_events",
    "dvtui_games",
    "dvtui_ratings",
    "dvtui_arenas",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("conninfo")
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    import psycopg

    with psycopg.connect(args.conninfo, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {', '.join(TABLES)}")
    store = PgStore(args.conninfo, None)
    sessions: list[PlaySession] = []
    for i in range(4 * args.threads):
        record = TableRecord(owners=[None] * 3, stand_ins=[None] * 3)
        sessions.append(store.create(f"t{i}", new_game(parse_players("Ana,Bob,Cy"), seed=i), record)[0])
    times: list[float] = []
    stop = threading.Event()

    def decide(mine: list[PlaySession]) -> None:
        for n in range(10**9):
            if stop.is_set():
                return
            session = mine[n % len(mine)]
            game = session.game
            if game.over:
                continue
            start = time.perf_counter()
            session.place(game.legal_placements()[0], player=game.to_move)
            times.append(time.perf_counter() - start)  # (list.append: one at a time under the GIL)

    threads = [threading.Thread(target=decide, args=(sessions[k :: args.threads],)) for k in range(args.threads)]
    start, cpu = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    times.sort()
    commits = getattr(getattr(store, "group", None), "commits", None)
    p50, p99 = 1000 * times[len(times) // 2], 1000 * times[int(0.99 * (len(times) - 1))]
    saved = f"{commits} transactions" if commits is not None else "a transaction each"
    print(f"{args.threads} threads: {len(times) / elapsed:.0f} decisions/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"{len(times)} decisions in {saved}, CPU per decision {1e6 * cpu / len(times):.0f} µs")  # fmt: skip
    store.close()


if __name__ == "__main__":
    main()
