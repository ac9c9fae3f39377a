"""A screenshot in a browser tab (the command palette's Screenshot) is the browser's download: no
file of the account that serves the tab is written (every browser user could fill its disk), and a
tab holds at most a few that its browser has not fetched yet. Spoken to as textual-serve's page
does: JSON messages up, the app's output (and the download's announcement) down."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from dvtui.app.app import MAX_SCREENSHOTS_WAITING

from ..support.web import shown_until, web_server

PALETTE = "\x10"  # Ctrl+P
OPEN_PALETTE = "earch for commands"
"""The palette's input as it is first drawn: its placeholder, the input's cursor on the S (in a
style of its own, so the whole placeholder shows in one piece only once the cursor blinks, half a
second to a second later)."""


async def screenshot(ws: aiohttp.ClientWebSocketResponse) -> None:
    """The palette's Screenshot, typed."""
    await ws.send_str(json.dumps(["stdin", PALETTE]))
    await shown_until(ws, OPEN_PALETTE)
    await ws.send_str(json.dumps(["stdin", "Screenshot"]))
    await shown_until(ws, "download it from the browser")
    await ws.send_str(json.dumps(["stdin", "\r"]))


def delivery(seen: str) -> str:
    """The key of the download the tab was told of in ``seen``."""
    start = seen.index('["deliver_file_start"')
    return str(json.loads(seen[start : seen.index("]", start) + 1])[1])


@pytest.mark.long
async def test_a_screenshot_is_the_browsers_download_and_no_file_of_the_web_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)  # where a terminal's screenshot goes
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    with web_server(tmp_path / "data") as (_, url):
        ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
        async with aiohttp.ClientSession() as http, http.ws_connect(ws_url) as ws:
            await shown_until(ws, "New game: choose the seats")
            await screenshot(ws)
            key = delivery(await shown_until(ws, "deliver_file_start"))
            async with http.get(f"{url}/download/{key}") as download:
                assert download.status == 200
                assert (await download.text()).startswith("<svg")
            await shown_until(ws, "Saved screenshot")
            for _ in range(MAX_SCREENSHOTS_WAITING):  # sent, never fetched
                await screenshot(ws)
                await shown_until(ws, "deliver_file_start")
            await screenshot(ws)
            await shown_until(ws, f"Screenshot not taken: {MAX_SCREENSHOTS_WAITING} are waiting")
    assert not [p for p in tmp_path.rglob("*.svg")]  # not in Downloads, the working directory, the data dir
