"""Play now, end to end: real accounts (``useradd``, run with ``setpriv``, speaking the protocol from a
Python that has nothing of dvtui) and ``dvtui seek`` as a process, against ``dvtui serve``. Three
people seeking are seated together, each seat kept for its person; one alone gets bots of their
level after the wait; one seek per account; leaving the pool (a ``leave_pool``, a dropped
connection, Ctrl+C); the pool's bounds."""

from __future__ import annotations

import contextlib
import json
import pwd
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dvtui.engine import GameEnded
from dvtui.ratings import MU0
from dvtui.server.matching import Pool, Seeker
from dvtui.server.openings import Openings
from dvtui.store import read_game

from ..support.raw import RawClient
from ..support.servers import Player, Served, as_other, short_dir, wait_for
from ..support.sshd import unix_account

pytestmark = pytest.mark.root

THIRD = "dvtuiseek"
"""A third account of this host, for a table of three people."""
HELLO = {"type": "hello", "version": 1, "features": ["seek", "reasons"], "expect": "welcome"}


@contextlib.contextmanager
def open_server(*extra: str) -> Iterator[Served]:
    """A server every account may reach (its directory open to all)."""
    with short_dir() as d, Served(d / "srv") as server:
        d.chmod(0o755)
        server.directory.mkdir(mode=0o755)
        server.start(*extra)
        yield server
        assert server.stop() == 0, server.log()


def seeker(sock: Path) -> RawClient:
    client = RawClient(str(sock))
    client.hello(["seek", "reasons"])
    return client


def in_thread(user: pwd.struct_passwd, sock: Path, script: list[dict[str, Any]]) -> tuple[threading.Thread, list[Any]]:
    """:func:`as_other` in a thread of its own (its replies in the list once it ends)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.extend(as_other(user, sock, script)), daemon=True)
    thread.start()
    return thread, out


def test_three_people_seeking_are_seated_together(other_user: pwd.struct_passwd) -> None:
    third = unix_account(THIRD)
    with open_server() as server:
        sock = server.place.socket
        script = [HELLO, {"type": "seek", "players": [3], "expect": "matched"}]
        threads = [in_thread(user, sock, script) for user in (other_user, third)]
        wait_for("two seekers", lambda: server.log().count("seeks a game") == 2, server.log)
        root = Player(server.directory.parent, "seek", "--players", "3", "--bot", "greedy", "--server",
                      str(server.directory))  # fmt: skip
        for thread, _ in threads:
            thread.join(60)
        matched = [out[1] for _, out in threads]
        assert all(m["type"] == "matched" and m["players"] == 3 and "bots" not in m for m in matched), matched
        table = matched[0]["table"]
        assert matched[1]["table"] == table and matched[0]["seat"] != matched[1]["seat"]
        wait_for("root seated", lambda: "seated you at table" in root.out.read_text(), root.stderr)
        said = root.out.read_text()
        assert f"the pool seated you at table {table}, seat " in said and "of 3 (0 bots)" in said, said
        root.kill9()
        game = read_game(server.game_file(table))
        players = game.events[0].players  # type: ignore[attr-defined]
        assert sorted(p.name for p in players) == sorted(["root", other_user.pw_name, THIRD])
        assert all(p.kind == "human" for p in players)
        for m, user in zip(matched, (other_user, third), strict=True):
            assert players[m["seat"]].name == user.pw_name
        # each seat is kept for its person: another may not take it, its person may
        seat = matched[0]["seat"]
        taken, joined = as_other(third, sock, [
            HELLO, {"type": "join", "table": table, "seat": seat, "expect": "error"},
            {"type": "join", "table": table, "seat": matched[1]["seat"], "expect": "joined"},
        ])[1:]  # fmt: skip
        assert taken["code"] == "seat_taken", taken
        assert joined["seat"] == matched[1]["seat"]
        mine = as_other(other_user, sock, [HELLO, {"type": "join", "table": table, "expect": "joined"}])[1]
        assert mine["seat"] == seat  # a join that names no seat finds the one kept


def test_one_alone_gets_bots_of_their_level_after_the_wait() -> None:
    """A table of three (the fewest): the bots' game is most of this test's time, a club bot's
    every placement a search."""
    with open_server() as server:
        root = Player(server.directory.parent, "seek", "--players", "3", "--wait", "1s", "--bot", "greedy",
                      "--server", str(server.directory))  # fmt: skip
        code, out, err = root.finish()
        assert code == 0, err
        assert (
            "seeking a table of 3 players (casual, 1m a move): 1 person seeks; bots fill the free seats in 1 s" in err
        )
        assert "seat " in out and "of 3 (2 bots)" in out and "Game over" in out, out
        table = out.split("at table ", 1)[1].split(",", 1)[0]
        game = read_game(server.game_file(table))
        players = game.events[0].players  # type: ignore[attr-defined]
        assert [p.name for p in players if p.kind == "human"] == ["root"]
        assert [p.bot for p in players if p.kind == "bot"] == ["club"] * 2  # a newcomer's rung
        assert isinstance(game.events[-1], GameEnded)
        assert f"root seeks a game (3 players, rating {round(MU0)}, bots after 1 s)" in server.log()


def test_one_seek_per_account(other_user: pwd.struct_passwd) -> None:
    with open_server() as server:
        sock = server.place.socket
        asks = RawClient(str(sock))  # the feature is negotiated: a client that names it hears it back
        assert asks.hello(["seek", "nonsense"])["features"] == ["seek"]
        asks.close()
        first = seeker(sock)
        first.send({"type": "seek", "players": [5]})
        assert first.until("seeking")["pool"] == 1
        second = seeker(sock)
        second.send({"type": "seek", "players": [5]})
        refused = second.until("seeking")
        assert refused["type"] == "error" and refused["code"] == "busy" and refused["re"] == "seek", refused
        assert "seeks a game already" in refused["message"]
        first.send({"type": "seek", "players": [3]})  # the same connection again
        assert first.until("seeking")["code"] == "busy"
        theirs = as_other(other_user, sock, [HELLO, {"type": "seek", "players": [5], "expect": "seeking"}])[1]
        assert theirs["type"] == "seeking" and theirs["pool"] == 2  # another account is not refused
        first.close()
        second.close()


def test_leaving_the_pool() -> None:
    with open_server() as server:
        sock = server.place.socket
        gone = seeker(sock)
        gone.send({"type": "seek", "players": [3], "wait": 600})
        gone.until("seeking")
        gone.send({"type": "leave_pool"})
        assert gone.until("pool_left") == {"type": "pool_left"}
        gone.send({"type": "leave_pool"})  # not in it any more
        assert gone.until("pool_left") == {"type": "pool_left", "seeking": False}
        dropped = seeker(sock)
        dropped.send({"type": "seek", "players": [3], "wait": 600})
        dropped.until("seeking")
        dropped.close()  # a dropped connection leaves the pool
        wait_for("the dropped seeker to leave", lambda: server.log().count("left the pool") == 2, server.log)
        stays = seeker(sock)
        stays.send({"type": "seek", "players": [3], "wait": 600})
        assert stays.until("seeking")["pool"] == 1  # nobody else seeks: neither is still in the pool
        stays.close()

        root = Player(server.directory.parent, "seek", "--bot", "greedy", "--server", str(server.directory))
        wait_for("root to seek", lambda: server.log().count("root seeks a game") == 4, server.log)
        root.proc.send_signal(signal.SIGINT)
        code, _, err = root.finish()
        assert code == 0 and err.rstrip().endswith("you left the pool"), err
        wait_for("Ctrl+C to leave the pool", lambda: server.log().count("left the pool") == 4, server.log)


def test_a_seek_that_could_not_play_its_table_is_refused_before_it_seeks() -> None:
    with open_server() as server:
        refused = server.dvtui("seek", "--wait", "1s")  # no terminal, no --bot: it would leave its seat away
        assert refused.returncode == 2 and refused.stderr.startswith("dvtui: error: the table needs a terminal")
        assert "dvtui seek --bot LEVEL" in refused.stderr and "seeks a game" not in server.log()


def test_the_pools_bounds() -> None:
    with open_server("--limit", "idle-seconds=0.5") as server:
        sock = server.place.socket
        client = seeker(sock)
        for bad in ({"players": [6]}, {"players": [2, 3]}, {"players": []}, {"wait": 0}, {"wait": 601},
                    {"players": [3, 4, 5, 3]}, {"move_time": 0}):  # fmt: skip
            client.send({"type": "seek", **bad})
            error = client.until("seeking")
            assert error["type"] == "error" and error["code"] == "bad_message" and error["re"] == "seek", (bad, error)
        # a seeker is not idle: seated after a wait longer than a silent connection is kept
        client.send({"type": "seek", "players": [3], "wait": 1})  # (the shortest wait: 1 s)
        matched = client.until("matched")
        assert matched["type"] == "matched" and matched["bots"] == 2, matched
        client.close()


def test_the_pool_holds_so_many_seekers(in_process: Any) -> None:
    in_process.seeks.most = 1
    sock = in_process.place.socket
    first = RawClient(str(sock))
    first.send(json.loads('{"type":"hello","version":1,"user":"ana","features":["seek"]}'))
    first.until("welcome")
    first.send({"type": "seek"})
    assert first.until("seeking")["type"] == "seeking"
    second = RawClient(str(sock))
    second.send({"type": "hello", "version": 1, "user": "bob", "features": ["seek"]})
    second.until("welcome")
    second.send({"type": "seek"})
    full = second.until("seeking")
    assert full["code"] == "busy" and "the pool holds 1 seekers, as many as it may" in full["message"], full
    first.close()
    second.close()


def test_a_hostile_persons_name_does_not_keep_the_others_from_their_table(in_process: Any) -> None:
    """A vouched person's name is theirs to choose: one a seat's name may not be (a comma, which
    separates seats) still seats everyone matched with them, each seat kept for its person."""
    sock = in_process.place.socket
    names = ["a,b", "x" * 19 + " " + "\u00e9" * 20, "cy"]
    clients = []
    for name in names:
        client = RawClient(str(sock))
        client.send({"type": "hello", "version": 1, "user": name, "features": ["seek"]})
        client.until("welcome")
        client.send({"type": "seek", "players": [3]})
        clients.append(client)
    matched = [client.until("matched") for client in clients]
    assert all(m["type"] == "matched" and "bots" not in m for m in matched), matched
    table = matched[0]["table"]
    for client, m in zip(clients, matched, strict=True):
        client.send({"type": "join", "table": table})  # the seat kept for them, named as it may be
        assert client.until("joined")["seat"] == m["seat"]
        client.close()


def test_a_table_the_pool_cannot_open_is_said_and_the_pool_goes_on(in_process: Any) -> None:
    """Three people seeking three seats are matched at once (no wait for bots): the first table
    fails to open, each of them is told, and the same three seeking again are seated."""
    opener = in_process.seeks.open_table
    failed: list[str] = []

    async def fails_once(who: Any, message: Any) -> Any:
        if not failed:
            failed.append(message.table)
            raise OSError("the disk is full")
        return await opener(who, message)

    in_process.seeks.open_table = fails_once
    sock = in_process.place.socket

    def seeking(name: str) -> RawClient:
        client = RawClient(str(sock))
        client.send({"type": "hello", "version": 1, "user": name, "features": ["seek"]})
        client.until("welcome")
        client.send({"type": "seek", "players": [3], "wait": 600})
        return client

    first = [seeking(name) for name in ("ana", "bob", "cy")]
    for client in first:
        error = client.until("matched")
        assert error["type"] == "error" and error["code"] == "server" and error["re"] == "seek", error
        assert "the disk is full" in error["message"]
    assert len(failed) == 1 and len(in_process.seeks.pool) == 0
    # out of the pool: they may seek again, and the pool still seats people
    second = [seeking(name) for name in ("ana", "bob", "cy")]
    assert all(client.until("matched")["type"] == "matched" for client in second)
    for client in [*first, *second]:
        client.close()


def test_people_are_seated_by_rating_and_kind(in_process: Any) -> None:
    """The server asks the ratings it is given (one function, by the name it shows a person by):
    the three close in rating are seated together, the far one and the rated one wait."""
    ratings = {"web:ana": 1000, "web:bob": 1800, "web:cy": 1010, "web:dee": 1020, "web:eve": 1005}
    in_process.seeks.rating_of = ratings.get
    sock = in_process.place.socket
    clients = {}
    for name in ("ana", "bob", "eve", "cy", "dee"):
        client = RawClient(str(sock))
        client.send({"type": "hello", "version": 1, "user": name, "features": ["seek"]})
        client.until("welcome")
        client.send({"type": "seek", "players": [3], "rated": name == "eve"})
        assert client.until("seeking")["type"] == "seeking"
        clients[name] = client
    tables = {name: clients[name].until("matched") for name in ("ana", "cy", "dee")}
    assert len({m["table"] for m in tables.values()}) == 1 and all(m["players"] == 3 for m in tables.values())
    assert len(in_process.seeks.pool) == 2  # bob, 800 points away; eve, who seeks a rated game
    assert {str(s.key) for s in in_process.seeks.pool.seekers.values()} == {"bob", "eve"}
    for client in clients.values():
        client.close()


def test_a_seeker_hears_the_countdown_each_second_however_often_others_come(in_process: Any) -> None:
    sock = in_process.place.socket

    def seeking(name: str, move_time: int) -> RawClient:
        client = RawClient(str(sock))
        client.send({"type": "hello", "version": 1, "user": name, "features": ["seek"]})
        client.until("welcome")
        client.send({"type": "seek", "players": [5], "move_time": move_time, "wait": 600})
        return client

    waiting = seeking("ana", 60)
    assert waiting.until("seeking")["wait_left"] == 600.0
    others = []
    # one arrival every 0.2 s, in a pool of their own, until she hears her count (at most 2 s of
    # them): were each arrival to put the count off, she would hear nothing while they come
    waiting.sock.settimeout(0.2)
    heard = None
    for i in range(10):
        others.append(seeking(f"b{i}", 30))
        with contextlib.suppress(TimeoutError):
            heard = waiting.receive()
        if heard is not None:
            break
    assert heard is not None, "no count while others kept coming"
    assert heard["type"] == "seeking" and heard["wait_left"] > 598.0, heard  # the pool's count, within its first second
    for client in [waiting, *others]:
        client.close()


def test_seeking_is_paced_as_opening_tables(in_process: Any) -> None:
    """Each seek may open a table (with bots, for one alone): a seek-and-leave loop is paced as
    opening tables is, against the same quota."""
    in_process.hall.openings = Openings(at_once=2, per_hour=60)
    client = RawClient(str(in_process.place.socket))
    client.send({"type": "hello", "version": 1, "user": "ana", "features": ["seek"]})
    client.until("welcome")
    for _ in range(2):
        client.send({"type": "seek", "wait": 600})
        assert client.until("seeking")["type"] == "seeking"
        client.send({"type": "leave_pool"})
        assert client.until("pool_left") == {"type": "pool_left"}
    client.send({"type": "seek"})
    paced = client.until("seeking")
    assert paced["type"] == "error" and paced["code"] == "busy" and "the next seek in 60 s" in paced["message"], paced
    assert len(in_process.seeks.pool) == 0
    client.close()


def test_a_rated_seek_opens_a_rated_table_and_the_pool_reads_the_ratings_kept_here(in_process: Any) -> None:
    """The pool seats people by the ratings the server keeps (their mean: a newcomer before any
    rated game), and the table it opens for a rated seek is rated: its game's end moves them."""
    from dvtui.ratings.games import BotSeat, FinishedGame, Person

    assert in_process.seeks.rating_of("web:ana") is None  # (no rated game yet: a newcomer)
    in_process.rater.ledger.add(
        FinishedGame(
            game="old/1/x", ended=1, seats=(Person("web:ana"), Person("web:zed"), BotSeat("club")), scores=(9, 1, 5)
        )
    )
    risen = in_process.seeks.rating_of("web:ana")
    assert risen is not None and risen > in_process.rater.ledger.rating("web:zed").mu
    sock = in_process.place.socket
    clients = []
    for name in ("ana", "bob", "cy"):
        client = RawClient(str(sock))
        client.send({"type": "hello", "version": 1, "user": name, "features": ["seek", "ratings"]})
        client.until("welcome")
        client.send({"type": "seek", "players": [3], "rated": True})
        clients.append(client)
    matched = [client.until("matched") for client in clients]
    assert all(m["rated"] is True for m in matched), matched
    game = read_game(in_process.place.games / f"{matched[0]['table']}.dvr")
    assert game.events[0].rated is True  # type: ignore[attr-defined]
    for client in clients:
        client.close()


def test_the_pool_looks_again_when_the_first_wait_still_running_is_over() -> None:
    """The pool's loop sleeps until the next second or this, whichever comes first: bots fill the
    seats of one who said 1 s after 1 s, not up to a second later. A wait over already is no
    reason to look again at once (a table that could not be opened waits for the next second)."""
    pool = Pool()
    assert pool.soonest_over(100.0) is None
    for key, wait, since in (("ana", 5.0, 100.0), ("bob", 1.0, 100.5), ("cy", 1.0, 90.0)):
        pool.add(Seeker(key, 1370, frozenset({3}), False, 60, wait, since))
    assert pool.soonest_over(100.75) == 0.75  # bob's, not cy's (over) nor ana's (later)
    assert pool.soonest_over(102.0) == 3.0
    assert pool.soonest_over(105.0) is None
