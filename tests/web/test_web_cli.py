"""``dvtui web``'s command line, without a browser: its one-line errors and what each tab runs."""

from __future__ import annotations

import asyncio
import re
import socket
import sys
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from dvtui.cli import main
from dvtui.server.main import Server
from dvtui.store.saves import person_data_dir, person_dir_name
from dvtui.tables import open_table
from dvtui.web import serve, server

from ..support.processes import dvtui
from ..support.web import WAIT, descendants, shown_until, wait_until, web_server


def test_a_taken_port_is_one_line_and_nothing_is_announced(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = dvtui("web", "--port", str(port), data=tmp_path / "data", timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"dvtui: error: cannot serve on http://127.0.0.1:{port}: the port is taken (choose another with --port)\n"
    )


def test_without_the_web_extra_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def missing(name: str) -> object:
        raise ModuleNotFoundError(f"No module named {name!r}")

    monkeypatch.setattr(serve, "import_module", missing)
    assert main(["web"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == 'dvtui: error: dvtui web needs the web extra (textual-serve): pip install "dvtui[web]"\n'


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["web", "--port", "0"], "--port must be from 1 to 65535, not 0"),
        (["web", "--port", "70000"], "--port must be from 1 to 65535, not 70000"),
        (
            ["web", "--socket", "/tmp/w.sock", "--port", "8000", "--public-url", "https://x"],
            "--socket replaces --host and --port",
        ),
        (
            ["web", "--socket", "/tmp/w.sock"],
            "--socket needs --public-url (the address browsers reach through the proxy)",
        ),
        (["web", "--max-tabs", "0"], "--max-tabs must be at least 1, not 0"),
        (
            ["web", "--user-header", "X-User", "--max-tabs-per-person", "-1"],
            "--max-tabs-per-person must be at least 1, not -1",
        ),
        (
            ["web", "--max-tabs-per-person", "2"],
            "--max-tabs-per-person goes with --user-header (without it, tabs are nobody's)",
        ),
    ],
)
def test_bad_flags_are_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == f"dvtui: error: {message}\n"


def test_each_tab_runs_this_dvtui_at_its_start_menu_or_at_the_table(tmp_path: Path) -> None:
    assert serve.tab_command(None, None) == [sys.executable, "-P", "-m", "dvtui"]
    assert serve.tab_command("friday", None) == [sys.executable, "-P", "-m", "dvtui", "join", "friday"]
    assert serve.tab_command("friday", str(tmp_path)) == [
        sys.executable,
        "-P",
        "-m",
        "dvtui",
        "join",
        "friday",
        "--server",
        str(tmp_path),
    ]
    # without a table: the start menu, whose lobby lists that server's tables
    assert serve.tab_command(None, str(tmp_path)) == ["env", f"DVTUI_SERVER_DIR={tmp_path}", sys.executable, "-P", "-m",
                                                      "dvtui"]  # fmt: skip
    assert serve.page_title(None) == "Dolce Vita"
    assert serve.page_title("friday") == "Dolce Vita · table friday"


def test_a_proxys_user_reaches_the_tab_in_its_environment_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    command = serve.tab_command(None, None)
    assert server.with_player(command, None) == command
    hostile = "a b; rm -rf ~"
    data = f"DVTUI_DATA_DIR={tmp_path / 'data' / 'people' / person_dir_name(hostile)}"
    assert server.with_player(command, hostile) == ["env", f"DVTUI_PLAYER={hostile}", data, *command]
    assert len(server.with_player(command, "x" * 10_000)[1]) == len("DVTUI_PLAYER=") + server.MAX_HEADER_CHARS


@pytest.mark.parametrize(
    "name", ["ana", "Ana", "..", ".", "../../etc", "a/b", "~root", "-rf", "x" * 40, "Zoë 東京", "nul\\0", "%2e%2e"]
)
def test_a_persons_data_dir_is_one_safe_folder_of_the_web_accounts(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    folder = person_data_dir(name)
    assert folder.parent == tmp_path / "data" / "people"  # one component: no name leads elsewhere
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", folder.name) and len(folder.name) <= 64
    others = {"ana", "Ana", "..", "../ana", "ana-", "x" * 41} - {name}
    assert folder not in {person_data_dir(other) for other in others}  # each person has their own


def test_a_table_that_is_not_there_is_one_line_at_start(in_process: Server, tmp_path: Path) -> None:
    srv = str(in_process.place.directory)
    done = dvtui("web", "--table", "nosuch", "--server", srv, data=tmp_path / "data", timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""  # nothing announced
    assert done.stderr == (
        f"dvtui: error: no table nosuch at the table server in {srv} (open it first: "
        "dvtui new --table nosuch --players ...; see: dvtui tables)\n"
    )


def test_a_table_server_that_is_not_there_is_one_line_at_start(tmp_path: Path) -> None:
    srv = tmp_path / "srv"
    done = dvtui("web", "--table", "friday", "--server", str(srv), data=tmp_path / "data", timeout=60)
    assert done.returncode == 1
    assert done.stderr == (
        f"dvtui: error: --table friday: no table server at {srv} (start one with 'dvtui serve --dir {srv}')\n"
    )


def test_the_page_is_dolce_vitas(in_process: Server, tmp_path: Path) -> None:
    asyncio.run(open_table(in_process.place, "friday", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5))
    with web_server(tmp_path / "data", "--table", "friday", "--server", str(in_process.place.directory)) as (_, url):
        page = urllib.request.urlopen(url + "/", timeout=60).read().decode()
    assert "<title>Dolce Vita · table friday</title>" in page
    assert '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,' in page
    assert "googleapis" not in page  # nothing from elsewhere


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_the_announced_address_answers_from_the_moment_it_is_announced(host: str) -> None:
    """``dvtui web`` announces its address at start-up, before aiohttp would start listening on a
    host and port of its own: the server listens on sockets bound before it starts, so a browser
    (or a script) that connects as soon as it reads the address is answered, not refused."""
    listeners = serve._tcp_listeners(host, 0)
    port = listeners[0].getsockname()[1]
    answered: list[str] = []

    class Probe(server.server_class(None, listeners)):  # type: ignore[misc]
        async def on_startup(self, app: object) -> None:  # where the address is announced
            with socket.create_connection((host, port), timeout=5):
                answered.append(host)
            self.request_exit()

    try:
        Probe("true", host=host, port=port).serve()
    finally:
        for listener in listeners:
            listener.close()
    assert answered == [host]


def running(pid: int) -> bool:
    """Whether process ``pid`` is there and not ended (a zombie, not yet reaped, has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_a_stop_closes_each_open_tab_saying_why_and_ends_its_dvtui(tmp_path: Path) -> None:
    """``dvtui web`` stopped (SIGTERM, as a service manager stops it) with a tab open: the tab is
    told why (its page shows it) and its dvtui quits, with every move saved. (Left open, the tab
    held the stop for some twenty seconds, until aiohttp's grace ran out.)"""
    with web_server(tmp_path / "data") as (web, url):
        tab = wait_until(lambda: descendants(web.pid), "the spare dvtui that the tab takes")
        assert isinstance(tab, list)
        ws_url = url.replace("http:", "ws:") + "/ws?width=100&height=30"
        async with aiohttp.ClientSession() as http, http.ws_connect(ws_url) as ws:
            await shown_until(ws, "New game: choose the seats")
            web.terminate()
            async with asyncio.timeout(WAIT):
                while (message := await ws.receive()).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    pass
            assert (message.data, message.extra) == (aiohttp.WSCloseCode.GOING_AWAY, server.SERVER_STOPPED)
            assert await asyncio.to_thread(web.wait, WAIT) == 0
    wait_until(lambda: not any(running(pid) for pid in tab), "the tab's dvtui to end")
