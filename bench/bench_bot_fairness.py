"""How long a bot at one person's table waits while another person keeps tables of slow bots going.

A ``dvtui serve`` pinned to one core (so its pool has one worker). Person "mal" opens ``--flood``
tables of three ``strong@SECONDS`` bots and watches each; once they run, person "ana" opens a table
(Ana and two greedy bots, a bot first) and sits down. Printed: how long each of her bots' moves
took to arrive, from the moment it was their turn. The server's own account vouches for both
people, so one Unix account stands for two (as ``dvtui web`` does for its browser users).

    python bench/bench_bot_fairness.py [--flood 2] [--think 3] [--rounds 2]

``PYTHONPATH`` chooses the dvtui the server runs (default: this checkout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_server import start_server  # the same server start as the tables bench


class Person:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, sock: Path, name: str) -> Person:
        reader, writer = await asyncio.open_unix_connection(str(sock), limit=1 << 20)
        person = cls(reader, writer)
        await person.send({"type": "hello", "version": 1, "user": name})
        await person.until("welcome")
        return person

    async def send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")
        await self.writer.drain()

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await self.reader.readuntil(b"\n"))
            if message["type"] == "error":
                raise RuntimeError(message)
            if message["type"] == kind:
                return message


async def run(flood: int, think: float, rounds: int, core: int) -> list[float]:
    directory = Path(tempfile.mkdtemp(prefix="dvf-", dir="/tmp"))
    proc = start_server(directory, core)
    sock = directory / "dvtui.sock"
    try:
        for i in range(flood):
            mal = await Person.connect(sock, "mal")
            await mal.send({"type": "open_table", "table": f"hog{i}", "players": [f"bot:strong@{think:g}s"] * 3})
            await mal.until("opened")
            await mal.send({"type": "watch", "table": f"hog{i}"})
        await asyncio.sleep(think * 1.5)  # the flood is thinking, and queued
        ana = await Person.connect(sock, "ana")
        await ana.send({"type": "open_table", "table": "mine", "players": ["Ana", "bot:greedy", "bot:greedy"],
                        "first_player": 1, "seed": 1})  # fmt: skip
        await ana.until("opened")
        waits: list[float] = []
        since = time.perf_counter()
        await ana.send({"type": "join", "table": "mine", "seat": 0})
        seq = 0
        while len(waits) < 2 * rounds:
            message = json.loads(await ana.reader.readuntil(b"\n"))
            if message["type"] == "error":
                raise RuntimeError(message)
            if "seq" in message and message["type"] not in ("joined",):
                seq = message["seq"] + 1
            if message["type"] != "card_placed":
                continue
            if message["player"] != 0:
                waits.append(time.perf_counter() - since)
                since = time.perf_counter()
            if message["player"] == 2:  # Ana's turn: she places at once (her first card in a free column)
                await ana.send({"type": "place", "seq": seq, "card": 6 - len(waits) // 2 % 6, "column": 0})
                since = time.perf_counter()
        return waits
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--flood", type=int, default=2, help="mal's tables of strong bots (default 2)")
    parser.add_argument("--think", type=float, default=3.0, help="seconds each of their moves thinks (default 3)")
    parser.add_argument("--rounds", type=int, default=2, help="turns of Ana's bots measured (default 2)")
    parser.add_argument("--core", type=int, default=0, help="the core the server is pinned to")
    args = parser.parse_args()
    waits = asyncio.run(run(args.flood, args.think, args.rounds, args.core))
    print(f"{args.flood} tables of strong@{args.think:g}s bots (one person), one worker")
    print("ana's bots' answer times: " + " ".join(f"{w:.2f}s" for w in waits))


if __name__ == "__main__":
    main()
