"""``dvtui web`` in a real browser: a game set up and played from the keyboard in a tab, saved as
from a terminal; a reload offers to resume it; a closed tab ends its process and loses nothing;
keys typed as soon as the page is there, even before its socket is open, reach the game."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from dvtui.store import read_game

from ..support.web import (
    MENU,
    RESUME,
    SETUP,
    TABLE,
    Pages,
    Tab,
    descendants,
    free_port,
    placements,
    set_up_and_place,
    wait_until,
    web_server,
)

pytestmark = pytest.mark.chromium


@pytest.mark.long
def test_a_game_in_a_tab_is_saved_a_reload_offers_to_resume_it_and_a_closed_tab_loses_nothing(
    pages: Pages, tmp_path: Path
) -> None:
    """One tab's life: keys typed straight at the page (no click first) reach the start menu; the
    game set up and played there is saved as from a terminal; a reload is a new process for the
    tab, the old one quitting with its game saved, and offers to resume it; a closed tab ends its
    process and loses nothing. Each tab's process is a spare ``dvtui web`` started ahead of it (an
    unused spare would stay), and it ends with its page."""
    data = tmp_path / "data"
    with web_server(data) as (server, url):
        spare = wait_until(lambda: descendants(server.pid), "the spare dvtui")
        assert isinstance(spare, list)
        first = set(spare)
        page = pages.new()
        tab = Tab(page)
        page.goto(url + "/")
        tab.wait_for(MENU)
        assert page.evaluate("document.activeElement.className") == "xterm-helper-textarea"
        tab.mark()
        page.keyboard.press("ArrowDown")  # straight to the page, as a person types: past Play now,
        page.keyboard.press("Enter")  # New game
        path = set_up_and_place(tab, data)
        assert page.title() == "Dolce Vita"
        assert "data:image/svg+xml" in (page.get_attribute("link[rel=icon]", "href") or "")
        created = read_game(path).game.created
        assert [p.kind for p in created.players] == ["human", "bot", "bot"]
        assert placements(path)[0] == (0, 0, 1)
        # the next tab's spare, started once this tab's first screen was drawn
        second = wait_until(lambda: set(descendants(server.pid)) - first, "the next tab's spare")
        assert isinstance(second, set)

        tab.mark()
        page.reload()  # a new process for the tab; the old one quits with its game saved
        wait_until(lambda: not first & set(descendants(server.pid)), "the first tab's process to end")
        tab.wait_for(RESUME)
        tab.mark()
        tab.press("ArrowDown", "ArrowDown", "Enter")  # resume it (after Play now and New game)
        tab.wait_for(TABLE)
        before = placements(path)
        assert before[0] == (0, 0, 1)

        pages.close(page)
        wait_until(lambda: not second & set(descendants(server.pid)), "the closed tab's process to end")
        assert server.poll() is None  # the server serves on
        assert placements(path) == before


class HeldSockets:
    """A proxy on a free port of localhost to a server's port that holds back the server's answer
    to each WebSocket's opening until :meth:`release` (the rest goes through at once): the tab's
    socket stays connecting, as on a busy machine or a slow network, for as long as the test
    needs and no longer."""

    def __init__(self) -> None:
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.opening = threading.Event()
        """Set once a WebSocket's opening has reached the proxy (the page's socket is connecting)."""
        self.released = asyncio.Event()

    def release(self) -> None:
        self.loop.call_soon_threadsafe(self.released.set)

    async def pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, held: bool) -> None:
        if held:
            await self.released.wait()
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        writer.close()

    async def serve(self, server_port: int, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection("127.0.0.1", server_port)
        request = await client_in.read(65536)
        server_out.write(request)
        held = b"upgrade: websocket" in request.lower()
        if held:
            self.opening.set()
        await asyncio.gather(self.pipe(client_in, server_out, False), self.pipe(server_in, client_out, held),
                             return_exceptions=True)  # fmt: skip


@contextmanager
def held_sockets(server_port: int) -> Iterator[HeldSockets]:
    """:class:`HeldSockets` to ``server_port``, run in a thread of its own (the browser's driver
    has the main one)."""
    proxy = HeldSockets()
    listening = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(proxy.loop)
        handler = functools.partial(proxy.serve, server_port)
        proxy.loop.run_until_complete(asyncio.start_server(handler, "127.0.0.1", proxy.port))
        listening.set()
        proxy.loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    listening.wait()
    try:
        yield proxy
    finally:
        proxy.loop.call_soon_threadsafe(proxy.loop.stop)
        thread.join()


def test_keys_typed_while_the_tab_connects_reach_the_app(pages: Pages, tmp_path: Path) -> None:
    """A person who types as soon as the page is there, before its socket is open (a busy machine,
    a slow network), loses no key: they reach the game, in order, once the socket opens."""
    port = free_port()
    with (
        held_sockets(port) as proxy,
        web_server(tmp_path / "data", "--public-url", f"http://127.0.0.1:{proxy.port}", port=port),
    ):
        page = pages.new()
        tab = Tab(page)
        page.goto(f"http://127.0.0.1:{proxy.port}/")
        page.wait_for_function("document.activeElement.className === 'xterm-helper-textarea'")
        wait_until(proxy.opening.is_set, "the page's socket to be connecting")
        assert page.evaluate("document.querySelector('.textual-terminal.-connected') === null")
        page.keyboard.press("ArrowDown")  # past Play now,
        page.keyboard.press("Enter")  # New game, typed before the socket is open
        assert page.evaluate("document.querySelector('.textual-terminal.-connected') === null")
        proxy.release()
        tab.wait_for(SETUP)
        pages.close(page)
