"""One gold: the accent is spelled once, in ``app/theme.py``; the stylesheets name it ``$gold``
and the Rich text uses ``theme.GOLD`` (directly or through the styles built from it)."""

from __future__ import annotations

from pathlib import Path

import dvtui.app
from dvtui.app.theme import GOLD
from dvtui.app.widgets.faces import CHIP, GOLD_BOLD

from ..support.apps import new_session, table_app

APP = Path(dvtui.app.__file__).resolve().parent


def test_the_gold_is_spelled_only_in_the_theme() -> None:
    spelled = sorted(
        str(path.relative_to(APP))
        for path in [*APP.rglob("*.py"), *APP.rglob("*.tcss")]
        if GOLD.lower() in path.read_text(encoding="utf-8").lower()
    )
    assert spelled == ["theme.py"]


def test_the_styles_and_the_stylesheet_variable_are_the_theme_gold() -> None:
    assert CHIP.bgcolor is not None and CHIP.bgcolor.name == GOLD
    assert GOLD_BOLD.color is not None and GOLD_BOLD.color.name == GOLD


async def test_the_apps_stylesheets_read_gold_as_the_theme_gold() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.get_css_variables()["gold"] == GOLD
        title = app.screen.query(".side-title").first()
        assert title.styles.color.hex.lower() == GOLD.lower()


def test_categories_and_seats_stay_apart_on_a_16_colour_terminal() -> None:
    from rich.color import Color, ColorSystem

    from dvtui.app.theme import CARD_COLORS, SEAT_COLORS

    def basic(hex_color: str) -> int | None:
        return Color.parse(hex_color).downgrade(ColorSystem.STANDARD).number

    assert len({basic(bg) for bg, _ in CARD_COLORS.values()}) == len(CARD_COLORS) == 8
    assert len({basic(color) for color in SEAT_COLORS.values()}) == len(SEAT_COLORS) == 5
