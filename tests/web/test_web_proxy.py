"""Behind a login proxy (``dvtui web --user-header``): each tab's dvtui is named after the user the
proxy names in that header, and a connection without it (not through the proxy), or naming
someone no table could seat, is refused.
Spoken to as textual-serve's page does: JSON messages up, the app's output down."""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path

import aiohttp
import pytest

from dvtui.web import server

from ..support.web import shown_until, web_server

HEADER = "X-Forwarded-User"


async def test_the_proxys_user_names_the_first_seat_and_a_name_no_table_could_seat_is_refused(tmp_path: Path) -> None:
    """A connection without the header (not through the proxy) is refused; so is one naming someone
    no table could seat, the page itself too, so that the browser shows why (a tab's dvtui would
    only stop). On a TCP port, ``dvtui web`` warns that any local account can connect and send the
    header itself. (One ``dvtui web`` for all of it: its start and its spare are not the subject.)"""
    with web_server(tmp_path / "data", "--user-header", HEADER) as (_, url):
        port = url.rsplit(":", 1)[1]
        log = (tmp_path / "web.log").read_text()
        assert log.startswith(
            f"dvtui: warning: every account on this machine can reach 127.0.0.1:{port} and name "
            f"itself in {HEADER}: on a host with other users, serve on --socket PATH\n"
        ), log
        ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(ws_url, headers={HEADER: "gianna"}) as ws:
                await shown_until(ws, "New game: choose the seats")
                await ws.send_str(json.dumps(["stdin", "\x1b[B\r"]))  # New game (after Play now)
                assert "Gianna" in await shown_until(ws, "Start the game")
            async with http.get(url + "/ws") as refused:
                assert refused.status == 403
                assert HEADER in await refused.text()
            for path in ("/", "/ws"):
                async with http.get(url + path, headers={HEADER: "a" * 41}) as refused:
                    assert refused.status == 403
                    assert await refused.text() == (
                        f"{HEADER}: a person's name is 1 to 40 characters; dvtui cannot seat this user\n"
                    )
            async with http.get(url + "/", headers={HEADER: "a" * 40}) as page:
                assert page.status == 200


def test_no_tab_inherits_the_operators_dvtui_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment textual-serve gives a tab's dvtui (and ``dvtui web`` a spare): a person is
    named there only by ``with_player`` or the spare's tab line, for that tab. (A spare's tab, in
    a ``dvtui web`` started with ``DVTUI_PLAYER`` set: tests/web/test_web_keys.py.)"""
    serve_module = import_module("textual_serve.server")
    monkeypatch.setattr(serve_module, "AppService", serve_module.AppService)  # server_class replaces it
    monkeypatch.setenv("DVTUI_PLAYER", "Zed Operator")
    server.server_class(None)
    service = serve_module.AppService("true", write_bytes=None, write_str=None, close=None, download_manager=None)
    environment = service.environment(100, 30)
    assert "DVTUI_PLAYER" not in environment
    assert environment["COLUMNS"] == "100"
