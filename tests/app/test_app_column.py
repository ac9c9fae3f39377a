"""``v``: a column whole, where the board has room for only its bottom cards (``▲ +n``) at 73x16
and 80x24 with more players: every card from the top, who would take which, and the number
cards each player placed there this round; Escape gives the table back."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from dvtui.app.keys import SHARED_TABLE, TABLE, WHOLE_COLUMN
from dvtui.app.screens.column import ColumnScreen
from dvtui.app.screens.table import TableScreen
from dvtui.describe import card_name

from ..support.apps import new_session, table_app
from ..support.pilot import screen_lines, text, until
from .driver import HUMAN, next_decision


async def _column_c_after_a_placement(pilot: Pilot[int]) -> None:
    """Ana places her 4 under column C; on her next turn, ``c`` then ``v`` opens column C."""
    app = pilot.app
    assert await next_decision(pilot, app) == HUMAN  # type: ignore[arg-type]
    await pilot.press("4", "c", "enter")
    assert await next_decision(pilot, app) == HUMAN  # type: ignore[arg-type]
    await pilot.press("c", "v")
    await until(pilot, "the whole column", lambda: isinstance(app.screen, ColumnScreen))


@pytest.mark.parametrize(
    ("size", "players"),
    [((73, 16), "Ana,bot:greedy,bot:greedy"), ((80, 24), "Ana,bot:greedy,bot:greedy,bot:greedy,bot:greedy")],
    ids=["73x16", "80x24-5-players"],
)
async def test_v_lists_every_card_of_the_chosen_column_and_escape_closes_it(
    size: tuple[int, int], players: str
) -> None:
    app = table_app(new_session(None, players=players))
    async with app.run_test(size=size) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        table = app.screen
        assert isinstance(table, TableScreen)
        if size == (73, 16):
            cut = lambda: any("▲ +" in line for line in screen_lines(app))  # noqa: E731
            await until(pilot, "the board to keep a few cards per column", cut)
        await pilot.press("4", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("c", "v")
        await until(pilot, "the whole column", lambda: isinstance(app.screen, ColumnScreen))
        game = table.session.game
        listed = text(app.screen.query_one("#column-cards")).splitlines()
        assert listed[0] == f"Column C · {len(game.columns[2])} cards"
        names = [card_name(card) for card in reversed(game.columns[2])]  # from the top: the bottom one is taken first
        rows = listed[1 : 1 + len(names)]
        assert all(row.strip().startswith(name) for row, name in zip(rows, names, strict=True)), rows
        assert rows[-1].endswith("(next taken)") and not any("(next taken)" in row for row in rows[:-1])
        placed = " ".join(listed[1 + len(names) :])
        assert placed.startswith("Placed here this round: Ana  4  · Bot 1 ") and "Bot 2 " in placed, placed
        await pilot.press("escape")
        await until(pilot, "the table again", lambda: isinstance(app.screen, TableScreen))


def test_the_key_is_in_the_help_of_every_table() -> None:
    for keys in (TABLE, SHARED_TABLE):
        assert WHOLE_COLUMN in keys.commands and WHOLE_COLUMN in keys.help


def test_snapshot_a_whole_column_at_73x16(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = table_app(new_session(players="Ana,bot:greedy,bot:greedy"))
    assert snap_compare(app, terminal_size=(73, 16), run_before=_column_c_after_a_placement)
