"""textual-serve's server as ``dvtui web`` runs it: each tab's dvtui named after the person a login
proxy vouches for (in a data directory of their own), tabs capped in all and per person, one dvtui
always started ahead of the next tab (:mod:`.tab`), and a Unix socket to listen on. It builds on
textual-serve's private steps through :mod:`.serve_private` alone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import signal
import socket
from asyncio.subprocess import PIPE, Process
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from aiohttp import WSCloseCode, web
from textual_serve.server import Server

from ..printable import printable
from ..store import make_private_dirs
from ..store.saves import person_data_dir
from ..tables.vetting import person_problem
from .caps import DEFAULT_MAX_TABS, DEFAULT_MAX_TABS_PER_PERSON, TabCaps
from .serve_private import HookedService, make_app, serve_each_tab_with, tab_environment
from .tab import BROWSER_VARIABLE, DATA_VARIABLE, PLAYER_VARIABLE, SPARE_VARIABLE, browser_languages, tab_line

MAX_HEADER_CHARS = 200
"""The most of a proxy's user name put in a tab's environment: a bound only, as a name the table
server would refuse (:func:`person_problem`: longer than 40 characters, say) is refused before
any tab starts."""
_tab_player: ContextVar[str | None] = ContextVar("tab_player", default=None)
"""The proxy's user for the connection being handled (each is its own task)."""
_tab_languages: ContextVar[str | None] = ContextVar("tab_languages", default=None)
"""The languages the browser of the connection being handled asks for (:func:`browser_languages`)."""
SPARE_QUIET = 0.2
"""Seconds without output after which a tab's dvtui counts as having drawn its first screen."""
SPARE_AT_LATEST = 5.0
"""Seconds after a tab opens by which the next tab's spare is started, quiet or not."""
SPARE_ENDS_WITHIN = 5.0
"""Seconds a spare told to stop (``dvtui web`` stopping) has to end before it is killed."""
PAGE_TURN = "dvtui_turn"
"""The message by which a tab's dvtui tells its page whether it is its person's turn at a shared
table (the app's ``dvtui.app.notify.PAGE_TURN``); the page (page/app_index.html) changes its title
and icon."""
SERVER_STOPPED = "dvtui web has stopped; every move is saved. Reload once it is back."
"""The reason a tab's page is told when ``dvtui web`` stops with the tab open (the page shows it in
place of "session ended"; as the page, in English)."""
TAB_REFUSED = 4000
"""The websocket close code of a tab refused for the caps (an application's own, 4000-4999); the
page shows the close's reason in place of its "session ended"."""


def with_player(command: list[str], player: str | None) -> list[str]:
    """``command`` with the tab's person named in its environment (``DVTUI_PLAYER``), where the
    set-up screen finds the name of its first seat, and their own data directory
    (``DVTUI_DATA_DIR``): their games, seen and opened by them only."""
    if player is None:
        return command
    data = f"{DATA_VARIABLE}={person_data_dir(player)}"
    return ["env", f"{PLAYER_VARIABLE}={player[:MAX_HEADER_CHARS]}", data, *command]


def private_data_dir(player: str | None) -> str | None:
    """The data directory of ``player`` (None: the account's own, as is), made private to this
    account (0700) before their tab's dvtui writes in it."""
    if player is None:
        return None
    directory = person_data_dir(player)
    with contextlib.suppress(OSError):  # (the tab's dvtui says why when it comes to save a game there)
        make_private_dirs(directory)
    return str(directory)


def without_player(environment: dict[str, str]) -> dict[str, str]:
    """A tab's environment without a ``DVTUI_PLAYER`` inherited from whoever started ``dvtui
    web``: a tab's person is the one its proxy named (``with_player``, ``tab_line``) or nobody,
    never the operator."""
    environment.pop(PLAYER_VARIABLE, None)
    return environment


def server_class(
    user_header: str | None, listeners: list[socket.socket] | None = None, caps: TabCaps | None = None,
) -> type[Server]:  # fmt: skip
    """textual-serve's server, announcing itself in one line instead of its banner; listening on
    ``listeners`` (sockets already listening: a Unix socket, or the host's addresses) when given,
    so that the address it announces answers from the moment it is announced (aiohttp would
    start listening only after the start-up that announces it); with
    ``user_header``, each tab's dvtui named after the user the proxy vouches for in that header,
    and a connection without it refused (it did not come through the proxy), each in a data
    directory of their own; a tab beyond ``caps`` refused, in the page; and a tab's dvtui always
    started ahead of the tab (:mod:`.tab`), as the next tab then opens faster by the time it
    takes to import (and, for the start menu, build) the app. Every tab of every server is served
    by this one's service from now on."""
    tabs = caps or TabCaps(DEFAULT_MAX_TABS, DEFAULT_MAX_TABS_PER_PERSON)
    spares: list[Process] = []
    starting = False
    serving: set[TabService] = set()
    """The tabs whose dvtui is started and not yet stopped, which a stopping server closes."""
    stopping = False
    """Set once the server stops: no tab will take a spare any more."""

    async def start_spare(command: str) -> None:
        """One spare at a time, in the environment textual-serve gives a tab's process (its web
        driver, its colours), at a size the tab replaces; none once the server stops (a tab that
        closes as it stops would otherwise have one started for its successor)."""
        nonlocal starting
        if starting or spares or stopping:
            return
        starting = True
        try:
            environment = without_player(tab_environment(80, 24))
            environment[SPARE_VARIABLE] = "1"
            spares.append(  # (not through a shell: the process is dvtui itself, which a stop can end)
                await asyncio.create_subprocess_exec(
                    *shlex.split(command), stdin=PIPE, stdout=PIPE, stderr=PIPE, env=environment
                )
            )
        finally:
            starting = False

    async def end_spare(process: Process) -> None:
        """A spare no tab will take ended now: told to stop (SIGTERM; it has no tab, nothing of
        anyone's to save) rather than only left to read its standard input's end, which it reads
        once its imports are done: a spare still importing when ``dvtui web`` stopped kept a
        processor busy for a second after the server had gone. Killed should it not end."""
        if process.stdin is not None:
            process.stdin.close()
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), SPARE_ENDS_WITHIN)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()

    class TabService(HookedService):
        last_data: float | None = None
        """When this tab's dvtui last sent something (the event loop's clock)."""

        def environment(self, width: int, height: int) -> dict[str, str]:
            environment = without_player(super().environment(width, height))
            languages = _tab_languages.get()
            if languages is not None:  # the browser's, below a language the person chose (tab.py)
                environment[BROWSER_VARIABLE] = languages
            return environment

        async def on_data(self, payload: bytes) -> None:
            self.last_data = asyncio.get_running_loop().time()
            await super().on_data(payload)

        async def on_meta(self, data: bytes) -> None:
            """The tab's dvtui saying whether it is its person's turn: handed to the page (as
            textual-serve hands it an ``open_url``), which shows it in its title and icon."""
            meta = json.loads(data)
            if isinstance(meta, dict) and meta.get("type") == PAGE_TURN:
                await self.remote_write_str(json.dumps([PAGE_TURN, {"turn": meta.get("turn") is True}]))
                return
            await super().on_meta(data)

        async def spare_after_first_screen(self, command: str) -> None:
            """The next tab's spare, once this tab's dvtui has drawn its first screen (it has sent
            something, then nothing for a moment): started with it, the spare's imports would take
            the processor from this tab's start. At the latest after ``SPARE_AT_LATEST``."""
            loop = asyncio.get_running_loop()
            began = loop.time()
            while loop.time() - began < SPARE_AT_LATEST:
                await asyncio.sleep(SPARE_QUIET / 2)
                if self.last_data is not None and loop.time() - self.last_data >= SPARE_QUIET:
                    break
            await start_spare(command)

        def __init__(self, command: str, *, close: Callable[..., Awaitable[None]], **given: Any) -> None:
            super().__init__(command, close=close, **given)
            self.close_websocket = close
            """The tab's websocket's ``close`` (textual-serve's ``remote_close``), which takes a
            code and a reason too."""

        async def stop(self) -> None:
            try:
                await super().stop()
            finally:
                serving.discard(self)

        async def open_process(self, width: int, height: int) -> Process:
            serving.add(self)
            player = _tab_player.get()
            live = [p for p in spares if p.returncode is None and p.stdin is not None]
            spares.clear()
            # for the next tab (the command as given: without this tab's person)
            asyncio.get_running_loop().create_task(self.spare_after_first_screen(self.command))
            for extra in live[1:]:  # (one at a time is started; should two live, the others leave)
                assert extra.stdin is not None
                extra.stdin.close()
            data = private_data_dir(player)
            if live:
                process = live[0]
                assert process.stdin is not None
                process.stdin.write(tab_line(width, height, player, data, _tab_languages.get()))
                self.adopt(process)
                return process
            self.command = shlex.join(with_player(shlex.split(self.command), player))
            return await super().open_process(width, height)

    class DolceVitaServer(Server):
        def person(self, request: web.Request) -> str | None:
            """The user the proxy names in ``request`` (None without ``user_header``); a request
            without one, or naming someone no table could seat, is refused with the reason (the
            page's request too, so that the browser shows it)."""
            if user_header is None:
                return None
            user: str = request.headers.get(user_header, "").strip()
            if not user:
                raise web.HTTPForbidden(text=f"no {user_header} header: connect through the proxy\n")
            problem = person_problem(user)
            if problem is not None:
                raise web.HTTPForbidden(text=f"{user_header}: {problem}; dvtui cannot seat this user\n")
            return user

        async def handle_index(self, request: web.Request) -> Any:
            refusal = tabs.refusal(self.person(request))
            if refusal is not None:  # a page that could only open a refused tab: say why instead
                raise web.HTTPServiceUnavailable(text=refusal + "\n")
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            user = self.person(request)
            refusal = tabs.refusal(user)
            if refusal is not None:  # (the page was served under the caps: another tab opened since)
                websocket = web.WebSocketResponse()
                await websocket.prepare(request)
                await websocket.close(code=TAB_REFUSED, message=refusal.encode())
                return websocket
            if user is not None:
                _tab_player.set(user)  # this connection's task (and only it) sees the name
            _tab_languages.set(browser_languages(request.headers.get("Accept-Language", "")))
            tabs.opened(user)
            try:
                return await super().handle_websocket(request)  # until the tab's dvtui has ended
            finally:
                tabs.closed(user)

        def serve(self, debug: bool = False) -> None:
            """textual-serve's ``serve`` (its logging, its signal handlers), on ``listeners``."""
            if not listeners:
                super().serve(debug)
                return
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, self.request_exit)
            web.run_app(make_app(self), sock=listeners, handle_signals=False, loop=loop, print=lambda *_: None)

        async def on_startup(self, app: web.Application) -> None:
            await start_spare(self.command)  # the first tab's
            unix = [s for s in listeners or () if s.family == socket.AF_UNIX]
            through = f" through unix:{printable(str(unix[0].getsockname()))}" if unix else ""
            print(f"Dolce Vita in the browser: {self.public_url}/{through} (Ctrl+C to stop)", flush=True)

        async def on_shutdown(self, app: web.Application) -> None:
            """Every open tab closed, as aiohttp asks of a server's websockets: its page says that
            ``dvtui web`` stopped (:data:`SERVER_STOPPED`), and its dvtui is asked to quit (every
            move is saved) and waited for. Left open, a tab held the server's stop until aiohttp's
            grace ran out, some twenty seconds, its page saying nothing of why."""
            nonlocal stopping
            stopping = True
            going = WSCloseCode.GOING_AWAY
            await asyncio.gather(*(tab.close_websocket(code=going, message=SERVER_STOPPED.encode()) for tab in serving))
            await asyncio.gather(*(end_spare(process) for process in spares))

    serve_each_tab_with(TabService)  # a tab of this server takes a spare
    return DolceVitaServer
