"""``dvtui web`` driven from a real browser: the system's Chromium through Playwright (which
downloads no browser here: ``.ci/setup-system.sh`` installs Chromium from the system packages).

The page draws the app on a canvas, so what a tab shows is read from what the server sends it:
the websocket's frames, the app's own output, in which a line's text of one style is contiguous.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
from playwright.sync_api import Browser, Frame, Page, ViewportSize, WebSocket
from playwright.sync_api import Error as PlaywrightError

from dvtui.store import read_game

from .processes import dvtui_cmd, env

CHROMIUM = "/usr/bin/chromium"
READY = re.compile(r"Dolce Vita in the browser: (\S+)")
WAIT = 60.0
"""How long a step may take before the test gives up (a bound against hanging, not a measurement)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def web_server(data_dir: Path, *args: str, port: int | None = None) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``dvtui web`` on ``port`` (a free one of localhost when None): the process and the page's
    address (no slash at the end). Its log goes to a file beside the data (:func:`dvtui_web`)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    with dvtui_web(data_dir, data_dir.parent / "web.log", "--port", str(port or free_port()), *args) as (proc, found):
        yield proc, found.group(1).rstrip("/")


@contextmanager
def dvtui_web(
    data_dir: Path, log: Path, *args: str, umask: int = -1
) -> Iterator[tuple[subprocess.Popen[bytes], re.Match[str]]]:
    """``dvtui web ARGS`` (saving in ``data_dir``), once it has announced its address: the process
    and the announcement's match of :data:`READY`; stopped (SIGTERM) at the end. Its output is read
    as it comes, by a thread that copies it to ``log`` (which nobody has to keep reading), so the
    test goes on the moment the address is announced rather than at its next look at the file."""
    proc = subprocess.Popen(
        dvtui_cmd("web", *args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env(data_dir), umask=umask,
    )  # fmt: skip
    announced: list[re.Match[str]] = []
    told = threading.Event()

    def copy() -> None:
        """Every line to the log, as it comes; the test told at the announcement or the end."""
        assert proc.stdout is not None
        with log.open("wb") as out:
            for line in proc.stdout:
                out.write(line)
                out.flush()
                found = READY.search(line.decode("utf-8", "replace"))
                if found and not announced:
                    announced.append(found)
                    told.set()
        told.set()

    copier = threading.Thread(target=copy, daemon=True)
    copier.start()
    try:
        if not told.wait(WAIT):
            raise AssertionError("gave up waiting for dvtui web to start")
        assert announced, f"dvtui web stopped: {log.read_text()}"
        yield proc, announced[0]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        copier.join(WAIT)
        assert proc.stdout is not None
        proc.stdout.close()


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (each tab's dvtui, and its shell where it has one), from /proc."""
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        out += [int(c) for c in children]
        todo += [int(c) for c in children]
    return out


def wait_until(check: Callable[[], object], what: str, timeout: float = WAIT) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


VIEWPORT: ViewportSize = {"width": 1100, "height": 700}
"""A page's size unless a test says otherwise: a laptop's window, some 120 columns by 36 rows."""

_WATCHING: dict[Page, list[tuple[str, Callable[..., None]]]] = {}
"""The listeners (of its websockets, of its navigations) each :class:`Tab` set on its page, by
event: taken off when the page is given back, so that a test's tabs hear nothing of the tests
after it on the same page."""


class Pages:
    """Browser pages for one test, taken again from the tests before where one is free: a new page
    costs Chromium about a second of processor more than a used one (2.3 s against 1.2 s to show the
    start menu, measured), and a page navigated to ``about:blank`` keeps nothing of the tab it
    showed: its document, its websocket and so its tab's dvtui are gone. What a page is given
    (its size, the headers of its requests) is given again to each test. The listeners its
    tabs set on it go with it."""

    def __init__(self, browser: Browser, free: list[Page]) -> None:
        self.browser = browser
        self.free = free
        """Pages no test uses now, at ``about:blank`` (one list for the whole run)."""
        self.lent: list[Page] = []

    def new(self, headers: dict[str, str] | None = None, viewport: ViewportSize = VIEWPORT) -> Page:
        """A page of ``viewport``'s size whose every request, the websocket's opening too, carries
        ``headers`` (as a login proxy would add them)."""
        page = self.free.pop() if self.free else self.browser.new_page()
        page.set_viewport_size(viewport)
        page.set_extra_http_headers(headers or {})
        self.lent.append(page)
        return page

    def close(self, page: Page) -> None:
        """The tab closes, as when its page closes (its websocket closes; its dvtui ends); the page
        waits for the next test."""
        page.goto("about:blank")
        for event, listener in _WATCHING.pop(page, []):
            page.remove_listener(event, listener)
        self.lent.remove(page)
        self.free.append(page)

    def give_back(self) -> None:
        """Each page the test still has closes its tab, then waits for the next test."""
        for page in list(self.lent):
            if page.is_closed():
                self.lent.remove(page)
                _WATCHING.pop(page, None)
            else:
                self.close(page)


class Tab:
    """One browser tab on the page, and what the server has sent it since ``mark()``."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[bytes] = []
        self.start = 0
        self.socket: WebSocket | None = None
        """The page's latest websocket: the tab's, once its page has opened it."""
        page.on("websocket", self._watch)
        page.on("framenavigated", self._navigated)
        _WATCHING.setdefault(page, []).extend([("websocket", self._watch), ("framenavigated", self._navigated)])

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)
        self.socket = ws

    def _navigated(self, frame: Frame) -> None:
        """A new document (a reload, a goto): the socket of the one before is the tab's no more,
        though Playwright may never say that it closed."""
        if frame == self.page.main_frame:
            self.socket = None

    def _frame(self, payload: bytes | str) -> None:
        self.frames.append(payload if isinstance(payload, bytes) else payload.encode())

    def mark(self) -> None:
        """From now on, only what comes next counts as shown."""
        self.start = len(self.frames)

    def shown(self) -> str:
        return b"".join(self.frames[self.start :]).decode("utf-8", "replace")

    def wait_for(self, text: str, timeout: float = WAIT) -> None:
        """Until the tab has been sent ``text`` (since the mark): woken by each frame the tab's
        socket receives (or by the page's opening of one), not looking every so often, which kept
        Playwright's driver and Chromium answering a call every 20 ms meanwhile (a tenth of a
        processor)."""
        deadline = time.monotonic() + timeout
        while text not in self.shown():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the tab never showed {text!r}; it was sent:\n{self.shown()[-3000:]!r}")
            socket = self.socket
            try:
                if socket is None or socket.is_closed():  # (the page's next socket, as it opens)
                    self.page.wait_for_event("websocket", timeout=left * 1000)
                else:  # (this listener hears each frame after _frame, which was listening first)
                    socket.wait_for_event("framereceived", lambda _: text in self.shown(), timeout=left * 1000)
            except PlaywrightError:  # the time is up (said above), or the socket closed: its next one
                if socket is not None and socket is self.socket and not socket.is_closed():
                    self.page.wait_for_timeout(20)  # (an error of a socket still open: never a busy loop)

    def press(self, *keys: str) -> None:
        """Keys typed into the terminal (its input field takes them, as after a click on the page)."""
        self.page.focus(".xterm-helper-textarea")
        for key in keys:
            self.page.keyboard.press(key)


MENU = "New game: choose the seats, then play"
SETUP = "Start the game"
TABLE = "pick a card 1-6"
RESUME = "Resume the latest game"


def saved_game(data: Path) -> Path:
    return wait_until(lambda: next(iter(data.rglob("*.dvr")), None), "the game's file")  # type: ignore[return-value]


def placements(path: Path) -> list[tuple[int, int, int]]:
    """(player, column, card) of every card placed, in the file's lines, which a reader reads whole."""
    loaded = read_game(path)
    assert loaded.torn is None and not loaded.missing_tail
    events = [json.loads(line) for line in path.read_bytes().splitlines()]
    return [(e["player"], e["column"], e["card"]) for e in events if e["type"] == "card_placed"]


def start_and_place(tab: Tab, url: str, data: Path) -> Path:
    """From the start menu: a new game with the set-up's seats (you and two greedy bots), card 1
    placed under column a; returns its file once the placement is in it."""
    tab.page.goto(url + "/")
    tab.wait_for(MENU)
    tab.press("ArrowDown", "Enter")  # New game (after Play now)
    return set_up_and_place(tab, data)


def set_up_and_place(tab: Tab, data: Path) -> Path:
    """From the set-up screen on its way: the game started with the seats offered, card 1 placed
    under column a; returns its file once the placement is in it."""
    tab.wait_for(SETUP)
    tab.mark()
    tab.press("Control+s")  # start it, seats as offered
    tab.wait_for(TABLE)
    tab.press("1", "a", "Enter")
    path = saved_game(data)
    wait_until(lambda: (0, 0, 1) in placements(path), "the placement in the file")
    return path


async def shown_until(ws: aiohttp.ClientWebSocketResponse, text: str) -> str:
    """What the tab is sent over the websocket, until ``text``. The deadline is the whole wait's: a
    live screen never goes quiet (its cursor blinks), and each of the server's pings starts aiohttp's
    receive timeout again."""
    seen = ""
    try:
        async with asyncio.timeout(WAIT):
            while text not in seen:
                message = await ws.receive()
                assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
                seen += message.data.decode("utf-8", "replace") if isinstance(message.data, bytes) else message.data
    except TimeoutError:
        raise AssertionError(f"the tab never showed {text!r}; it was sent:\n{seen[-3000:]!r}") from None
    return seen
