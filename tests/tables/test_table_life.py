"""The server's tables as a whole, attacked as a co-user would: a list of hundreds of tables still
reads (in pages, or one table at a time), one account cannot fill the server, tables nobody comes
to are put aside, a listed table holds no file open while nobody plays, a seat named for somebody
is kept for them and the opener can free a seat, and a finished table stays to be watched and got."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dvtui.server.main import Server
from dvtui.server.registry import TableLimits
from dvtui.tables import MAX_LINE_BYTES, table_info

from ..support.processes import dvtui, one_error_line
from ..support.raw import RawClient
from ..support.servers import (
    LONG,
    RAW,
    SYSTEM_PYTHON,
    Served,
    as_other,
    in_thread,
    short_dir,
    tables_on_disk,
    wait_for,
    watch_until,
)

ME = pwd.getpwuid(os.getuid()).pw_name


def _client(server: Server | Served, user: str | None = None) -> RawClient:
    client = RawClient(str(server.place.socket))
    client.send({"type": "hello", "version": 1, **({} if user is None else {"user": user})})
    assert client.until("welcome")["type"] == "welcome"
    return client


def _ask(client: RawClient, message: dict[str, Any], kind: str) -> dict[str, Any]:
    client.send(message)
    answer = client.until(kind)
    return answer


@contextlib.contextmanager
def _open_dir() -> Iterator[Path]:
    """A server directory another account may enter (so it may reach the socket)."""
    with short_dir() as d:
        os.chmod(d, 0o755)
        (d / "srv").mkdir(mode=0o755)
        os.chmod(d / "srv", 0o755)
        yield d / "srv"


def _open(client: RawClient, table: str, players: str) -> dict[str, Any]:
    return _ask(client, {"type": "open_table", "table": table, "players": players.split(","), "seed": 2}, "opened")


def _game_fds(server: Server) -> list[str]:
    """The files of the server's games directory this process holds open."""
    out = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(str(server.games)):
                out.append(target)
    return out


# -- a list of any length ---------------------------------------------------------------------


def test_three_hundred_tables_are_listed_in_pages_and_one_table_is_asked_for_alone() -> None:
    """300 tables of five long names make a list past a line's bound: every page is a line of the
    protocol, ``dvtui tables`` lists them all, and a client asks for its own table alone."""
    with short_dir() as d, Served(d / "srv") as server:
        d.joinpath("srv").mkdir(mode=0o700)
        names = tables_on_disk(d / "srv" / "games", 300)
        server.start()
        client = _client(server)
        client.send({"type": "list_tables"})  # as a client that knows no pages asks
        while b"\n" not in client.buffer:
            client.buffer += client.sock.recv(65536)
        line = client.buffer.split(b"\n")[0]
        client.buffer = client.buffer[len(line) + 1 :]
        first = json.loads(line)
        assert len(line) + 1 <= MAX_LINE_BYTES and first["more"] is True
        seen = [t["table"] for t in first["tables"]]
        while True:
            page = _ask(client, {"type": "list_tables", "after": seen[-1], "limit": 100}, "tables")
            assert len(json.dumps(page)) < MAX_LINE_BYTES
            seen += [t["table"] for t in page["tables"]]
            if not page.get("more"):
                break
        assert seen == names
        (one,) = _ask(client, {"type": "list_tables", "table": "table-150"}, "tables")["tables"]
        assert one["table"] == "table-150" and one["seats"][1]["name"] == LONG[1]
        assert _ask(client, {"type": "list_tables", "table": "nosuch"}, "tables")["tables"] == []

        listed = server.dvtui("tables")
        assert listed.returncode == 0, listed.stderr
        assert [line.split()[0] for line in listed.stdout.splitlines()] == names
        info = asyncio.run(table_info(server.place, "table-299"))
        assert info is not None and [s.name for s in info.seats] == LONG
        released = server.dvtui("tables", "release", "table-299", "--seat", "2")  # the server's own account may
        assert released.stdout == (
            f"table table-299: seat 2 ({LONG[1]}) is free for anyone else; whoever held it takes no seat of this game "
            "again\n"
        ), released.stderr


def test_a_line_past_the_protocols_bound_is_said_in_words_not_as_an_internal_error(tmp_path: Path) -> None:
    """A server (an old one, or not a dvtui) that sends a line longer than the protocol allows."""
    with short_dir() as d:
        sock_path = d / "dvtui.sock"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(sock_path))
        listener.listen(4)

        def serve() -> None:
            with contextlib.suppress(OSError):
                while True:
                    conn, _ = listener.accept()
                    with conn:
                        conn.recv(4096)
                        conn.sendall(b'{"type":"welcome","version":1,"server":"x","user":"root"}\n')
                        conn.recv(4096)
                        conn.sendall(b'{"type":"tables","tables":[' + b" " * (MAX_LINE_BYTES + 10) + b"]}\n")

        threading.Thread(target=serve, daemon=True).start()
        try:
            for args in (["tables"], ["join", "t", "--as", "2", "--bot", "greedy"]):
                done = dvtui(*args, "--server", str(d))
                assert done.returncode == 1, done.stderr
                line = one_error_line(done.stderr, f"the table server at {d} sent what no dvtui server sends")
                assert line.endswith("a line longer than 65,536 bytes, the protocol's bound")
        finally:
            listener.close()


# -- a quota, and tables put aside --------------------------------------------------------------


@pytest.mark.root
def test_one_account_cannot_fill_the_server_and_its_oldest_finished_table_makes_room(
    other_user: pwd.struct_passwd,
) -> None:
    """A flood of tables, from an account and from a vouched person: each stops at its
    quota while everybody else still opens tables (the server's own account has none)."""
    with _open_dir() as directory, in_thread(directory, table_limits=TableLimits(per_opener=2)) as server:
        mal = _client(server, "mal")  # a person vouched for: an identity of their own, as an account is
        assert _open(mal, "bots", "bot:random,bot:random,bot:random")["type"] == "opened"
        watch_until(server.place, "bots", None)  # (a table nobody is at plays no bots)
        wait_for("the bots' game to end", lambda: server.tables["bots"].over and server.tables["bots"].quiet())
        assert _open(mal, "mine", "Ana,Bob,Cy")["type"] == "opened"
        assert _open(mal, "room", "Ana,Bob,Cy")["type"] == "opened"  # the finished one is put aside for it
        assert "bots" not in server.tables and len(list(server.games.glob("bots.*.dvr"))) == 1
        refused = _open(mal, "more", "Ana,Bob,Cy")
        assert refused["code"] == "bad_setup" and "web:mal has 2 unfinished tables" in refused["message"]
        attack = as_other(other_user, server.place.socket, [
            {"type": "hello", "version": 1, "expect": "welcome"},
            *({"type": "open_table", "table": f"x{i}", "players": ["A", "B", "C"], "expect": "opened"}
              for i in range(3)),
        ])  # fmt: skip
        assert [a.get("code") for a in attack[1:]] == [None, None, "bad_setup"]
        assert _open(_client(server, "ana"), "anas", "Ana,Bob,Cy")["type"] == "opened"  # everybody else may
        assert _open(_client(server), "own", "Ana,Bob,Cy")["type"] == "opened"
        assert sorted(server.tables) == ["anas", "mine", "own", "room", "x0", "x1"]


def test_tables_nobody_comes_to_are_put_aside_and_the_rest_hold_no_file_open() -> None:
    limits = TableLimits(unjoined=0.0, idle=3600.0, sweep=0.05)
    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        with in_thread(d / "srv") as server:  # first, with the usual limits: nothing is put aside
            me = _client(server)
            for name in ("kept", "lonely", "busy"):
                _open(me, name, "Ana,Bob,Cy")
            ana = _client(server)
            _ask(ana, {"type": "join", "table": "kept", "seat": 0}, "joined")
            ana.close()  # a seated player has the table's files open, until they leave
            wait_for("three tables listed, none of their files open", lambda: _game_fds(server) == [])
            player = _client(server)
            _ask(player, {"type": "join", "table": "busy", "seat": 0}, "presence")
            _ask(player, {"type": "place", "seq": 1, "card": 6, "column": 0}, "card_placed")
            assert any(path.endswith("busy.dvr") for path in _game_fds(server))  # played: open
            player.close()
            wait_for("the played table's files to close", lambda: _game_fds(server) == [])
        with in_thread(d / "srv", table_limits=limits) as server:  # restarted with small limits
            # no longer listed, then its file moves: kept, under another name
            wait_for("the lonely table to be put aside", lambda: len(list(server.games.glob("lonely.*.dvr"))) == 1)
            assert sorted(server.tables) == ["busy", "kept"]  # a seat was taken there
            # (the put-aside file is renamed while still open, and closed just after)
            wait_for("the put-aside file to close", lambda: _game_fds(server) == [])
            me = _client(server)
            assert _open(me, "lonely", "Ana,Bob,Cy")["type"] == "opened"  # the name is free again
        with in_thread(d / "srv", table_limits=TableLimits(idle=0.0, sweep=0.05)) as server:
            wait_for("every idle table to be put aside", lambda: not server.tables)


# -- seats kept for somebody, and released ------------------------------------------------------


@pytest.mark.root
def test_a_seat_named_for_somebody_is_kept_for_them_and_the_opener_releases_a_squatted_one(
    other_user: pwd.struct_passwd,
) -> None:
    """A squat: a co-user takes the seat named like another account, or sits in a free
    seat and never plays. Named seats are kept; a plain join takes no stranger's seat; one who
    holds a seat takes no second free one; the opener frees the squatted seat, and the squatter
    is told and put off it."""
    other = other_user.pw_name
    with _open_dir() as directory, Served(directory) as server:
        server.start()
        opened = server.dvtui("new", "--table", "sat", "--players", f"{ME.title()},{other},Cy,web:ana", "--seed", "4")
        assert opened.returncode == 0, opened.stderr
        sock = server.place.socket
        taken, named, _, second, refused = as_other(other_user, sock, [
            {"type": "hello", "version": 1, "expect": "welcome"},
            {"type": "join", "table": "sat", "seat": 0, "expect": "joined"},
            {"type": "join", "table": "sat", "expect": "joined"},  # the seat named like them
            {"type": "join", "table": "sat", "seat": 3, "expect": "joined"},
            {"type": "join", "table": "sat", "seat": 2, "expect": "joined"},  # Cy's, kept for nobody
            {"type": "release", "table": "sat", "seat": 0, "expect": "released"},
        ])[1:]  # fmt: skip
        assert taken["code"] == "seat_taken" and f"kept for user {ME}" in taken["message"]
        assert named["seat"] == 1
        assert second["code"] == "no_seat" and second["message"].startswith(f"you hold seat 2 ({other}) at table sat")
        assert refused["code"] == "not_opener" and f"({ME})" in refused["message"]
        listed = server.dvtui("tables").stdout
        assert f"{ME.title()}: free, kept for {ME}" in listed and "web:ana: free, kept for web:ana" in listed

        mine = _client(server)
        assert _ask(mine, {"type": "join", "table": "sat"}, "joined")["seat"] == 0  # kept for me
        assert _ask(mine, {"type": "join", "table": "sat", "seat": 3}, "joined")["code"] == "seat_taken"
        ana = _client(server, "ana")  # the vouched person the seat web:ana is named for
        assert _ask(ana, {"type": "join", "table": "sat"}, "joined")["seat"] == 3

        squat = subprocess.Popen(  # a person who holds no seat sits at Cy's (named for nobody) and never plays
            [SYSTEM_PYTHON, "-I", str(RAW), str(sock), json.dumps([
                 {"type": "hello", "version": 1, "user": "mal", "expect": "welcome"},
                 {"type": "join", "table": "sat", "seat": 2, "expect": "joined"},
                 {"type": "list_tables", "expect": "nothing"},  # then waits for an error
             ])],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        wait_for("the squatter to sit", lambda: "Cy: connected (web:mal)" in server.listed())
        released = server.dvtui("tables", "release", "sat", "--seat", "3", real=True)  # (one real run of each)
        assert released.returncode == 0, released.stderr
        assert released.stdout.strip() == (
            "table sat: seat 3 (Cy) is free for anyone else; whoever held it takes no seat of this game again"
        )
        out, _ = squat.communicate(timeout=60)
        told = [json.loads(line) for line in out.splitlines()][-1]
        assert told["code"] == "taken_over" and "released" in told["message"]
        assert "Cy: free" in server.listed()
        back = _ask(_client(server, "mal"), {"type": "join", "table": "sat", "seat": 2}, "joined")
        assert back["code"] == "no_seat" and "released you from its seats for this game" in back["message"]
        handed = server.dvtui("tables", "release", "sat", "--seat", "3", "--to", "web:bob")
        assert handed.stdout == "table sat: seat 3 (Cy) is kept for web:bob, who alone may take it\n", handed.stderr
        assert _ask(mine, {"type": "join", "table": "sat", "seat": 2}, "joined")["code"] == "seat_taken"
        botted = server.dvtui("tables", "release", "sat", "--seat", "Cy", "--bot", "greedy")
        assert botted.stdout == "table sat: a greedy bot plays seat 3 (Cy) to the end of the game\n", botted.stderr
        assert "Cy: free, greedy bot standing in, resigned" in server.listed()
        clock = server.dvtui("tables", "clock", "sat", "--move-time", "2h", real=True)
        assert clock.stdout == "table sat: each turn may last 2h; then a bot plays it\n", clock.stderr
        assert "move time 2h" in server.listed()
        longer = server.dvtui("tables", "clock", "sat", "--move-time", "3h")
        assert longer.returncode == 1 and "may be shortened, not lengthened" in one_error_line(longer.stderr)
        bad = server.dvtui("tables", "release", "sat", "--seat", "9")
        assert bad.returncode == 2 and "--seat '9': no such seat" in bad.stderr


# -- a finished table ----------------------------------------------------------------------------


def test_a_finished_table_is_listed_after_a_restart_and_its_game_can_be_fetched(tmp_path: Path) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        assert server.dvtui("new", "--table", "done", "--players", "bot:random,bot:random,bot:random").returncode == 0
        watch_until(server.place, "done", None)  # (a table nobody is at plays no bots)
        wait_for("the game to end", lambda: "game over" in server.listed())
        assert server.stop() == 0
        server.start()
        listed = server.dvtui("tables")
        assert listed.stdout.startswith("done  game over"), listed.stdout
        out = tmp_path / "mine.dvr"
        got = server.dvtui("fetch", "done", "-o", str(out))  # everybody has left: nobody is at the table
        assert got.returncode == 0, got.stderr
        assert out.read_bytes() == server.game_file("done").read_bytes()
        assert got.stdout.strip() == f"table done: its game (over) is saved in {out}"
        verified = dvtui("verify", out)
        assert verified.returncode == 0 and f"{out}: ok," in verified.stdout, verified.stdout + verified.stderr
        again = server.dvtui("fetch", "done", "-o", str(out))
        assert again.returncode == 2 and "exists" in again.stderr  # never over a file
        missing = server.dvtui("fetch", "nosuch", "-o", str(tmp_path / "x.dvr"))
        assert missing.returncode == 1 and "no table nosuch" in missing.stderr
        older = tmp_path / "older.dvr"
        spelled = server.dvtui("tables", "get", "done", "-o", str(older), real=True)  # the older spelling still works
        assert spelled.returncode == 0 and older.read_bytes() == out.read_bytes(), spelled.stderr
