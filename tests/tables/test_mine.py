"""``dvtui tables --mine``: the tables with a seat of one's own, the ones where it is one's turn first."""

from __future__ import annotations

import os
import pwd
import re

import msgspec

from dvtui.tables import SeatState, TableInfo, invited_by, played_with
from dvtui.tables.listing import is_my_turn, mine_first

from ..support.processes import dvtui
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import Served, in_thread, short_dir

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


def test_tables_mine_all_lists_the_games_kept_after_ones_tables_and_nobody_elses() -> None:
    """A game kept after its table (closed, or played before a rematch) names who sat at each seat
    (and whom a seat nobody took was kept for), so ``--mine --all`` finds it for them."""
    with short_dir() as d, in_thread(d) as server:
        me = RawClient(str(server.place.socket))  # the test's own account
        me.send({"type": "hello", "version": 1})
        assert me.until("welcome")["user"] == ME
        for name, players in (("sat", ["Ana", "Bob", "bot:random"]), ("invited", [ME, "Bob", "bot:random"]),
                              ("others", ["Ana", "Bob", "bot:random"])):  # fmt: skip
            opened = ask(me, {"type": "open_table", "table": name, "players": players, "seed": 3, "first_player": 1},
                         "opened")  # fmt: skip
            assert opened["type"] == "opened"
        place = {"type": "place", "seq": 1, "card": 1, "column": 0}  # (a game nobody decided in is not kept)
        assert ask(me, {"type": "join", "table": "sat", "seat": 1}, "joined")["seat"] == 1
        assert ask(me, place, "card_placed")["type"] == "card_placed"
        for name in ("invited", "others"):  # Bob sits and plays there, not the test's account
            bob = speaking_for(str(server.place.socket), "bob")
            assert ask(bob, {"type": "join", "table": name, "seat": 1}, "joined")["seat"] == 1
            assert ask(bob, place, "card_placed")["type"] == "card_placed"
            bob.close()
        for name in ("sat", "invited", "others"):
            me.send({"type": "close_table", "table": name})
            if name == "sat":  # seated there: told as everyone there is, then answered
                assert f"closed table {name}" in me.until("error")["message"]
            assert me.until("closed") == {"type": "closed", "table": name}
        listed = dvtui("tables", "--mine", "--all", "--server", d)
        assert listed.returncode == 0, listed.stderr
        names = [line.split(".")[0] for line in listed.stdout.splitlines()]
        assert names == ["invited", "sat"], listed.stdout


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


def test_who_took_a_free_seat_at_ones_own_table_is_no_one_one_played_with() -> None:
    """A squatter at a table one opened (a free seat kept for nobody, which anybody may take) does
    not become somebody one plays with: their "your turn" table with a seat named after one stays an
    invitation of theirs, listed last; the opener of a table one sat at, and its people, still are."""
    mine = SeatState(seat=0, name="Me", kind="human", state="connected", user="me")
    squatter = SeatState(seat=1, name="Cy", kind="human", state="connected", user="mal")
    kept = SeatState(seat=0, name="Me", kind="human", state="free", kept_for="me")
    bob = SeatState(seat=1, name="Bob", kind="human", state="away", user="bob")
    carol = SeatState(seat=2, name="Carol", kind="human", state="connected", user="carol")
    own = msgspec.structs.replace(_info("a-own", 1, mine, squatter), opener="me")
    bobs = msgspec.structs.replace(_info("b-bobs", 1, mine, bob, carol), opener="bob")
    urgent = msgspec.structs.replace(_info("URGENT", 0, kept, squatter), opener="mal")
    infos = [own, bobs, urgent]
    known = played_with(infos, "me")
    assert known == {"me", "bob", "carol"}
    assert invited_by(urgent, "me", known) == "mal" and not is_my_turn(urgent, "me", known)
    assert [info.table for info in mine_first(infos, "me")][-1] == "URGENT"
