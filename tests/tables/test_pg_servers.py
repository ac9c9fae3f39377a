"""Two servers on one PostgreSQL database: a table opened through one is listed, watched and played
through the other; the one that played last killed with -9, the other plays on, and once it is back
its player finishes the game with the other; a follower that missed notifications reads what it
missed from the ``seq`` it has. A server the test kills is a ``dvtui serve --store`` process; the
others are servers in threads of the test on the same database (what is tested goes through the
database, not through a process's start)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from functools import partial
from pathlib import Path

import msgspec
import psycopg
import pytest

from dvtui.engine import Game, new_game
from dvtui.play.face import GameSession, News, Redealt
from dvtui.play.seats import parse_players
from dvtui.store import encode_line, parse_game
from dvtui.tables import RemoteSession, close_table

from ..support.files import strip_at
from ..support.pilot import WAIT
from ..support.postgres import db_lines
from ..support.processes import in_process
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import Served, Threaded, Watcher, play_out, short_dir, uninterrupted, wait_for, wait_until

pytestmark = pytest.mark.postgresql

PLAYERS = "Ana,Bob,bot:greedy"
LEVELS = ["greedy", "random", "greedy"]
Told = dict[str, list[News]]
"""What each person's session was told, by name."""


@contextlib.contextmanager
def two_servers(database: str, killed: str = "") -> Iterator[tuple[Served, Served]]:
    """Servers ``a`` and ``b`` on ``database``: the one named ``killed`` a ``dvtui serve`` process
    (the test kills it with -9), any other in a thread of the test (:class:`Threaded`: what is
    tested is between the servers, through the database; a process's start is not)."""

    def server(d: Path, name: str) -> Served:
        return Served(d / name, {"DVTUI_STORE": database}) if name == killed else Threaded(d / name, database)

    with short_dir() as d, server(d, "a") as a, server(d, "b") as b:
        a.launch()
        b.launch()
        wait_for("both servers to listen", lambda: a.listening() and b.listening(), lambda: a.log() + b.log())
        yield a, b


@pytest.mark.long
def test_a_table_is_played_through_two_servers_and_survives_one_killed(pg_database: str, tmp_path: Path) -> None:
    with two_servers(pg_database, killed="a") as (a, b):
        opened = a.dvtui("new", "--table", "two", "--players", PLAYERS, "--seed", "8", "--first", "1", "--start-now")
        assert opened.returncode == 0, opened.stderr
        wait_for("the other server to list it", lambda: b.dvtui("tables").stdout.startswith("two  "))
        watcher = Watcher(b.place, "two")
        ana = a.player("two", "Ana")
        wait_for("Ana's first placement", lambda: len(db_lines(pg_database, "two")) == 2)  # Bob has nobody yet
        a.kill9()
        bob = b.player("two", "Bob", "random")
        wait_for("Bob's and the bot's placements through the other", lambda: len(db_lines(pg_database, "two")) >= 4)
        wait_for("Ana's client to notice", lambda: "reconnecting" in ana.stderr())
        a.start()
        for proc in (ana, bob):
            code, out, err = proc.finish()
            assert code == 0, err
            assert out.splitlines()[-1].startswith("table two: Game over: ")
        played = b"".join(db_lines(pg_database, "two"))
        assert strip_at(played) == strip_at(uninterrupted(PLAYERS, 8, 0, LEVELS, tmp_path))
        assert watcher.result() == parse_game(played).events  # the spectator on the other saw every line
        assert watcher.statuses == []
        for server in (a, b):
            listed = server.dvtui("tables")
            assert listed.stdout.startswith("two  game over"), listed.stdout
        fetched = tmp_path / "two.dvr"
        assert b.dvtui("fetch", "two", "-o", str(fetched)).returncode == 0
        assert fetched.read_bytes() == played
        assert in_process("verify", fetched).returncode == 0
        assert a.stop() == 0 and b.stop() == 0


def test_a_follower_that_missed_notifications_reads_from_its_seq(pg_database: str) -> None:
    """Three decisions written with no notification, then one: the other server's spectator gets all three."""
    with two_servers(pg_database) as (a, b):
        players = "Ana,Bob,Cy"
        opened = a.dvtui("new", "--table", "quiet", "--players", players, "--seed", "5", "--first", "1", "--start-now")
        assert opened.returncode == 0, opened.stderr
        wait_for("the other server to list it", lambda: b.dvtui("tables").stdout.startswith("quiet  "))
        spectator = RawClient(str(b.place.socket))
        spectator.hello()
        spectator.send({"type": "watch", "table": "quiet"})
        game = Game(new_game(parse_players(players), first_player=0, seed=5))
        lines: list[bytes] = []
        for _ in range(3):  # (written by hand: no server is told)
            for event in game.place(game.legal_placements()[0]):
                lines.append(encode_line(event, 1 + len(lines), "2026-11-27T02:00:00.000Z"))
        with psycopg.connect(pg_database, autocommit=True) as conn:
            game_id = conn.execute("SELECT id FROM dvtui_games WHERE name = 'quiet'").fetchone()[0]
            with conn.transaction():
                for i, line in enumerate(lines):
                    conn.execute(
                        "INSERT INTO dvtui_events (game_id, seq, line) VALUES (%s, %s, %s)", (game_id, 1 + i, line)
                    )
            conn.execute("SELECT pg_notify('dvtui', %s)", (f"lines quiet {1 + len(lines)}",))
        seen: list[int] = []
        while not seen or seen[-1] < len(lines):
            message = spectator.receive()
            assert message is not None and message["type"] != "error", message
            if message["type"] not in ("joined", "presence", "said"):
                seen.append(message["seq"])
        assert seen == list(range(1 + len(lines)))  # game_created, then every line missed
        spectator.close()


def test_a_new_table_at_a_finished_tables_name_leaves_its_people_at_the_finished_game(pg_database: str) -> None:
    """A finished table's name used for a new table (not its rematch) through one server: its
    spectators are told nothing, through the other server as through that one (they go on looking
    at the finished game, as on one server), the other lists the new game, and a watch joins it."""
    with two_servers(pg_database) as (a, b):
        bots = "bot:random,bot:random,bot:random"
        assert a.dvtui("new", "--table", "re", "--players", bots, "--seed", "1").returncode == 0
        Watcher(a.place, "re").result()  # (a table nobody is at plays no bots)
        wait_for("the other server to see it end", lambda: b.dvtui("tables").stdout.startswith("re  game over"))
        spectators = [RawClient(str(server.place.socket)) for server in (a, b)]
        for spectator in spectators:
            spectator.hello()
            spectator.send({"type": "watch", "table": "re"})
            assert spectator.until("game_ended")["type"] == "game_ended"
        again = a.dvtui("new", "--table", "re", "--players", "Ana,Bob,Cy", "--seed", "2", "--start-now")
        assert again.returncode == 0, again.stderr
        wait_for("the other server to list the new game", lambda: "Ana to move" in b.dvtui("tables").stdout)
        for spectator in spectators:
            spectator.send({"type": "list_tables", "table": "re"})
            while (message := spectator.receive()) is not None and message["type"] != "tables":
                assert message["type"] == "presence", message  # (who is at the finished game, nothing more)
            assert message is not None and message["tables"][0]["to_move"] == 0
            spectator.send({"type": "watch", "table": "re"})
            assert spectator.until("game_created")["seed"] == 2
            spectator.close()


def _opened_on_both(a: Served, b: Served, name: str, players: list[str]) -> None:
    """Table ``name`` opened through ``a``, once ``b`` lists it too."""
    opener = RawClient(str(a.place.socket))
    opener.hello()
    assert ask(opener, {"type": "open_table", "table": name, "players": players}, "opened")["type"] == "opened"
    opener.close()
    lister = RawClient(str(b.place.socket))
    lister.hello()
    wait_for(f"the other server to list {name}", lambda: bool(
        ask(lister, {"type": "list_tables", "table": name}, "tables")["tables"]))  # fmt: skip
    lister.close()


def _record_owners(conninfo: str, name: str) -> list[str | int | None]:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        row = conn.execute("SELECT record FROM dvtui_games WHERE name = %s", (name,)).fetchone()
    return msgspec.json.decode(bytes(row[0]))["owners"]


def test_two_seats_taken_at_once_through_two_servers_are_both_kept(pg_database: str) -> None:
    """Ana through one server and Bob through the other sit at once, round after round at fresh
    tables: both seats are kept every time (the record is replaced only in place of the version
    a seat was taken on), and each server shows the other's seat as taken."""
    with two_servers(pg_database) as (a, b):
        for i in range(20):
            name = f"seats{i}"
            _opened_on_both(a, b, name, ["Ana", "Bob", "Cy"])
            ana, bob = speaking_for(str(a.place.socket), "Ana"), speaking_for(str(b.place.socket), "Bob")
            ana.send({"type": "join", "table": name, "seat": 0})
            bob.send({"type": "join", "table": name, "seat": 1})
            assert ana.until("joined")["type"] == "joined"
            assert bob.until("joined")["type"] == "joined"
            assert _record_owners(pg_database, name)[:2] == ["Ana", "Bob"]
            for client, other in ((ana, 1), (bob, 0)):  # each server knows the other's seat taken
                while (message := client.until("presence"))["seats"][other]["state"] == "free":
                    assert message["type"] == "presence", message
            ana.close()
            bob.close()


def test_one_seat_taken_at_once_through_two_servers_goes_to_one(pg_database: str) -> None:
    """Ana and Bob take the same seat at once through two servers: one sits, the other is refused
    (``seat_taken``) as on one server, and the record names the one who sat."""
    with two_servers(pg_database) as (a, b):
        for i in range(5):
            name = f"same{i}"
            _opened_on_both(a, b, name, ["Ana", "Bob", "Cy"])
            ana, bob = speaking_for(str(a.place.socket), "Ana"), speaking_for(str(b.place.socket), "Bob")
            for client in (ana, bob):
                client.send({"type": "join", "table": name, "seat": 2})
            answers = {who: client.until("joined") for who, client in (("Ana", ana), ("Bob", bob))}
            sat = [who for who, answer in answers.items() if answer["type"] == "joined"]
            refused = [answer for answer in answers.values() if answer["type"] == "error"]
            assert len(sat) == 1 and len(refused) == 1, answers
            assert refused[0]["code"] == "seat_taken", refused
            assert _record_owners(pg_database, name)[2] == sat[0]
            ana.close()
            bob.close()


def _until_seat(client: RawClient, seat: int, state: str) -> None:
    """Read ``client``'s messages until a presence shows ``seat`` in ``state``."""
    while True:
        message = client.until("presence")
        assert message["type"] == "presence", message
        if message["seats"][seat]["state"] == state:
            return


def test_who_is_here_counts_the_people_of_every_server_and_not_a_killed_ones(pg_database: str) -> None:
    """Ana sits through one server and Bob through the other: each one's client sees the other
    connected, and a spectator through the other counted; the other server killed with -9, Ana's
    client sees Bob away and no spectator (its rows are swept, not left as ghosts)."""
    with two_servers(pg_database, killed="b") as (a, b):
        _opened_on_both(a, b, "here", ["Ana", "Bob", "Cy"])
        ana, bob = speaking_for(str(a.place.socket), "Ana"), speaking_for(str(b.place.socket), "Bob")
        assert ask(ana, {"type": "join", "table": "here", "seat": 0}, "joined")["type"] == "joined"
        assert ask(bob, {"type": "join", "table": "here", "seat": 1}, "joined")["type"] == "joined"
        _until_seat(ana, 1, "connected")
        _until_seat(bob, 0, "connected")
        spectator = RawClient(str(b.place.socket))
        spectator.hello()
        spectator.send({"type": "watch", "table": "here"})
        while (message := ana.until("presence"))["spectators"] != 1:
            assert message["type"] == "presence", message
        listed = ask(ana, {"type": "list_tables", "table": "here"}, "tables")["tables"][0]
        assert [seat["state"] for seat in listed["seats"]] == ["connected", "connected", "free"]
        b.kill9()
        _until_seat(ana, 1, "away")
        listed = ask(ana, {"type": "list_tables", "table": "here"}, "tables")["tables"][0]
        assert [seat["state"] for seat in listed["seats"]] == ["connected", "away", "free"]
        assert listed.get("spectators", 0) == 0
        ana.close()


def _heard(client: RawClient, count: int) -> list[str]:
    """The texts of the next ``count`` chat lines ``client`` is sent."""
    texts = []
    while len(texts) < count:
        message = client.until("said")
        assert message["type"] == "said", message
        texts.append(message["text"])
    return texts


def test_what_is_said_through_one_server_is_heard_through_the_other_in_one_order(pg_database: str) -> None:
    """Ana says through one server, Bob through the other: each hears the other, both hear the
    same lines in the same order (lines said at once too), and a client coming back through
    either server is given the same talk."""
    with two_servers(pg_database) as (a, b):
        _opened_on_both(a, b, "talk", ["Ana", "Bob", "Cy"])
        ana, bob = speaking_for(str(a.place.socket), "Ana"), speaking_for(str(b.place.socket), "Bob")
        assert ask(ana, {"type": "join", "table": "talk", "seat": 0}, "joined")["type"] == "joined"
        assert ask(bob, {"type": "join", "table": "talk", "seat": 1}, "joined")["type"] == "joined"
        ana.send({"type": "say", "table": "talk", "text": "one"})
        assert _heard(bob, 1) == ["one"]
        bob.send({"type": "say", "table": "talk", "text": "two"})
        assert _heard(ana, 2) == ["one", "two"]
        assert _heard(bob, 1) == ["two"]
        for i in range(3):  # said at once through both
            ana.send({"type": "say", "table": "talk", "text": f"ana {i}"})
            bob.send({"type": "say", "table": "talk", "text": f"bob {i}"})
        heard = _heard(ana, 6)
        assert _heard(bob, 6) == heard
        assert sorted(heard) == sorted([f"ana {i}" for i in range(3)] + [f"bob {i}" for i in range(3)])
        talk = ["one", "two", *heard]
        for client, server, seat in ((ana, b, 0), (bob, a, 1)):  # each comes back through the other
            client.close()
            again = speaking_for(str(server.place.socket), "Ana" if seat == 0 else "Bob")
            assert ask(again, {"type": "join", "table": "talk", "seat": seat}, "joined")["type"] == "joined"
            assert _heard(again, len(talk)) == talk
            again.close()


async def _play_out(ana: RemoteSession, bob: RemoteSession) -> None:
    """Ana and Bob play their seats greedily to the game's end, and each sees the other there."""
    await play_out(ana, bob)
    for session in (ana, bob):
        await wait_until("both seats connected", partial(_both_seated, session))


def _both_seated(session: RemoteSession) -> bool:
    """``session`` is connected and sees Ana and Bob at their seats."""
    presence = session.presence()
    return presence.status == "connected" and [s.state for s in presence.seats][:2] == ["connected", "connected"]


def _redealt(told: list[News]) -> GameSession | None:
    """The session of the next game a session's news handed it to (None: none yet)."""
    return next((n.session for n in told if isinstance(n, Redealt)), None)


async def _both_follow(bob_told: list[News], ana_told: list[News]) -> tuple[GameSession, GameSession]:
    """Bob's and Ana's sessions of the next game, once both followed into it."""
    await wait_until("Bob's session to follow", lambda: _redealt(bob_told) is not None)
    await wait_until("Ana's session to follow", lambda: _redealt(ana_told) is not None)
    bob_next, ana_next = _redealt(bob_told), _redealt(ana_told)
    assert bob_next is not None and ana_next is not None
    return bob_next, ana_next


@pytest.mark.long
async def test_a_rematch_and_a_close_through_one_server_are_followed_through_the_other(pg_database: str) -> None:
    """Ana through one server, Bob through the other, finish a game: Ana proposes a rematch, Bob
    sees it and accepts, and both sessions follow into game 2 by themselves (a ``dealt``, no join
    again); Ana's server closes the table: Bob's session is told it was closed."""
    with two_servers(pg_database) as (a, b):
        await asyncio.to_thread(_opened_on_both, a, b, "rm", ["Ana", "Bob", "bot:greedy"])
        ana = await RemoteSession.open(a.place, "rm", seat=0)
        bob = await RemoteSession.open(b.place, "rm", seat=1)
        told: list[News] = []
        bob.attach(told.append)
        ana_told: list[News] = []
        ana.attach(ana_told.append)
        try:
            await _play_out(ana, bob)
            ana.rematch(True)
            await wait_until("Bob to see Ana's proposal", lambda: bob.presence().rematch is not None)
            vote = bob.presence().rematch
            assert vote is not None and (vote.by, list(vote.accepted), list(vote.awaited)) == (0, [0], [1])
            bob.rematch(True)
            bob_next, ana_next = await _both_follow(told, ana_told)
            assert bob_next.game.created == ana_next.game.created
            assert bob_next.game.created.seed == ana.game.created.seed + 1  # (the next game, not a new table)
            await close_table(a.place, "rm")
            await wait_until("Bob's session to be told", lambda: bob_next.stopped is not None)
            assert bob_next.stopped is not None and bob_next.stopped.code == "closed", bob_next.stopped
        finally:
            for session in (ana, bob):
                session.close()


@contextlib.asynccontextmanager
async def _ana_and_bob(a: Served, b: Served, name: str) -> AsyncIterator[tuple[RemoteSession, RemoteSession, Told]]:
    """Table ``name`` opened, Ana seated through ``a`` and Bob through ``b`` (a greedy bot plays the
    third seat): their sessions, and what each was told (``told["Ana"]``, ``told["Bob"]``)."""
    await asyncio.to_thread(_opened_on_both, a, b, name, ["Ana", "Bob", "bot:greedy"])
    ana = await RemoteSession.open(a.place, name, seat=0)
    bob = await RemoteSession.open(b.place, name, seat=1)
    told: Told = {"Ana": [], "Bob": []}
    ana.attach(told["Ana"].append)
    bob.attach(told["Bob"].append)
    try:
        yield ana, bob, told
    finally:
        for session in (ana, bob):
            session.close()


@pytest.mark.long
async def test_a_rematch_turned_down_through_one_server_is_withdrawn_through_every_server(pg_database: str) -> None:
    """Ana proposes a rematch through one server and Bob turns it down through the other: the
    proposal is gone for everyone, as on one server (Ana's session is told it is withdrawn, her
    acceptance with it); Bob's own proposal after that is followed by both into game 2."""
    with two_servers(pg_database) as (a, b):
        async with _ana_and_bob(a, b, "no") as (ana, bob, told):
            await _play_out(ana, bob)
            ana.rematch(True)
            await wait_until("Bob to see Ana's proposal", lambda: bob.presence().rematch is not None)
            bob.rematch(False)
            await wait_until("Bob to see it withdrawn", lambda: bob.presence().rematch is None)
            await wait_until("Ana to be told it is withdrawn", lambda: ana.presence().rematch is None)
            bob.rematch(True)
            await wait_until("Ana to see Bob's proposal", lambda: _vote(ana) == ([1], [0]))
            assert _vote(bob) == ([1], [0])  # (Ana's acceptance turned down is not counted again)
            ana.rematch(True)
            bob_next, ana_next = await _both_follow(told["Bob"], told["Ana"])
            assert bob_next.game.created == ana_next.game.created
            assert bob_next.game.created.seed == (ana.game.created.seed or 0) + 1


def _vote(session: RemoteSession) -> tuple[list[int], list[int]] | None:
    """The seats that accepted the rematch proposed, and those awaited, as ``session`` is told (None: none is)."""
    vote = session.presence().rematch
    return None if vote is None else (sorted(vote.accepted), list(vote.awaited))


@pytest.mark.long
async def test_a_rematch_vote_through_a_server_killed_and_started_again_stays_one_vote(pg_database: str) -> None:
    """Ana proposes a rematch through one server and Bob, through the other, sees it; Ana's server
    killed with -9, her acceptance goes with her connection (as when she leaves a table on one
    server) and Bob is told the proposal is withdrawn; her server started again, her session comes
    back by itself to the same vote (none), and a fresh one is followed by both into game 2."""
    with two_servers(pg_database, killed="a") as (a, b):
        async with _ana_and_bob(a, b, "kill") as (ana, bob, told):
            await _play_out(ana, bob)
            ana.rematch(True)
            await wait_until("Bob to see Ana's proposal", lambda: _vote(bob) == ([0], [1]))
            a.kill9()
            await wait_until("Bob to see it withdrawn", lambda: bob.presence().rematch is None)
            assert bob.presence().seats[0].state == "away"
            await asyncio.to_thread(a.start)
            await wait_until("Ana's session to come back", partial(_both_seated, ana))
            await wait_until("Bob to see Ana back", partial(_both_seated, bob))
            assert ana.presence().rematch is None and bob.presence().rematch is None
            bob.rematch(True)
            await wait_until("Ana to see Bob's proposal", lambda: _vote(ana) == ([1], [0]))
            ana.rematch(True)
            bob_next, ana_next = await _both_follow(told["Bob"], told["Ana"])
            assert bob_next.game.created == ana_next.game.created


async def test_a_rematch_through_one_server_is_followed_by_a_spectator_through_a_server_started_later(
    pg_database: str,
) -> None:
    """Ana and Bob sit and play through one server; a spectator watches through the other, started
    once their seats were taken (it reads the table's record as kept, at its start): when they deal
    their rematch, the spectator follows into game 2 as a spectator through their server would."""
    with short_dir() as d, Threaded(d / "a", pg_database) as a:
        a.start()
        opener = RawClient(str(a.place.socket))
        opener.hello()
        opened = ask(opener, {"type": "open_table", "table": "late", "players": ["Ana", "Bob", "bot:greedy"]}, "opened")
        assert opened["type"] == "opened", opened
        opener.close()
        ana = await RemoteSession.open(a.place, "late", seat=0)
        bob = await RemoteSession.open(a.place, "late", seat=1)
        with Threaded(d / "b", pg_database) as b:
            await asyncio.to_thread(b.start)
            spectator = await RemoteSession.open(b.place, "late", watch=True)
            seen: list[News] = []
            spectator.attach(seen.append)
            try:
                await _play_out(ana, bob)
                await wait_until("the spectator to see the end", lambda: spectator.game.over)
                ana.rematch(True)
                bob.rematch(True)
                await wait_until("the spectator to follow", lambda: _redealt(seen) is not None)
                followed = _redealt(seen)
                assert followed is not None and followed.game.created.seed == (ana.game.created.seed or 0) + 1
            finally:
                for session in (ana, bob, spectator):
                    session.close()


def _presence_rows(conninfo: str, name: str) -> list[tuple[int | None, str | None]]:
    """The (seat, bot) rows of ``dvtui_presence`` for table ``name``, through every server."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        return sorted(conn.execute(
            "SELECT seat, bot FROM dvtui_presence WHERE table_name = %s", (name,)).fetchall(), key=repr)  # fmt: skip


async def test_the_people_left_at_a_finished_game_are_not_counted_at_the_new_table_of_its_name(
    pg_database: str,
) -> None:
    """Ana sits at a finished game through one server when a new table is opened at its name through
    the other: she stays at the finished game, told nothing; when who is at the finished game
    changes (its spectator leaves), her server tells the database nothing of it, so neither server
    counts her at the new table."""
    with two_servers(pg_database) as (a, b):
        await asyncio.to_thread(_opened_on_both, a, b, "re", ["Ana", "bot:greedy", "bot:greedy"])
        ana = await RemoteSession.open(a.place, "re", seat=0)
        spectator = await RemoteSession.open(a.place, "re", watch=True)
        try:
            await play_out(ana)
            await wait_until("Ana to see the spectator", lambda: ana.presence().spectators == 1)
            again = await asyncio.to_thread(
                b.dvtui, "new", "--table", "re", "--players", "Ana,Bob,Cy", "--seed", "2", "--start-now"
            )
            assert again.returncode == 0, again.stderr
            await asyncio.to_thread(wait_for, "her server to list the new game", lambda: (
                "Ana to move" in a.dvtui("tables").stdout))  # fmt: skip
            spectator.close()
            await wait_until("Ana to see the spectator leave", lambda: ana.presence().spectators == 0)
            assert ana.presence().stopped is None and ana.game.over  # (still at the finished game)
            await asyncio.to_thread(_opened_on_both, a, b, "later", ["Cy", "Dan", "Eve"])
            later = await RemoteSession.open(a.place, "later", watch=True)  # written after, by the same server
            try:
                await asyncio.to_thread(wait_for, "the later spectator's row", lambda: (
                    _presence_rows(pg_database, "later") == [(None, None)]))  # fmt: skip
            finally:
                later.close()
            assert _presence_rows(pg_database, "re") == []
            listed = await asyncio.to_thread(b.dvtui, "tables")
            assert "Ana to move" in listed.stdout, listed.stdout
        finally:
            for session in (ana, spectator):
                session.close()


@pytest.mark.long
def test_a_table_goes_on_through_two_servers_whose_lock_sessions_are_terminated(
    pg_database: str, tmp_path: Path
) -> None:
    """The sessions holding the table's advisory lock are terminated again and again mid-game (an
    administrator, a pooler, a timeout): each server notices at its next write, holds the table
    again with what the other wrote, and the game ends as if nothing happened: no clash on the
    primary key, no table stopped."""
    with two_servers(pg_database) as (a, b):
        opened = a.dvtui("new", "--table", "cut", "--players", PLAYERS, "--seed", "8", "--first", "1", "--start-now")
        assert opened.returncode == 0, opened.stderr
        wait_for("the other server to list it", lambda: b.dvtui("tables").stdout.startswith("cut  "))
        ana, bob = a.player("cut", "Ana"), b.player("cut", "Bob", "random")
        terminated = 0
        with psycopg.connect(pg_database, autocommit=True) as admin:
            (game,) = admin.execute("SELECT id FROM dvtui_games WHERE name = 'cut'").fetchone() or (0,)
            deadline = time.monotonic() + WAIT
            while len(db_lines(pg_database, "cut")) < 60 and time.monotonic() < deadline:
                terminated += len(admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND "
                    "objid = %s::oid AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                    (game,),
                ).fetchall())  # fmt: skip
                time.sleep(0.05)
        assert terminated > 0
        for proc in (ana, bob):
            code, out, err = proc.finish()
            assert code == 0, err
            assert out.splitlines()[-1].startswith("table cut: Game over: "), out
        played = b"".join(db_lines(pg_database, "cut"))
        assert strip_at(played) == strip_at(uninterrupted(PLAYERS, 8, 0, LEVELS, tmp_path))
        assert a.stop() == 0 and b.stop() == 0
