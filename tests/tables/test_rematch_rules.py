"""A rematch at the same table, as the table's rules decide it, without a socket: who may propose
and accept, when it is decided (every person seated there has accepted), and what the next game
is (the same seats, the next seed, the next first player, the finished game in the history).
tests/tables/test_rematch.py plays it over a real server."""

from __future__ import annotations

import msgspec

from dvtui.bots import choose
from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.stores.base import MAX_HISTORY, Here, TableRecord
from dvtui.server.table import Table

from ..support.guests import ANA_UID, BOB_UID, Guest, ana, bob, refused

CY_UID = 70003


def cy() -> Guest:
    return Guest(CY_UID, "cy")


def finished(players: str = "Ana,Bob,Cy,bot:greedy", *, first: int = 1, seed: int = 41) -> Table[Guest]:
    """A table whose game (``players``, dealt with ``seed``, ``first`` to play first) is over."""
    seats = parse_players(players)
    n = len(seats)
    session = PlaySession.start(new_game(seats, first_player=first, seed=seed), None)
    while not session.game.over:
        player = session.game.to_move
        session.place(choose("greedy", session.game, player), player=player)
    record = TableRecord(owners=[None] * n, stand_ins=[None] * n, opener=ANA_UID, kept_for=[None] * n, move_time=60)
    return Table("t", session, record)


def test_a_rematch_is_dealt_once_every_person_seated_has_accepted() -> None:
    t = finished()
    a, b, c = ana(), bob(), cy()
    for seat, guest in enumerate((a, b, c)):
        t.join(guest, seat)
    assert t.rematch_vote() is None
    assert t.rematch(b, True) is False  # Bob proposes
    vote = t.rematch_vote()
    assert vote is not None and (vote.by, vote.accepted, vote.awaited) == (1, [1], [0, 2])
    assert t.presence().rematch == vote
    assert t.rematch(a, True) is False
    assert t.rematch(b, True) is False  # asking twice counts once
    assert t.rematch_vote() is not None and t.rematch_vote().awaited == [2]  # type: ignore[union-attr]
    assert t.rematch(c, True) is True
    assert t.rematch_ready()


def test_spectators_and_an_unfinished_game_have_no_rematch() -> None:
    t = finished()
    watcher = bob()
    t.watch(watcher, 10)
    refused("not_seated", t.rematch, watcher, True)
    seats = parse_players("Ana,Bob,Cy")
    record = TableRecord(owners=[None] * 3, stand_ins=[None] * 3, kept_for=[None] * 3)
    playing: Table[Guest] = Table("u", PlaySession.start(new_game(seats, seed=3), None), record)
    a = ana()
    playing.join(a, 0)
    refused("illegal", playing.rematch, a, True)


def test_whoever_leaves_withdraws_and_the_people_present_decide() -> None:
    t = finished()
    a, b, c = ana(), bob(), cy()
    for seat, guest in enumerate((a, b, c)):
        t.join(guest, seat)
    t.rematch(a, True)
    t.rematch(b, True)
    t.leave(b)  # Bob's acceptance goes with him
    vote = t.rematch_vote()
    assert vote is not None and vote.accepted == [0] and vote.awaited == [2]
    t.leave(c)  # Cy, who had not accepted, left: Ana is the only person there, and she has
    assert t.rematch_ready()
    t.leave(a)
    assert t.rematch_vote() is None and not t.rematch_ready()


def test_turning_it_down_drops_the_proposal() -> None:
    t = finished()
    a, b = ana(), bob()
    t.join(a, 0)
    t.join(b, 1)
    t.rematch(a, True)
    assert t.rematch(b, False) is False
    assert t.rematch_vote() is None and not t.rematch_ready()


def test_a_bot_client_is_not_awaited() -> None:
    t = finished()
    a = ana()
    t.join(a, 0)
    t.join(Guest(BOB_UID, "bob", bot="greedy"), 1)
    assert t.rematch(a, True) is True


def test_the_next_game_has_the_same_seats_the_next_seed_and_the_next_first_player() -> None:
    t = finished("Ana,Bob,Cy,bot:greedy", first=3, seed=41)
    old = t.session.game.created
    created = t.next_game()
    assert created.players == old.players
    assert created.seed == 42  # the finished game's plus one: a table's deals follow from its first
    assert created.first_player == 0  # one seat clockwise of 3 (R7's rotation carried on), wrapping
    assert finished("Ana,Bob,Cy", first=0).next_game().first_player == 1


def test_the_next_record_keeps_the_seats_and_counts_the_game_into_the_history() -> None:
    t = finished()
    a = ana()
    t.join(a, 0)
    t.record.stand_ins[1] = "greedy"
    t.record.resigned = [False, True, False, False]
    record = t.next_record("t.2026-01-01T00-00-00.dvr")
    assert record.owners == t.record.owners and record.opener == ANA_UID and record.move_time == 60
    assert record.stand_ins == [None] * 4 and record.resigned == [False] * 4 and record.started
    assert record.game == 2 and record.history == ["t.2026-01-01T00-00-00.dvr"]
    t.deal(PlaySession.start(t.next_game(), None), record)
    assert t.earlier_game(1) == "t.2026-01-01T00-00-00.dvr"
    assert t.earlier_game(2) is None and t.earlier_game(0) is None
    assert t.seat_of(a) == 0 and t.rematch_vote() is None and not t.over
    assert t.info().game == 2


def test_the_history_keeps_the_latest_games() -> None:
    t = finished()
    t.record.game = MAX_HISTORY + 5
    t.record.history = [f"t.{i}.dvr" for i in range(5, MAX_HISTORY + 5)]
    record = t.next_record("t.last.dvr")
    assert len(record.history) == MAX_HISTORY and record.history[-1] == "t.last.dvr"
    t.record = record
    assert t.earlier_game(record.game - 1) == "t.last.dvr"
    assert t.earlier_game(6) == "t.6.dvr" and t.earlier_game(5) is None


def test_a_rematch_turned_down_through_another_server_withdraws_the_acceptances_here() -> None:
    """The record counts the times a rematch was turned down: an acceptance through another server
    made before the last of them is not counted, and a record taken from another server that turned
    one down withdraws the acceptances made here (a rematch turned down is gone for everyone)."""
    t = finished()
    a, b = ana(), bob()
    t.join(a, 0)
    t.join(b, 1)
    t.elsewhere = {2: Here(2, None, True, 0)}  # Cy accepted through another server
    t.rematch(a, True)
    assert t.accepted_anywhere() == [0, 2]
    t.rematch(b, False)
    assert t.record.declined == 1 and t.rematch_vote() is None  # Cy's acceptance came before: gone too
    t.rematch(a, True)
    t.elsewhere = {2: Here(2, None, True, 1)}  # Cy accepted again, after it was turned down
    assert t.accepted_anywhere() == [0, 2]
    turned_down = msgspec.structs.replace(t.record, declined=2)  # through the other server
    t.adopt(turned_down)
    assert t.accepted == [] and t.rematch_vote() is None
    assert t.next_record("t.x.dvr").declined == 0  # each game's vote counts from none
