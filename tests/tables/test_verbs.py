"""A table's verbs without a socket: :mod:`dvtui.server.verbs` over a live table of fake
connections (tests/support/visitors.py) on a ``FileStore`` in ``tmp_path``. Each verb checks the
table's rules, keeps the record its rule changed, logs it and tells those at the table; what the
server must do of its connections (those a closed table let go, a rematch to deal) it returns."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.bots import choose
from dvtui.server import verbs
from dvtui.server.clocks import AliveStamp
from dvtui.server.followers import Followers
from dvtui.server.hall import Hall
from dvtui.server.limits import Limits
from dvtui.server.live import LiveTable
from dvtui.server.pool import MaxBudget
from dvtui.server.registry import TableLimits
from dvtui.server.stores.files import FileStore
from dvtui.server.table import STAND_IN, Refusal
from dvtui.tables.protocol import Place, Undo
from tests.support.visitors import Visitor, live_table, seat

ANA, BOB = 70001, 70002


@pytest.fixture
def logged() -> list[str]:
    return []


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FileStore]:
    yield FileStore(tmp_path)


def _refused(code: str) -> pytest.RaisesExc[Refusal]:
    return pytest.raises(Refusal, check=lambda e: e.code == code)


async def _play_out(table: LiveTable) -> None:
    """Every placement of the table's game made, until it is over."""
    while not table.over:
        game = table.session.game
        player = game.to_move
        placement = choose("greedy", game, player)
        await table.commit(lambda session, at=placement, by=player: session.place(at, player=by))


async def test_a_seat_taken_is_kept_and_pushes_off_the_same_persons_other_connection(
    store: FileStore, logged: list[str]
) -> None:
    table = live_table(store, logged)
    first, second = Visitor(ANA, "ana"), Visitor(ANA, "ana")
    sat = await verbs.join(table, first.conn, 0)
    table.arrive(first.conn, 0, sat.seat, None)
    assert store.record("t") is not None and store.record("t").owners[0] == ANA  # type: ignore[union-attr]
    assert (await verbs.join(table, second.conn, 0)).seat == 0
    assert first.closed and first.table is None and first.received()[-1]["code"] == "taken_over"
    assert "ana sits at t seat 1 (ana)" in logged
    with _refused("seat_taken"):  # ana's seat is hers: bob takes none of it
        await verbs.join(table, Visitor(BOB, "bob").conn, 0)
    assert store.record("t").owners == [ANA, None, None]  # type: ignore[union-attr]


async def test_arriving_sends_the_game_from_where_the_client_is(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged)
    ana = Visitor(ANA, "ana")
    table.arrive(ana.conn, 0, None, "label")
    assert ana.types()[:2] == ["joined", "game_created"] and ana.table is table
    assert ana.received()[0]["label"] == "label"


async def test_a_stand_in_plays_an_away_seat_once_its_grace_is_over(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged, "ana,bob,carl")
    ana, bob = Visitor(ANA, "ana"), Visitor(BOB, "bob")
    seat(table, ana, 0)
    seat(table, bob, 1)
    with _refused("not_away"):  # bob is here
        await verbs.stand_in(table, ana.conn, 1, "random", grace=0)
    table.leave(bob.conn)
    bob.table = None
    with _refused("not_away"):  # bob left a moment ago: his connection may come back
        await verbs.stand_in(table, ana.conn, 1, "random", grace=3600)
    await verbs.stand_in(table, ana.conn, 1, "random", grace=0)
    kept = store.record("t")
    assert kept is not None and kept.stand_ins[1] == STAND_IN and kept.stand_in_by[1] == ANA
    with _refused("not_seated"):  # only who sits here lets a bot play
        await verbs.stand_in(table, bob.conn, 2, "random", grace=0)


async def test_a_resigned_seat_is_a_bots_to_the_end(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged, "ana,bob,carl")
    ana = Visitor(ANA, "ana")
    seat(table, ana, 0)
    table.record.owners[0] = ANA
    await verbs.resign(table, ana.conn)
    kept = store.record("t")
    assert kept is not None and kept.resigned[0] and kept.stand_ins[0] == verbs.RESIGNED_BOT
    assert ana.seat is None and any("resigned at t seat 1" in line for line in logged)
    with _refused("not_seated"):
        await verbs.resign(table, Visitor(BOB, "bob").conn)


async def test_the_opener_releases_a_seat_and_pushes_off_who_sat_there(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged, "ana,bob,carl", opener=ANA)
    ana, bob = Visitor(ANA, "ana"), Visitor(BOB, "bob")
    seat(table, ana, 0)
    seat(table, bob, 1)
    with _refused("not_opener"):
        await verbs.release(table, bob.conn, 0, to=None, bot=None)
    await verbs.release(table, ana.conn, 1, to=None, bot=None)
    assert bob.closed and bob.table is None and bob.received()[-1]["code"] == "taken_over"
    assert ana.received()[-1] == {"type": "released", "table": "t", "seat": 1}
    kept = store.record("t")
    assert kept is not None and kept.owners[1] is None and BOB in kept.released


async def test_the_opener_starts_a_waiting_room_with_stand_ins_for_the_empty_seats(
    store: FileStore, logged: list[str]
) -> None:
    table = live_table(store, logged, "ana,bob,carl", opener=ANA, started=False)
    ana = Visitor(ANA, "ana")
    seat(table, ana, 0)
    table.record.owners[0] = ANA
    with _refused("not_opener"):
        await verbs.start(table, Visitor(BOB, "bob").conn)
    await verbs.start(table, ana.conn)
    kept = store.record("t")
    assert kept is not None and kept.started and kept.stand_ins == [None, STAND_IN, STAND_IN]
    assert ana.types()[-1] == "started" and "ana started t" in logged


async def test_the_move_time_may_be_shortened_by_the_opener_never_lengthened(
    store: FileStore, logged: list[str]
) -> None:
    table = live_table(store, logged, "ana,bob,carl", opener=ANA)
    ana = Visitor(ANA, "ana")
    await verbs.set_clock(table, ana.conn, 60)
    assert store.record("t").move_time == 60  # type: ignore[union-attr]
    assert ana.types() == ["presence"]  # (not at the table: told its presence, with the clock)
    with _refused("illegal"):
        await verbs.set_clock(table, ana.conn, 90)
    with _refused("not_opener"):
        await verbs.set_clock(table, Visitor(BOB, "bob").conn, 30)
    assert store.record("t").move_time == 60  # type: ignore[union-attr]


async def test_closing_returns_who_it_let_go_and_whether_the_game_is_kept(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged, "ana,bob,carl", opener=ANA)
    ana, bob = Visitor(ANA, "ana"), Visitor(BOB, "bob")
    seat(table, ana, 0)
    table.watch(bob.conn, 10)
    bob.table = table
    with _refused("not_opener"):
        await verbs.close(table, bob.conn)
    gone, keep = await verbs.close(table, ana.conn)
    assert set(gone) == {ana, bob} and not keep  # nobody decided anything: nothing to keep
    assert table.failed is not None and table.failed.code == "closed" and ana.table is None
    assert bob.received()[-1]["code"] == "closed"


async def test_talk_is_kept_and_told_with_the_speakers_seat(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged, "ana,bob,carl")
    ana, away = Visitor(ANA, "ana"), Visitor(BOB, "bob")
    seat(table, ana, 0)
    table.record.owners[0] = ANA
    limited: list[str] = []
    talk = store.talk()
    await verbs.say(table, ana.conn, "hello", talk, lambda kind, line: limited.append(line))
    await verbs.say(table, away.conn, "hi", talk, lambda kind, line: limited.append(line))
    said = [m for m in ana.received() if m["type"] == "said"]
    assert [(m["text"], m.get("seat")) for m in said] == [("hello", 0), ("hi", None)]
    assert [m["text"] for m in away.received()] == ["hi"]  # (not at the table: its own line only)
    assert len(talk.recent("t").lines) == 2 and limited == []


async def test_a_decision_is_checked_before_it_is_played(store: FileStore, logged: list[str]) -> None:
    table = live_table(store, logged, "ana,bob,carl")
    to_move = table.session.game.to_move
    placement = table.session.game.legal_placements()[0]
    other = (to_move + 1) % 3
    with _refused("stale"):
        await verbs.decide(table, to_move, Place(seq=5, card=placement.card, column=placement.column))
    with _refused("illegal"):
        await verbs.decide(table, other, Place(seq=1, card=placement.card, column=placement.column))
    await verbs.decide(table, to_move, Place(seq=1, card=placement.card, column=placement.column))
    assert table.next_seq == 2
    await verbs.decide(table, to_move, Undo(seq=2))
    assert table.next_seq == 3 and table.session.game.to_move == to_move


async def test_a_rematch_is_to_deal_once_everyone_seated_accepts_and_the_hall_deals_it(
    tmp_path: Path, store: FileStore, logged: list[str]
) -> None:
    table = live_table(store, logged, "ana,bob,bot:random")
    ana, bob = Visitor(ANA, "ana"), Visitor(BOB, "bob")
    seat(table, ana, 0)
    seat(table, bob, 1)
    with _refused("illegal"):  # the game is not over
        await verbs.rematch(table, ana.conn, True)
    await _play_out(table)
    with _refused("not_seated"):
        await verbs.rematch(table, Visitor(3, "carl").conn, True)
    assert not await verbs.rematch(table, ana.conn, True)
    assert await verbs.rematch(table, bob.conn, True)
    hall = Hall(table.backing, store.talk(), Followers(lambda name, kept: None, 0.0), AliveStamp(tmp_path),
                Limits(), TableLimits())  # fmt: skip
    hall.tables["t"] = table
    dealt = await hall.deal_again(table)
    assert dealt is not None and table.record.game == 2 and table.lines == dealt[0]
    assert store.path("t").read_bytes() == b"".join(dealt[0]) and (tmp_path / dealt[1]).exists()


def test_a_bot_level_asked_is_the_servers_within_its_budget() -> None:
    assert verbs.bot_level("random", MaxBudget()) == "random"
    with _refused("bad_message"):
        verbs.bot_level("nonsense", MaxBudget())


def test_the_operator_is_the_servers_account() -> None:
    assert verbs._operator() == os.geteuid()


async def test_a_turn_whose_time_ran_out_is_played_by_a_stand_in_and_the_seat_stays_its_persons(
    store: FileStore, logged: list[str]
) -> None:
    table = live_table(store, logged, "ana,bob,carl", opener=ANA)
    clock = [1000.0]
    table.now = lambda: clock[0]
    ana = Visitor(ANA, "ana")
    to_move = table.session.game.to_move
    seat(table, ana, to_move)
    await verbs.set_clock(table, ana.conn, 30)
    clock[0] += 29
    assert table.tick() is None and table.bot_to_move() is None
    clock[0] += 2
    assert table.tick() == "overdue"
    turn = table.bot_to_move()
    assert turn is not None and turn.seat == to_move and turn.standing_in and turn.level == STAND_IN
    async with table.lock:
        await verbs.play_bot(table, turn, choose("greedy", table.session.game, to_move))
    assert table.next_seq == 2 and b'"stand_in":"greedy"' in table.lines[1] and not table.overdue
    assert table.seat_of(ana.conn) == to_move and ana.sent[-1] == table.lines[1]
