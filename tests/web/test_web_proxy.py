"""Behind a login proxy (``dvtui web --user-header``): each tab's dvtui is named after the user the
proxy names in that header, and a connection without it (not through the proxy) is refused.
Spoken to as textual-serve's page does: JSON messages up, the app's output down."""

from __future__ import annotations

import json
import time
from pathlib import Path

import aiohttp

from .support import WAIT, web_server

HEADER = "X-Forwarded-User"


async def shown_until(ws: aiohttp.ClientWebSocketResponse, text: str) -> str:
    """What the tab is sent, until ``text``."""
    seen = ""
    deadline = time.monotonic() + WAIT
    while text not in seen:
        message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        seen += message.data.decode("utf-8", "replace") if isinstance(message.data, bytes) else message.data
    return seen


async def test_the_proxys_user_names_the_first_seat(tmp_path: Path) -> None:
    with web_server(tmp_path / "data", "--user-header", HEADER) as (_, url):
        ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(ws_url, headers={HEADER: "gianna"}) as ws:
                await shown_until(ws, "New game: choose the seats")
                await ws.send_str(json.dumps(["stdin", "\r"]))
                assert "Gianna" in await shown_until(ws, "Start the game")
            async with http.get(url + "/ws") as refused:
                assert refused.status == 403
                assert HEADER in await refused.text()
