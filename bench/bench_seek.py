"""Play now under load: 1,000 seekers arriving over a minute, time from each ``seek`` to its table
(p50, p99, max). Run by hand; prints the numbers.

    python bench/bench_seek.py                      # the pool's rule, on a simulated clock
    python bench/bench_seek.py --server             # a real dvtui serve, the minute compressed
    python bench/bench_seek.py --seekers 1000 --minute 60 --sd 200

Two ways, each saying what its time is:

- **The rule** (the default): :class:`dvtui.server.matching.Pool` as the server runs it (matched at
  each arrival and each second), on a simulated clock, so the whole minute costs what the matching
  costs. Arrivals are a Poisson stream over ``--minute`` seconds; ratings are drawn around the
  newcomer's (``--sd`` points), table sizes and waits as people would ask them (half ``3-5``, the
  rest one size; the default wait). Time to a table is simulated seconds; the CPU time of the
  matching rounds is measured too, and that of one round over a full pool nobody can be seated
  from (the worst a round costs the server's loop).
- **The server** (``--server``): a ``dvtui serve`` process and the seekers over its socket (the
  server's own account vouching for each, as ``dvtui web`` does), arriving over ``--minute``
  seconds divided by ``--compress`` (default 10: the minute in 6 s, ten times as dense). Everyone is
  a newcomer there (no ratings store), so this measures the server: the seek, the matching, each
  table opened and written with its fsync, and ``matched`` sent, in wall-clock seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dvtui.ratings import NEWCOMER  # noqa: E402
from dvtui.server.matching import MOST_SEEKERS, Pool, Seeker  # noqa: E402
from dvtui.tables.clubwire import SEEK_WAIT  # noqa: E402
from dvtui.tables.wire import MAX_LINE_BYTES  # noqa: E402


def asked(rng: random.Random) -> frozenset[int]:
    """The sizes a seeker asks for: half any (3-5), the rest one size."""
    return frozenset((3, 4, 5)) if rng.random() < 0.5 else frozenset({rng.choice((3, 4, 5))})


def arrivals(n: int, minute: float, rng: random.Random) -> list[float]:
    """``n`` arrival times of a Poisson stream over ``minute`` seconds (sorted uniform draws)."""
    return sorted(rng.uniform(0.0, minute) for _ in range(n))


def percentiles(waits: list[float]) -> str:
    qs = statistics.quantiles(waits, n=100, method="inclusive")
    return f"p50 {qs[49]:.2f} s  p99 {qs[98]:.2f} s  max {max(waits):.2f} s"


def simulate(n: int, minute: float, sd: float, seed: int) -> None:
    rng = random.Random(seed)
    times = arrivals(n, minute, rng)
    pool = Pool()
    came: dict[int, float] = {}
    waits: list[float] = []
    sizes: dict[int, int] = {}
    bots = 0
    cpu = 0.0
    rounds = 0

    def round_at(now: float) -> None:
        nonlocal bots, cpu, rounds
        began = time.process_time()
        matches = pool.match(now)
        cpu += time.process_time() - began
        rounds += 1
        for m in matches:
            sizes[m.size] = sizes.get(m.size, 0) + 1
            bots += len(m.bots)
            for s in m.people:
                waits.append(now - came[int(str(s.key))])

    tick = 1.0
    for i, at in enumerate(times):
        while tick <= at:  # the server's rounds each second
            round_at(tick)
            tick += 1.0
        rating = round(rng.gauss(NEWCOMER.mu, sd))
        came[i] = at
        pool.add(Seeker(str(i), rating, asked(rng), False, 60, float(SEEK_WAIT), at))
        round_at(at)  # and at each arrival
    while len(pool):
        round_at(tick)
        tick += 1.0
    tables = sum(sizes.values())
    print(f"the rule, simulated clock: {n} seekers over {minute:g} s, ratings {NEWCOMER.mu:.0f} ± {sd:g}, "
          f"wait {SEEK_WAIT} s")  # fmt: skip
    print(f"  time to a table: {percentiles(waits)}")
    print(f"  tables: {tables} ({', '.join(f'{k} players: {v}' for k, v in sorted(sizes.items()))}); "
          f"seats played by bots: {bots} of {bots + n}")  # fmt: skip
    print(f"  matching: {rounds} rounds, {cpu * 1000:.1f} ms CPU in all ({cpu / rounds * 1e6:.0f} µs a round)")


async def one_seeker(sock: str, i: int, sizes: list[int], start_at: float, waits: list[float]) -> None:
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    began = time.monotonic()
    reader, writer = await asyncio.open_unix_connection(sock, limit=MAX_LINE_BYTES)
    hello = {"type": "hello", "version": 1, "user": f"seeker{i}", "features": ["seek"]}
    writer.write((json.dumps(hello) + "\n" + json.dumps({"type": "seek", "players": sizes}) + "\n").encode())
    await writer.drain()
    while True:
        line = await reader.readline()
        if not line:
            raise RuntimeError(f"seeker {i}: the server closed the connection")
        kind = json.loads(line)["type"]
        if kind == "error":
            raise RuntimeError(f"seeker {i}: {line.decode().strip()}")
        if kind == "matched":
            waits.append(time.monotonic() - began)
            writer.close()
            return


async def seekers(sock: str, n: int, seconds: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    start = time.monotonic() + 0.5
    waits: list[float] = []
    await asyncio.gather(*(
        one_seeker(sock, i, sorted(asked(rng)), start + at, waits) for i, at in enumerate(arrivals(n, seconds, rng))
    ))  # fmt: skip
    return waits


def on_server(n: int, minute: float, compress: float, seed: int) -> None:
    seconds = minute / compress
    with tempfile.TemporaryDirectory(prefix="dvt-seek-", dir="/tmp") as d:
        directory = Path(d) / "srv"
        directory.mkdir(mode=0o700)
        log = open(Path(d) / "serve.log", "wb")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "-m", "dvtui", "serve", "--dir", str(directory), "--limit", "conns-total=4096"],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(REPO)},
        )  # fmt: skip
        sock = directory / "dvtui.sock"
        while not sock.exists():
            time.sleep(0.05)
        try:
            waits = asyncio.run(seekers(str(sock), n, seconds, seed))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
            log.close()
        tables = len(list((directory / "games").glob("play-*.dvr")))
    print(f"the server: {n} seekers over {seconds:g} s (a minute compressed {compress:g} times), all newcomers")
    print(f"  time to a table (seek sent to matched received): {percentiles(waits)}; {tables} tables opened")


def full_pool() -> None:
    """One round over a full pool nobody in can be seated from (the server holds its rounds on its
    loop): 10,000 seekers, each alone in their kind of game, then all of one kind 250 points apart."""
    for kind, make in (
        ("each of a kind of their own", lambda i: Seeker(i, 1370, frozenset({5}), False, i + 1, 600.0, 0.0)),
        ("one kind, 250 points apart", lambda i: Seeker(i, 1000 + 250 * i, frozenset({5}), False, 60, 600.0, 0.0)),
    ):
        pool = Pool()
        for i in range(MOST_SEEKERS):
            pool.add(make(i))
        began = time.perf_counter()
        seated = pool.match(1.0)
        assert not seated
        print(f"  a round over {MOST_SEEKERS:,} seekers who cannot sit together ({kind}): "
              f"{(time.perf_counter() - began) * 1000:.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seekers", type=int, default=1000)
    parser.add_argument("--minute", type=float, default=60.0, help="the seconds over which they arrive")
    parser.add_argument("--sd", type=float, default=200.0, help="the spread of the ratings (simulated)")
    parser.add_argument("--server", action="store_true", help="a real server rather than the rule alone")
    parser.add_argument(
        "--compress", type=float, default=10.0, help="with --server: the minute this many times shorter"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.server:
        on_server(args.seekers, args.minute, args.compress, args.seed)
    else:
        simulate(args.seekers, args.minute, args.sd, args.seed)
        full_pool()


if __name__ == "__main__":
    main()
