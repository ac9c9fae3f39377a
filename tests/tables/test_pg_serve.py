"""``dvtui serve --store postgresql://...``: a whole game through real processes on a real
PostgreSQL (the server killed with -9 and started again while its clients wait), the tables listed
and fetched as from files, a bad connection string refused in one line, and a file store's games
moved into the database and back."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.store import parse_game

from ..support.files import strip_at
from ..support.postgres import Cluster, db_lines
from ..support.processes import dvtui, in_process, one_error_line
from ..support.servers import Served, Threaded, Watcher, short_dir, uninterrupted, wait_for

pytestmark = pytest.mark.postgresql

PLAYERS = "Ana,Bob,Cy"
LEVELS = ["greedy", "random", "greedy"]


def test_a_table_kept_in_postgresql_survives_its_server_killed_mid_round(pg_database: str, tmp_path: Path) -> None:
    with short_dir() as d, Served(d / "srv", {"DVTUI_STORE": pg_database}) as server:
        server.start()
        opened = server.dvtui("new", "--table", "crash", "--players", PLAYERS, "--seed", "8", "--start-now")
        assert opened.returncode == 0, opened.stderr
        assert not (d / "srv" / "games" / "crash.dvr").exists()  # in the database, not in a file
        watcher = Watcher(server.place, "crash")
        ana, bob = server.player("crash", "Ana"), server.player("crash", "Bob", "random")
        wait_for("two placements", lambda: len(db_lines(pg_database, "crash")) == 3)
        server.kill9()
        assert len(db_lines(pg_database, "crash")) == 3  # nothing acknowledged was lost
        wait_for("the clients to notice", lambda: "reconnecting" in ana.stderr())
        server.start()
        assert "table crash reopened at line 3" in server.log()
        cy = server.player("crash", "Cy")
        for proc in (ana, bob, cy):
            code, out, err = proc.finish()
            assert code == 0, err
            assert out.splitlines()[-1].startswith("table crash: Game over: ")
        played = b"".join(db_lines(pg_database, "crash"))
        assert strip_at(played) == strip_at(uninterrupted(PLAYERS, 8, 0, LEVELS, tmp_path))
        seen = watcher.result()
        assert "reconnecting" in watcher.statuses and watcher.statuses[-1] == "connected"
        assert seen == parse_game(played).events  # the spectator saw every line
        listed = server.dvtui("tables")
        assert listed.stdout.startswith("crash  game over"), listed.stdout
        fetched = tmp_path / "crash.dvr"
        assert server.dvtui("fetch", "crash", "-o", str(fetched)).returncode == 0
        assert fetched.read_bytes() == played  # byte for byte what the database holds
        verified = in_process("verify", fetched)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert server.stop() == 0


@pytest.mark.long
def test_postgresql_stopped_hard_and_started_again_loses_nothing_and_nobody_has_to_come_back(
    pg_cluster: Cluster, pg_database: str, tmp_path: Path
) -> None:
    """PostgreSQL stopped as by a crash (``pg_ctl stop -m immediate``) while a decision is being
    saved: the server waits for it, and once it is back the game goes on; every line acknowledged
    is there, and the players and the spectator never lost their connection."""
    with short_dir() as d, Threaded(d / "srv", pg_database) as server:  # (no process's death here)
        server.start()
        opened = server.dvtui("new", "--table", "pgdown", "--players", PLAYERS, "--seed", "8", "--start-now")
        assert opened.returncode == 0, opened.stderr
        watcher = Watcher(server.place, "pgdown")
        ana, bob = server.player("pgdown", "Ana"), server.player("pgdown", "Bob", "random")
        wait_for("two placements", lambda: len(db_lines(pg_database, "pgdown")) == 3)  # Cy has nobody yet
        acknowledged = db_lines(pg_database, "pgdown")
        pg_cluster.stop("immediate")
        try:
            cy = server.player("pgdown", "Cy")
            wait_for("the server to wait for the database", lambda: "the database is away" in server.log())
        finally:
            pg_cluster.start()
        wait_for("the database to be back", lambda: "the database is back" in server.log())
        for proc in (ana, bob, cy):
            code, out, err = proc.finish()
            assert code == 0, err
            assert out.splitlines()[-1].startswith("table pgdown: Game over: ")
            assert "reconnecting" not in err
        played = db_lines(pg_database, "pgdown")
        assert played[:3] == acknowledged
        assert strip_at(b"".join(played)) == strip_at(uninterrupted(PLAYERS, 8, 0, LEVELS, tmp_path))
        assert watcher.result() == parse_game(b"".join(played)).events
        assert watcher.statuses == []
        assert "has stopped" not in server.log()
        assert server.stop() == 0


@pytest.mark.parametrize(
    ("conninfo", "code", "says"),
    [
        ("nosuchoption=1", 2, "not a PostgreSQL connection string or URL"),
        ("host=/nonexistent dbname=x", 1, "the database cannot be reached"),
    ],
)
def test_a_store_that_cannot_be_used_is_one_error_line(tmp_path: Path, conninfo: str, code: int, says: str) -> None:
    done = dvtui("serve", "--dir", str(tmp_path / "srv"), "--store", conninfo)
    assert done.returncode == code
    assert says in one_error_line(done.stderr)
    assert not (tmp_path / "srv").exists()  # nothing made for a server that never started


def test_a_file_stores_games_move_into_the_database_and_back(pg_database: str, tmp_path: Path) -> None:
    """(``serve --import`` and ``--export`` run once and end: run by this process, as a process would.)"""
    with short_dir() as d, Threaded(d / "srv") as server:
        server.start()
        for table, players in (("one", "bot:random,bot:random,bot:random"), ("two", PLAYERS)):
            assert server.dvtui("new", "--table", table, "--players", players, "--seed", "3").returncode == 0
        Watcher(server.place, "one").result()  # (a table nobody is at plays no bots)
        nothing = in_process("serve", "--store", pg_database, "--import", str(d))
        assert nothing.returncode == 1 and "no games directory in it" in one_error_line(nothing.stderr)
        refused = in_process("serve", "--store", pg_database, "--import", str(d / "srv"))
        assert refused.returncode == 1 and "stop it first" in one_error_line(refused.stderr)
        assert server.stop() == 0
        files = {name: server.game_file(name).read_bytes() for name in ("one", "two")}

        moved = in_process("serve", "--store", pg_database, "--import", str(d / "srv"))
        assert moved.returncode == 0, moved.stderr
        assert moved.stdout == "imported 2 games into the database (0 there already, 0 unreadable)\n"
        again = in_process("serve", "--store", pg_database, "--import", str(d / "srv"))
        assert again.stdout == "imported 0 games into the database (2 there already, 0 unreadable)\n"
        assert {name: b"".join(db_lines(pg_database, name)) for name in files} == files
        with Threaded(d / "pg", pg_database) as from_database:  # served from the database
            from_database.start()
            listed = from_database.dvtui("tables").stdout.splitlines()
            assert [line.split("  ")[:2] for line in listed] == [
                ["one", "game over"],
                ["two", "waiting room, waiting for Ana, Bob, Cy (or 'dvtui tables start two')"],
            ]
            assert from_database.stop() == 0

        back = in_process("serve", "--store", pg_database, "--export", str(d / "back"))
        assert back.returncode == 0, back.stderr
        assert {name: (d / "back" / "games" / f"{name}.dvr").read_bytes() for name in files} == files
        assert (d / "back" / "games" / "two.table.json").read_bytes() == (
            (d / "srv" / "games" / "two.table.json").read_bytes()
        )

        with Threaded(d / "back") as from_files:  # the exported directory serves as it is
            from_files.start()
            assert "two  waiting room" in from_files.dvtui("tables").stdout
