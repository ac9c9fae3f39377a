"""Two ``dvtui serve --store`` processes on one PostgreSQL database: a table opened through one is
listed, watched and played through the other; the one that played last killed with -9, the other
plays on, and once it is back its player finishes the game with the other; a follower that missed
notifications reads what it missed from the ``seq`` it has."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import psycopg
import pytest

from dvtui.bots import choose
from dvtui.engine import Game, new_game
from dvtui.play.face import News, Redealt
from dvtui.play.seats import parse_players
from dvtui.store import encode_line, parse_game
from dvtui.tables import RemoteSession, close_table

from ..support.files import strip_at
from ..support.pilot import WAIT
from ..support.postgres import db_lines
from ..support.processes import dvtui
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import Served, Watcher, short_dir, uninterrupted, wait_for

pytestmark = pytest.mark.postgresql

PLAYERS = "Ana,Bob,bot:greedy"
LEVELS = ["greedy", "random", "greedy"]


@contextlib.contextmanager
def two_servers(database: str) -> Iterator[tuple[Served, Served]]:
    with (
        short_dir() as d,
        Served(d / "a", {"DVTUI_STORE": database}) as a,
        Served(d / "b", {"DVTUI_STORE": database}) as b,
    ):
        a.start()
        b.start()
        yield a, b


def test_a_table_is_played_through_two_servers_and_survives_one_killed(pg_database: str, tmp_path: Path) -> None:
    with two_servers(pg_database) as (a, b):
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
        assert dvtui("verify", fetched).returncode == 0
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


def test_a_table_dealt_again_through_one_server_is_dealt_again_at_the_other(pg_database: str) -> None:
    """A finished table's name used for a new game through one server: the other's spectator of
    the old game is told to join again, and the other lists the new game."""
    with two_servers(pg_database) as (a, b):
        bots = "bot:random,bot:random,bot:random"
        assert a.dvtui("new", "--table", "re", "--players", bots, "--seed", "1").returncode == 0
        Watcher(a.place, "re").result()  # (a table nobody is at plays no bots)
        wait_for("the other server to see it end", lambda: b.dvtui("tables").stdout.startswith("re  game over"))
        spectator = RawClient(str(b.place.socket))
        spectator.hello()
        spectator.send({"type": "watch", "table": "re"})
        again = a.dvtui("new", "--table", "re", "--players", "Ana,Bob,Cy", "--seed", "2", "--start-now")
        assert again.returncode == 0, again.stderr
        while (message := spectator.receive()) is not None and message["type"] != "error":
            pass
        assert message is not None and "dealt again through another server" in message["message"]
        spectator.close()
        wait_for("the other server to list the new game", lambda: "Ana to move" in b.dvtui("tables").stdout)


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
    with two_servers(pg_database) as (a, b):
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


async def _until(what: str, check: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.02)


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
            async with asyncio.timeout(WAIT):
                while not (ana.game.over and bob.game.over):
                    for session in (ana, bob):
                        if session.human_to_move() is not None and not session.deciding:
                            session.place(choose("greedy", session.game.copy(), 1))
                    await asyncio.sleep(0.01)
            await _until("Bob to see both seats connected", lambda: [
                s.state for s in bob.presence().seats][:2] == ["connected", "connected"])  # fmt: skip
            ana.rematch(True)
            await _until("Bob to see Ana's proposal", lambda: bob.presence().rematch is not None)
            vote = bob.presence().rematch
            assert vote is not None and (vote.by, list(vote.accepted), list(vote.awaited)) == (0, [0], [1])
            bob.rematch(True)
            await _until("Bob's session to follow", lambda: any(isinstance(n, Redealt) for n in told))
            await _until("Ana's session to follow", lambda: any(isinstance(n, Redealt) for n in ana_told))
            bob_next = next(n.session for n in told if isinstance(n, Redealt))
            ana_next = next(n.session for n in ana_told if isinstance(n, Redealt))
            assert bob_next.game.created == ana_next.game.created
            assert bob_next.game.created.seed == ana.game.created.seed + 1  # (the next game, not a new table)
            await close_table(a.place, "rm")
            await _until("Bob's session to be told", lambda: bob_next.stopped is not None)
            assert bob_next.stopped is not None and bob_next.stopped.code == "closed", bob_next.stopped
        finally:
            for session in (ana, bob):
                session.close()
