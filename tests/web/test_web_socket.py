"""``dvtui web --socket PATH``: the page on a Unix socket that only the accounts its mode lets in can
open (the login proxy's), and no TCP port that every local account could reach and name itself
on. A browser cannot speak to a Unix socket: aiohttp's client does, as nginx's ``proxy_pass
http://unix:...`` would, the page and the websocket's upgrade alike."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp

from ..support.processes import dvtui
from ..support.servers import short_dir
from ..support.web import WAIT, dvtui_web, shown_until

HEADER = "X-Forwarded-User"
PUBLIC = "https://example.org/dolcevita"


@contextmanager
def on_socket(path: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``dvtui web --socket path`` (umask 002), started: the process and its log."""
    log = path.with_name("web.log")
    given = ("--socket", str(path), "--public-url", PUBLIC, *args)
    with dvtui_web(path.with_name("data"), log, *given, umask=0o002) as (proc, _):
        yield proc, log


def tcp_listeners(pid: int) -> list[str]:
    """The TCP sockets ``pid`` listens on (from /proc: its descriptors' inodes, the kernel's table)."""
    fd_dir = Path(f"/proc/{pid}/fd")
    inodes = {os.readlink(fd_dir / fd)[len("socket:["):-1] for fd in os.listdir(fd_dir)
              if os.readlink(fd_dir / fd).startswith("socket:[")}  # fmt: skip
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(fields[1])
    return found


async def test_a_tab_is_served_on_the_socket_and_on_no_port() -> None:
    """Served on a socket that replaced the one a killed ``dvtui web`` left; while it serves, a
    second ``dvtui web`` on its path is refused. (One ``dvtui web`` for both: its start is not the
    subject.)"""
    with short_dir() as d:
        path = d / "web.sock"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as killed:  # as a dvtui web killed -9 leaves it
            killed.bind(str(path))
        with on_socket(path, "--user-header", HEADER) as (proc, log):
            assert stat.S_ISSOCK(path.stat().st_mode)
            assert stat.S_IMODE(path.stat().st_mode) == 0o660  # owner and group: the proxy's account
            assert tcp_listeners(proc.pid) == []
            announced = log.read_text()
            assert f"Dolce Vita in the browser: {PUBLIC}/ through unix:{path} (Ctrl+C to stop)" in announced
            assert "warning" not in announced
            async with aiohttp.ClientSession(connector=aiohttp.UnixConnector(path=str(path))) as http:
                async with http.get("http://localhost/", headers={HEADER: "ana"}) as page:
                    assert page.status == 200
                    assert "wss://example.org/dolcevita/ws" in await page.text()  # through the proxy
                async with http.ws_connect("http://localhost/ws?width=100&height=30", headers={HEADER: "ana"}) as ws:
                    await shown_until(ws, "New game: choose the seats")
                    await ws.send_str(json.dumps(["stdin", "\x1b[B\r"]))  # New game (after Play now)
                    assert "Ana" in await shown_until(ws, "Start the game")
                async with http.get("http://localhost/ws") as refused:
                    assert refused.status == 403
            second = await asyncio.to_thread(
                dvtui, "web", "--socket", str(path), "--public-url", PUBLIC, data=d / "data2", timeout=WAIT
            )
            assert second.returncode == 1
            assert second.stdout == ""
            assert second.stderr == (
                f"dvtui: error: cannot serve on unix:{path}: the socket is in use (another dvtui web?)\n"
            )
            assert path.is_socket()  # still the first one's
            assert proc.poll() is None
        assert proc.returncode is not None
        assert not path.exists()  # removed on the way out
