"""Games through the app: one human against two bots, a whole game with keys only and its last
round with the mouse only; a game left mid-round and resumed by another app; undo. Each file is
then read with the reader ``dvtui verify`` uses, and must be exactly the game the engine gives for
the same choices."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.app.screens.end import EndScreen
from dvtui.engine import CardPlaced, PlacementUndone
from dvtui.play.local import LocalSession
from dvtui.store import read_game

from ..support.apps import PLAYERS, new_session, table_app
from .driver import (
    HUMAN,
    expected_events,
    next_decision,
    play_with_keys,
    play_with_mouse,
    resumed_at_round,
    table,
)


def strip_seq(events: list) -> list:
    for event in events:
        event.seq = None
    return events


@pytest.mark.long
async def test_a_whole_game_with_keys_only(tmp_path: Path) -> None:
    session = new_session(tmp_path / "keys.dvr")
    created = session.game.created
    app = table_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = await play_with_keys(pilot, app)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("q")
    assert len(moves) == 30  # 6 rounds x 5 placements (R3, R4.2)
    loaded = read_game(tmp_path / "keys.dvr")
    assert loaded.game.over and loaded.torn is None and not loaded.missing_tail
    assert loaded.events == expected_events(created, 0, moves)
    assert app.return_code == 0


async def test_the_last_round_with_the_mouse_only(tmp_path: Path) -> None:
    """Every round asks the same clicks (the keys game above plays them all): from the recap of
    round 5, a hand card then a column at each turn, the banner and the footer's skip through the
    resolution, and the round's summary to the end."""
    path = tmp_path / "mouse.dvr"
    session, before = resumed_at_round(path, PLAYERS, 11, 6)
    created = session.game.created
    app = table_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        moves = await play_with_mouse(pilot, app)
        assert isinstance(app.screen, EndScreen)
    assert len(before) == 25 and len(moves) == 5
    loaded = read_game(path)
    assert loaded.game.over
    assert loaded.events == expected_events(created, 0, before + moves)


async def test_a_game_left_mid_round_is_resumed_by_a_new_app_and_played_on(tmp_path: Path) -> None:
    """Two whole games are played above; a resumed one is played on into the next round, where it
    continues byte for byte the game never left (its end is the same table's as any game's)."""
    path = tmp_path / "resume.dvr"
    session = new_session(path, seed=5)
    created = session.game.created
    first = table_app(session)
    async with first.run_test(size=(80, 24)) as pilot:
        before = await play_with_keys(pilot, first, stop_after=7)  # into round 2
        await pilot.press("q")
    assert first.return_code == 0
    mid = read_game(path)
    assert not mid.game.over and mid.game.round == 2 and mid.game.placements
    assert mid.game.to_move == 0  # saved with the bots' answers: the human is asked next

    second = table_app(LocalSession.resume(read_game(path)))
    async with second.run_test(size=(80, 24)) as pilot:
        after = await play_with_keys(pilot, second, stop_after=5)  # the rest of round 2, into round 3
        await pilot.press("q")
    loaded = read_game(path)
    assert loaded.game.round == 3 and len(before + after) == 12
    assert loaded.events[: len(mid.events)] == mid.events
    assert loaded.events == expected_events(created, 0, before + after)


async def test_undo_takes_back_the_humans_move_and_the_bots_answers(tmp_path: Path) -> None:
    path = tmp_path / "undo.dvr"
    app = table_app(new_session(path))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("5", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        game = table(app).session.game
        first = game.placements[0]
        assert (first.player, first.card, first.column) == (0, 5, 2)
        assert len(game.placements) == 3
        await pilot.press("u")
        assert await next_decision(pilot, app) == HUMAN
        game = table(app).session.game
        assert game.placements == [] and 5 in game.hands[0]
        assert table(app).flow.cursor.card == 5 and table(app).flow.cursor.column == 2  # ready to redo
        await pilot.press("u")  # nothing left: a warning, no event
        await pilot.press("2", "a", "enter")
        assert await next_decision(pilot, app) == HUMAN
    events = read_game(path).events
    kinds = [type(e).__name__ for e in events[1:]]
    assert kinds == ["CardPlaced"] * 3 + ["PlacementUndone"] * 3 + ["CardPlaced"] * 3
    undone = [e for e in events if isinstance(e, PlacementUndone)]
    assert [(u.player, u.card) for u in undone] == [(2, undone[0].card), (1, undone[1].card), (0, 5)]
    assert isinstance(events[-3], CardPlaced) and (events[-3].card, events[-3].column) == (2, 0)
