"""A browser tab speaks its browser's language (the page request's ``Accept-Language``) unless the
person chose one: ``dvtui web --lang``, ``DVTUI_LANG`` or the settings' ``"language"``. Spoken to
as textual-serve's page does, with the browser's header; the first tab is a spare's, the second
a spare started after it (both read the header through the tab's line)."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from dvtui.web.tab import browser_languages

from ..support.web import shown_until, web_server

FRENCH_BROWSER = {"Accept-Language": "fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7"}
ENGLISH_BROWSER = {"Accept-Language": "en-GB,en;q=0.9"}


def test_the_header_gives_the_languages_dvtui_speaks_most_wanted_first() -> None:
    assert browser_languages(FRENCH_BROWSER["Accept-Language"]) == "fr:en"
    assert browser_languages("en;q=0.5, fr") == "fr:en"
    assert browser_languages("de-DE,de;q=0.9") is None
    assert browser_languages("fr;q=0, en") == "en"
    assert browser_languages("") is None
    assert browser_languages("*") is None


@pytest.fixture
def no_chosen_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``DVTUI_LANG`` (a choice, which every tab would keep) and no locale of the machine's: a
    tab speaks its browser's language, else the suite's ``LANGUAGE`` (English)."""
    monkeypatch.delenv("DVTUI_LANG", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


async def tab_shows(url: str, headers: dict[str, str], text: str) -> str:
    ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url, headers=headers) as ws:
        return await shown_until(ws, text)


@pytest.mark.usefixtures("no_chosen_language")
async def test_each_tab_speaks_its_browsers_language_unless_the_settings_choose(tmp_path: Path) -> None:
    """The browser's language, tab by tab; then the person's settings choose English, which the
    next tab of a French browser speaks (a tab reads them when it opens: one ``dvtui web``)."""
    data = tmp_path / "data"
    with web_server(data) as (_, url):
        await tab_shows(url, FRENCH_BROWSER, "Nouvelle partie")
        await tab_shows(url, ENGLISH_BROWSER, "New game: choose the seats")
        await tab_shows(url, {}, "New game: choose the seats")
        (data / "settings.json").write_text(json.dumps({"language": "en"}))
        await tab_shows(url, FRENCH_BROWSER, "New game: choose the seats")


@pytest.mark.usefixtures("no_chosen_language")
async def test_dvtui_webs_lang_wins_over_the_browsers(tmp_path: Path) -> None:
    with web_server(tmp_path / "data", "--lang", "en") as (_, url):
        await tab_shows(url, FRENCH_BROWSER, "New game: choose the seats")
        await tab_shows(url, FRENCH_BROWSER, "New game: choose the seats")
