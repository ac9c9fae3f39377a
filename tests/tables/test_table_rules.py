"""The table's rules without a socket (milliseconds): who may sit where, seats kept for somebody,
the seat a join without one means, seats taken over and released, stand-ins, spectators, presence
and whose bot moves. The socket tests (test_protocol, test_table_life, test_vouched, test_users)
keep what goes over the wire: codes, ``re``, messages sent to the right connection."""

from __future__ import annotations

import os

from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.registry import kept_for, lookalike_of
from dvtui.server.stores.base import TableRecord
from dvtui.server.table import BotTurn, Table
from dvtui.store import user_name
from dvtui.tables.seats import pick_seat
from dvtui.tables.tableinfo import SeatState
from dvtui.tables.wire import Owner

from ..support.guests import ANA_UID, BOB_UID, Guest, ana, bob, refused


def table(
    players: str = "Ana,Bob,Cy,bot:greedy", *, opener: Owner | None = ANA_UID, kept: dict[int, Owner] | None = None
) -> Table[Guest]:
    """A table of ``players``, its seats kept for whom the seats' names say, or as ``kept`` says."""
    seats = parse_players(players)
    created = new_game(seats, first_player=0, seed=5)
    n = len(seats)
    keep = kept_for(seats)
    for seat, owner in (kept or {}).items():
        keep[seat] = owner
    record = TableRecord(owners=[None] * n, stand_ins=[None] * n, opener=opener, kept_for=keep)
    return Table("t", PlaySession.start(created, None), record)


def states(t: Table[Guest]) -> list[str]:
    return [s.state for s in t.seat_states()]


def test_a_seat_taken_is_its_owners_for_the_game_and_others_are_refused() -> None:
    t = table()
    a = ana()
    sat = t.join(a, 0)
    assert sat.seat == 0 and sat.pushed is None and sat.changed
    assert t.record.owners[0] == ANA_UID and states(t) == ["connected", "free", "free", "bot"]
    message = refused("seat_taken", t.join, bob(), 0)
    assert message == f"Ana's seat at table t belongs to user {user_name(ANA_UID)}"
    t.leave(a)
    assert states(t)[0] == "away"  # still hers
    refused("seat_taken", t.join, bob(), 0)
    assert t.join(ana(), 0).changed is False  # back at her own seat: the record stays as it is


def test_a_person_sits_only_at_a_human_seat_that_exists() -> None:
    t = table()
    assert refused("no_seat", t.join, ana(), 3) == "seat 4 (Bot 1) is a bot's seat of table t, not a person's"
    assert refused("no_seat", t.join, ana(), 7) == "table t has no seat 8 (its seats are 1 to 4)"


def test_a_second_connection_of_the_same_identity_pushes_the_first_off_its_seat() -> None:
    t = table()
    first, second = ana(), ana()
    t.join(first, 0)
    sat = t.join(second, 0)
    assert sat.pushed is first and t.seated[0] is second and t.seat_of(first) is None


def test_a_seat_kept_for_somebody_is_theirs_alone() -> None:
    t = table("Zed,Bob,web:cy", kept={0: ANA_UID})
    message = refused("seat_taken", t.join, bob(), 0)
    assert message.startswith(f"Zed's seat at table t is kept for user {user_name(ANA_UID)}")
    assert "dvtui tables release t --seat 1" in message
    assert t.join(ana(), None).seat == 0  # kept for her: a join without a seat takes it
    assert refused("seat_taken", t.join, bob(), 2).startswith("web:cy's seat at table t is kept for web:cy")
    assert t.join(Guest("cy", "cy"), None).seat == 2  # a seat named web:NAME is kept for that person


def test_a_join_without_a_seat_takes_ones_own_away_seat_then_the_one_named_like_one() -> None:
    t = table(opener=None)
    b = bob()
    t.join(b, 2)  # Bob sits at Cy's seat, then drops
    t.leave(b)
    assert t.join(bob(), None).seat == 2  # his own seat, before the one named like him
    c = Guest(70003, "cy")
    message = refused("no_seat", t.join, c, None)  # Cy's seat is Bob's: he is asked to name one
    assert message == "say which seat you take at table t (dvtui join t --as SEAT): the free seats are Ana, Bob"
    assert t.join(Guest(70004, "BOB"), None).seat == 1  # named like him (casefold)


def test_the_opener_is_given_the_first_free_seat_and_nobody_else_is() -> None:
    t = table(opener=ANA_UID)
    assert t.join(Guest(ANA_UID, "zed"), None).seat == 0
    t2 = table(opener=BOB_UID)
    refused("no_seat", t2.join, Guest(ANA_UID, "zed"), None)


def test_one_whose_seat_is_open_elsewhere_is_asked_to_name_it() -> None:
    t = table(opener=None)
    t.join(ana(), 0)
    message = refused("no_seat", t.join, ana(), None)
    assert message == ("your seat Ana is open on another connection: name it to take it over here "
                       "(dvtui join t --as Ana), or a free seat (Bob, Cy)")  # fmt: skip


def test_a_full_table_says_to_watch() -> None:
    t = table("Ana,bot:greedy,bot:random", opener=None)
    t.join(ana(), 0)
    t.leave(t.seated[0])  # type: ignore[arg-type]
    assert refused("no_seat", t.join, bob(), None).endswith(f"watch the table instead (dvtui watch {t.name})")


def test_a_vouched_person_owns_apart_from_the_account_vouching() -> None:
    t = table(opener=None)
    t.join(Guest("ana", "ana"), 0)
    assert refused("seat_taken", t.join, Guest(ANA_UID, "ana"), 0) == "Ana's seat at table t belongs to web:ana"
    assert t.seat_states()[0].user == "web:ana"


def test_the_opener_or_the_operator_releases_a_seat_and_its_guest_is_pushed_off() -> None:
    t = table("Ana,Bob,bot:greedy", kept={1: BOB_UID})
    a = ana()
    t.join(a, 0)
    assert refused("not_opener", t.release, BOB_UID, 0, operator=0).startswith("only the opener of table t (")
    assert t.release(ANA_UID, 1, operator=0) is None  # kept for Bob: kept no more
    assert t.seat_states()[1].kept_for is None
    assert t.release(0, 0, operator=0) is a  # the server's own account
    assert t.record.owners[0] is None and t.seated[0] is None and states(t) == ["free", "free", "bot"]
    refused("no_seat", t.release, ANA_UID, 5, operator=0)


def test_a_seated_player_lets_a_bot_stand_in_for_an_away_seat_only() -> None:
    t = table(opener=None)
    a, b = ana(), bob()
    t.join(a, 0)
    t.join(b, 1)
    assert refused("not_away", t.stand_in, a, 1, "greedy") == "Bob is connected"
    refused("not_seated", t.stand_in, Guest(70009, "zed"), 1, "greedy")
    refused("no_seat", t.stand_in, a, 3, "greedy")
    t.leave(b)
    t.stand_in(a, 1, "greedy")
    assert t.seat_states()[1].stand_in == "greedy"
    assert t.join(bob(), 1).changed  # its owner is back: the stand-in goes
    assert t.record.stand_ins[1] is None


def test_spectators_are_bounded_per_table_and_a_seated_guest_stands_up_to_watch() -> None:
    t = table(opener=None)
    a = ana()
    t.join(a, 0)
    t.watch(a, 1)
    assert t.seated[0] is None and a in t.spectators and states(t)[0] == "away"
    t.watch(a, 1)  # already watching: not one more
    assert refused("busy", t.watch, bob(), 1) == "table t has 1 spectators, as many as a table may"
    assert t.presence().spectators == 1


def test_presence_says_each_seats_state_owner_and_bot_client() -> None:
    t = table(opener=None)
    t.join(Guest(ANA_UID, "ana", bot="greedy"), 0)
    seats = t.presence().seats
    assert seats[0] == SeatState(seat=0, name="Ana", kind="human", state="connected", user=user_name(ANA_UID),
                                 bot="greedy")  # fmt: skip
    assert seats[3].state == "bot"


def test_a_bot_moves_only_while_somebody_is_at_the_table() -> None:
    t = table("bot:greedy,Bob,bot:random", opener=None)
    assert t.bot_to_move() is None and t.account() is None
    b = bob()
    t.watch(b, 10)
    turn = t.bot_to_move()
    assert turn is not None and turn.seat == 0 and turn.level == "greedy" and not turn.standing_in
    assert t.account() == BOB_UID
    t.stop("server", "stopped", 1)
    assert t.bot_to_move() is None  # a stopped table: no more moves


def test_a_stand_in_moves_for_an_away_seat_with_the_seats_hint_seed() -> None:
    t = table("Ana,Bob,bot:greedy", opener=None)
    a, b = ana(), bob()
    t.join(a, 0)
    t.join(b, 1)
    t.leave(a)
    assert t.bot_to_move() is None  # Ana to move, nobody stands in
    t.stand_in(b, 0, "greedy")
    assert t.bot_to_move() == BotTurn(0, "greedy", t.session.hint_seed(0), standing_in=True)
    assert t.account() == BOB_UID  # charged to the person seated


def _seat(seat: int, name: str, state: str, user: str | None = None, kept_for: str | None = None) -> SeatState:
    return SeatState(seat=seat, name=name, kind="bot" if state == "bot" else "human", state=state,  # type: ignore[arg-type]
                     user=user, kept_for=kept_for)  # fmt: skip


def test_pick_seat_one_order_for_the_server_and_the_seat_chooser() -> None:
    seats = [
        _seat(0, "Ana", "free"),
        _seat(1, "Bob", "free", kept_for="bob"),
        _seat(2, "Cy", "away", user="bob"),
        _seat(3, "Di", "free", kept_for="di"),
    ]
    assert pick_seat(seats, "bob", "bob") == 2  # one's own away seat first
    seats[2] = _seat(2, "Cy", "away", user="cy")
    assert pick_seat(seats, "bob", "ana") == 1  # then the free seat kept for one, before the one named like one
    assert pick_seat(seats, "zed", "ana") == 0  # then the one named like one
    assert pick_seat(seats, "zed", "di") is None  # kept for somebody else: not offered
    assert pick_seat(seats, "zed", "zed") is None


def test_one_seated_already_is_given_no_second_seat_by_chance_but_their_away_one() -> None:
    t = table("Ana,Bob,Cy,bot:greedy", opener=ANA_UID, kept={2: ANA_UID})
    first, second = ana(), ana()
    t.join(first, 1)
    t.join(second, 0)
    message = refused("no_seat", t.join, ana(), None)  # not Cy, kept for her
    assert message.startswith("your seat Ana is open on another connection")
    t.leave(first)
    assert t.join(ana(), None).seat == 1  # her seat left away: given back


def test_a_released_squatter_takes_no_seat_of_the_game_again_unless_handed_one() -> None:
    t = table("Ana,Bob,Cy,bot:greedy", kept={1: BOB_UID})
    squatter = Guest(70009, "zed")
    t.join(squatter, 2)
    assert t.release(ANA_UID, 2, operator=0) is squatter
    message = refused("no_seat", t.join, Guest(70009, "zed"), 2)
    assert message == (
        "the opener of table t released you from its seats for this game: watch it, or ask them to hand you a seat"
    )
    refused("no_seat", t.join, Guest(70009, "zed"), 0)  # nor another free seat
    t.join(Guest(70010, "cy"), 2)  # anybody else may
    t.release(ANA_UID, 2, operator=0, to=70009)  # handed back: kept for him alone
    assert t.seat_states()[2].kept_for == user_name(70009)
    refused("seat_taken", t.join, Guest(70010, "cy"), 2)
    assert t.join(Guest(70009, "zed"), 2).seat == 2
    assert t.next_record("t.2026.dvr").released == []  # a new game: everyone may sit again


def test_the_opener_hands_a_seat_to_a_bot_for_the_rest_of_the_game() -> None:
    t = table("Ana,Bob,Cy,bot:greedy")
    t.join(Guest(70009, "zed"), 2)
    t.release(ANA_UID, 2, operator=0, bot="strong")
    seat = t.seat_states()[2]
    assert (seat.state, seat.stand_in, seat.resigned, seat.stand_in_by) == ("free", "strong", True, None)
    refused("no_seat", t.join, Guest(70010, "cy"), 2)
    assert t.release(ANA_UID, 2, operator=0) is None and t.seat_states()[2].stand_in is None  # free again


def test_a_co_players_stand_in_is_the_tables_level_after_the_grace_and_never_for_a_seat_kept_for_someone() -> None:
    clock = [100.0]
    seats = parse_players("Ana,Bob,Cy")
    keep = kept_for(seats)
    keep[2] = 70011  # invited, never came
    record = TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=ANA_UID, kept_for=keep)
    t = Table("t", PlaySession.start(new_game(seats, first_player=0, seed=5), None), record, now=lambda: clock[0])
    a, b = ana(), bob()
    t.join(a, 0)
    t.join(b, 1)
    message = refused("no_seat", t.stand_in, a, 2, "random", grace=30.0)
    assert message == f"Cy is kept for user {user_name(70011)}, who has not sat yet: nobody else lets a bot play it"
    t.leave(b)
    clock[0] += 29.0
    assert refused("not_away", t.stand_in, a, 1, "random", grace=30.0) == (
        "Bob has been away 29 s: a bot may stand in once 30 s have passed"
    )
    clock[0] += 1.0
    assert t.stand_in(a, 1, "random", grace=30.0) == "greedy"  # the table's level, not the asker's
    seat = t.seat_states()[1]
    assert (seat.stand_in, seat.stand_in_by) == ("greedy", user_name(ANA_UID))
    assert t.join(bob(), 1).changed and t.record.stand_in_by[1] is None  # its owner is back: the bot goes


def test_the_opener_gives_a_running_table_a_clock_and_may_shorten_it_not_lengthen_it() -> None:
    clock = [0.0]
    seats = parse_players("Ana,Bob,Cy")
    record = TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=ANA_UID, kept_for=kept_for(seats))
    t = Table("t", PlaySession.start(new_game(seats, first_player=0, seed=5), None), record, now=lambda: clock[0])
    assert t.move_left() is None
    refused("not_opener", t.set_clock, BOB_UID, 60, operator=0)
    t.set_clock(ANA_UID, 3600, operator=0)
    assert (t.record.move_time, t.move_left()) == (3600, 3600.0)
    clock[0] += 100.0
    t.set_clock(0, 600, operator=0)  # the server's own account too
    assert t.move_left() == 600.0
    assert refused("illegal", t.set_clock, ANA_UID, 601, operator=0).startswith("table t has a move time of 600 s")
    clock[0] += 600.0
    assert t.tick() == "overdue"


def test_a_seat_name_that_reads_as_an_account_without_naming_it_is_told() -> None:
    me = user_name(os.getuid())
    spoof = me.replace("o", "\u043e", 1).replace("a", "\u0430", 1)  # Cyrillic о and а, if it has them
    styled = "".join(chr(0x1D41A + ord(c) - ord("a")) if "a" <= c <= "z" else c for c in me)  # bold letters
    assert lookalike_of(styled) == me.casefold()
    if spoof != me:
        assert lookalike_of(spoof) == me.casefold()
    assert lookalike_of(me) is None and lookalike_of("Cy") is None  # its own name; nobody's
