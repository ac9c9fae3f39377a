"""The server's bounds, attacked as a co-user would: many connections from one account, connections
that say nothing or never end a line, a server out of descriptors, a flood spread over connections,
a crowd of spectators, clients that leave much unread. Each against a real ``dvtui serve`` (with
limits lowered by ``--limit`` so a test needs tens of connections, not thousands), the account
bounded being a second Unix account where the bound is per account: the server's own is bounded
only in all. And through it all, the others are answered and the log stays a few lines.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from dvtui.server.limits import Budgets, Limits
from dvtui.server.main import Server

from ..support.processes import dvtui, in_process
from ..support.raw import RawClient
from ..support.servers import Crowd, Served, server_in_thread, short_dir, wait_for

MAX_LOG_BYTES = 8 * 1024
"""What a test's whole server log stays under, however often a limit was hit."""


@contextmanager
def shared_server(*limits: str) -> Iterator[Served]:
    """A real server any account may reach, with ``--limit``s."""
    with short_dir() as d, Served(d / "srv") as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        server.start(*(arg for limit in limits for arg in ("--limit", limit)))
        yield server
        assert server.stop() == 0
        assert len(server.log().encode()) < MAX_LOG_BYTES, server.log()


@pytest.mark.root
def test_one_account_at_its_cap_leaves_the_server_to_everyone_else(other_user: pwd.struct_passwd) -> None:
    with shared_server("conns-per-account=20") as server:
        crowd = Crowd(server.place.socket, {"n": 30, "hello": True, "hold": True, "seconds": 60}, other_user)
        crowd.ready()
        listed = server.dvtui("tables")  # while the crowd holds its 20
        assert listed.returncode == 0, listed.stderr
        one_more = Crowd(server.place.socket, {"n": 1, "seconds": 60}, other_user)  # told, though it says nothing
        assert one_more.result() == ([["error:busy"]], [True])
        received, closed = crowd.result()
        assert received.count(["welcome"]) == 20
        assert received.count(["error:busy"]) == 10
        assert all(closed[i] for i, got in enumerate(received) if got == ["error:busy"])
        assert server.log().count("refused a connection") == 1  # eleven refusals, one line


def test_connections_that_say_nothing_or_never_end_a_line_are_closed() -> None:
    with shared_server("hello-seconds=0.5", "idle-seconds=1", "line-seconds=0.5") as server:
        assert server.dvtui("new", "--table", "t", "--players", "Ana,Bob,Cy").returncode == 0
        sock = server.place.socket
        silent = Crowd(sock, {"n": 5, "seconds": 60})
        idle = Crowd(sock, {"n": 3, "hello": True, "seconds": 60})
        unfinished_line = '{"type":"list_tables","pad":"' + "x" * 60_000  # at a table: only the line's deadline
        unfinished = Crowd(sock, {"n": 3, "hello": True, "send": [{"type": "watch", "table": "t"}, unfinished_line],
                                  "seconds": 60})  # fmt: skip
        received, closed = silent.result()
        assert received == [["error:timeout"]] * 5 and all(closed)
        received, closed = idle.result()
        assert received == [["welcome", "error:timeout"]] * 3 and all(closed)
        received, closed = unfinished.result()
        assert all(got[:2] == ["welcome", "joined"] and got[-1] == "error:timeout" for got in received), received
        assert all(closed)
        assert server.dvtui("tables").returncode == 0


def test_a_full_server_says_so_at_once_and_serves_again_once_connections_end() -> None:
    with shared_server("conns-total=10") as server:
        crowd = Crowd(server.place.socket, {"n": 15, "hello": True, "hold": True, "seconds": 60})
        crowd.ready()
        refused = server.dvtui("tables")
        assert refused.returncode != 0 and "as many as it may" in refused.stderr
        assert refused.stderr.startswith("dvtui: error: ") and len(refused.stderr.splitlines()) == 1
        received, _ = crowd.result()
        assert received.count(["welcome"]) == 10 and received.count(["error:busy"]) == 5
        wait_for("the server to serve again", lambda: server.dvtui("tables").returncode == 0)
        assert server.log().count("refused a connection") == 1


@pytest.mark.long
def test_out_of_descriptors_the_server_pauses_accepting_without_spinning_or_flooding_its_log() -> None:
    with shared_server() as server:
        assert server.proc is not None
        pid = server.proc.pid
        room = len(os.listdir(f"/proc/{pid}/fd")) + 5
        subprocess.run(["prlimit", f"--pid={pid}", f"--nofile={room}:{room}"], check=True)
        # five more than its room, and five in the backlog twice over: each turn of accepting after
        # the crowd lets go meets the limit again, and waits its pause
        crowd = Crowd(server.place.socket, {"n": 15, "hello": True, "hold": True, "seconds": 60, "first": True})
        wait_for("the server to run out of descriptors", lambda: len(os.listdir(f"/proc/{pid}/fd")) >= room)
        wait_for("the server to find it cannot accept", lambda: "cannot accept a connection" in server.log())
        crowd.first()  # (a loaded server may find it before it answers those it accepted)
        received, _ = crowd.result()  # (it lets go now)
        assert 0 < received.count(["welcome"]) < 15  # the rest waited in the backlog
        wait_for("the server to serve again", lambda: server.dvtui("tables").returncode == 0)
        # retried every half second meanwhile, said once (asyncio's own loop retries at once, for
        # each connection waiting, and logs a traceback each time)
        assert server.log().count("cannot accept a connection") == 1


@pytest.mark.root
@pytest.mark.long
def test_a_flood_spread_over_connections_waits_its_turn_and_the_others_are_answered(
    other_user: pwd.struct_passwd,
) -> None:
    # a burst of 14: the ten hellos (each costs one, and waits its turn however long) and 4 more
    with shared_server("account-rate=4", "account-burst=14", "account-wait=1") as server:
        flood = [{"type": "list_tables"}] * 10  # each connection well within its own rate
        started = time.monotonic()
        crowd = Crowd(server.place.socket, {"n": 10, "hello": True, "send": flood, "hold": True, "seconds": 60},
                      other_user)  # fmt: skip
        crowd.ready()
        listed = server.dvtui("tables")  # answered while the flood waits
        assert listed.returncode == 0, listed.stderr
        received, closed = crowd.result()
        answered = sum(got.count("tables") for got in received)
        # at 4 a second after the burst, each waiting 1 s at most: far from the 100 asked, unless
        # the test itself took most of 20 s
        assert answered <= 14 + 4 * (time.monotonic() - started + 1) < 100, answered
        assert not any(closed)  # paced, not refused


@pytest.mark.root
def test_spectators_are_bounded_per_table_and_per_account(other_user: pwd.struct_passwd) -> None:
    with shared_server("spectators-per-table=5", "spectators-per-account=3") as server:
        for table in ("t", "u"):
            assert server.dvtui("new", "--table", table, "--players", "Ana,Bob,Cy").returncode == 0
        sock = server.place.socket
        theirs = Crowd(sock, {"n": 4, "hello": True, "send": [{"type": "watch", "table": "t"}], "seconds": 60,
                              "hold": True}, other_user)  # fmt: skip
        mine = Crowd(sock, {"n": 6, "hello": True, "send": [{"type": "watch", "table": "u"}], "seconds": 60,
                            "hold": True})  # fmt: skip
        theirs.ready()
        mine.ready()
        wait_for("every watch to be answered", lambda: _spectators(server) == {"t": 3, "u": 5}, every=0.5)
        for crowd, watching in ((theirs, 3), (mine, 5)):
            received, _ = crowd.result()
            assert sum("joined" in got for got in received) == watching
            assert sum("error:busy" in got for got in received) == 1


def _spectators(server: Served) -> dict[str, int]:
    listed = server.dvtui("tables").stdout.splitlines()
    return {line.split()[0]: int(line.rsplit("spectators: ", 1)[1].split()[0]) for line in listed if line.strip()}


def test_a_crowd_joining_a_table_costs_its_players_one_presence_a_tick() -> None:
    tick = 0.5
    with server_in_thread(limits=Limits(presence_tick=tick)) as srv:
        sock = str(srv.place.socket)
        player = RawClient(sock)
        player.hello()
        player.send({"type": "open_table", "table": "t", "players": ["Ana", "Bob", "Cy"], "seed": 1})
        player.until("opened")
        player.send({"type": "join", "table": "t", "seat": 0})
        player.until("presence")
        started = time.monotonic()
        crowd = []
        for _ in range(40):
            watcher = RawClient(sock)
            watcher.hello()
            watcher.send({"type": "watch", "table": "t"})
            crowd.append(watcher)
        elapsed = time.monotonic() - started
        presences = 0
        while True:
            message = player.receive()
            assert message is not None
            if message["type"] == "presence":
                presences += 1
                if message.get("spectators") == 40:
                    break
        assert presences <= 2 + elapsed / tick, (presences, elapsed)  # not one per arrival (40)
        for client in (player, *crowd):
            client.close()


def test_clients_that_leave_much_unread_together_are_dropped_most_unread_first() -> None:
    limits = Limits(queued_total=256 * 1024, conn_burst=100_000.0)  # each under its own 4 MiB
    with server_in_thread(limits=limits) as srv:
        _slow_readers(srv, limits)


def _slow_readers(srv: Server, limits: Limits) -> None:
    sock = str(srv.place.socket)
    owner = RawClient(sock)
    owner.hello()
    owner.send({"type": "open_table", "table": "big", "players": ["Ana", "Bob", "Cy"], "seed": 1})
    owner.until("opened")
    slow = []
    for _ in range(6):
        client = RawClient(sock)
        client.hello()
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.append(client)
    request = b'{"type":"watch","table":"big"}\n' * 300  # each answered by ~2 KiB: ~600 KiB unread each
    for client in slow:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # dropped while still sending
            client.sock.sendall(request)
    wait_for("the slow readers to be dropped", lambda: len(srv.conns) <= 1 + 1)
    assert srv.output.total <= limits.queued_total
    owner.send({"type": "list_tables"})
    assert owner.until("tables")["tables"][0]["table"] == "big"  # the others never noticed
    for client in (owner, *slow):
        client.close()


def test_a_named_pipe_for_a_tables_record_is_skipped_with_one_line() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        for table in ("piped", "fine"):
            assert server.dvtui("new", "--table", table, "--players", "Ana,Bob,Cy").returncode == 0
        assert server.stop() == 0
        record = server.directory / "games" / "piped.table.json"
        record.unlink()
        os.mkfifo(record)
        server.start()  # listens: the pipe is never opened
        assert server.log().count("table piped not reopened: piped.table.json is not a regular file") == 1
        listed = server.dvtui("tables").stdout
        assert "fine" in listed and "piped" not in listed
        assert server.stop() == 0


def test_the_budget_of_an_account_is_shared_by_its_connections() -> None:
    now = [0.0]
    budgets = Budgets(rate=2.0, burst=4.0, clock=lambda: now[0])
    assert [budgets.take("mal") for _ in range(4)] == [0.0] * 4
    assert budgets.take("mal") == 0.5 and budgets.take("mal") == 1.0  # each waits its turn after the last
    assert budgets.take("ana") == 0.0  # another account's budget is its own
    now[0] = 10.0
    assert budgets.take("mal", cost=3) == 0.0


def test_a_limit_given_wrong_is_a_usage_error() -> None:
    """The first as a shell runs it; the others in this process (refused before any server starts,
    so ``serve`` returns as a process would, without an interpreter's start each)."""
    for run, option, said in ((dvtui, "nope=3", "NAME one of"), (in_process, "conns-total=many", "not a number"),
                              (in_process, "hello-seconds=0", "above 0")):  # fmt: skip
        done = run("serve", "--dir", "/tmp/nowhere-dvtui", "--limit", option)
        assert done.returncode == 2 and said in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1
