"""The fault test in the style of Jepsen (run by hand long; the suite runs it small through
``tests/tables/test_faults.py``). Prints the faults, the failover times and every anomaly found;
exit status 1 if any, 2 if it could not run.

    python bench/bench_faults.py --store "host=/tmp/pg/sock dbname=faults" --pgdata /tmp/pg/data
    python bench/bench_faults.py --store CONNINFO --pgdata DIR --tables 24 --faults 80 --seed 7

It needs a PostgreSQL cluster of its own (it restarts it): ``--store`` a database there (emptied
first), ``--pgdata`` its data directory (``pg_ctl`` restarts it, as the directory's owner when the
bench runs as root). Three ``dvtui serve`` processes on that database; tables of two people played
by ``dvtui join --bot`` clients spread over the servers and one bot of the table's holder; a raw
spectator per table that watches again through the next server when its own goes. While they play,
faults strike one after another, one of each kind first, then drawn with ``--seed``: a server killed
with -9 and started again after a moment, PostgreSQL restarted immediately (``pg_ctl stop -m
immediate``, then ``start``: a crash and its recovery), every server's database session terminated
(``pg_terminate_backend``), a server stopped (SIGSTOP) for 1.25 to 2 times the servers' hold check
(``--hold-check``, the server's 2 s by default: 2.5 to 4 seconds), past the others' hold checks, and
continued. Faults stop when every game has ended.

Checked afterwards, whatever the faults:

- every game's lines have the ``seq`` 0, 1, 2, ... and are the game its seats play uninterrupted
  (the bots are deterministic): no decision missing, none applied twice;
- every line a spectator was sent (a line is sent only once committed: an acknowledgement), and
  every line sent to it again (a server that has fewer lines than it watches again from line 0, as
  the protocol says), is the database's line at its ``seq``, byte for byte with its time stamp:
  nothing acknowledged lost, and no table written by two holders (a second holder's line would
  differ from one already sent);
- every client ends its game and says so.

The failover time is, for each fault and each table playing across it, the seconds from the
fault's start to the table's next line (a pause's own seconds included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path

import msgspec
import psycopg

from dvtui.bots import bot_fn, bot_seed, parse_bot
from dvtui.engine import Game, new_game
from dvtui.play.seats import parse_players
from dvtui.server.limits import Limits
from dvtui.store import parse_game
from dvtui.tables import Refused, ServerPlace, Unreachable, list_tables, open_table
from dvtui.tables.where import SOCKET_NAME

PLAYERS = "Ana,Bob,bot:greedy"
"""Each table's seats: two people played by ``join --bot`` clients and one bot of the table's holder."""
LEVELS = ["greedy", "random", "greedy"]
KINDS = ("terminate", "pause", "kill", "restart_db")
WAIT = 120.0
"""Seconds anything may take before it counts as never (a client's game, a server's start)."""
_EVENT = b'"type":"'


@dataclass
class Fault:
    kind: str
    at: float
    server: int | None = None


@dataclass
class Report:
    tables: int
    faults: list[Fault] = field(default_factory=list)
    anomalies: list[str] = field(default_factory=list)
    failovers: list[float] = field(default_factory=list)
    lines: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        said = ", ".join(f"{sum(f.kind == kind for f in self.faults)} {kind}" for kind in KINDS)
        out = [f"{self.tables} tables, {self.lines} lines in {self.seconds:.1f} s; faults: {said}"]
        if self.failovers:
            ordered = sorted(self.failovers)
            p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
            out.append(
                f"failover (a fault's start to the table's next line): p50 {statistics.median(ordered):.2f} s, "
                f"p99 {p99:.2f} s, max {ordered[-1]:.2f} s, over {len(ordered)}"
            )
        out.append(f"anomalies: {len(self.anomalies)}")
        out.extend(f"  {a}" for a in self.anomalies)
        return "\n".join(out)


def dvtui_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "dvtui", *args]


class Served:
    """``dvtui serve --dir DIR --store CONNINFO`` as a process of its own, killed and started again at will."""

    def __init__(self, directory: Path, conninfo: str, hold_check: float) -> None:
        self.directory = directory
        self.env = {**os.environ, "DVTUI_STORE": conninfo}
        self.options = ["--limit", f"hold-check={hold_check:g}"]
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.launch()
        self.listening()

    def launch(self) -> None:
        """The process started, not waited for (servers launched together start together)."""
        self.starts += 1
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                dvtui_cmd("serve", "--dir", str(self.directory), *self.options), env=self.env,
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

    @property
    def log(self) -> Path:
        return self.directory.parent / f"{self.directory.name}-{self.starts}.log"

    def listening(self) -> None:
        """Once the server launched last listens."""
        assert self.proc is not None
        deadline = time.monotonic() + WAIT
        while b"listening on" not in self.log.read_bytes():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {self.log.read_text(errors='replace')[-500:]}")
            time.sleep(0.02)

    def listed(self, table: str) -> bool:
        """Whether the server lists ``table``, asked from this process (a ``dvtui tables`` process a
        look would take half a second of CPU from the servers)."""
        place = ServerPlace(self.directory, personal=False)
        return any(info.table == table for info in asyncio.run(list_tables(place)))

    @property
    def socket(self) -> Path:
        return self.directory / SOCKET_NAME

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        if sig == signal.SIGKILL:
            self.proc.wait(WAIT)

    def open(self, table: str, seed: int) -> None:
        """Open ``table`` through this server, its first seat first, its game started (as ``dvtui new
        --table TABLE --players PLAYERS --seed SEED --first 1 --start-now``), asked from this
        process: a ``dvtui`` process a table would take half a second of CPU from the servers."""
        place = ServerPlace(self.directory, personal=False)
        entries = PLAYERS.split(",")
        try:
            asyncio.run(open_table(place, table, entries, first_player=0, seed=seed, wait=False))
        except (Refused, Unreachable) as e:
            raise RuntimeError(f"table {table}: {e}") from None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Spectator:
    """A spectator of one table speaking the protocol raw, in a thread: every game line it was sent,
    as bytes. When its server goes it watches again through the next server, from the lines it has."""

    def __init__(self, servers: list[Served], first: int, table: str) -> None:
        self.servers = servers
        self.index = first
        self.table = table
        self.lines: list[bytes] = []
        self.errors: list[str] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            server = self.servers[self.index % len(self.servers)]
            self.index += 1
            with contextlib.suppress(OSError, ValueError):
                self._watch(server.socket)
            if not self.done.is_set():
                time.sleep(0.2)

    def _watch(self, path: Path) -> None:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5.0)
            sock.connect(str(path))
            hello = {"type": "hello", "version": 1, "client": "bench_faults", "features": ["waiting", "rematch"]}
            watch = {"type": "watch", "table": self.table, "since": len(self.lines)}
            sock.sendall(json.dumps(hello).encode() + b"\n" + json.dumps(watch).encode() + b"\n")
            buffer = b""
            while not self.done.is_set():
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    return
                buffer += chunk
                *whole, buffer = buffer.split(b"\n")
                for line in whole:
                    self._heard(line + b"\n")

    def _heard(self, line: bytes) -> None:
        message = json.loads(line)
        if "seq" in message and "at" in message:  # a line of the game (protocol messages carry no "at")
            seq = message["seq"]
            if seq < len(self.lines):  # sent again (a server behind the others starts from line 0):
                if self.lines[seq] != line:  # the same line, byte for byte, or the game forked
                    self.errors.append(f"{self.table}: line {seq} sent again differs from the first sent")
                return
            if seq != len(self.lines):
                self.errors.append(f"{self.table}: sent line {seq} after {len(self.lines)} lines")
                return
            self.lines.append(line)
            if message["type"] == "game_ended":
                self.done.set()
        elif message["type"] == "error" and message.get("code") not in ("busy", "no_table"):
            self.errors.append(f"{self.table}: {message.get('code')}: {message.get('message')}")

    def stop(self) -> None:
        self.done.set()
        self.thread.join(10)


class Database:
    """The cluster the bench restarts and the database its servers share."""

    def __init__(self, conninfo: str, pgdata: Path) -> None:
        self.conninfo = conninfo
        self.pgdata = pgdata
        pg_ctl = shutil.which("pg_ctl") or next(
            (str(p) for p in sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), reverse=True)), None
        )
        if pg_ctl is None:
            raise RuntimeError("no pg_ctl (PostgreSQL's programs)")
        owner = pgdata.stat()
        become = ["setpriv", f"--reuid={owner.st_uid}", f"--regid={owner.st_gid}", "--init-groups"]
        self.pg_ctl = [*(become if os.geteuid() == 0 and owner.st_uid != 0 else []), pg_ctl, "-D", str(pgdata), "-w"]

    def empty(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            tables = [row[0] for row in conn.execute("SELECT tablename FROM pg_tables WHERE tablename LIKE 'dvtui_%'")]
            for table in tables:
                conn.execute(f'DROP TABLE IF EXISTS "{table}" CASCADE')

    def restart_immediately(self) -> None:
        subprocess.run([*self.pg_ctl, "-m", "immediate", "stop"], capture_output=True, timeout=WAIT, check=False)
        log = str(self.pgdata / "log")
        subprocess.run([*self.pg_ctl, "-t", "60", "-l", log, "start"], capture_output=True, timeout=WAIT, check=True)

    def terminate_all(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchall()

    def lines(self, name: str) -> list[bytes]:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT e.line FROM dvtui_events e JOIN dvtui_games g ON g.id = e.game_id "
                "WHERE g.name = %s ORDER BY e.seq",
                (name,),
            ).fetchall()
        return [bytes(row[0]) for row in rows]


def uninterrupted(seed: int) -> list[bytes]:
    """The events of a table's game played in one go (the same seats, bots and seeds), as JSON
    without their ``seq`` and ``at``: what every line of the database must say, in order."""
    game = Game(new_game(parse_players(PLAYERS), first_player=0, seed=seed))
    events = [game.created]
    movers = [(bot_fn(parse_bot(level)), bot_seed(seed, i)) for i, level in enumerate(LEVELS)]
    game.play(movers, events.extend)
    return [msgspec.json.encode(event) for event in events]


def _events(lines: list[bytes]) -> list[bytes]:
    return [msgspec.json.encode(event) for event in parse_game(b"".join(lines)).events]


def _stamp(line: bytes) -> float:
    return datetime.fromisoformat(json.loads(line)["at"].replace("Z", "+00:00")).timestamp()


def _wait(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.05)


def run(
    db: Database, work: Path, *, tables: int, faults: int, seed: int, say: Callable[[str], None], hold_check: float
) -> Report:
    rng = random.Random(seed)
    report = Report(tables)
    names = [f"f{i}" for i in range(tables)]
    started = time.time()
    servers = [Served(work / f"s{i}", db.conninfo, hold_check) for i in range(3)]
    players: list[tuple[str, subprocess.Popen[bytes], Path]] = []
    try:
        for server in servers:
            server.launch()
        for server in servers:
            server.listening()
        for i, name in enumerate(names):
            servers[i % 3].open(name, seed + i)
        for i, name in enumerate(names):
            other = servers[(i + 2) % 3]
            _wait(f"{name} listed", partial(other.listed, name))
        spectators = [Spectator(servers, i, name) for i, name in enumerate(names)]
        for i, name in enumerate(names):
            for seat, who in enumerate(("Ana", "Bob")):
                server = servers[(i + 1 + seat) % 3]
                out = work / f"{name}-{who}.out"
                with open(out, "wb") as sink:
                    proc = subprocess.Popen(
                        dvtui_cmd("join", name, "--as", who, "--bot", LEVELS[seat], "--server", str(server.directory)),
                        env=server.env, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT,
                    )  # fmt: skip
                players.append((f"{name} {who}", proc, out))
        for name in names:  # both clients in before any fault (a first connection refused is an error)
            _wait(f"both people's first placements at {name}", lambda n=name: len(db.lines(n)) >= 4)
        kinds = [*KINDS, *(rng.choice(KINDS) for _ in range(max(0, faults - len(KINDS))))][:faults]
        for kind in kinds:
            if all(proc.poll() is not None for _, proc, _ in players):
                break
            time.sleep(rng.uniform(0.2, 0.6))
            report.faults.append(_strike(kind, servers, db, rng, say, hold_check))
        for who, proc, out in players:
            try:
                code = proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = None
            said = out.read_text(errors="replace").strip().splitlines()
            if code != 0 or not said or ": Game over: " not in said[-1]:
                report.anomalies.append(f"{who}: exit {code}: {' / '.join(said[-3:])}")
        for spectator in spectators:
            spectator.done.wait(WAIT)
            spectator.stop()
        report.seconds = time.time() - started
        for i, name in enumerate(names):
            _check(report, db, name, seed + i, spectators[i])
    finally:
        for _, proc, _ in players:
            if proc.poll() is None:
                proc.kill()
        for server in servers:
            server.stop()
    return report


def _strike(
    kind: str, servers: list[Served], db: Database, rng: random.Random, say: Callable[[str], None], hold_check: float
) -> Fault:
    """One fault, over by the time it returns (a killed server started again, a paused one continued)."""
    index = rng.randrange(len(servers))
    fault = Fault(kind, time.time(), index if kind in ("kill", "pause") else None)
    say(f"{time.strftime('%H:%M:%S')} {kind}" + (f" server {index}" if fault.server is not None else ""))
    if kind == "kill":
        servers[index].signal(signal.SIGKILL)
        time.sleep(rng.uniform(0.1, 1.0))
        servers[index].start()
    elif kind == "restart_db":
        db.restart_immediately()
    elif kind == "terminate":
        db.terminate_all()
    else:
        servers[index].signal(signal.SIGSTOP)
        time.sleep(rng.uniform(1.25, 2.0) * hold_check)  # past at least one hold check of each other server
        servers[index].signal(signal.SIGCONT)
    return fault


def _check(report: Report, db: Database, name: str, seed: int, spectator: Spectator) -> None:
    lines = db.lines(name)
    report.lines += len(lines)
    seqs = [json.loads(line)["seq"] for line in lines]
    if seqs != list(range(len(lines))):
        report.anomalies.append(f"{name}: the database's lines have the seqs {seqs[:5]}... not 0, 1, 2, ...")
        return
    try:
        played = _events(lines)
    except (ValueError, msgspec.DecodeError) as e:
        report.anomalies.append(f"{name}: does not read as a game: {e}")
        return
    expected = uninterrupted(seed)
    if played != expected:
        same = next((n for n, (a, b) in enumerate(zip(played, expected, strict=False)) if a != b), None)
        report.anomalies.append(
            f"{name}: {len(played)} events, not the uninterrupted game's {len(expected)} (first difference: {same})"
        )
    report.anomalies.extend(spectator.errors)
    for n, line in enumerate(spectator.lines):
        if n >= len(lines) or lines[n] != line:
            report.anomalies.append(f"{name}: line {n} sent to a spectator is not the database's: {line[:80]!r}")
            break
    stamps = [_stamp(line) for line in lines]
    for fault in report.faults:
        if stamps[0] < fault.at < stamps[-1]:
            report.failovers.append(next(t for t in stamps if t > fault.at) - fault.at)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="the PostgreSQL database (conninfo), emptied first")
    parser.add_argument("--pgdata", required=True, type=Path, help="its cluster's data directory (restarted)")
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--faults", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the report as one JSON object")
    parser.add_argument(
        "--hold-check", type=float, default=Limits.hold_check,
        help="the servers' --limit hold-check (seconds; a pause lasts 1.25 to 2 times it)",
    )  # fmt: skip
    args = parser.parse_args()
    try:
        db = Database(args.store, args.pgdata)
        db.empty()
        with tempfile.TemporaryDirectory(prefix="dvf-") as work:  # (short: the servers' sockets are in it)
            report = run(
                db, Path(work), tables=args.tables, faults=args.faults, seed=args.seed,
                say=(lambda line: None) if args.json else print, hold_check=args.hold_check,
            )  # fmt: skip
    except (RuntimeError, OSError, psycopg.Error, subprocess.SubprocessError) as e:
        print(f"bench_faults: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({
            "faults": [f.kind for f in report.faults], "anomalies": report.anomalies, "lines": report.lines,
            "failovers": report.failovers, "seconds": report.seconds,
        }))  # fmt: skip
    else:
        print(report.summary())
    return 1 if report.anomalies else 0


if __name__ == "__main__":
    sys.exit(main())
