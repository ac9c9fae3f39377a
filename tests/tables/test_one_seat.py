"""One free seat a person: an account that holds a seat of a table takes no second seat kept for
nobody (with a few connections it would hold every such seat, and a table without a clock waits
at each of them for ever), while the seats its opener chose for them, and the opener's own table,
are theirs to take."""

from __future__ import annotations

from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.registry import kept_for
from dvtui.server.stores.base import TableRecord
from dvtui.server.table import Table, owner_name
from dvtui.tables.wire import Owner

from ..support.guests import ANA_UID, BOB_UID, Guest, bob, refused

MAL_UID = 70066


def table(players: str = "Ana,Bob,Cy,Dan", opener: Owner = ANA_UID) -> Table[Guest]:
    seats = parse_players(players)
    record = TableRecord(owners=[None] * len(seats), stand_ins=[None] * len(seats), opener=opener,
                         kept_for=kept_for(seats))  # fmt: skip
    return Table("t", PlaySession.start(new_game(seats, first_player=0, seed=5), None), record)


def mal() -> Guest:
    return Guest(MAL_UID, "mal")


def test_a_co_user_holding_a_seat_takes_no_second_free_one_through_another_connection() -> None:
    t = table()
    assert t.join(mal(), 1).seat == 1
    message = refused("no_seat", t.join, mal(), 2)
    assert message == ("you hold seat 2 (Bob) at table t already: one free seat a person, unless its opener "
                       f"hands you another (dvtui tables release t --seat 3 --to {owner_name(MAL_UID)})")  # fmt: skip
    t.leave(t.seated[1])  # type: ignore[arg-type]
    refused("no_seat", t.join, mal(), 3)  # away from the seat held: still one's seat
    assert t.record.owners == [None, MAL_UID, None, None]
    assert t.join(bob(), 2).seat == 2  # the others' seats are still free for the others


def test_moving_to_another_free_seat_is_refused_too_and_a_resigned_seat_still_counts() -> None:
    t = table()
    m = mal()
    t.join(m, 1)
    refused("no_seat", t.join, m, 3)
    assert t.seat_of(m) == 1
    t.resign(MAL_UID, "greedy")
    refused("no_seat", t.join, mal(), 3)  # resigning does not buy a new seat


def test_a_seat_the_opener_hands_or_keeps_for_one_is_taken_whatever_else_one_holds() -> None:
    t = table()
    t.join(mal(), 1)
    t.release(ANA_UID, 3, operator=0, to=MAL_UID)
    assert t.join(mal(), 3).seat == 3
    t2 = table("Ana,Bob,Cy", opener=BOB_UID)
    t2.record.kept_for[2] = ANA_UID  # invited
    t2.join(Guest(ANA_UID, "ana"), 1)
    assert t2.join(Guest(ANA_UID, "ana"), 2).seat == 2


def test_the_opener_may_take_every_free_seat_of_their_own_table() -> None:
    t = table()
    for seat in range(4):
        assert t.join(Guest(ANA_UID, "ana"), seat).seat == seat
    assert t.record.owners == [ANA_UID] * 4
