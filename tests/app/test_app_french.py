"""The screens in French: the footer's words and key names, the palette, the help, the table's
lines; English screens stay as they are once the language is English again."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.keys import VIEWER
from dvtui.app.textual_private import FooterKey

from ..support.apps import new_session, table_app
from ..support.pilot import screen_lines, until
from .driver import HUMAN, finished_session, next_decision, travel_after_a_move

pytestmark = pytest.mark.usefixtures("french")


def footer(app: DvtuiApp) -> list[tuple[str, str]]:
    return [(key.key_display, key.description) for key in app.screen.query(FooterKey)]


async def test_the_tables_footer_says_its_words_and_keys_in_french() -> None:
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await until(pilot, "the footer", lambda: bool(footer(app)))
        shown = dict(footer(app))
        assert shown["1-6"] == "carte"
        assert shown["←→ a-g"] == "colonne"
        assert shown["?"] == "aide"
        assert "▶ à Ana de jouer" in "\n".join(screen_lines(app))


async def footer_line_says_every_key(pilot: Pilot[object], app: DvtuiApp) -> None:
    """Each key the footer offers is on its bottom line with its whole word (a footer too long for
    the terminal cuts the last word, « q quitter » to « q »); a key the screen leaves out to make
    room (the palette's, under 80 columns) is not looked for. Read once the line is drawn."""
    await until(pilot, "the footer drawn", lambda: bool(screen_lines(app)[-1].strip()))
    line = screen_lines(app)[-1]
    keys = [(key.key_display, key.description) for key in app.screen.query(FooterKey) if key.display]
    assert keys
    for key, word in keys:
        assert f"{key} {word}" in line, (key, word, line)


@pytest.mark.parametrize("size", [(73, 16), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_tables_footer_with_undo_says_every_word_whole(size: tuple[int, int]) -> None:
    app = table_app(new_session(None, players="Ana,Bea,Cid"))
    async with app.run_test(size=size) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("4", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        await until(pilot, "the undo key", lambda: any(key.action == "undo" for key in app.screen.query(FooterKey)))
        await footer_line_says_every_key(pilot, app)


@pytest.mark.parametrize("size", [(73, 16), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_end_screens_footer_says_every_word_whole(size: tuple[int, int]) -> None:
    from dvtui.app.screens.end import EndScreen

    app = table_app(finished_session())
    async with app.run_test(size=size) as pilot:
        await until(pilot, "the end screen", lambda: isinstance(app.screen, EndScreen))
        await until(pilot, "its footer", lambda: bool(footer(app)))
        await footer_line_says_every_key(pilot, app)


@pytest.mark.parametrize("size", [(73, 16), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_time_travel_footer_says_every_word_whole(size: tuple[int, int]) -> None:
    app = table_app(new_session(Path("travel.dvr")))
    async with app.run_test(size=size) as pilot:
        await travel_after_a_move(pilot, app)
        await until(pilot, "its footer", lambda: any(key.action == "branch" for key in app.screen.query(FooterKey)))
        await footer_line_says_every_key(pilot, app)
        shown = dict(footer(app))
        assert {"étape", "lire", "aide"} <= set(shown.values())
        assert shown["b"] == "variante"  # the help's noun for it (« jouer à partir d’ici » is the verb)
        assert dict(VIEWER.help_rows())["b"].startswith("variante\u00a0: jouer à partir d’ici, ")


async def test_the_help_speaks_french_and_shows_the_original_rules() -> None:
    from dvtui.app.screens.help import HelpScreen, OriginalRules

    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("question_mark")
        await until(pilot, "the help", lambda: isinstance(app.screen, HelpScreen))
        await until(pilot, "its footer", lambda: bool(footer(app)))
        assert footer(app) == [("Échap", "fermer"), ("o", "les règles originales")]
        shown = "\n".join(screen_lines(app))
        assert "choisir une colonne" in shown and "touches, la table, les règles en bref" in shown
        await pilot.press("o")
        await until(pilot, "the original rules", lambda: isinstance(app.screen, OriginalRules))
        await until(pilot, "its text", lambda: "Un jeu de cartes tout de luxe" in "\n".join(screen_lines(app)))


def test_the_original_rules_flow_by_paragraph() -> None:
    """The leaflet's printed line breaks are gone inside a paragraph (« Il doit / alors » was cut
    there); its headings keep their lines."""
    from dvtui.app.screens.help import original_rules

    text = original_rules()
    assert "Il doit alors placer la voiture 400.000 en haut de la colonne" in text
    assert "\nMise en place\n" in text and "\nAttribution des objets\n" in text
    assert not any(line[:1].islower() for line in text.split("\n"))


def test_the_rules_in_brief_use_the_rules_words() -> None:
    from rich.console import Console

    from dvtui.app.screens.help import help_text

    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(help_text())
    shown = console.export_text()
    for word in (
        "Une manche",
        "Attribution",
        "égalité",
        "échange",
        "maison",
        "voiture",
        "bateau",
        "cheval",
        "bijou",
        "montre",
        "vacances",
        "Échap",
    ):
        assert word in shown, word
    assert "column" not in shown


async def test_the_palette_speaks_french_textuals_words_too() -> None:
    from textual.command import CommandInput, CommandPalette

    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert titles[:2] == ["Placer la carte choisie", "Conseil"]
        assert titles[-3:] == ["Quitter", "Touches", "Capture d’écran"]
        await pilot.press("ctrl+p")
        await until(pilot, "the palette", lambda: isinstance(app.screen, CommandPalette))
        assert app.screen.query_one(CommandInput).placeholder == "Chercher une commande…"
