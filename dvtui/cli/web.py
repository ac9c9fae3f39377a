"""``dvtui web``: the app in browser tabs, through textual-serve (the optional ``web`` extra).

Each tab that opens the page runs its own dvtui process, whose standard input and output are the
tab's keys and screen (Textual's web driver): plain ``dvtui`` (the start menu, its games saved in
the user's data dir as from a terminal), or ``dvtui join NAME`` for one table of the table server.
A closed tab asks its process to quit, as a closed terminal would; every move is already saved, so
a reload finds the game in the start menu's resume.

textual-serve has no authentication: it listens on localhost unless told otherwise, and a reverse
proxy in front does TLS and login (README, "Play in a browser").
"""

from __future__ import annotations

import argparse
import errno
import shlex
import socket
import sys
from contextvars import ContextVar
from importlib import import_module
from pathlib import Path
from typing import Any

from ..printable import printable
from .errors import EXIT_BAD_FILE, EXIT_OK, UsageError

TITLE = "Dolce Vita"
PAGE_DIR = Path(__file__).with_name("web_page")
"""The page's template (textual-serve's, with the game's title, favicon and colours)."""
PLAYER_VARIABLE = "DVTUI_PLAYER"
MAX_HEADER_CHARS = 200
"""A user name longer than any seat's is cut here; the set-up checks the rest as any name."""
_tab_player: ContextVar[str | None] = ContextVar("tab_player", default=None)
"""The proxy's user for the connection being handled (each is its own task)."""
EXTRA_MISSING = 'dvtui web needs the web extra (textual-serve): pip install "dvtui[web]"'


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
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be from 1 to 65535, not {args.port}")
    if args.server is not None and args.table is None:
        raise UsageError("--server goes with --table NAME")
    try:
        serve_module: Any = import_module("textual_serve.server")
    except ImportError:
        print(f"dvtui: error: {EXTRA_MISSING}", file=sys.stderr)
        return EXIT_BAD_FILE
    url = args.public_url or f"http://{args.host}:{args.port}"
    server = _server_class(serve_module.Server, args.user_header)(
        shlex.join(tab_command(args.table, args.server)),
        host=args.host,
        port=args.port,
        title=page_title(args.table),
        public_url=url.rstrip("/"),
        templates_path=PAGE_DIR,
    )
    where = f"http://{args.host}:{args.port}"
    try:
        _check_free(args.host, args.port)  # before the server announces an address it cannot have
        server.serve()
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            reason = "the port is taken (choose another with --port)"
        else:
            reason = (e.strerror or str(e)).lower()
        print(f"dvtui: error: cannot serve on {printable(where)}: {printable(reason)}", file=sys.stderr)
        return EXIT_BAD_FILE
    return EXIT_OK


def _check_free(host: str, port: int) -> None:
    """Raise the system's error if ``host:port`` cannot be listened on (taken, or not this machine's)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        probe.bind(address)


def with_player(command: list[str], player: str | None) -> list[str]:
    """``command`` with the tab's person named in its environment (``DVTUI_PLAYER``), where the
    set-up screen finds the name of its first seat."""
    if player is None:
        return command
    return ["env", f"{PLAYER_VARIABLE}={player[:MAX_HEADER_CHARS]}", *command]


def _server_class(base: type, user_header: str | None) -> type:
    """textual-serve's server, announcing itself in one line instead of its banner; with
    ``user_header``, each tab's dvtui named after the user the proxy vouches for in that header,
    and a connection without it refused (it did not come through the proxy)."""
    web: Any = import_module("aiohttp.web")  # textual-serve's own server

    class DolceVitaServer(base):  # type: ignore[misc, valid-type]
        @property
        def command(self) -> str:  # read by textual-serve as it starts a tab's process
            return shlex.join(with_player(self.tab_command, _tab_player.get()))

        @command.setter
        def command(self, value: str) -> None:
            self.tab_command = shlex.split(value)

        async def handle_websocket(self, request: Any) -> Any:
            if user_header is not None:
                user = request.headers.get(user_header, "").strip()
                if not user:
                    raise web.HTTPForbidden(text=f"no {user_header} header: connect through the proxy\n")
                _tab_player.set(user)  # this connection's task (and only it) sees the name
            return await super().handle_websocket(request)

        async def on_startup(self, app: object) -> None:
            print(f"Dolce Vita in the browser: {self.public_url}/ (Ctrl+C to stop)", flush=True)

    return DolceVitaServer


__all__ = ["PAGE_DIR", "PLAYER_VARIABLE", "TITLE", "page_title", "run", "tab_command", "with_player"]
