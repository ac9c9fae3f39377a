"""The AZERTY option (``"azerty": true`` in the settings): the top row ``& é " ' ( -`` picks cards
1-6 without Shift, the digits still do, "slower" moves from ``-`` to ``_``, and the help says so."""

from __future__ import annotations

from pathlib import Path

import msgspec

from dvtui.app.keys import AZERTY, TABLE, azerty_keymap, binding_id
from dvtui.app.screens.help import HelpScreen

from ..support.apps import new_session, table_app
from ..support.pilot import screen_lines, until
from .driver import HUMAN, next_decision, table


def azerty_settings(data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    (data / "settings.json").write_bytes(msgspec.json.encode({"azerty": True}))


def test_the_top_row_collides_with_no_other_key_of_the_table() -> None:
    keymap = azerty_keymap()
    taken = {key for binding in TABLE.bindings() if binding.id not in keymap for key in binding.key.split(",")}
    added = {key for keys in keymap.values() for key in keys.split(",")} - {str(card) for card in range(1, 7)}
    assert added == {*AZERTY, "underscore"}
    assert not added & taken, added & taken


async def test_the_top_row_picks_cards_and_underscore_is_slower(saves: Path) -> None:
    azerty_settings(saves)
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert app.azerty
        screen = table(app)
        for key, card in (("é", 2), ("quotation_mark", 3), ("ampersand", 1), ("minus", 6), ("left_parenthesis", 5),
                          ("apostrophe", 4), ("3", 3)):
            await pilot.press(key)
            await until(pilot, f"card {card} chosen", lambda card=card: screen.flow.cursor.card == card)
        delay = app.pace.bot_delay
        await pilot.press("underscore")
        await until(pilot, "the pace slower", lambda: app.pace.bot_delay > delay)
        await pilot.press("question_mark")
        await until(pilot, "the help", lambda: isinstance(app.screen, HelpScreen))
        await until(pilot, "its AZERTY row", lambda: any("1-6 or & é \" ' ( -" in line for line in screen_lines(app)))
        assert any("+ / _" in line for line in screen_lines(app))


async def test_without_the_option_minus_is_slower_and_the_top_row_does_nothing(saves: Path) -> None:
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert not app.azerty
        screen = table(app)
        await pilot.press("é", "ampersand")
        await pilot.pause()
        assert screen.flow.cursor.card is None
        delay = app.pace.bot_delay
        await pilot.press("minus")
        await until(pilot, "the pace slower", lambda: app.pace.bot_delay > delay)
        assert screen.flow.cursor.card is None


def test_every_card_binding_has_the_id_the_keymap_names() -> None:
    ids = {binding.id for binding in TABLE.bindings()}
    assert set(azerty_keymap()) <= ids
    assert binding_id("pick(6)") in ids
