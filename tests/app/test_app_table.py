"""The table's drawing and controls: the bottom card sits nearest the players, a projection tags
the card each player would take, the layout follows the terminal's size, the hint key asks the
strong bot, and the command palette offers the game's commands."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from dvtui.app.textual_private import notifications
from dvtui.app.widgets.board import SeatLooks, build_models, column_lines
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import EventLog
from dvtui.app.widgets.scoreboard import Scoreboard
from dvtui.engine import Game, Placement

from ..support.apps import new_session, table_app
from .driver import HUMAN, next_decision, table


def test_a_column_is_drawn_bottom_card_last_with_the_takers_tag(make_game: Callable[..., Game]) -> None:
    game = make_game(3, {0: ["house-300", "car-500"]})
    game.place(Placement(6, 0))  # Ana: 6 under A
    game.place(Placement(2, 0))  # player 1: 2 under A
    models = build_models(game)
    seats = SeatLooks(("red", "yellow", "green"), ("Ana", "Ben", "Cy"))
    lines = [line.plain for line in column_lines(models[0], seats, 10, 14)]
    assert lines[0].strip() == "A"
    cards = lines[1:10]
    assert cards[-1].split() == ["HSE", "300", "An"]  # next card, to Ana (the tag a space apart, in two cells)
    assert cards[-2].split() == ["CAR", "500", "Be"]
    assert lines[10].split() == ["6"] and lines[11].split() == ["2"] and lines[12].split() == ["·"]


def test_a_tie_is_struck_out_in_the_projection(make_game: Callable[..., Game]) -> None:
    game = make_game(3)
    for column, card in ((3, 4), (3, 4), (5, 1)):
        game.place(Placement(card, column))
    models = build_models(game)
    assert models[3].outcome is not None and models[3].outcome.cancelled == [0, 1]
    lines = [line.plain for line in column_lines(models[3], SeatLooks.of(game), 10, 14)]
    assert "✗4" in lines[10] and "✗4" in lines[11]


async def test_the_layout_follows_the_terminal() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        assert screen.has_class("-narrow") and not screen.has_class("-wide")
        side = screen.query_one("#side")
        assert side.region.y > screen.query_one(HandBar).region.y  # below the table
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        assert screen.has_class("-wide") and side.region.x > 0 and side.region.height > 40  # beside it
        assert screen.query_one(HandBar).has_class("-tall")
        scores = screen.query_one(Scoreboard)
        assert scores.region.width < 50
        players = app.session.game.n  # type: ignore[union-attr]
        assert scores.region.height == 4 * players  # a block per player, none cut off by the resize
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert screen.has_class("-narrow") and scores.region.height == players  # a line per player


async def test_the_hint_key_asks_the_strong_bot_and_preselects_its_move() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = table(app)
        assert screen.flow.cursor.card is not None and screen.flow.cursor.hint is not None
        card, column = screen.flow.cursor.card, screen.flow.cursor.column
        # the move as the line writes a chosen one, and what the numbers are
        hint = screen.flow.cursor.hint
        assert re.fullmatch(rf"{card} → {'ABCDEFG'[column]}: expect \+[\d.]+[kM]? this round, \d+% to win", hint)
        # the help (every row of the key map is shown: tests/tables) says what the numbers are
        assert ("h", "hint: what the strong bot would play, its expected gain this round, its chance to win") in (
            screen.keys.help_rows()
        )
        await pilot.press("enter")
        assert await next_decision(pilot, app) == HUMAN
        first = screen.session.game.placements[0]
        assert (first.player, first.card, first.column) == (0, card, column)
        log = screen.query_one(EventLog)
        assert any(f"Ana placed {card} under column {'ABCDEFG'[column]}" in line.plain for line in log.entries)


async def test_the_command_palette_offers_the_games_commands() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert {"Hint", "Rules and keys", "Bots faster", "Bots slower", "Quit"} <= set(titles)
        await pilot.press("5")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Place the chosen card" in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"rules", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"


async def test_the_palette_has_no_theme_and_a_screenshot_that_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table keeps its own colours, so a theme would change the footer only: not offered. A
    screenshot says where it went, or why it could not be saved."""
    monkeypatch.setattr("dvtui.app.app.screenshot_dir", lambda: tmp_path)
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        assert "Theme" not in commands and "Screenshot" in commands
        path = app.take_screenshot()
        assert path is not None and path.suffix == ".svg" and path.is_file()
        await pilot.pause()
        assert any(f"Screenshot saved: {path}" == n.message for n in notifications(app))
        monkeypatch.setattr("dvtui.app.app.screenshot_dir", lambda: tmp_path / "missing")
        assert app.take_screenshot() is None
        await pilot.pause()
        assert any(n.message.startswith(f"Screenshot not saved: {tmp_path / 'missing'}: ") for n in notifications(app))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_scoreboard_says_which_bot_plays_at_which_level(size: tuple[int, int]) -> None:
    app = table_app(new_session(None, players="Ana,bot:greedy,bot:random"))
    async with app.run_test(size=size) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        text = table(app).query_one(Scoreboard).render().plain
        assert "Bot 1 (greedy)" in text and "Bot 2 (random)" in text and "Ana (" not in text
