"""Several people at one keyboard: the person who just placed can take it back until the next
person places, ``u`` is offered only when it can work and otherwise says why to whoever pressed
it, a line says whose turn it is and what the person before did, and each turn starts with a
fresh cursor."""

from __future__ import annotations

from pathlib import Path

from dvtui.app.app import DvtuiApp
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import FooterKey, notifications
from dvtui.app.widgets.board import Board
from dvtui.app.widgets.panels import Banner
from dvtui.engine import Placement
from dvtui.play.session import PlaySession
from dvtui.store import read_game

from ..support.apps import new_session, table_app
from .driver import HUMAN, next_decision, table

HOT_SEAT = "Ana,Bea,Cid"


def footer_actions(app: DvtuiApp) -> list[str]:
    return [key.action for key in app.screen.query(FooterKey)]


def toasts(app: DvtuiApp) -> list[str]:
    return [str(n.message) for n in notifications(app)]


async def hot_seat(pilot_app: DvtuiApp) -> TableScreen:
    screen = table(pilot_app)
    assert screen.session.human_to_move() == 0
    assert screen.shared is None  # a game of this machine: no shared table's part
    return screen


async def test_the_player_who_just_placed_takes_it_back_on_the_next_persons_turn() -> None:
    app = table_app(new_session(players=HOT_SEAT, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await hot_seat(app)
        await pilot.press("3", "c", "enter")  # Ana places; it is Bea's turn at the keyboard
        assert screen.session.game.to_move == 1
        await pilot.press("u")
        await pilot.pause()
        game = screen.session.game
        assert game.placements == [] and game.to_move == 0 and 3 in game.hands[0]
        assert (screen.flow.cursor.card, screen.flow.cursor.column) == (3, 2)  # Ana's choice, back to her
        events = read_game(Path("game.dvr")).events
        assert [type(e).__name__ for e in events[-2:]] == ["CardPlaced", "PlacementUndone"]


async def test_once_the_next_person_has_placed_the_move_before_stays_and_the_refusal_speaks_to_them() -> None:
    app = table_app(new_session(players=HOT_SEAT, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await hot_seat(app)
        await pilot.press("3", "c", "enter")  # Ana
        await pilot.press("4", "d", "enter")  # Bea: Ana's move is now for good
        await pilot.press("u")  # Bea takes hers back (Cid's turn at the keyboard)
        await pilot.pause()
        game = screen.session.game
        assert [(p.player, p.card) for p in game.placements] == [(0, 3)] and game.to_move == 1
        await pilot.press("u")  # Bea again: Ana's move must not go
        await pilot.pause()
        assert [(p.player, p.card) for p in game.placements] == [(0, 3)]
        assert "Bea has nothing to take back; Ana's move can no longer be undone." in toasts(app)


async def test_u_is_offered_only_when_something_can_be_taken_back() -> None:
    app = table_app(new_session(players=HOT_SEAT, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await hot_seat(app)
        assert "undo" not in footer_actions(app)  # nothing placed yet
        await pilot.press("u")
        await pilot.pause()
        assert toasts(app) == ["Ana has nothing to take back this round."]
        await pilot.press("3", "c", "enter")
        await pilot.pause()
        assert "undo" in footer_actions(app)
        await pilot.press("4", "d", "enter", "u")  # Bea places, then takes it back
        await pilot.pause()
        assert "undo" not in footer_actions(app)  # Ana's move is for good; Bea has nothing left


async def test_a_handover_line_names_the_next_person_and_what_the_last_one_did() -> None:
    app = table_app(new_session(players=HOT_SEAT, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await hot_seat(app)
        await pilot.press("3", "c", "enter")
        await pilot.pause()
        banner = app.screen.query_one(Banner)
        assert banner.display
        assert banner.text.plain == "Bea, your turn — Ana placed 3 under C (Ana can still take it back: u)"
        await pilot.press("4", "d", "enter")
        await pilot.pause()
        assert banner.text.plain.startswith("Cid, your turn — Bea placed 4 under D")


async def test_with_one_person_at_the_table_there_is_no_handover_line() -> None:
    app = table_app(new_session())
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("5", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        assert not app.screen.query_one(Banner).display
        assert table(app).flow.cursor.column == 2  # one person: the cursor stays where they left it


async def test_each_person_starts_their_turn_with_a_fresh_cursor() -> None:
    app = table_app(new_session(players=HOT_SEAT, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await hot_seat(app)
        await pilot.press("3", "e")
        assert screen.flow.cursor.column == 4
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.human_to_move() == 1
        assert (screen.flow.cursor.card, screen.flow.cursor.column) == (None, 0)
        assert [m.index for m in app.screen.query_one(Board).models if m.selected] == [0]


async def test_a_bots_answer_goes_back_with_the_move_it_answered() -> None:
    session = new_session(players="Ana,bot:greedy,Bea", seed=5)
    app = table_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("3", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN  # the bot has answered: Bea's turn
        assert [p.player for p in session.game.placements] == [0, 1]
        await pilot.press("u")
        await pilot.pause()
        assert session.game.placements == [] and session.game.to_move == 0


def test_the_lock_survives_a_resume(tmp_path: Path) -> None:
    session = new_session(tmp_path / "hot.dvr", players=HOT_SEAT, seed=5)
    session.place(Placement(3, 2), player=0)
    session.place(Placement(4, 3), player=1)
    session.undo(1)
    session.close()
    resumed = PlaySession.resume(read_game(tmp_path / "hot.dvr"))
    assert resumed.undo_player() is None
    assert resumed.why_no_undo() == "Bea has nothing to take back; Ana's move can no longer be undone."
    resumed.close()
