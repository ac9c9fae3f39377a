"""``dvtui web``'s command line, without a browser: its one-line errors and what each tab runs."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from dvtui.cli import main, web

from .support import dvtui_env, web_server


def test_a_taken_port_is_one_line_and_nothing_is_announced(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "dvtui", "web", "--port", str(port)], capture_output=True,
                              text=True, env=dvtui_env(tmp_path / "data"), timeout=60, check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (f"dvtui: error: cannot serve on http://127.0.0.1:{port}: "
                           "the port is taken (choose another with --port)\n")


def test_without_the_web_extra_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def missing(name: str) -> object:
        raise ModuleNotFoundError(f"No module named {name!r}")

    monkeypatch.setattr(web, "import_module", missing)
    assert main(["web"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == 'dvtui: error: dvtui web needs the web extra (textual-serve): pip install "dvtui[web]"\n'


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["web", "--port", "0"], "--port must be from 1 to 65535, not 0"),
        (["web", "--port", "70000"], "--port must be from 1 to 65535, not 70000"),
        (["web", "--server", "/tmp"], "--server goes with --table NAME"),
        (["web", "--socket", "/tmp/w.sock", "--port", "8000", "--public-url", "https://x"],
         "--socket replaces --host and --port"),
        (["web", "--socket", "/tmp/w.sock"],
         "--socket needs --public-url (the address browsers reach through the proxy)"),
    ],
)
def test_bad_flags_are_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == f"dvtui: error: {message}\n"


def test_each_tab_runs_this_dvtui_at_its_start_menu_or_at_the_table(tmp_path: Path) -> None:
    assert web.tab_command(None, None) == [sys.executable, "-m", "dvtui"]
    assert web.tab_command("friday", None) == [sys.executable, "-m", "dvtui", "join", "friday"]
    assert web.tab_command("friday", str(tmp_path)) == [
        sys.executable, "-m", "dvtui", "join", "friday", "--server", str(tmp_path)]
    assert web.page_title(None) == "Dolce Vita"
    assert web.page_title("friday") == "Dolce Vita · table friday"


def test_a_proxys_user_reaches_the_tab_in_its_environment_quoted() -> None:
    command = web.tab_command(None, None)
    assert web.with_player(command, None) == command
    assert web.with_player(command, "a b; rm -rf ~") == ["env", "DVTUI_PLAYER=a b; rm -rf ~", *command]
    assert len(web.with_player(command, "x" * 10_000)[1]) == len("DVTUI_PLAYER=") + web.MAX_HEADER_CHARS


def test_the_page_is_dolce_vitas_and_quotes_a_tables_name(tmp_path: Path) -> None:
    with web_server(tmp_path / "data", "--table", "<i>friday") as (_, url):
        page = urllib.request.urlopen(url + "/", timeout=60).read().decode()
    assert "<title>Dolce Vita · table &lt;i&gt;friday</title>" in page
    assert '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,' in page
    assert "googleapis" not in page  # nothing from elsewhere


def test_a_proxys_header_on_a_port_warns_that_every_account_reaches_it(tmp_path: Path) -> None:
    """Any local account can connect to a TCP port of localhost and send the header itself."""
    with web_server(tmp_path / "data", "--user-header", "X-User") as (_, url):
        port = url.rsplit(":", 1)[1]
        log = (tmp_path / "web.log").read_text()
    assert log.startswith(f"dvtui: warning: every account on this machine can reach 127.0.0.1:{port} and name "
                          "itself in X-User: on a host with other users, serve on --socket PATH\n"), log
