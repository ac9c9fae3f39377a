"""The table server under load: simulated clients over the real socket (run by hand; prints a table).

    python bench/bench_server.py                  # 10, 100 and 1,000 tables
    python bench/bench_server.py --tables 100 --seconds 20 --rate 200
    python bench/bench_server.py --tables 1000 --move-time 60   # a move clock running on every table
    python bench/bench_server.py --tables 1000 --move-time 60 --chat-every 10 --rate 200 500 750 1000

For each size: a ``dvtui serve`` process pinned to one core (``taskset``), N tables of 3 seats and
1 spectator each (4N connections from this process), moves sent at up to ``--rate`` per second in
all, each by the seat to move, with the ``seq`` it saw. The clients are lean, since they share the
machine with what they measure: each connection an ``asyncio`` protocol whose lines are split as
they come (no task nor future per line), a line's type and ``seq`` read and the rest left alone
(only seat 0, which keeps the game the moves are chosen from, decodes the events), the tables ready
for a move kept as they change, one timer for all the sends. Measured:

- latency: from a move's send to its receipt by every other client of its table (p50 / p99);
- durability: when any client receives a move, its line is already in the game's file (the server
  appends and fsyncs before it broadcasts; this checks the order from outside, on every move);
- the server's RSS at the end (``/proc``).

With ``--move-time``, every table has a move clock (the server ticks them all each second and
sends a ``presence`` with the time left after each move); it is long enough that no turn runs out.
With ``--chat-every N``, the player who moves says a line at its table after every N-th move in
all (the server sends it to the table's four clients and appends it to the table's chat file); the
server's chat limits per account are raised for it, since every bench client is one account.
Several ``--rate`` values measure each size at each rate (the knee: the highest with p99 <= 50 ms).

Then the strong bot's moves per second per core through the server's worker pool (a table of
three strong bots, the pool pinned to one core with the server).

With ``--store CONNINFO`` the servers keep their tables in that PostgreSQL database (emptied before
each size: the bench's tables are made anew), and the durability check asks the database (the
move's row is committed before any client receives it): the moves received since its last question
in one question, issued after each of them was received (a row not committed by then is counted
not durable), through 16 connections in turn, so that neither the check's round trips nor its own
CPU (a question per move cost the client and the database as much as a third of the server's
work) is what bounds the rate measured. ``--servers 2`` runs two server processes
on that one database, pinned to two cores, table i opened and played through server i mod 2:

    python bench/bench_server.py --tables 1000 --rate 200 500 1000 --store "host=/tmp/pg dbname=bench"
    python bench/bench_server.py --tables 1000 --rate 200 500 1000 --store "host=/tmp/pg dbname=bench" --servers 2

``--seats-across`` (with ``--servers 2`` or more) connects a table's seats through different
servers (seat s of table i through server (i + s) mod N): each turn passed to a seat of another
server is a decision made through a server that does not hold the table (a hand-over).
``--others-follow`` (with ``--servers 2`` or more) opens and plays every table through the first
server: the others only follow its moves (read each one's lines as it is notified), and their CPU
is given per move followed.

After each row, the CPU each move cost, from ``/proc`` (user + system time of the processes over
the moves' seconds, the idle server's work of those seconds included): the server's, per move
made through it (each server's when there are several), and with ``--store`` the database's (every
PostgreSQL process of the cluster but the bench's own connections, when it runs on this machine).
Then the bench client's own CPU per move (this process: the clients, the moves' choice, the check),
and with ``--store`` what its durability check's questions cost the database: on a machine of two
cores the bench shares them with the server and the database, and where the knee lies depends on it.
A shared machine's latency says little, its CPU per move far more.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dvtui.engine import CardPlaced, Game, GameCreated  # noqa: E402
from dvtui.tables.protocol import FEATURES  # noqa: E402
from dvtui.tables.protocol import incoming_decoder as decoder  # noqa: E402
from dvtui.tables.wire import MAX_LINE_BYTES  # noqa: E402

HELLO = json.dumps({"type": "hello", "version": 1, "features": list(FEATURES)}).encode() + b"\n"
"""Every feature, as today's dvtui client says: the clients are sent what today's are (chat lines, clocks)."""


class Head(msgspec.Struct):
    """What the bench reads of most lines: a line's type, and a game event's ``seq`` and ``player``
    (the rest left undecoded: only the seat that keeps the game decodes its events in full)."""

    type: str
    seq: int | None = None
    player: int | None = None


head_decoder = msgspec.json.Decoder(Head)

SEATS = ["Ana", "Bob", "Cy"]
CHECKERS = 16
"""Connections the durability check asks through (with a store)."""


@dataclass
class TableState:
    name: str
    seats: list[Client] = field(default_factory=list)
    spectator: Client | None = None
    game: Game | None = None
    lines: int = 0
    sent_at: dict[int, float] = field(default_factory=dict)
    """seq of a move -> when it was sent."""
    pending: dict[int, int] = field(default_factory=dict)
    """seq -> how many other clients have yet to receive it."""
    busy: bool = False
    checked: int = -1
    """The last seq whose durability was checked (asked of the database once per move)."""
    ready_at: int = -1
    """Its index in :attr:`Bench.ready` (-1: not there)."""


RECEIVED = memoryview(bytearray(1 << 16))
"""Where every client's bytes are received (one buffer for all: each read is handled before the
next; asyncio's own reads allocate 256 KiB for each, which cost more than the lines read)."""


class Client(asyncio.BufferedProtocol):
    """One simulated connection: the lines it is sent, split as they arrive and handed to
    :meth:`Bench.receive` (no reader task nor future per line: with 4N connections in one process
    on the server's machine, the bench's own CPU per move bounds what it can measure)."""

    def __init__(self, bench: Bench, table: TableState, seat: int | None, server: int) -> None:
        self.bench = bench
        self.table = table
        self.seat = seat
        self.server = server
        """Which of the bench's servers it is connected through."""
        self.transport: asyncio.WriteTransport | None = None
        self.rest = b""
        self.greeted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        self.transport = transport
        transport.write(HELLO)

    def get_buffer(self, sizehint: int) -> memoryview:
        return RECEIVED

    def buffer_updated(self, nbytes: int) -> None:
        data = RECEIVED[:nbytes].tobytes()
        if self.rest:
            data = self.rest + data
        lines = data.split(b"\n")
        self.rest = lines.pop()
        receive = self.bench.receive
        for line in lines:
            receive(self, line)

    def write(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(data)


class Bench:
    def __init__(
        self, directories: list[Path], tables: int, move_time: int | None = None, chat_every: int = 0,
        store: str | None = None,
    ) -> None:  # fmt: skip
        self.directories = directories
        self.move_time = move_time
        self.chat_every = chat_every
        self.said = 0
        self.chat_refused = 0
        self.store = store
        self.database: Any = None
        """With a store: a connection the durability check asks (the first of :attr:`checkers`)."""
        self.checkers: list[Any] = []
        """With a store: the connections the durability check asks, in turn: each move is asked
        as it is received, and one connection (one question at a time) would bound the rate
        measured by its round trips rather than by the server's."""
        self.asked = 0
        self.unchecked: list[tuple[str, int]] = []
        """With a store: the moves received (table, seq) whose row is yet to be asked for."""
        self.received_some = asyncio.Event()
        self.queries = 0
        """Questions the durability check asked the database."""
        self.checked_rows = 0
        """Moves whose row the durability check asked for."""
        self.asking: set[asyncio.Task[None]] = set()
        self.tables = [TableState(f"t{i}") for i in range(tables)]
        self.ready: list[TableState] = []
        """The tables whose player to move may be sent a move (dealt, not waiting on one, not over),
        kept as they change rather than looked for among all tables at each move."""
        self.clients: list[Client] = []
        self.latencies: list[float] = []
        self.moves = 0
        self.not_durable = 0
        self.errors: list[str] = []
        self.across = False
        """Each table's seats through different servers (``--seats-across``)."""
        self.first_only = False
        """Every table through the first server, the others following (``--others-follow``)."""
        self.through = [0] * len(directories)
        """Moves sent through each server."""

    def server(self, table: TableState, seat: int | None = None) -> int:
        """The server ``table`` is opened and watched through (table i: server i mod N), or its
        seat ``seat``'s (the same, or with :attr:`across` server (i + seat) mod N)."""
        if self.first_only:
            return 0
        return (int(table.name[1:]) + ((seat or 0) if self.across else 0)) % len(self.directories)

    def sock(self, table: TableState, seat: int | None = None) -> str:
        """The socket of :meth:`server`."""
        return str(self.directories[self.server(table, seat)] / "dvtui.sock")

    def durable(self, table: TableState, seq: int) -> bool:
        """Line ``seq`` of ``table``'s game is in its file (the files' check, at once)."""
        path = self.directories[int(table.name[1:]) % len(self.directories)] / "games" / f"{table.name}.dvr"
        with open(path, "rb") as f:
            return f.read().count(b"\n") > seq

    async def check_rows(self) -> None:
        """With a store: the moves received since the last question, asked for in one question
        (issued after each was received: a row not committed by then is counted not durable),
        through :attr:`checkers` in turn, each connection's next question once its last is answered."""
        asking = self.asking
        while True:
            await self.received_some.wait()
            self.received_some.clear()
            if not self.unchecked:
                continue
            batch, self.unchecked = self.unchecked, []
            self.asked += 1
            task = asyncio.create_task(self.ask_rows(self.checkers[self.asked % len(self.checkers)], batch))
            asking.add(task)
            task.add_done_callback(asking.discard)
            if len(asking) >= len(self.checkers):  # every connection asking: the next batch waits for one
                await asyncio.wait(asking, return_when=asyncio.FIRST_COMPLETED)

    async def rows_checked(self) -> None:
        """Every move received asked for and answered."""
        while self.unchecked or self.asking:
            self.received_some.set()
            await asyncio.sleep(0.01)

    async def ask_rows(self, conn: Any, batch: list[tuple[str, int]]) -> None:
        self.queries += 1
        cur = await conn.execute(
            "SELECT count(*) FROM unnest(%s::text[], %s::integer[]) AS m (name, seq) WHERE EXISTS (SELECT 1"
            " FROM dvtui_events e JOIN dvtui_games g ON g.id = e.game_id WHERE g.name = m.name AND e.seq = m.seq)",
            ([name for name, _ in batch], [seq for _, seq in batch]),
        )
        row = await cur.fetchone()
        self.not_durable += len(batch) - (row[0] if row is not None else 0)
        self.checked_rows += len(batch)

    async def everyone_told(self) -> None:
        """Wait until the servers have written everyone's presence row (one per client): the rows
        of the 4N arrivals are written after the joins are answered, and written while moves are
        made they would be counted as the moves' work."""
        deadline = time.monotonic() + 300
        while True:
            cur = await self.checkers[0].execute("SELECT count(*) FROM dvtui_presence")
            row = await cur.fetchone()
            if row is not None and row[0] >= 4 * len(self.tables):
                return
            assert time.monotonic() < deadline, "the servers did not write everyone's presence"
            await asyncio.sleep(0.2)

    async def connect(self, table: TableState, seat: int | None) -> Client:
        """A client of ``table`` (its seat ``seat``, or its spectator): it says hello, and joins
        or watches once answered."""
        client = Client(self, table, seat, self.server(table, seat))
        await asyncio.get_running_loop().create_unix_connection(lambda: client, self.sock(table, seat))
        self.clients.append(client)
        return client

    def make_ready(self, table: TableState) -> None:
        if table.ready_at < 0 and table.game is not None and not table.busy and not table.game.over:
            table.ready_at = len(self.ready)
            self.ready.append(table)

    def unready(self, table: TableState) -> None:
        at = table.ready_at
        if at < 0:
            return
        last = self.ready.pop()
        if last is not table:
            self.ready[at] = last
            last.ready_at = at
        table.ready_at = -1

    async def setup(self) -> None:
        if self.store is not None:
            import psycopg

            self.checkers = [
                await psycopg.AsyncConnection.connect(self.store, autocommit=True) for _ in range(CHECKERS)
            ]
            self.database = self.checkers[0]
        writer: asyncio.StreamWriter | None = None
        sent, through = 0, ""
        for table in sorted(self.tables, key=self.sock):  # each table opened through its own server
            if sent % 150 == 0 or through != self.sock(table):  # 200 messages at once at most (the flood rule)
                if writer is not None:
                    writer.close()
                sent, through = 0, self.sock(table)
                reader, writer = await asyncio.open_unix_connection(through, limit=MAX_LINE_BYTES)
                writer.write(HELLO)
                await reader.readuntil(b"\n")
            sent += 1
            opening = {"type": "open_table", "table": table.name, "players": SEATS, "seed": int(table.name[1:])}
            if self.move_time is not None:
                opening["move_time"] = self.move_time
            writer.write(json.dumps(opening).encode() + b"\n")
            reply = json.loads(await reader.readuntil(b"\n"))
            assert reply["type"] == "opened", reply
        if writer is not None:
            writer.close()
        for table in self.tables:
            table.seats = [await self.connect(table, s) for s in range(3)]
            table.spectator = await self.connect(table, None)

    def receive(self, client: Client, line: bytes) -> None:
        """A line ``client`` was sent: its type and seq read (a whole event decoded only by the seat
        that keeps the game), the move's receipt counted, its durability checked."""
        table = client.table
        if not client.greeted:  # the answer to its hello
            client.greeted = True
            message = {"type": "join", "table": table.name, "seat": client.seat} if client.seat is not None else {
                "type": "watch", "table": table.name}  # fmt: skip
            client.write(json.dumps(message).encode() + b"\n")
            return
        head = head_decoder.decode(line)
        kind = head.type
        if kind == "game_created":
            if client.seat == 0:
                created = decoder.decode(line)
                assert isinstance(created, GameCreated)
                table.game = Game(created)
                table.lines = 1
                self.make_ready(table)
            return
        if kind == "error":
            error: Any = decoder.decode(line)
            if error.re == "say":
                self.chat_refused += 1  # (the move it followed stands)
                return
            self.errors.append(error.message)
            table.busy = False
            self.make_ready(table)
            return
        seq = head.seq
        if seq is None:
            return
        pending = table.pending
        if kind == "card_placed" and seq in pending:
            # durable before anyone hears of it (the first to hear of it is asked of the database)
            first = pending[seq] == 3 and table.checked < seq
            if self.database is None:
                self.not_durable += not self.durable(table, seq)
            elif first:
                self.unchecked.append((table.name, seq))
                self.received_some.set()
            if seq > table.checked:
                table.checked = seq
            if client.seat != head.player:
                left = pending[seq] - 1
                if left:
                    pending[seq] = left
                else:
                    self.latencies.append(time.perf_counter() - table.sent_at.pop(seq))
                    del pending[seq]
        game = table.game
        if client.seat == 0 and game is not None:
            message = decoder.decode(line)
            message.seq = None  # type: ignore[union-attr]
            game.apply(message)  # type: ignore[arg-type]
            table.lines = seq + 1
            if not game.derived_pending:
                table.busy = False
                self.make_ready(table)

    async def drive(self, rate: float, seconds: float) -> None:
        """Moves at ``rate`` a second for ``seconds``, one timer for them all: at each wake-up, the
        moves due by then (a tick with no table ready is a move not made, as it was one at a time)."""
        rng = random.Random(1)
        interval = 1.0 / rate
        start = time.perf_counter()
        end = start + seconds
        next_at = start
        now = start
        while now < end:
            while next_at <= now:
                next_at += interval
                if self.ready:
                    self.send_move(rng)
            await asyncio.sleep(next_at - now)
            now = time.perf_counter()
        await asyncio.sleep(1.0)  # the last moves' broadcasts

    def send_move(self, rng: random.Random) -> None:
        """A move at a ready table, by the seat to move, with the seq it saw."""
        table = rng.choice(self.ready)
        game = table.game
        assert game is not None
        card, column = rng.choice(game.legal_placements())
        seq = table.lines
        table.busy = True
        self.unready(table)
        table.pending[seq] = 3  # the two other seats and the spectator
        table.sent_at[seq] = time.perf_counter()
        mover = table.seats[game.to_move]
        mover.write(b'{"type":"place","seq":%d,"card":%d,"column":%d}\n' % (seq, card, column))
        self.moves += 1
        self.through[mover.server] += 1
        if self.chat_every and self.moves % self.chat_every == 0:
            line = {"type": "say", "table": table.name, "text": f"move {self.moves}: nice one, <b>[bold]"}
            mover.write(json.dumps(line).encode() + b"\n")
            self.said += 1


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of processes ``pids`` so far, each process's threads all
    counted (None: one is not on this machine, or was gone)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def _used(before: float | None, after: float | None) -> float | None:
    return after - before if before is not None and after is not None else None


async def checker_pids(bench: Bench) -> list[int]:
    """PostgreSQL's processes serving the bench's own connections (its durability check's)."""
    return [checker.info.backend_pid for checker in bench.checkers]


async def database_pids(bench: Bench) -> list[int]:
    """PostgreSQL's processes but the bench's own connections (its durability check's)."""
    own = {checker.info.backend_pid for checker in bench.checkers}
    cur = await bench.checkers[0].execute("SELECT pid FROM pg_stat_activity")
    return [pid for (pid,) in await cur.fetchall() if pid not in own]


def per_move(seconds: float | None, moves: int) -> str:
    return f"{1e6 * seconds / moves:,.0f} µs" if seconds is not None and moves else "not measured"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(
    directory: Path, core: int, connections: int = 64, store: str | None = None
) -> subprocess.Popen[bytes]:
    """The server, taking ``connections`` at once (all from this account: the server's own, bounded
    only in all), and as many chat lines a second as the bench's clients say in all (one account
    here, where people would be many)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    limits = [f"conns-total={connections}", "chat-account-rate=100000", "chat-account-burst=100000"]
    proc = subprocess.Popen(
        ["taskset", "-c", str(core), sys.executable, "-m", "dvtui", "serve", "--dir", str(directory),
         *(arg for limit in limits for arg in ("--limit", limit)), *(("--store", store) if store else ())],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (directory / "dvtui.sock").exists():
        assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    return proc


def empty(store: str) -> None:
    """The bench's database without the tables of an earlier size (the servers make them again)."""
    import psycopg

    with psycopg.connect(store, autocommit=True) as conn:
        deadline = time.monotonic() + 60  # the last size's servers' sessions gone, and their holds with them
        while conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone() != (0,):
            assert time.monotonic() < deadline, "the last size's servers still hold tables"
            time.sleep(0.1)
        conn.execute("DROP TABLE IF EXISTS dvtui_chat, dvtui_presence, dvtui_servers, dvtui_events, dvtui_games")


async def run_size(
    tables: int, rate: float, seconds: float, core: int, move_time: int | None = None, chat_every: int = 0,
    store: str | None = None, servers: int = 1, across: bool = False, others_follow: bool = False,
) -> dict[str, Any]:  # fmt: skip
    if store is not None:
        empty(store)
    directories = [Path(tempfile.mkdtemp(prefix="dvb-", dir="/tmp")) for _ in range(servers)]
    cores = len(os.sched_getaffinity(0))
    procs = [
        start_server(d, (core + i) % cores, connections=4 * tables + 64, store=store) for i, d in enumerate(directories)
    ]
    try:
        bench = Bench(directories, tables, move_time, chat_every, store)
        bench.across, bench.first_only = across, others_follow
        await bench.setup()
        while any(t.game is None for t in bench.tables) or not all(c.greeted for c in bench.clients):
            await asyncio.sleep(0.05)
        if store is not None:
            await bench.everyone_told()
        gc.collect()  # the bench's own 4N clients never looked at again by its collector: its pauses
        gc.freeze()  # (a full collection of them took as long as the p99 measured) are not the server's
        database = await database_pids(bench) if store is not None else []
        checking = await checker_pids(bench) if store is not None else []
        checks = asyncio.create_task(bench.check_rows()) if store is not None else None
        before = [cpu_seconds([proc.pid]) for proc in procs], cpu_seconds(database)
        client_before, check_before = cpu_seconds([os.getpid()]), cpu_seconds(checking)
        await bench.drive(rate, seconds)
        await bench.rows_checked()
        after = [cpu_seconds([proc.pid]) for proc in procs], cpu_seconds(database)
        client_used = _used(client_before, cpu_seconds([os.getpid()]))
        check_used = _used(check_before, cpu_seconds(checking))
        if checks is not None:
            checks.cancel()
        used = [b - a if a is not None and b is not None else None for a, b in zip(before[0], after[0], strict=True)]
        moves = [n or others_follow * bench.moves for n in bench.through]  # (a follower's: the moves it followed)
        db_used = after[1] - before[1] if before[1] is not None and after[1] is not None else None
        rss = max(rss_mib(proc.pid) for proc in procs)
        for client in bench.clients:
            if client.transport is not None:
                client.transport.close()
        lat = sorted(bench.latencies)
        assert bench.not_durable == 0, f"{bench.not_durable} moves were received before they were in the file"
        return {
            "tables": tables, "moves": bench.moves, "received": len(lat),
            "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
            "p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else float("nan"),
            "rss_mib": rss, "errors": len(bench.errors), "said": bench.said, "chat_refused": bench.chat_refused,
            "server_cpu": [per_move(u, n) for u, n in zip(used, moves, strict=True)],
            "database_cpu": per_move(db_used, bench.moves) if store is not None else None,
            "client_cpu": per_move(client_used, bench.moves),
            "check_cpu": per_move(check_used, bench.moves) if store is not None else None,
            "queries": bench.queries,
        }  # fmt: skip
    finally:
        gc.unfreeze()
        for checker in bench.checkers:
            await checker.close()
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=60)
        for directory in directories:
            shutil.rmtree(directory, ignore_errors=True)


async def strong_rate(core: int, seconds: float) -> float:
    """Strong-bot moves per second with the server and its pool on one core."""
    directory = Path(tempfile.mkdtemp(prefix="dvb-", dir="/tmp"))
    proc = start_server(directory, core)
    try:
        reader, writer = await asyncio.open_unix_connection(str(directory / "dvtui.sock"), limit=MAX_LINE_BYTES)
        writer.write(HELLO)
        await reader.readuntil(b"\n")
        players = ["bot:strong", "bot:strong", "bot:strong"]
        opening = {"type": "open_table", "table": "bots", "players": players, "seed": 1}
        writer.write(json.dumps(opening).encode() + b"\n")
        await reader.readuntil(b"\n")
        writer.write(b'{"type":"watch","table":"bots"}\n')
        moves = 0
        start = None
        while True:
            message = decoder.decode(await reader.readuntil(b"\n"))
            if isinstance(message, CardPlaced):
                if start is None:
                    start = time.perf_counter()  # the pool's start-up aside
                else:
                    moves += 1
                if time.perf_counter() - start > seconds:
                    break
            if type(message).__name__ == "GameEnded":
                break
        assert start is not None
        return moves / (time.perf_counter() - start)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="*", default=[10, 100, 1000])
    parser.add_argument("--rate", type=float, nargs="*", default=[200.0],
                        help="moves per second in all (default 200); several: each size at each")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each size is driven")
    parser.add_argument("--core", type=int, default=0, help="the core the server is pinned to")
    parser.add_argument("--move-time", type=int, default=None, metavar="SECONDS",
                        help="a move clock of SECONDS on every table (default: none)")  # fmt: skip
    parser.add_argument("--chat-every", type=int, default=0, metavar="N",
                        help="a chat line after every N-th move in all (default 0: none)")  # fmt: skip
    parser.add_argument("--no-strong", action="store_true", help="leave out the strong bot's rate")
    parser.add_argument("--store", metavar="CONNINFO", help="the servers keep their tables in this PostgreSQL database")
    parser.add_argument("--servers", type=int, default=1, help="server processes on the database (needs --store)")
    parser.add_argument("--seats-across", action="store_true",
                        help="a table's seats through different servers (needs --servers 2 or more)")  # fmt: skip
    parser.add_argument(
        "--others-follow",
        action="store_true",
        help="every table through the first server, the others following it (needs --servers 2)",
    )
    args = parser.parse_args()
    if args.servers != 1 and args.store is None:
        parser.error("--servers needs --store (server processes share tables through a database)")
    if args.seats_across and args.servers < 2:
        parser.error("--seats-across needs --servers 2 or more")
    if args.others_follow and (args.servers < 2 or args.seats_across):
        parser.error("--others-follow needs --servers 2 or more, and no --seats-across")
    clocks = f"; a {args.move_time} s move clock on every table" if args.move_time is not None else ""
    chat = f"; a chat line every {args.chat_every} moves" if args.chat_every else ""
    where = f"; tables in PostgreSQL, {args.servers} server process(es)" if args.store else "; tables in files"
    print(f"server pinned to core {args.core}; {args.seconds:g} s per size and rate{clocks}{chat}{where}")
    print(f"{'tables':>7} {'conns':>6} {'rate/s':>7} {'moves':>6} {'said':>5} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'RSS MiB':>8} {'errors':>6}")  # fmt: skip
    for n in args.tables:
        for rate in args.rate:
            r = asyncio.run(
                run_size(n, rate, args.seconds, args.core, args.move_time, args.chat_every, args.store, args.servers,
                         args.seats_across, args.others_follow)
            )  # fmt: skip
            errors = f"{r['errors']}" + (f" +{r['chat_refused']} chat" if r["chat_refused"] else "")
            print(f"{n:>7} {4 * n:>6} {rate:>7g} {r['moves']:>6} {r['said']:>5} {r['p50_ms']:>7.1f} "
                  f"{r['p99_ms']:>7.1f} {r['rss_mib']:>8.1f} {errors:>6}", flush=True)  # fmt: skip
            cpu = f"server CPU per move: {'; '.join(r['server_cpu'])}"
            if r["database_cpu"] is not None:
                cpu += f"; database CPU per move: {r['database_cpu']}"
            print(f"{'':>7} {cpu}", flush=True)
            bench_cpu = f"bench client CPU per move: {r['client_cpu']}"
            if r["check_cpu"] is not None:
                bench_cpu += f"; its durability check's in the database: {r['check_cpu']} ({r['queries']:,} questions)"
            print(f"{'':>7} {bench_cpu}", flush=True)
    print(f"every move was in its {'database row' if args.store else 'file'} before any client received it")
    if args.no_strong:
        return
    rate = asyncio.run(strong_rate(args.core, args.seconds))
    print(f"strong bot (default budget) through the pool, one core: {rate:.1f} moves/s")


if __name__ == "__main__":
    main()
