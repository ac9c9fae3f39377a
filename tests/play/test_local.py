"""A game of this machine behind the screens' face (:class:`LocalSession`): a decision is checked at
once and saved in a worker, the call returns before the save ends, the move is told only once it
is on disk, a failed save is told and leaves the game as it was, and closing waits for a save under
way (a decision is never dropped)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from dvtui.engine import CardPlaced, Placement, PlacementUndone, RuleError, new_game
from dvtui.play.face import Decided, News, Refused
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.store import SaveError, read_game

WAIT = 30.0


def start(tmp_path: Path, players: str = "Ana,bot:greedy,bot:greedy") -> LocalSession:
    return LocalSession.start(new_game(parse_players(players), seed=3), tmp_path / "g.dvr")


async def news_after(told: list[News], count: int) -> None:
    async with asyncio.timeout(WAIT):
        while len(told) < count:
            await asyncio.sleep(0.005)


def held_saves(session: LocalSession) -> threading.Event:
    """Make the writer's saves wait until the returned event is set (a slow disk)."""
    writer = session.play.writer
    assert writer is not None
    go = threading.Event()
    append = writer.append

    def slow(events: object) -> object:
        assert go.wait(WAIT)
        return append(events)  # type: ignore[arg-type]

    writer.append = slow  # type: ignore[method-assign]
    return go


async def test_place_returns_before_the_save_and_the_move_is_told_once_on_disk(tmp_path: Path) -> None:
    session = start(tmp_path)
    told: list[News] = []
    session.attach(told.append)
    go = held_saves(session)
    card = session.game.hands[0][0]
    session.place(Placement(card, 2), player=0)  # returns while the save waits
    assert session.deciding and told == [] and session.game.placements == []
    assert len(read_game(tmp_path / "g.dvr").events) == 1
    with pytest.raises(RuleError, match="still being saved"):
        session.place(Placement(session.game.hands[0][1], 3), player=0)
    go.set()
    await news_after(told, 1)
    [news] = told
    assert isinstance(news, Decided) and news.move.events == [CardPlaced(round=1, player=0, column=2, card=card)]
    assert read_game(tmp_path / "g.dvr").events[1:] == news.move.events  # on disk before it was told
    assert session.game is news.move.after and session.game.placements and not session.deciding
    assert card in news.move.before.hands[0] and card not in news.move.after.hands[0]
    session.close()


async def test_a_rule_broken_is_said_at_once_and_nothing_is_sent_to_be_saved(tmp_path: Path) -> None:
    session = start(tmp_path)
    told: list[News] = []
    session.attach(told.append)
    with pytest.raises(RuleError):
        session.place(Placement(session.game.hands[0][0], 2), player=1)  # not Bot 1's turn
    assert not session.deciding
    await asyncio.sleep(0.05)
    assert told == [] and len(read_game(tmp_path / "g.dvr").events) == 1
    session.close()


async def test_a_failed_save_is_told_and_the_game_stays_as_it_was(tmp_path: Path) -> None:
    session = start(tmp_path)
    writer = session.play.writer
    assert writer is not None
    told: list[News] = []
    session.attach(told.append)
    append = writer.append

    def fail(events: object) -> None:
        append([])  # (nothing) then the disk fills up
        raise SaveError("could not save the move: the disk is full")

    writer.append = fail  # type: ignore[method-assign]
    session.place(Placement(session.game.hands[0][0], 2), player=0)
    await news_after(told, 1)
    [news] = told
    assert isinstance(news, Refused) and news.save_failed and "disk is full" in news.reason
    assert session.game.placements == [] and len(session.events) == 1


async def test_an_undo_is_one_decision_told_with_every_placement_it_takes_back(tmp_path: Path) -> None:
    session = start(tmp_path)
    told: list[News] = []
    session.attach(told.append)
    session.place(Placement(session.game.hands[0][0], 2), player=0)
    await news_after(told, 1)
    for n in (2, 3):  # the bots' answers, as the table would hand them in
        game = session.game
        session.place(Placement(game.hands[game.to_move][0], 4), player=game.to_move)
        await news_after(told, n)
    session.undo(0)
    await news_after(told, 4)
    undo = told[-1]
    assert isinstance(undo, Decided) and all(isinstance(e, PlacementUndone) for e in undo.move.events)
    assert [e.player for e in undo.move.events] == [2, 1, 0]  # the bots' answers first, then hers
    assert session.game.placements == [] and session.human_to_move() == 0
    assert read_game(tmp_path / "g.dvr").events[-3:] == undo.move.events
    session.close()


async def test_closing_waits_for_a_save_under_way(tmp_path: Path) -> None:
    session = start(tmp_path)
    session.attach(lambda news: None)
    go = held_saves(session)
    session.place(Placement(session.game.hands[0][0], 2), player=0)
    threading.Timer(0.2, go.set).start()
    await asyncio.to_thread(session.close)  # returns once the save is done and the file let go
    assert isinstance(read_game(tmp_path / "g.dvr").events[-1], CardPlaced)


def test_a_game_of_this_machine_has_no_table_side(tmp_path: Path) -> None:
    """Who is there and the table's requests are a shared table's side: a game of this machine
    has none (``table`` is None), rather than requests that only say no."""
    session = start(tmp_path)
    try:
        assert session.table is None
        verbs = ("presence", "stand_in", "start_table", "say", "rematch", "close_table", "resign")
        assert [verb for verb in verbs if hasattr(session, verb)] == []
    finally:
        session.close()
