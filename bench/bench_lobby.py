"""What open lobbies cost the table server: N start menus over M tables, polling (the whole list
asked for every 5 s, as a lobby did and as it still does against an older server) against following
(``follow_tables``: the list once, then the changes pushed). Run by hand; prints a table.

    python bench/bench_lobby.py                          # 10 lobbies over 500 tables
    python bench/bench_lobby.py --tables 2000 --lobbies 10 --seconds 30

A ``dvtui serve`` process pinned to one core holds M tables (3 seats, nobody sitting); meanwhile
``--changes`` times a second a watcher arrives at or leaves a table at random (each a change of what
the list says of it). Measured per mode, scaled to a minute: the bytes the lobbies received, and
the server's CPU seconds (``/proc/PID/stat``: user + system), less those of the same run with no
lobby open (the changes' own cost).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dvtui.tables.protocol import FEATURES  # noqa: E402
from dvtui.tables.wire import MAX_LINE_BYTES  # noqa: E402

POLL = 5.0
"""The lobby's polling period (the menu's ``POLL``)."""


def hello(features: list[str]) -> bytes:
    return json.dumps({"type": "hello", "version": 1, "features": features}).encode() + b"\n"


async def connect(sock: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(sock, limit=MAX_LINE_BYTES)
    writer.write(hello(list(FEATURES)))
    await reader.readline()
    return reader, writer


async def ask(writer: asyncio.StreamWriter, reader: asyncio.StreamReader, message: dict[str, object]) -> bytes:
    writer.write(json.dumps(message).encode() + b"\n")
    await writer.drain()
    return await reader.readline()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def open_tables(sock: str, n: int) -> None:
    reader, writer = await connect(sock)
    for i in range(n):
        line = await ask(writer, reader, {"type": "open_table", "table": f"t{i:05}", "players": ["Ana", "Bob", "Cy"],
                                          "seed": i, "wait": False})  # fmt: skip
        assert b'"opened"' in line, line
    writer.close()


async def churn(sock: str, tables: int, rate: float, stop: asyncio.Event) -> None:
    """A watcher arriving at a random table, then leaving it for the next, ``rate`` times a second."""
    while not stop.is_set():
        _reader, writer = await connect(sock)
        writer.write(json.dumps({"type": "watch", "table": f"t{random.randrange(tables):05}"}).encode() + b"\n")
        await writer.drain()
        await asyncio.sleep(1 / rate)
        writer.close()


async def polling_lobby(sock: str, stop: asyncio.Event, received: list[int]) -> None:
    while not stop.is_set():
        reader, writer = await connect(sock)
        after: str | None = None
        while True:
            line = await ask(writer, reader, {"type": "list_tables", **({"after": after} if after else {})})
            received[0] += len(line)
            page = json.loads(line)
            if not page.get("more") or not page["tables"]:
                break
            after = page["tables"][-1]["table"]
        writer.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), POLL)


async def following_lobby(sock: str, stop: asyncio.Event, received: list[int]) -> None:
    reader, writer = await connect(sock)
    writer.write(b'{"type":"follow_tables"}\n')
    await writer.drain()
    while not stop.is_set():
        try:
            line = await asyncio.wait_for(reader.readline(), 0.5)
        except TimeoutError:
            continue
        received[0] += len(line)
        page = json.loads(line)
        if page["type"] == "tables" and page.get("more"):
            writer.write(json.dumps({"type": "list_tables", "after": page["tables"][-1]["table"]}).encode() + b"\n")
    writer.close()


async def measure(
    sock: str, pid: int, mode: str, lobbies: int, tables: int, changes: float, seconds: float
) -> tuple[int, float]:
    stop = asyncio.Event()
    received = [0]
    lobby = {"polling": polling_lobby, "following": following_lobby, "none": None}[mode]
    cpu = cpu_seconds(pid)
    tasks = [asyncio.create_task(churn(sock, tables, changes, stop))]
    if lobby is not None:
        tasks += [asyncio.create_task(lobby(sock, stop, received)) for _ in range(lobbies)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks)
    return received[0], cpu_seconds(pid) - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--lobbies", type=int, default=10)
    parser.add_argument("--changes", type=float, default=2.0, help="tables changed a second")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each mode runs")
    parser.add_argument("--core", type=int, default=0, help="the core the server is pinned to")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dvlobby") as d:
        directory = Path(d) / "srv"
        env = dict(os.environ, PYTHONPATH=str(REPO))
        proc = subprocess.Popen(
            ["taskset", "-c", str(args.core), sys.executable, "-m", "dvtui", "serve", "--dir", str(directory),
             "--limit", f"conns-total={args.lobbies * 2 + 16}"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            sock = str(directory / "dvtui.sock")
            deadline = time.monotonic() + 60
            while not Path(sock).exists():
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
            asyncio.run(open_tables(sock, args.tables))
            scale = 60 / args.seconds
            results: dict[str, tuple[float, float]] = {}
            for mode in ("none", "polling", "following"):
                got, cpu = asyncio.run(measure(sock, proc.pid, mode, args.lobbies, args.tables, args.changes,
                                               args.seconds))  # fmt: skip
                results[mode] = (got * scale, cpu * scale)
            base = results["none"][1]
            print(f"{args.lobbies} lobbies over {args.tables} tables, {args.changes:g} changes/s, per minute:")
            print(f"{'mode':<10} {'bytes to lobbies':>18} {'server CPU s':>14} {'CPU s less base':>16}")
            for mode, (got, cpu) in results.items():
                print(f"{mode:<10} {got:>18,.0f} {cpu:>14.2f} {cpu - base:>16.2f}")
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
