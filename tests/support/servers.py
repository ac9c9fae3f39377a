"""Real table servers and clients for the tests: ``dvtui serve`` and ``dvtui join --bot`` as
processes (so they can be killed with -9), the raw client run as another user, a spectator through
the client library, and the game that the same seats (bots, or the placements people typed) play
uninterrupted, to compare files with, and many tables' files made at once."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

from dvtui.bots import bot_fn, bot_seed, choose, parse_bot
from dvtui.cli.table_lines import table_line
from dvtui.engine import Event, Game, Placement, fold, new_game
from dvtui.play.seats import parse_players
from dvtui.server.main import Server
from dvtui.server.registry import kept_for
from dvtui.server.stores.base import TableRecord
from dvtui.store import GameWriter, read_game
from dvtui.tables import RemoteSession, ServerPlace, TableClient, list_tables

from .processes import dvtui, dvtui_cmd, env, in_process, runs_in_process
from .raw import RawClient
from .waits import poll

WAIT = 120.0
"""Seconds before a wait is a failure (never reached when things work)."""
SLOW = 0.1
"""Seconds between checks that run a process (``tmux capture-pane``) or read and fold a game file:
polled faster, they would take the CPU from the servers and clients the test waits for."""


def wait_for(
    what: str, check: Callable[[], bool], explain: Callable[[], str] = lambda: "", every: float = 0.02
) -> None:
    """Until ``check()``, calling it every ``every`` seconds (:data:`SLOW` for a costly one)."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > WAIT:
            raise AssertionError(f"timed out waiting for {what}\n{explain()}")
        time.sleep(every)


async def wait_until(what: str, check: Callable[[], bool]) -> None:
    """Let the running loop go on (clients read there) until ``check()``: :func:`wait_for` for
    code on an event loop."""
    await poll(what, check, lambda: asyncio.sleep(0.01), WAIT)


async def play_out(*sessions: RemoteSession) -> None:
    """Play every seat of ``sessions`` greedily (as their keys would) until each of them sees the
    game over; the server's bots answer meanwhile, and the sessions read on this loop."""
    async with asyncio.timeout(WAIT):
        while not all(session.game.over for session in sessions):
            for session in sessions:
                if session.human_to_move() is not None and not session.deciding:
                    session.place(choose("greedy", session.game.copy(), 1))
            await asyncio.sleep(0.01)


@contextlib.contextmanager
def short_dir() -> Iterator[Path]:
    """A server directory with a short path (a Unix socket's path is at most 107 bytes)."""
    d = Path(tempfile.mkdtemp(prefix="dvt-", dir="/tmp"))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@contextlib.contextmanager
def server_in_thread(**options: Any) -> Iterator[Server]:
    """:func:`in_thread` on a new private directory of its own (``options`` as :class:`Server`
    takes them), removed at the end."""
    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        with in_thread(d / "srv", **options) as srv:
            yield srv


@contextlib.contextmanager
def in_thread(directory: Path, **options: Any) -> Iterator[Server]:
    """A server on ``directory`` in a thread of this process, until the block ends (``options``
    as :class:`Server` takes them); another may follow on the same directory, as after a restart."""
    srv = Server(ServerPlace(directory, personal=False), signals=False, log=lambda line: None, **options)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: loop.run_until_complete(srv.run()), daemon=True)
    thread.start()
    try:
        wait_for("the server to listen", lambda: srv.listening.is_set())
        yield srv
    finally:
        loop.call_soon_threadsafe(srv.stopping.set)
        thread.join(60)
        assert not thread.is_alive()
        loop.close()


def watch_until(place: ServerPlace, table: str, lines: int | None) -> None:
    """Watch ``table`` until it holds ``lines`` lines (None: until its game has ended), then leave:
    a table nobody is at plays no bots, so a test that lets a table's bots move before anyone sits
    down watches it meanwhile."""
    watcher = RawClient(str(place.socket))
    try:
        watcher.hello()
        watcher.send({"type": "watch", "table": table})
        seen = 0
        while lines is None or seen < lines:
            message = watcher.receive()
            assert message is not None and message["type"] != "error", message
            if lines is None and message["type"] == "game_ended":
                return
            seen += message["type"] not in ("joined", "presence")
    finally:
        watcher.close()


class Served:
    """``dvtui serve --dir DIR`` as a process of its own."""

    def __init__(self, directory: Path, environment: dict[str, str] | None = None) -> None:
        self.directory = directory
        self.environment = {**env(), **(environment or {})}
        self.place = ServerPlace(directory, personal=False)
        self.proc: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    def start(self, *extra: str) -> Served:
        self.launch(*extra)
        wait_for("the server to listen", self.listening, self.log)
        return self

    def launch(self, *extra: str) -> None:
        """The server's process started, not waited for: servers launched one after another then
        waited for (:meth:`listening`) start together, each on a core of its own."""
        log = self.directory.parent / f"{self.directory.name}-serve-{len(self.logs)}.log"
        self.logs.append(log)
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                dvtui_cmd("serve", "--dir", str(self.directory), *extra), env=self.environment,
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def listening(self) -> bool:
        assert self.proc is not None and self.proc.poll() is None, self.log()
        said = self.logs[-1].read_bytes()  # (in the operator's language: English or French here)
        return b"listening on" in said or "à l’écoute sur".encode() in said

    def log(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in self.logs if p.exists())

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)

    def stop(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)

    def game_file(self, table: str) -> Path:
        return self.directory / "games" / f"{table}.dvr"

    def game(self, table: str) -> Game:
        """The table's game as its file holds it now."""
        return fold(read_game(self.game_file(table)).events).game

    def lines(self, table: str) -> int:
        path = self.game_file(table)
        return path.read_bytes().count(b"\n") if path.exists() else 0

    def dvtui(self, *args: str, real: bool = False) -> subprocess.CompletedProcess[str]:
        """``dvtui ARGS --server DIR``, to its end: run by this process (the client needs no
        process of its own: the server is one), or a real process when ``real`` (what a user types
        as written, exit codes a shell sees, a traceback never printed) or where this process
        cannot run it the same (:func:`~.processes.runs_in_process`)."""
        full = (*args, "--server", str(self.directory))
        return dvtui(*full) if real or not runs_in_process(full) else in_process(*full)

    def listed(self) -> str:
        """The tables as ``dvtui tables`` lists them, each by the command's own line maker, asked
        from this process: a wait that looks again and again starts no process a look (half a
        second of CPU each, taken from the server it waits for); its end is checked once with the
        command itself. Not from a running event loop."""
        infos = asyncio.run(list_tables(self.place))
        return "".join(table_line(info) + "\n" for info in infos)

    def player(self, table: str, seat: str, level: str = "greedy") -> Player:
        server = str(self.directory)
        return Player(self.directory.parent, "join", table, "--as", seat, "--bot", level, "--server", server)

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=60)


class Threaded(Served):
    """A server in a thread of this process with :class:`Served`'s side of the clients (its place,
    ``dvtui ARGS --server DIR``, players, its files), on its directory's files or on the PostgreSQL
    database ``store`` (as ``dvtui serve --store``): for a test of several servers where no
    server's process is the subject (none killed, signalled, or its words read as a process says
    them), each a process's start spared (about a second of waiting for it to listen, a fifth of
    a second of CPU). Started again after :meth:`stop`, it is a new server on the same directory
    (and a new store), as after a restart. :meth:`stop` says 1 if the server's run failed."""

    def __init__(self, directory: Path, store: str | None = None) -> None:
        super().__init__(directory)
        self.store = store
        self.said: list[str] = []
        self.server: Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._failed: list[BaseException] = []

    def launch(self, *extra: str) -> None:
        assert not extra and (self._thread is None or not self._thread.is_alive()), "one server at a time"
        self.directory.mkdir(mode=0o700, exist_ok=True)
        options: dict[str, Any] = {}
        if self.store is not None:  # (as ``serve --store`` makes them: the store's words in the log)
            from dvtui.server.stores.pg import PgStore
            from dvtui.server.stores.pgpeers import PgPeers

            store = PgStore(self.store, self.place.games, log=self.said.append)
            options = {"store": store, "peers": PgPeers(store)}
        self.server = srv = Server(self.place, signals=False, log=self.said.append, **options)
        self._loop = None

        def run() -> None:  # (ended as ``asyncio.run`` ends a process's server: what is left cancelled)
            try:
                with asyncio.Runner() as runner:
                    self._loop = runner.get_loop()
                    runner.run(srv.run())
            except BaseException as e:
                self._failed.append(e)

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def soon(self, call: Callable[[], object]) -> None:
        """``call()`` on the server's event loop (from the test's thread), as soon as it can."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(call)

    def listening(self) -> bool:
        assert self._thread is not None and (self._thread.is_alive() or self.server_listened()), self.log()
        return self.server_listened()

    def server_listened(self) -> bool:
        return self.server is not None and self.server.listening.is_set()

    def log(self) -> str:
        return "".join(f"{line}\n" for line in [*self.said, *map(repr, self._failed)])

    def kill9(self) -> None:
        raise AssertionError("a server in a thread of the test cannot be killed: Served is a process")

    def stop(self) -> int:
        """Stopped as ``dvtui serve`` is by SIGTERM (once): 0, or 1 if its run failed."""
        if self._thread is not None and self.server is not None:
            thread = self._thread
            wait_for("the server's loop", lambda: self._loop is not None or not thread.is_alive())
            if self._loop is not None:
                with contextlib.suppress(RuntimeError):  # (its loop closed already: its run failed)
                    self._loop.call_soon_threadsafe(self.server.stopping.set)
            self._thread.join(60)
            assert not self._thread.is_alive(), "the server in a thread did not stop"
            self._thread = self._loop = None
        return 1 if self._failed else 0

    def __exit__(self, *exc: object) -> None:
        self.stop()


class WallByHand:
    """A wall clock (seconds since the epoch, as :func:`time.time`) that stands still until a test
    moves it (``clock.t += 6``): a server's tournaments' clock (``server.arenas.clock``), so that a
    tournament's time is up when the test has seen what it waits for, however slow the machine,
    and not seconds after."""

    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


def tournament_time_up(servers: Sequence[Threaded], clock: WallByHand, name: str) -> None:
    """Once every server's tournaments send ``name``'s standings to a follower, a game of it is
    counted and the next one is being played, its time is up: ``clock`` (each server's tournaments'
    clock) moved past the end of the shortest tournament (6 s), and each server told at once, as it
    is of a change through another server. What a test of a short tournament waits for is then
    under way, however slow the machine, and the games begun in it are played to their end."""
    rooms = [server.server.arenas for server in servers if server.server is not None]
    assert len(rooms) == len(servers), "each server running"

    def next_game() -> bool:
        cups = [room.records[name] for room in rooms if name in room.records]
        counted = any(p.games for cup in cups for p in cup.participants)
        playing = any(room.playing(t) for room in rooms for cup in cups for t in cup.tables)
        return all(room.watching.get(name) for room in rooms) and counted and playing

    wait_for("the followers, a game counted and the next one played", next_game)
    clock.t += 6
    for server, room in zip(servers, rooms, strict=True):
        server.soon(functools.partial(room.heard, name))


RAW = Path(__file__).with_name("raw.py")
SYSTEM_PYTHON = "/usr/bin/python3"
"""What another user runs :data:`RAW` with: a Python that has nothing of dvtui."""


def _as(user: pwd.struct_passwd | None) -> list[str]:
    """The command line's start that runs a program as ``user`` (None: as this process)."""
    if user is None:
        return []
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]


def as_other(user: pwd.struct_passwd, sock: Path, script: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the raw client as ``user`` with ``script``; the replies it printed."""
    done = subprocess.run(
        [*_as(user), SYSTEM_PYTHON, "-I", str(RAW), str(sock), json.dumps(script)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


CROWD = Path(__file__).with_name("crowd.py")


class Crowd:
    """:data:`CROWD`'s many connections, as ``user`` (None: this process's account); ``spec`` as
    crowd.py takes it."""

    def __init__(self, sock: Path, spec: dict[str, Any], user: pwd.struct_passwd | None = None) -> None:
        self.proc = subprocess.Popen(
            [*_as(user), SYSTEM_PYTHON, "-I", str(CROWD), str(sock), json.dumps(spec)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def ready(self) -> None:
        """Until every connection's hello is answered."""
        self._told("ready")

    def first(self) -> None:
        """Until one of the connections received a line (a crowd started with ``first``)."""
        self._told("first")

    def _told(self, what: str) -> None:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert json.loads(line or "null") == {what: True}, line + self.proc.communicate(timeout=WAIT)[1]

    def result(self) -> tuple[list[list[str]], list[bool]]:
        """What each connection received (errors as ``error:CODE``), and whether the server closed it
        (a crowd that ``hold``s lets go of its connections now)."""
        out, err = self.proc.communicate(timeout=WAIT)
        assert self.proc.returncode == 0, err
        end = json.loads(out.splitlines()[-1])
        return end["received"], end["closed"]


class Player:
    """A ``dvtui`` client process whose output goes to files (readable while it runs)."""

    count = 0

    def __init__(self, where: Path, *args: str) -> None:
        Player.count += 1
        self.out = where / f"player-{Player.count}.out"
        self.err = where / f"player-{Player.count}.err"
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(dvtui_cmd(*args), env=env(), stdin=subprocess.DEVNULL, stdout=out, stderr=err)

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)

    def finish(self) -> tuple[int, str, str]:
        code = self.proc.wait(timeout=WAIT)
        return code, self.out.read_text(errors="replace"), self.stderr()


class Watcher:
    """A spectator through the client library, in a thread of its own: every line it received."""

    def __init__(self, place: ServerPlace, table: str) -> None:
        self.client = TableClient(place, table, watch=True)
        self.events: list[Event] = []
        self.statuses: list[str] = []
        self.error: BaseException | None = None
        self.joined = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        assert self.joined.wait(WAIT), "the spectator never joined"
        if self.error is not None:
            raise self.error

    async def _run(self) -> None:
        try:
            await self.client.connect()
            self.joined.set()
            async for update in self.client.updates():
                if update.status is not None:
                    self.statuses.append(update.status)
                if self.client.game is not None and self.client.game.over:
                    break
            self.events = list(self.client.events)
            await self.client.close()
        except BaseException as e:
            self.error = e
            self.joined.set()

    def result(self) -> list[Event]:
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), "the spectator did not see the game end"
        if self.error is not None:
            raise self.error
        return self.events


def uninterrupted(
    players: str,
    seed: int,
    first: int,
    deciders: Sequence[str | Sequence[Placement]],
    directory: Path,
    *,
    prefix: bool = False,
) -> bytes:
    """The file of the game these seats play in one go. Seat i's ``deciders[i]`` is a bot's level
    (that bot with its seat's seed, as the server's bots and ``dvtui join --bot`` play it) or the
    placements a person made there, in their order. A person who runs out of placements before
    the game ends is a mistake, unless ``prefix``: then the game stops there, and the bytes
    written so far (the bots' answers to the last placement included) are the file's start that
    a table which has seen only those placements holds."""
    created = new_game(parse_players(players), first_player=first, seed=seed)
    path = directory / "uninterrupted.dvr"
    with GameWriter.create(path, created) as writer:
        game = Game(created)
        movers = [
            (bot_fn(parse_bot(decider)), bot_seed(seed, i)) if isinstance(decider, str) else None
            for i, decider in enumerate(deciders)
        ]
        made = {i: iter(decider) for i, decider in enumerate(deciders) if not isinstance(decider, str)}
        while True:
            game.play(movers, writer.append)  # the bots, until a person is to move
            if game.over:
                break
            placement = next(made[game.to_move], None)
            if placement is None:
                assert prefix, f"player {game.to_move} made fewer placements than the game asks"
                break
            writer.append(game.place(placement))
    data = path.read_bytes()
    os.unlink(path)
    return data


def table_on_disk(games: Path, table: str, players: str, seed: int, cut: Callable[[list[dict[str, Any]]], int],
                  **record: Any) -> int:  # fmt: skip
    """``table``'s files in a server's ``games`` directory (made if need be), before the server
    starts: the game greedy bots play at every seat of ``players`` (dealt with ``seed``, the first
    seat first) up to the line ``cut`` picks among its lines (read as JSON), and a record of free
    seats with ``record``'s fields, as a server stopped there would have left them: a test that is
    about the end of a game goes on from there rather than playing all of it. Returns the lines
    kept (the events before the cut)."""
    games.mkdir(parents=True, mode=0o700, exist_ok=True)
    played = uninterrupted(players, seed, 0, ["greedy"] * len(parse_players(players)), games.parent)
    lines = played.splitlines(keepends=True)
    kept = cut([json.loads(line) for line in lines])
    (games / f"{table}.dvr").write_bytes(b"".join(lines[:kept]))
    seats = parse_players(players)
    made = TableRecord(owners=[None] * len(seats), stand_ins=[None] * len(seats), kept_for=kept_for(seats), **record)
    (games / f"{table}.table.json").write_bytes(msgspec.json.encode(made) + b"\n")
    return kept


LONG = ["Annabella Maria Lucia", "Bartolomeo Giacomo", "Cristoforo Emanuele", "Donatella Ginevra", "Ermenegildo Paolo"]
"""Five long seat names: a table's line in the list is as long as a real one gets."""


def tables_on_disk(games: Path, count: int) -> list[str]:
    """``count`` unfinished tables' files written straight into a server's games directory, as
    many tables opened over months would leave them."""
    games.mkdir(parents=True, mode=0o700)
    created = new_game(parse_players(",".join(LONG)), first_player=0, seed=7)
    with GameWriter.create(games / "model.dvr", created):
        pass
    data = (games / "model.dvr").read_bytes()
    os.unlink(games / "model.dvr")
    record = json.dumps({"owners": [None] * 5, "stand_ins": [None] * 5}).encode()
    names = [f"table-{i:03d}" for i in range(count)]
    for name in names:
        (games / f"{name}.dvr").write_bytes(data)
        (games / f"{name}.table.json").write_bytes(record)
    return names


REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def game_on_disk(path: Path, *, at: float, lines: int | None = None) -> None:
    """A game's file at ``path`` (a finished bot game's, or its first ``lines`` lines: a game still
    under way), every line stamped ``at`` (seconds since the epoch) as the writer stamps them: a
    game last played then, as a server that ran long ago would have left it."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(at))
    kept = (REPLAYS / "game-3p.dvr").read_text().splitlines()[:lines]
    path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
    path.write_text("".join(line[:-1] + f',"at":"{stamp}"}}\n' for line in kept))
