"""Two ``dvtui serve --store`` processes on one PostgreSQL database: a table opened through one is
listed, watched and played through the other; the one that played last killed with -9, the other
plays on, and once it is back its player finishes the game with the other; a follower that missed
notifications reads what it missed from the ``seq`` it has."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from dvtui.engine import Game, new_game
from dvtui.play.seats import parse_players
from dvtui.store import encode_line, parse_game

from ..support.files import strip_at
from ..support.postgres import db_lines
from ..support.processes import dvtui
from ..support.raw import RawClient
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
