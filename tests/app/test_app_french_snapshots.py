"""The main screens in French at 80x24 and at the smallest terminal the table works in (README:
73x16 for 3 players), and under the pseudo-locale (accented, about a third longer), which shows
any word not translated and anything cut or overflowing. The same games as the English snapshots
(test_app_snapshots.py), so the pictures compare side by side.

Update them with ``pytest tests/app/test_app_french_snapshots.py --snapshot-update`` after looking
at the new pictures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu, Setup
from dvtui.engine import GameCreated

from ..support.apps import new_session, table_app
from .driver import finished_session, hot_seat_session, mid_round, open_help, round_summary

SIZES = [(80, 24), (73, 16)]
"""80x24, and the smallest terminal a game of 3 works in."""
LANGUAGES = ["french", "pseudo"]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    """Each snapshot in French, then in the pseudo-locale (the fixtures of the same names)."""
    request.getfixturevalue(request.param)
    return str(request.param)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_mid_round(snap_compare, language: str, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(new_session()), terminal_size=size, run_before=mid_round)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_round_summary(
    snap_compare, make_created: Callable[..., GameCreated], language: str, size: tuple[int, int]
) -> None:
    app = table_app(hot_seat_session(make_created, Path("hot-seat.dvr")))
    assert snap_compare(app, terminal_size=size, run_before=round_summary)


def test_setup_screen(snap_compare, language: str) -> None:
    app = DvtuiApp(Setup(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    assert snap_compare(app, terminal_size=(80, 24))


def test_start_menu(snap_compare, language: str) -> None:
    from dvtui.store import data_dir

    data_dir().mkdir(parents=True)
    new_session(data_dir() / "half.dvr").close()
    app = DvtuiApp(Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    assert snap_compare(app, terminal_size=(80, 24))


def test_end_screen(snap_compare, language: str) -> None:
    assert snap_compare(table_app(finished_session()), terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help(snap_compare, language: str, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(new_session()), terminal_size=size, run_before=open_help)
