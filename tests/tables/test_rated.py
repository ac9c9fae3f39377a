"""Rated tables end to end, with three real accounts (the server's own and two more, run with
``setpriv``): a rated game's end moves each person's rating once, the winner's up and the last's
down, as ``dvtui ratings`` and ``dvtui profile`` show; a server killed with -9 after the game's last
line, started again, neither loses the update (its record missing, it is made again from the game)
nor doubles it (its record there, the game counts once); on files and on PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import os
import pwd
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from dvtui.engine import GameEnded
from dvtui.ratings import NEWCOMER
from dvtui.store import read_game
from dvtui.tables import RemoteSession, open_table
from dvtui.tables.ratingwords import chart

from ..support.postgres import on_database
from ..support.processes import dvtui, one_error_line
from ..support.raw import RawClient
from ..support.servers import Served, Threaded, as_other, in_thread, play_out, short_dir, wait_for, wait_until
from ..support.sshd import OTHER, unix_account

pytestmark = pytest.mark.root

THIRD = "dvtuirated"
"""A third account on this host, made once and kept (as :data:`OTHER`)."""


def _seat_people(server: Served, table: str) -> list[str]:
    """Open rated ``table`` for three people, each seat taken by its own account, the other two
    then away with a bot standing in; root's seat is played to the end by a greedy bot client.
    The accounts in seat order."""
    bob, cy = unix_account(OTHER), unix_account(THIRD)
    opened = server.dvtui("new", "--table", table, "--players", "Ana,Bob,Cy", "--seed", "11", "--rated",
                          "--start-now")  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    sock = server.place.socket
    for seat, user in ((1, bob), (2, cy)):
        _hello, joined = as_other(user, sock, [
            {"type": "hello", "version": 1, "expect": "welcome"},
            {"type": "join", "table": table, "seat": seat, "expect": "joined"},
        ])  # fmt: skip
        assert joined["seat"] == seat, joined
    ana = RawClient(str(sock))
    ana.hello()
    ana.send({"type": "join", "table": table, "seat": 0})
    assert ana.until("joined")["seat"] == 0
    for seat in (1, 2):
        ana.send({"type": "stand_in", "seat": seat, "bot": "greedy"})
    wait_for("the stand-ins", lambda: server.listed().count("bot standing in") >= 2, server.log)
    ana.close()
    player = server.player(table, "Ana")
    code, _out, err = player.finish()
    assert code == 0, err
    return [pwd.getpwuid(os.geteuid()).pw_name, bob.pw_name, cy.pw_name]


def _standings(server: Served) -> dict[str, dict[str, Any]]:
    done = server.dvtui("ratings", "--json")
    assert done.returncode == 0, done.stderr
    return {line["account"]: line for line in json.loads(done.stdout)["standings"]}


def _places(scores: list[int]) -> list[int]:
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def _rated_game_moves_people_once(server: Served, forget_records: Callable[[], None]) -> None:
    accounts = _seat_people(server, "rt")
    first = _standings(server)
    assert sorted(first) == sorted(accounts)
    assert all(line["games"] == 1 for line in first.values())
    end = server.dvtui("tables")
    assert "rt  game over" in end.stdout and "rated" in end.stdout, end.stdout
    fetched = server.directory.parent / "rt.dvr"
    assert server.dvtui("fetch", "rt", "-o", str(fetched)).returncode == 0
    ended = read_game(fetched).events[-1]
    assert isinstance(ended, GameEnded)
    places = _places(list(ended.scores))
    newcomer = NEWCOMER.shown
    winner = accounts[places.index(1)]
    last = accounts[places.index(max(places))]
    assert first[winner]["shown"] > newcomer and first[winner]["mu"] > NEWCOMER.mu
    assert first[last]["mu"] < NEWCOMER.mu  # (its sigma shrinks too: the shown number is the model's cautious one)
    assert first[winner]["rank"] == 1

    shown = server.dvtui("profile", winner)
    assert shown.returncode == 0, shown.stderr
    assert f"{winner}: rating {first[winner]['shown']}" in shown.stdout
    assert "table rt game 1: place 1 of 3" in shown.stdout and "dvtui fetch rt --game 1" in shown.stdout
    assert "\x1b" not in shown.stdout  # a chart of text, no colour

    server.kill9()  # its record kept: started again, the game counts once
    server.start()
    assert _standings(server) == first
    server.kill9()  # as if killed after the game's last line, before its record: made again from the game
    forget_records()
    server.start()
    assert _standings(server) == first
    assert "kept from its game at the start" in server.log()
    assert server.stop() == 0


def test_a_rated_game_moves_each_person_once_through_a_kill_9() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        os.chmod(server.directory, 0o755)  # who may enter the directory may reach the server
        server.start("--limit", "stand-in-grace=0.001")
        rated = server.directory / "games" / "rated.jsonl"
        _rated_game_moves_people_once(server, lambda: rated.unlink())


@pytest.mark.postgresql
def test_a_rated_game_in_postgresql_moves_each_person_once_through_a_kill_9(pg_database: str) -> None:
    def forget() -> None:
        with psycopg.connect(pg_database, autocommit=True) as conn:
            conn.execute("DELETE FROM dvtui_ratings")

    with short_dir() as d, Served(d / "srv", {"DVTUI_STORE": pg_database}) as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        os.chmod(server.directory, 0o755)
        server.start("--limit", "stand-in-grace=0.001")
        _rated_game_moves_people_once(server, forget)


def test_bad_input_to_ratings_and_profile_is_one_line_and_no_server_is_asked(threaded: Threaded) -> None:
    for args, about in (
        (("ratings", "--top", "0"), "--top 0: give 1 to 1000"),
        (("ratings", "--top", "1001"), "--top 1001: give 1 to 1000"),
        (("profile", "ana\x1b[2Jb"), "'ana\\x1b[2Jb': not an account's name"),
        (("profile", "a" * 45), f"'{'a' * 45}': not an account's name"),
    ):
        done = threaded.dvtui(*args, real=True)  # the exit code and the one line a shell gets
        assert done.returncode == 2, done.stderr
        assert one_error_line(done.stderr).startswith(about), done.stderr
    alone = dvtui("new", "--rated", "--players", "Ana,Bob,Cy")
    assert alone.returncode == 2
    assert one_error_line(alone.stderr) == "--rated goes with --table NAME"
    assert "opened\n" not in threaded.log() and "ratings" not in threaded.log()


def test_a_profile_without_rated_games_and_the_empty_leaderboard_say_so(threaded: Threaded) -> None:
    board = threaded.dvtui("ratings", real=True)
    assert board.returncode == 0 and board.stdout.startswith("no rated games at "), board.stderr
    nobody = threaded.dvtui("profile", "web:nobody")
    assert nobody.returncode == 0, nobody.stderr
    assert nobody.stdout == f"web:nobody has no rated game yet (a newcomer's rating: {NEWCOMER.shown}, provisional)\n"
    listed = json.loads(threaded.dvtui("profile", "web:nobody", "--json").stdout)
    assert listed["standing"]["rank"] == 0 and listed["history"] == []


def test_the_profiles_chart_is_text_with_its_numbers() -> None:
    rows = chart([1023, 1100, 1060, 1180])
    assert rows[0] == "1180 |   *" and rows[-3] == "1023 |*   "
    assert rows[-2] == "     +----" and rows[-1].strip() == "the last 3 rated games"
    assert all(row.isprintable() for row in rows)


@pytest.mark.postgresql
async def test_a_rated_games_end_is_kept_by_a_server_that_follows_the_one_that_ended_it(pg_database: str) -> None:
    """Server ``a`` keeps no rated game's end (as if killed right after the game's last line):
    server ``b``, on the same database, follows the table's lines and keeps the end itself."""
    with short_dir() as d:
        for name in ("a", "b"):
            (d / name).mkdir(mode=0o700)
        with in_thread(d / "a", **on_database(pg_database, d / "a" / "games")) as a:
            a.backing = dataclasses.replace(a.backing, ended=None)
            a.hall.backing = a.following.backing = a.backing
            with in_thread(d / "b", **on_database(pg_database, d / "b" / "games")) as b:
                await open_table(a.place, "rr", ["Ana", "bot:club", "bot:greedy"], seed=3, wait=False, rated=True)
                await wait_until("b to have the table", lambda: "rr" in b.hall.tables)
                ana = await RemoteSession.open(a.place, "rr", seat=0)
                try:
                    await play_out(ana)
                finally:
                    ana.close()
                await wait_until("b to keep the game's end", lambda: b.rater.ledger.games() == 1)
                assert a.rater.ledger.games() == 0
                me = pwd.getpwuid(os.geteuid()).pw_name
                assert b.rater.ledger.profile(me).standing.games == 1
                with psycopg.connect(pg_database, autocommit=True) as conn:
                    assert conn.execute("SELECT count(*) FROM dvtui_ratings").fetchone() == (1,)


@pytest.mark.postgresql
def test_a_rated_row_committed_after_a_later_numbered_one_is_still_read(pg_database: str, tmp_path: Any) -> None:
    from dvtui.server.stores.pg import PgStore

    store = PgStore(pg_database, tmp_path)
    try:
        with psycopg.connect(pg_database, autocommit=True) as conn:
            conn.execute("INSERT INTO dvtui_ratings (n, game, record) VALUES (5, 'b', 'B')")
            assert store.rated_since(0) == ([b"B"], 5)
            conn.execute("INSERT INTO dvtui_ratings (n, game, record) VALUES (3, 'a', 'A')")  # (drawn first, later)
        assert b"A" in store.rated_since(5)[0]
        store.keep_rated("b", b"other")  # one row per game: the first kept stays
        assert sorted(store.rated_since(0)[0]) == [b"A", b"B"]
    finally:
        store.close()


def test_a_client_written_from_the_protocol_reads_the_leaderboard_and_a_profile(threaded: Threaded) -> None:
    raw = RawClient(str(threaded.place.socket))
    try:
        assert "ratings" in raw.hello(["ratings"])["features"]
        raw.send({"type": "ratings", "top": 5})
        assert raw.until("leaderboard") == {"type": "leaderboard", "standings": []}  # (accounts: 0, left out)
        raw.send({"type": "profile", "account": "web:eve\u202e"})
        answer = raw.until("player_profile")
        assert answer["standing"]["rank"] == 0 and answer["standing"]["games"] == 0 and answer["history"] == []
        for bad in (
            {"type": "ratings", "top": 0},
            {"type": "ratings", "top": 1001},
            {"type": "profile", "account": "a" * 45},
        ):
            raw.send(bad)
            refused = raw.until("error")
            assert refused["code"] == "bad_message", refused
        raw.send({"type": "open_table", "table": "rt", "players": ["Ana", "Bob", "Cy"], "rated": True})
        assert raw.until("opened")["table"] == "rt"
        raw.send({"type": "list_tables"})
        assert raw.until("tables")["tables"][0]["rated"] is True
    finally:
        raw.close()
    older = RawClient(str(threaded.place.socket))
    try:
        older.hello()  # a client that did not name ``ratings`` reads no ``rated``
        older.send({"type": "list_tables"})
        assert "rated" not in older.until("tables")["tables"][0]
    finally:
        older.close()
