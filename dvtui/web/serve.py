"""``dvtui web``: the app in browser tabs, through textual-serve (the optional ``web`` extra).

Each tab that opens the page runs its own dvtui process, whose standard input and output are the
tab's keys and screen (Textual's web driver): plain ``dvtui`` (the start menu, its games saved in
the user's data dir as from a terminal), or ``dvtui join NAME`` for one table of the table server.
A closed tab asks its process to quit, as a closed terminal would; every move is already saved, so
a reload finds the game in the start menu's resume. One dvtui is kept started ahead
of the next tab (:mod:`.tab`), at the start menu or at the table: its imports (and the start
menu's app and styles), most of a start, are done before the tab opens; it is started once the
tab before has drawn its first screen.

textual-serve has no authentication: it listens on localhost unless told otherwise, or on a Unix
socket (``--socket``) that only the accounts its mode lets in can open, and a reverse proxy in
front does TLS and login (docs/BROWSER.md). textual-serve itself is imported only once the options
hold (:mod:`.server`): without the extra, this module still loads and says what is missing.
"""

from __future__ import annotations

import asyncio
import errno
import os
import shlex
import socket
import sys
from importlib import import_module
from pathlib import Path

from ..printable import printable
from ..store import SaveError
from ..tables.where import ENV as SERVER_VARIABLE
from .caps import DEFAULT_MAX_TABS, DEFAULT_MAX_TABS_PER_PERSON, TabCaps
from .errors import WebError, WebUsageError
from .tab import LANGUAGE_VARIABLE

TITLE = "Dolce Vita"
PAGE_DIR = Path(__file__).with_name("page")
"""The page's template (textual-serve's, with the game's title, favicon and colours)."""
EXTRA_MISSING = 'dvtui web needs the web extra (textual-serve): pip install "dvtui[web]"'
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
SOCKET_MODE = 0o660
"""A ``--socket``'s permissions (less what the umask takes away): its owner's account and group
may connect, as the login proxy must; no other account may."""


def tab_command(table: str | None, server: str | None, language: str | None = None) -> list[str]:
    """The command each tab runs: this same dvtui (interpreter and import path), at its start
    menu (whose lobby lists the tables of ``server``, else of the table server ``dvtui tables``
    finds) or, with ``table``, sitting at that table of the table server; speaking ``language``
    (``dvtui web --lang``: ``DVTUI_LANG``, which no browser's language nor setting overrides).
    ``-P``: the working directory is not on the import path, so a ``dvtui`` folder there (the
    parent of a clone, or another version's clone) never stands in for this package."""
    command = [sys.executable, "-P", "-m", "dvtui"]
    if language is not None:
        command = ["env", f"{LANGUAGE_VARIABLE}={language}", *command]
    where = None if server is None else str(Path(server).expanduser().absolute())
    if table is None:
        return command if where is None else ["env", f"{SERVER_VARIABLE}={where}", *command]
    command += ["join", table]
    if where is not None:
        command += ["--server", where]
    return command


def page_title(table: str | None) -> str:
    return TITLE if table is None else f"{TITLE} · table {table}"


def run(
    *,
    host: str | None = None,
    port: int | None = None,
    socket_path: str | None = None,
    table: str | None = None,
    server: str | None = None,
    public_url: str | None = None,
    user_header: str | None = None,
    max_tabs: int | None = None,
    max_tabs_per_person: int | None = None,
    language: str | None = None,
) -> None:
    """Serve until stopped (Ctrl+C, SIGTERM); each argument is the option of the same name (None:
    not given). Raises :class:`WebUsageError` for options that do not go together and
    :class:`WebError` when nothing can be served, before anything is announced."""
    if socket_path is not None:
        if host is not None or port is not None:
            raise WebUsageError("--socket replaces --host and --port")
        if public_url is None:
            raise WebUsageError("--socket needs --public-url (the address browsers reach through the proxy)")
    host = host if host is not None else DEFAULT_HOST
    port = port if port is not None else DEFAULT_PORT
    if not 0 < port < 65536:
        raise WebUsageError(f"--port must be from 1 to 65535, not {port}")
    if max_tabs_per_person is not None and user_header is None:
        raise WebUsageError("--max-tabs-per-person goes with --user-header (without it, tabs are nobody's)")
    caps = TabCaps(
        _at_least_one("--max-tabs", max_tabs, DEFAULT_MAX_TABS),
        _at_least_one("--max-tabs-per-person", max_tabs_per_person, DEFAULT_MAX_TABS_PER_PERSON),
    )
    try:
        import_module("textual_serve.server")
    except ImportError:
        raise WebError(EXTRA_MISSING) from None
    from .server import server_class  # (textual-serve's, so only now)

    if table is not None:  # every tab would be a dead end: say it once, here
        problem = _table_problem(table, server)
        if problem is not None:
            raise WebError(problem)
    path = None if socket_path is None else Path(socket_path).expanduser().absolute()
    where = f"http://{host}:{port}" if path is None else f"unix:{path}"
    listeners: list[socket.socket] = []
    bound: os.stat_result | None = None
    try:  # listening before the server announces the address, which then answers at once
        if path is None:
            listeners = _tcp_listeners(host, port)
        else:
            listeners = [_unix_listener(path)]
            bound = path.stat()
    except OSError as e:
        raise _cannot_serve(where, e, on_socket=path is not None) from None
    if user_header is not None and path is None:
        print(f"dvtui: warning: every account on this machine can reach {printable(host)}:{port} and name "
              f"itself in {printable(user_header)}: on a host with other users, serve on --socket PATH",
              file=sys.stderr)  # fmt: skip
    url = public_url or f"http://{host}:{port}"
    web_server = server_class(user_header, listeners, caps)(
        shlex.join(tab_command(table, server, language)),
        host=host,
        port=port,
        title=page_title(table),
        public_url=url.rstrip("/"),
        templates_path=PAGE_DIR,
    )
    try:
        web_server.serve()
    except OSError as e:
        raise _cannot_serve(where, e, on_socket=path is not None) from None
    finally:
        for listener in listeners:
            listener.close()
        if path is not None and bound is not None:
            _remove_socket(path, bound)


def _at_least_one(flag: str, given: int | None, default: int) -> int:
    if given is None:
        return default
    if given < 1:
        raise WebUsageError(f"{flag} must be at least 1, not {given}")
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
    return (
        f"no table {table} at the table server in {place.directory} "
        f"(open it first: dvtui new --table {table} --players ...; see: dvtui tables)"
    )


def _cannot_serve(where: str, error: OSError, *, on_socket: bool) -> WebError:
    """Why nothing is served on ``where``, in one line."""
    if error.errno == errno.EADDRINUSE and on_socket:
        reason = "the socket is in use (another dvtui web?)"
    elif error.errno == errno.EADDRINUSE:
        reason = "the port is taken (choose another with --port)"
    else:
        reason = (error.strerror or str(error)).lower()
    return WebError(f"cannot serve on {where}: {reason}")


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
        listener.listen(128)  # (listening before the address is announced)
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


def _tcp_listeners(host: str, port: int) -> list[socket.socket]:
    """Sockets listening on every address of ``host`` at ``port`` (as aiohttp would bind them:
    each address once, an IPv6 one for IPv6 only), or the system's error (the port taken, or the
    host not this machine's), with nothing left open."""
    listeners: list[socket.socket] = []
    seen: set[tuple[int, object]] = set()
    try:
        for family, kind, proto, _, address in socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        ):
            if (family, address) in seen:
                continue
            seen.add((family, address))
            listener = socket.socket(family, kind, proto)
            listeners.append(listener)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            listener.bind(address)
            listener.listen(128)
    except OSError:
        for listener in listeners:
            listener.close()
        raise
    return listeners
