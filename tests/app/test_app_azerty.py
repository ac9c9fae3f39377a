"""AZERTY keyboards: ``& é " ' (`` pick cards 1-5 on every keyboard (they mean nothing else); the
AZERTY option (``"azerty"`` in the settings, on by default in French, a switch on the set-up
screen) adds ``-`` for card 6 and moves "slower" to ``_``; the help says so, the footer keeps its
``1-6``, and the viewer's round keys take the top row too."""

from __future__ import annotations

from pathlib import Path

import msgspec
from textual.widgets import Checkbox

from dvtui.app.config import load_azerty
from dvtui.app.keys import AZERTY, TABLE, VIEWER, azerty_keymap, binding_id, qwerty_keymap
from dvtui.app.screens.dialog import Confirm
from dvtui.app.screens.help import HelpScreen
from dvtui.app.screens.setup import SetupScreen
from dvtui.app.textual_private import FooterKey

from ..support.apps import new_session, table_app
from ..support.pilot import screen_lines, until
from .driver import HUMAN, next_decision, table


def azerty_settings(data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    (data / "settings.json").write_bytes(msgspec.json.encode({"azerty": True}))


def test_the_top_row_collides_with_no_other_key_of_the_table() -> None:
    keymap = azerty_keymap()
    mine = {binding_id(f"pick({card})") for card in range(1, 7)} | set(keymap)
    taken = {key for binding in TABLE.bindings() if binding.id not in mine for key in binding.key.split(",")}
    picks = {key for binding in TABLE.bindings() if binding.id in mine for key in binding.key.split(",")}
    added = {key for keys in keymap.values() for key in keys.split(",")} | picks
    assert set(AZERTY) | {"underscore"} <= added
    assert not added & taken, added & taken


def test_the_option_off_puts_back_the_keys_it_moved() -> None:
    keys = {binding.id: binding.key for binding in TABLE.bindings() if binding.id in qwerty_keymap()}
    assert keys == qwerty_keymap() and set(keys) == set(azerty_keymap())


def test_the_option_follows_the_language_until_the_person_chooses(saves: Path, french: None) -> None:
    assert load_azerty()
    saves.mkdir(parents=True, exist_ok=True)
    (saves / "settings.json").write_bytes(msgspec.json.encode({"azerty": False}))
    assert not load_azerty()


async def test_the_top_row_picks_cards_and_underscore_is_slower(saves: Path) -> None:
    azerty_settings(saves)
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert app.azerty
        screen = table(app)
        for key, card in (
            ("é", 2),
            ("quotation_mark", 3),
            ("ampersand", 1),
            ("minus", 6),
            ("left_parenthesis", 5),
            ("apostrophe", 4),
            ("3", 3),
        ):
            await pilot.press(key)
            await until(pilot, f"card {card} chosen", lambda card=card: screen.flow.cursor.card == card)
        delay = app.pace.bot_delay
        await pilot.press("underscore")
        await until(pilot, "the pace slower", lambda: app.pace.bot_delay > delay)
        await pilot.press("question_mark")
        await until(pilot, "the help", lambda: isinstance(app.screen, HelpScreen))
        await until(pilot, "its AZERTY row", lambda: any("1-6 or & é \" ' ( -" in line for line in screen_lines(app)))
        assert any("+ / _" in line for line in screen_lines(app))


async def test_without_the_option_minus_is_slower_and_the_top_row_still_picks_cards_1_to_5(saves: Path) -> None:
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert not app.azerty
        screen = table(app)
        for key, card in (("é", 2), ("ampersand", 1), ("left_parenthesis", 5)):
            await pilot.press(key)
            await until(pilot, f"card {card} chosen", lambda card=card: screen.flow.cursor.card == card)
        delay = app.pace.bot_delay
        await pilot.press("minus")
        await until(pilot, "the pace slower", lambda: app.pace.bot_delay > delay)
        assert screen.flow.cursor.card == 5


async def test_in_french_the_option_is_on_and_the_footer_keeps_its_card_keys_first(saves: Path, french: None) -> None:
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert app.azerty
        await pilot.press("minus")
        await until(pilot, "card 6 chosen", lambda: table(app).flow.cursor.card == 6)
        keys = [(key.key_display, key.description) for key in app.screen.query(FooterKey)]
        assert keys[0] == ("1-6", "carte"), keys


async def test_the_set_up_screen_switches_the_option_and_keeps_it(saves: Path, french: None) -> None:
    from dvtui.app.app import DvtuiApp

    app = DvtuiApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, "the set-up screen", lambda: isinstance(app.screen, SetupScreen))
        box = app.screen.query_one("#azerty", Checkbox)
        assert box.value and app.azerty
        box.value = False
        await until(pilot, "the option off", lambda: not app.azerty)
    assert msgspec.json.decode((saves / "settings.json").read_bytes())["azerty"] is False


async def test_o_says_yes_in_a_dialog(saves: Path, french: None) -> None:
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        answers: list[bool | None] = []
        app.push_screen(Confirm("Q ?", "R.", "oui"), answers.append)
        await until(pilot, "the dialog", lambda: isinstance(app.screen, Confirm))
        await until(pilot, "its footer", lambda: bool(app.screen.query(FooterKey)))
        assert next(key.key_display for key in app.screen.query(FooterKey)) == "o"
        await pilot.press("o")
        await until(pilot, "the answer", lambda: answers == [True])


def test_the_viewers_round_keys_take_the_top_row_where_it_means_nothing_else() -> None:
    keys = {binding.id: binding.key for binding in VIEWER.bindings()}
    assert keys[binding_id("jump_round(2)")] == "2,é" and keys[binding_id("jump_round(7)")] == "7,è"
    assert keys[binding_id("jump_round(6)")] == "6"  # - changes the speed there


def test_every_card_binding_has_the_id_the_keymap_names() -> None:
    ids = {binding.id for binding in TABLE.bindings()}
    assert set(azerty_keymap()) <= ids
    assert binding_id("pick(6)") in ids
