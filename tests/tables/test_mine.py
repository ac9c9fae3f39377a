"""``dvtui tables --mine``: the tables with a seat of one's own, the ones where it is one's turn first."""

from __future__ import annotations

import os
import pwd
import re

import msgspec

from dvtui.tables import SeatState, TableInfo, invited_by, played_with
from dvtui.tables.client import is_my_turn, mine_first

from ..support.raw import ask, speaking_for
from ..support.servers import Served, short_dir

ME = pwd.getpwuid(os.getuid()).pw_name


def _info(name: str, to_move: int | None, *seats: SeatState) -> TableInfo:
    return TableInfo(table=name, seats=list(seats), round=1, rounds=6, to_move=to_move, over=to_move is None)


def test_ones_turn_first_then_the_unfinished_then_the_finished_and_nobody_elses() -> None:
    mine = SeatState(seat=0, name="Me", kind="human", state="connected", user="me")
    kept = SeatState(seat=0, name="Me", kind="human", state="free", kept_for="me")
    taken = SeatState(seat=0, name="Me", kind="human", state="connected", user="eve", kept_for="me")
    other = SeatState(seat=1, name="Bob", kind="human", state="away", user="bob")
    infos = [
        _info("a-over", None, mine, other),
        _info("b-waiting", 1, mine, other),
        _info("c-yours", 0, mine, other),
        msgspec.structs.replace(_info("d-kept", 0, kept, other), opener="me"),  # kept by one's own table
        _info("e-bobs", 1, taken, other),  # kept for me once, taken by somebody else since
        _info("f-none", 0, other),
    ]
    assert [info.table for info in mine_first(infos, "me")] == ["c-yours", "d-kept", "b-waiting", "a-over"]


def test_a_game_kept_after_its_table_is_never_ones_turn_and_comes_last() -> None:
    """``--mine --all``: a game kept after its table (closed mid-game, its mover oneself) is
    nobody's to play any more."""
    mine = SeatState(seat=0, name="Me", kind="human", state="connected", user="me")
    other = SeatState(seat=1, name="Bob", kind="human", state="away", user="bob")
    closed = TableInfo(table="a.2026-11-20T10-00-00", seats=[mine, other], round=2, rounds=6, to_move=0,
                       kept="2026-11-20T10:00:00Z")  # fmt: skip
    infos = [closed, _info("b-over", None, mine, other), _info("c-yours", 0, mine, other)]
    assert not is_my_turn(closed, "me")
    assert [info.table for info in mine_first(infos, "me")] == ["c-yours", "b-over", closed.table]


def test_tables_mine_lists_ones_turn_first_from_a_server() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        for name, players in (
            ("aa", f"bot:random,{ME.title()},bot:random"),  # a bot's turn (nobody there: it waits)
            ("other", "Ana,Bob,bot:random"),
            ("zz", f"{ME.title()},bot:random,bot:random"),
        ):
            assert server.dvtui("new", "--table", name, "--players", players).returncode == 0
        listed = server.dvtui("tables", "--mine")
        assert listed.returncode == 0, listed.stderr
        lines = listed.stdout.splitlines()
        assert [line.split("  ")[0] for line in lines] == ["your turn: zz", "aa"], listed.stdout
        assert f"{ME.title()}: free, kept for {ME}" in lines[0]


def test_tables_mine_shows_the_time_left_on_a_clocked_turn() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        players = f"{ME.title()},bot:random,bot:random"
        assert server.dvtui("new", "--table", "clocked", "--players", players, "--move-time", "1h").returncode == 0
        assert server.dvtui("new", "--table", "free", "--players", players).returncode == 0
        listed = server.dvtui("tables", "--mine")
        assert listed.returncode == 0, listed.stderr
        lines = {line.split("  ")[0]: line for line in listed.stdout.splitlines()}
        assert re.search(r", (\d:)?\d\d:\d\d left  \[", lines["your turn: clocked"]), listed.stdout
        assert "move time 1h" in lines["your turn: clocked"]
        assert " left" not in lines["your turn: free"], listed.stdout


def test_a_seat_kept_for_one_by_a_stranger_is_an_invitation_never_ones_turn() -> None:
    """Anybody may name a seat after anybody: a table where all one has is a free seat kept for one
    by an opener one never played with comes last and says who invited one, never "your turn"; by
    somebody one plays with, it is one's table as any other."""
    kept = SeatState(seat=0, name="Me", kind="human", state="free", kept_for="me")
    mine = SeatState(seat=0, name="Me", kind="human", state="connected", user="me")
    bob = SeatState(seat=1, name="Bob", kind="human", state="away", user="bob")
    other = SeatState(seat=1, name="Mal", kind="human", state="connected", user="mal")
    urgent = msgspec.structs.replace(_info("URGENT", 0, kept, other), opener="mal")
    friendly = msgspec.structs.replace(_info("b-friendly", 0, kept, bob), opener="bob")
    played = _info("c-played", 1, mine, bob)
    infos = [urgent, friendly, played]
    known = played_with(infos, "me")
    assert known == {"me", "bob"}
    assert invited_by(urgent, "me", known) == "mal" and not is_my_turn(urgent, "me", known)
    assert invited_by(friendly, "me", known) is None and is_my_turn(friendly, "me", known)
    assert [info.table for info in mine_first(infos, "me")] == ["b-friendly", "c-played", "URGENT"]
    assert invited_by(_info("old-server", 0, kept, other), "me") == "?"  # the opener not said: a stranger


def test_tables_mine_says_who_invited_one_to_a_table_of_a_stranger() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        mal = speaking_for(str(server.place.socket), "mal")
        urgent = {"type": "open_table", "table": "URGENT-your-turn", "players": [ME, "web:mal", "bot:random"]}
        assert ask(mal, urgent, "opened")["type"] == "opened"
        listed = server.dvtui("tables", "--mine")
        assert listed.returncode == 0, listed.stderr
        assert listed.stdout.startswith("invited by web:mal: URGENT-your-turn  round 1/6, "), listed.stdout
        assert "your turn" not in listed.stdout
