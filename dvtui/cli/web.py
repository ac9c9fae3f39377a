"""``dvtui web``: the app in browser tabs, through textual-serve (the optional ``web`` extra).

Each tab that opens the page runs its own dvtui process, whose standard input and output are the
tab's keys and screen (Textual's web driver): plain ``dvtui`` (the start menu, its games saved in
the user's data dir as from a terminal), or ``dvtui join NAME`` for one table of the table server.
A closed tab asks its process to quit, as a closed terminal would; every move is already saved, so
a reload finds the game in the start menu's resume. One dvtui is kept started ahead
of the next tab (``web_tab``), at the start menu or at the table: its imports (and the start
menu's app and styles), most of a start, are done before the tab opens; it is started once the
tab before has drawn its first screen.

textual-serve has no authentication: it listens on localhost unless told otherwise, or on a Unix
socket (``--socket``) that only the accounts its mode lets in can open, and a reverse proxy in
front does TLS and login (README, "Play in a browser").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import shlex
import signal
import socket
import sys
from asyncio.subprocess import PIPE
from contextvars import ContextVar
from importlib import import_module
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..printable import printable
from ..store import SaveError, make_private_dirs
from ..store.saves import person_data_dir
from ..tables.protocol import person_problem
from .errors import EXIT_BAD_FILE, EXIT_OK, UsageError
from .web_tab import DATA_VARIABLE, PLAYER_VARIABLE, SPARE_VARIABLE, tab_line

TITLE = "Dolce Vita"
PAGE_DIR = Path(__file__).with_name("web_page")
"""The page's template (textual-serve's, with the game's title, favicon and colours)."""
MAX_HEADER_CHARS = 200
"""The most of a proxy's user name put in a tab's environment: a bound only, as a name the table
server would refuse (:func:`person_problem`: longer than 40 characters, say) is refused before
any tab starts."""
_tab_player: ContextVar[str | None] = ContextVar("tab_player", default=None)
"""The proxy's user for the connection being handled (each is its own task)."""
SPARE_QUIET = 0.2
"""Seconds without output after which a tab's dvtui counts as having drawn its first screen."""
SPARE_AT_LATEST = 5.0
"""Seconds after a tab opens by which the next tab's spare is started, quiet or not."""
EXTRA_MISSING = 'dvtui web needs the web extra (textual-serve): pip install "dvtui[web]"'
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_TABS = 16
"""Tabs open at once, in all, unless ``--max-tabs`` says otherwise: each is a dvtui process of
about 50 MB, so the default bounds ``dvtui web`` near 800 MB whoever opens them."""
DEFAULT_MAX_TABS_PER_PERSON = 4
"""Tabs open at once per person a login proxy names (``--max-tabs-per-person``): one person's
tabs leave room for others'."""
TAB_REFUSED = 4000
"""The websocket close code of a tab refused for the caps (an application's own, 4000-4999); the
page shows the close's reason in place of its "session ended"."""
SOCKET_MODE = 0o660
"""A ``--socket``'s permissions (less what the umask takes away): its owner's account and group
may connect, as the login proxy must; no other account may."""


def tab_command(table: str | None, server: str | None) -> list[str]:
    """The command each tab runs: this same dvtui (interpreter and import path), at its start
    menu or, with ``table``, sitting at that table of the table server."""
    command = [sys.executable, "-m", "dvtui"]
    if table is None:
        return command
    command += ["join", table]
    if server is not None:
        command += ["--server", str(Path(server).expanduser().absolute())]
    return command


def page_title(table: str | None) -> str:
    return TITLE if table is None else f"{TITLE} · table {table}"


def run(args: argparse.Namespace) -> int:
    if args.socket is not None:
        if args.host is not None or args.port is not None:
            raise UsageError("--socket replaces --host and --port")
        if args.public_url is None:
            raise UsageError("--socket needs --public-url (the address browsers reach through the proxy)")
    host = args.host if args.host is not None else DEFAULT_HOST
    port = args.port if args.port is not None else DEFAULT_PORT
    if not 0 < port < 65536:
        raise UsageError(f"--port must be from 1 to 65535, not {port}")
    if args.server is not None and args.table is None:
        raise UsageError("--server goes with --table NAME")
    if args.max_tabs_per_person is not None and args.user_header is None:
        raise UsageError("--max-tabs-per-person goes with --user-header (without it, tabs are nobody's)")
    caps = TabCaps(
        _at_least_one("--max-tabs", args.max_tabs, DEFAULT_MAX_TABS),
        _at_least_one("--max-tabs-per-person", args.max_tabs_per_person, DEFAULT_MAX_TABS_PER_PERSON),
    )
    try:
        serve_module: Any = import_module("textual_serve.server")
    except ImportError:
        print(f"dvtui: error: {EXTRA_MISSING}", file=sys.stderr)
        return EXIT_BAD_FILE
    if args.table is not None:  # every tab would be a dead end: say it once, here
        problem = _table_problem(args.table, args.server)
        if problem is not None:
            print(f"dvtui: error: {printable(problem)}", file=sys.stderr)
            return EXIT_BAD_FILE
    path = None if args.socket is None else Path(args.socket).expanduser().absolute()
    where = f"http://{host}:{port}" if path is None else f"unix:{path}"
    listener: socket.socket | None = None
    bound: os.stat_result | None = None
    try:  # before the server announces an address it cannot have
        if path is None:
            _check_free(host, port)
        else:
            listener = _unix_listener(path)
            bound = path.stat()
    except OSError as e:
        return _cannot_serve(where, e, on_socket=path is not None)
    if args.user_header is not None and path is None:
        print(f"dvtui: warning: every account on this machine can reach {printable(host)}:{port} and name "
              f"itself in {printable(args.user_header)}: on a host with other users, serve on --socket PATH",
              file=sys.stderr)  # fmt: skip
    url = args.public_url or f"http://{host}:{port}"
    server = _server_class(serve_module, args.user_header, listener, caps)(
        shlex.join(tab_command(args.table, args.server)),
        host=host,
        port=port,
        title=page_title(args.table),
        public_url=url.rstrip("/"),
        templates_path=PAGE_DIR,
    )
    try:
        server.serve()
    except OSError as e:
        return _cannot_serve(where, e, on_socket=path is not None)
    finally:
        if listener is not None and path is not None and bound is not None:
            listener.close()
            _remove_socket(path, bound)
    return EXIT_OK


def _at_least_one(flag: str, given: int | None, default: int) -> int:
    if given is None:
        return default
    if given < 1:
        raise UsageError(f"{flag} must be at least 1, not {given}")
    return given


def _table_problem(table: str, server: str | None) -> str | None:
    """Why no tab could sit at ``table`` of the table server (None: it is there): no server
    answers, or it has no such table."""
    from ..tables import Dropped, Refused, Unreachable, list_tables, server_place

    try:
        place = server_place(server)
        infos = asyncio.run(list_tables(place))
    except (Unreachable, Refused, Dropped, SaveError) as e:
        return f"--table {table}: {e}"
    if any(info.table == table for info in infos):
        return None
    return (f"no table {table} at the table server in {place.directory} "
            f"(open it first: dvtui new --table {table} --players ...; see: dvtui tables)")


class TabCaps:
    """How many tabs are open, in all and per person, against their caps: a tab counts from its
    websocket's opening to its dvtui's end."""

    def __init__(self, total: int, per_person: int) -> None:
        self.total = total
        self.per_person = per_person
        self.open: dict[str | None, int] = {}

    def refusal(self, person: str | None) -> str | None:
        """Why ``person`` (None: nobody's, no login proxy) may not open one more tab now, in the
        page's words (None: they may)."""
        if sum(self.open.values()) >= self.total:
            return f"Dolce Vita has {self.total} tabs open, its most: try again when one closes."
        if person is not None and self.open.get(person, 0) >= self.per_person:
            tabs = "a tab" if self.per_person == 1 else f"{self.per_person} tabs"
            return f"You have {tabs} of Dolce Vita open, the most per person: close one, then reload."
        return None

    def opened(self, person: str | None) -> None:
        self.open[person] = self.open.get(person, 0) + 1

    def closed(self, person: str | None) -> None:
        self.open[person] -= 1
        if not self.open[person]:
            del self.open[person]


def _cannot_serve(where: str, error: OSError, *, on_socket: bool) -> int:
    """Say in one line why nothing is served on ``where``."""
    if error.errno == errno.EADDRINUSE and on_socket:
        reason = "the socket is in use (another dvtui web?)"
    elif error.errno == errno.EADDRINUSE:
        reason = "the port is taken (choose another with --port)"
    else:
        reason = (error.strerror or str(error)).lower()
    print(f"dvtui: error: cannot serve on {printable(where)}: {printable(reason)}", file=sys.stderr)
    return EXIT_BAD_FILE


def _unix_listener(path: Path) -> socket.socket:
    """A Unix socket bound at ``path``, of mode :data:`SOCKET_MODE` less the umask from the start
    (it is never open to more). A socket file nobody listens on (a ``dvtui web`` that was killed
    left it) is replaced; one that answers is in use; any other file stays and is an error."""
    if path.is_socket():
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(path))
            except ConnectionRefusedError:
                path.unlink()
            else:
                raise OSError(errno.EADDRINUSE, os.strerror(errno.EADDRINUSE))
    elif path.exists() or path.is_symlink():
        raise OSError(errno.EEXIST, f"{path.name} exists and is not a socket")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    umask = os.umask(0o777)
    os.umask(umask | (0o777 & ~SOCKET_MODE))  # (the process has one thread yet: nothing else creates files)
    try:
        listener.bind(str(path))
    except OSError:
        listener.close()
        raise
    finally:
        os.umask(umask)
    return listener


def _remove_socket(path: Path, bound: os.stat_result) -> None:
    """Remove the socket file at ``path`` if it is still the one this server bound (``bound``),
    not another's made since."""
    try:
        now = path.stat()
        if (now.st_dev, now.st_ino) == (bound.st_dev, bound.st_ino):
            path.unlink()
    except OSError:
        pass


def _check_free(host: str, port: int) -> None:
    """Raise the system's error if ``host:port`` cannot be listened on (taken, or not this machine's)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        probe.bind(address)


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


def _server_class(
    serve_module: Any, user_header: str | None, listener: socket.socket | None = None, caps: TabCaps | None = None,
) -> type:  # fmt: skip
    """textual-serve's server, announcing itself in one line instead of its banner; listening on
    ``listener`` (a bound Unix socket) when given, instead of its host and port; with
    ``user_header``, each tab's dvtui named after the user the proxy vouches for in that header,
    and a connection without it refused (it did not come through the proxy), each in a data
    directory of their own; a tab beyond ``caps`` refused, in the page; and a tab's dvtui always
    started ahead of the tab (``web_tab``), as the next tab then opens faster by the time it
    takes to import (and, for the start menu, build) the app."""
    tabs = caps or TabCaps(DEFAULT_MAX_TABS, DEFAULT_MAX_TABS_PER_PERSON)
    web: Any = import_module("aiohttp.web")  # textual-serve's own server
    base_service: Any = serve_module.AppService
    spares: list[asyncio.subprocess.Process] = []
    starting = False

    async def start_spare(command: str) -> None:
        """One spare at a time, in the environment textual-serve gives a tab's process (its web
        driver, its colours), at a size the tab replaces."""
        nonlocal starting
        if starting or spares:
            return
        starting = True
        try:
            environment = TabService._build_environment(SimpleNamespace(debug=False), 80, 24)  # type: ignore[arg-type]  # reads only .debug
            environment[SPARE_VARIABLE] = "1"
            spares.append(await asyncio.create_subprocess_shell(
                command, stdin=PIPE, stdout=PIPE, stderr=PIPE, env=environment))
        finally:
            starting = False

    class TabService(base_service):  # type: ignore[misc]  # textual-serve is imported by name: its types unseen
        command: str
        """The shell command of this tab's dvtui (textual-serve's own attribute)."""
        last_data: float | None = None
        """When this tab's dvtui last sent something (the event loop's clock)."""

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            """textual-serve's environment for a tab's dvtui (or a spare), without a
            ``DVTUI_PLAYER`` inherited from whoever started ``dvtui web``: a tab's person is the
            one its proxy named (``with_player``, ``tab_line``) or nobody, never the operator."""
            environment: dict[str, str] = base_service._build_environment(self, width, height)
            environment.pop(PLAYER_VARIABLE, None)
            return environment

        async def on_data(self, payload: bytes) -> None:
            self.last_data = asyncio.get_running_loop().time()
            await super().on_data(payload)

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

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
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
                process.stdin.write(tab_line(width, height, player, data))
                self._process, self._stdin = process, process.stdin
                return process
            self.command = shlex.join(with_player(shlex.split(self.command), player))
            return await super()._open_app_process(width, height)

    class DolceVitaServer(serve_module.Server):  # type: ignore[misc]  # as TabService: imported by name
        def person(self, request: Any) -> str | None:
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

        async def handle_index(self, request: Any) -> Any:
            refusal = tabs.refusal(self.person(request))
            if refusal is not None:  # a page that could only open a refused tab: say why instead
                raise web.HTTPServiceUnavailable(text=refusal + "\n")
            return await super().handle_index(request)

        async def handle_websocket(self, request: Any) -> Any:
            user = self.person(request)
            refusal = tabs.refusal(user)
            if refusal is not None:  # (the page was served under the caps: another tab opened since)
                websocket = web.WebSocketResponse()
                await websocket.prepare(request)
                await websocket.close(code=TAB_REFUSED, message=refusal.encode())
                return websocket
            if user is not None:
                _tab_player.set(user)  # this connection's task (and only it) sees the name
            tabs.opened(user)
            try:
                return await super().handle_websocket(request)  # until the tab's dvtui has ended
            finally:
                tabs.closed(user)

        def serve(self, debug: bool = False) -> None:
            """textual-serve's ``serve`` (its logging, its signal handlers), on ``listener``."""
            if listener is None:
                super().serve(debug)
                return
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, self.request_exit)
            web.run_app(self._make_app(), sock=listener, handle_signals=False, loop=loop, print=lambda *_: None)

        async def on_startup(self, app: object) -> None:
            await start_spare(self.command)  # the first tab's
            through = "" if listener is None else f" through unix:{printable(str(listener.getsockname()))}"
            print(f"Dolce Vita in the browser: {self.public_url}/{through} (Ctrl+C to stop)", flush=True)

        async def on_shutdown(self, app: object) -> None:
            for process in spares:  # a spare leaves when its standard input closes
                if process.stdin is not None:
                    process.stdin.close()

    # textual-serve makes each tab's service by this module name; a tab of this server takes a spare
    serve_module.AppService = TabService
    return DolceVitaServer


__all__ = ["PAGE_DIR", "PLAYER_VARIABLE", "TITLE", "page_title", "run", "tab_command", "with_player"]
