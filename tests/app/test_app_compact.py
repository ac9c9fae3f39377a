"""A table narrower than the scoreboard's line (73 columns), down to 40 (a phone's browser tab held
upright), plays compact: every column and every player's line on screen, the hand's advice under
the cards, the footer's keys without their words; a card is placed by keys and by touch (a click)."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from dvtui.app.textual_private import FooterKey
from dvtui.app.widgets.board import Board
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.scoreboard import Scoreboard
from dvtui.app.widgets.table_view import compact_minimum_size, minimum_size
from dvtui.engine import CardPlaced

from ..support.apps import new_session, table_app
from ..support.pilot import screen_lines, until
from .driver import HUMAN, mid_round, next_decision, table

PLAYERS = "Ana,bot:greedy,bot:greedy"
SIZES = [compact_minimum_size(3), (40, 30), (56, 36), (72, 40)]
"""The compact table's least size, then phones held upright, up to a column short of the normal table."""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_narrow_table_plays_with_every_column_and_player_on_screen(size: tuple[int, int]) -> None:
    assert size[0] < minimum_size(3)[0]
    app = table_app(new_session(None, players=PLAYERS))
    async with app.run_test(size=size) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        await until(pilot, "the table drawn", lambda: "pick a card 1-6" in "\n".join(screen_lines(app)))
        lines = screen_lines(app)
        text = "\n".join(lines)
        assert "too small" not in text and screen.has_class("-compact")
        assert all(cell_len(line.rstrip()) <= size[0] for line in lines)
        assert all(f" {letter} " in lines[1] or f"▸ {letter} ◂" in lines[1] for letter in "ABCDEFG"), lines[1]
        scores = str(screen.query_one(Scoreboard).render()).split("\n")
        assert len(scores) == 3 and all(score.strip() in text for score in scores)  # a line per player, whole
        assert scores[1].strip().startswith("Bot 1") and scores[1].rstrip().endswith(" 0")
        await until(pilot, "the footer", lambda: bool(screen.query(FooterKey)))
        keys = [(key.key_display, key.description) for key in screen.query(FooterKey) if key.display]
        assert ("?", "") in keys and all(word == "" for _key, word in keys)  # the keys alone: ? says them
        hand = screen.query_one(HandBar)
        assert str(hand.render()).split("\n")[1].strip().startswith("pick a card 1-6")  # under the cards
        await pilot.press("4", "c", "enter")
        await until(
            pilot,
            "Ana's placement",
            lambda: any(
                isinstance(e, CardPlaced) and (e.player, e.card, e.column) == (0, 4, 2) for e in screen.session.events
            ),
        )


async def test_on_a_phone_a_card_is_placed_by_touching_it_then_its_column() -> None:
    app = table_app(new_session(None, players=PLAYERS))
    async with app.run_test(size=(40, 30)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        hand, board = screen.query_one(HandBar), screen.query_one(Board)
        await pilot.click(HandBar, offset=hand.card_offset(5))
        await pilot.click(Board, offset=board.column_offset(6))
        await pilot.press("enter")
        await until(
            pilot,
            "Ana's placement",
            lambda: any(
                isinstance(e, CardPlaced) and (e.player, e.card, e.column) == (0, 5, 6) for e in screen.session.events
            ),
        )


@pytest.mark.parametrize("size", [(40, 30), (60, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_a_compact_table_mid_round(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(table_app(new_session()), terminal_size=size, run_before=mid_round)


@pytest.mark.parametrize("size", SIZES[:2], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_narrow_column_keeps_each_cards_value_when_somebody_would_take_it(size: tuple[int, int]) -> None:
    """Once number cards are placed, a card that somebody would take carries their tag where there is
    room; in the compact table's narrow columns there is none, and the card's value stays whole
    (``WCH5``, never ``WCHB`` with the tag over its last cell)."""
    app = table_app(new_session(None, players=PLAYERS, seed=4))
    async with app.run_test(size=size) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        table(app)  # the table screen is up
        await pilot.press("2", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN  # the bots have placed too: three columns are fought over
        lines = screen_lines(app)
        board = "\n".join(lines[2 : next(i for i, line in enumerate(lines) if line.startswith("Ana "))])
        faces = re.findall(r"(HSE|CAR|BOA|HRS|JWL|WCH|HOL|\$\$\$)(.)", board)
        assert faces and all(value.isdigit() for _code, value in faces), board
