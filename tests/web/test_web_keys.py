"""A key a person types into a tab is never lost, however soon: sent the moment the tab's socket
opens (as the page sends what was typed while it connected), while the tab's dvtui is still
starting, it reaches the first screen, in order. (The page's side, keys typed before the socket is
open, is tests/web/test_web_browser.py's, in a real browser.) And a tab no proxy names anybody for
is nobody's, not the person of whoever started ``dvtui web``."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from ..support.web import shown_until, web_server

DOWN, ENTER = "\x1b[B", "\r"


async def test_keys_sent_the_moment_the_socket_opens_reach_the_first_screen_of_nobodys_tab(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoever started ``dvtui web`` may have ``DVTUI_PLAYER`` set: a tab that no proxy names
    anybody for (here the first, which a spare serves) is not them, so its set-up's first seat is
    not theirs. (One ``dvtui web`` for both: its start is not the subject of either.)"""
    monkeypatch.setenv("DVTUI_PLAYER", "Zed Operator")
    with web_server(tmp_path / "data") as (_, url):
        ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
        async with aiohttp.ClientSession() as http, http.ws_connect(ws_url) as ws:
            for key in (DOWN, ENTER):  # past Play now, New game: typed before anything is shown
                await ws.send_str(json.dumps(["stdin", key]))
            assert "Zed" not in await shown_until(ws, "Start the game")
