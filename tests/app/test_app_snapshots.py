"""Snapshots at 80x24 and 120x40: the set-up screen, a table mid-round (also with CJK and emoji
names), a resolution step showing an exchange and a tie, the end screen, the help, a hot-seat
handover and a round's summary waiting for a key. Fixed seeds, fixed file names, no clock on
screen and no blinking cursor (see conftest), so they are stable.

Update them with ``pytest tests/app --snapshot-update`` after looking at the new pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu, Setup
from dvtui.engine import ColumnResolved, GameCreated

from ..support.apps import new_session, table_app
from .driver import (
    HUMAN,
    finished_session,
    hot_seat_session,
    mid_round,
    next_decision,
    open_help,
    play_exchange_and_tie,
    round_summary,
    table,
)

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_setup_screen(snap_compare, size: tuple[int, int]) -> None:
    app = DvtuiApp(Setup(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_mid_round(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(new_session()), terminal_size=size, run_before=mid_round)


async def _wide_names_mid_round(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, DvtuiApp)
    assert await next_decision(pilot, app) == HUMAN
    await pilot.press("4", "c", "enter")
    assert await next_decision(pilot, app) == HUMAN
    await pilot.press("5", "c")  # the second player's choice, not placed: tag, ghost and preview
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_with_cjk_and_emoji_names(snap_compare, size: tuple[int, int]) -> None:
    """Wide characters take two cells: names are fitted by cells, so columns and rows line up."""
    session = new_session(players="李小龍,🎲Dice👑,Zoë", seed=9)
    assert snap_compare(table_app(session), terminal_size=size, run_before=_wide_names_mid_round)


async def _to_column_b(pilot: Pilot[int]) -> None:
    app = await play_exchange_and_tie(pilot)
    screen = table(app)
    assert screen.flow.resolution and screen.flow.resolution.index == 0  # column A on screen
    await pilot.press("space")
    event = screen.flow.resolution.step.event
    assert isinstance(event, ColumnResolved) and event.column == 1
    assert event.cancelled == [1, 2] and event.awards[0].returned == "house-300"
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_resolution_step_with_an_exchange_and_a_tie(
    snap_compare, make_created: Callable[..., GameCreated], size: tuple[int, int]
) -> None:
    app = table_app(hot_seat_session(make_created, Path("hot-seat.dvr")))
    assert snap_compare(app, terminal_size=size, run_before=_to_column_b)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_end_screen(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(finished_session()), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(new_session()), terminal_size=size, run_before=open_help)


async def _reading_the_log(pilot: Pilot[int]) -> None:
    await mid_round(pilot)
    await pilot.press("tab", "home")  # focused and scrolled to the deal: the board gives it room
    await pilot.pause()


def test_log_read_at_80x24(snap_compare) -> None:
    assert snap_compare(table_app(new_session()), terminal_size=(80, 24), run_before=_reading_the_log)


def test_start_menu(snap_compare) -> None:
    """Plain ``dvtui``: new game, the latest unfinished game (one is saved), replay, quit."""
    from dvtui.store import data_dir

    data_dir().mkdir(parents=True)
    new_session(data_dir() / "half.dvr").close()
    app = DvtuiApp(Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    assert snap_compare(app, terminal_size=(80, 24))


async def _handover(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, DvtuiApp)
    assert await next_decision(pilot, app) == HUMAN
    await pilot.press("3", "c", "enter")  # Ana places; Bea takes the keyboard
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hot_seat_handover(snap_compare, size: tuple[int, int]) -> None:
    app = table_app(new_session(Path("hot-seat.dvr"), players="Ana,Bea,Cid", seed=5))
    assert snap_compare(app, terminal_size=size, run_before=_handover)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_round_summary_waiting_for_a_key(
    snap_compare, make_created: Callable[..., GameCreated], size: tuple[int, int]
) -> None:
    app = table_app(hot_seat_session(make_created, Path("hot-seat.dvr")))
    assert snap_compare(app, terminal_size=size, run_before=round_summary)
