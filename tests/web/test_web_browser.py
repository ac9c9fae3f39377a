"""``dvtui web`` in a real browser: a game set up and played from the keyboard in a tab, saved as
from a terminal; a reload offers to resume it; a closed tab ends its process and loses nothing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from dvtui.store import read_game

from ..support.web import (
    MENU,
    RESUME,
    SETUP,
    TABLE,
    Tab,
    descendants,
    free_port,
    placements,
    start_and_place,
    wait_until,
    web_server,
)

pytestmark = pytest.mark.chromium


@pytest.mark.long
def test_a_game_in_a_tab_is_saved_and_a_reload_offers_to_resume_it(browser: Browser, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with web_server(data) as (_, url):
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        path = start_and_place(tab, url, data)
        assert page.title() == "Dolce Vita"
        assert "data:image/svg+xml" in page.get_attribute("link[rel=icon]", "href")
        created = read_game(path).game.created
        assert [p.kind for p in created.players] == ["human", "bot", "bot"]
        assert placements(path)[0] == (0, 0, 1)

        tab.mark()
        page.reload()  # a new process for the tab; the old one quits with its game saved
        tab.wait_for(RESUME)
        tab.mark()
        tab.press("ArrowDown", "ArrowDown", "Enter")  # resume it (after Play now and New game)
        tab.wait_for(TABLE)
        assert placements(path)[0] == (0, 0, 1)
        page.close()


@pytest.mark.long
def test_a_closed_tab_ends_its_process_and_loses_nothing(browser: Browser, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with web_server(data) as (server, url):
        spare = set(wait_until(lambda: descendants(server.pid), "the spare dvtui"))  # type: ignore[arg-type]
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        path = start_and_place(tab, url, data)
        before = placements(path)
        page.close()
        # the spare became the tab's dvtui (an unused one would stay), and it ends with the tab
        wait_until(lambda: not spare & set(descendants(server.pid)), "the tab's process to end")
        assert server.poll() is None  # the server serves on
        assert placements(path) == before


def test_a_key_typed_right_after_the_page_loads_reaches_the_app(browser: Browser, tmp_path: Path) -> None:
    """No click on the page first: the terminal has the keyboard from the start."""
    with web_server(tmp_path / "data") as (_, url):
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        page.goto(url + "/")
        tab.wait_for(MENU)
        assert page.evaluate("document.activeElement.className") == "xterm-helper-textarea"
        tab.mark()
        page.keyboard.press("ArrowDown")  # straight to the page, as a person types: past Play now,
        page.keyboard.press("Enter")  # New game
        tab.wait_for(SETUP)
        page.close()


@contextmanager
def slow_sockets(server_port: int, delay: float) -> Iterator[int]:
    """A proxy on a free port of localhost to ``server_port`` that holds back the server's answer to
    each WebSocket's opening for ``delay`` seconds (the rest goes through at once): the tab's socket
    stays connecting that long, as on a busy machine."""
    port = free_port()
    loop = asyncio.new_event_loop()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, wait: float) -> None:
        await asyncio.sleep(wait)
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        writer.close()

    async def serve(client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection("127.0.0.1", server_port)
        request = await client_in.read(65536)
        server_out.write(request)
        wait = delay if b"upgrade: websocket" in request.lower() else 0.0
        await asyncio.gather(pipe(client_in, server_out, 0.0), pipe(server_in, client_out, wait),
                             return_exceptions=True)  # fmt: skip

    listening = threading.Event()

    def run() -> None:  # its own loop in its own thread: the browser's driver has the main one
        asyncio.set_event_loop(loop)
        loop.run_until_complete(asyncio.start_server(serve, "127.0.0.1", port))
        listening.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    listening.wait()
    try:
        yield port
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()


def test_keys_typed_while_the_tab_connects_reach_the_app(browser: Browser, tmp_path: Path) -> None:
    """A person who types as soon as the page is there, before its socket is open (a busy machine,
    a slow network), loses no key: they reach the game, in order, once the socket opens."""
    port = free_port()
    with (
        slow_sockets(port, delay=2.0) as proxy,
        web_server(tmp_path / "data", "--public-url", f"http://127.0.0.1:{proxy}", port=port),
    ):
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        page.goto(f"http://127.0.0.1:{proxy}/")
        page.wait_for_function("document.activeElement.className === 'xterm-helper-textarea'")
        assert page.evaluate("document.querySelector('.textual-terminal.-connected') === null")
        page.keyboard.press("ArrowDown")  # past Play now,
        page.keyboard.press("Enter")  # New game, typed before the socket is open
        assert page.evaluate("document.querySelector('.textual-terminal.-connected') === null")
        tab.wait_for(SETUP)
        page.close()
