"""A key a person types into a tab is never lost, however soon: sent the moment the tab's socket
opens (as the page sends what was typed while it connected), while the tab's dvtui is still
starting, it reaches the first screen, in order. (The page's side, keys typed before the socket is
open, is tests/web/test_web_browser.py's, in a real browser.)"""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp

from ..support.web import shown_until, web_server

DOWN, ENTER = "\x1b[B", "\r"


async def test_keys_sent_the_moment_the_socket_opens_reach_the_first_screen(tmp_path: Path) -> None:
    with web_server(tmp_path / "data") as (_, url):
        ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
        async with aiohttp.ClientSession() as http, http.ws_connect(ws_url) as ws:
            for key in (DOWN, ENTER):  # past Play now, New game: typed before anything is shown
                await ws.send_str(json.dumps(["stdin", key]))
            await shown_until(ws, "Start the game")
