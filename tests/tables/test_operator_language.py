"""``dvtui serve`` speaks to its operator in the operator's language (its log lines and startup
errors, in its terminal) and English on the wire (each client says a refusal in its own)."""

from __future__ import annotations

import gettext
import signal
import subprocess

import pytest

from dvtui.i18n import ENGLISH
from dvtui.server import operator as operator_module
from dvtui.server.main import Server
from dvtui.server.operator import speak_to_operator

from ..support.processes import dvtui, dvtui_cmd, env
from ..support.raw import ask, speaking_for
from ..support.servers import short_dir, wait_for

NBSP = "\u00a0"


def test_a_french_operator_reads_the_log_in_french_and_clients_get_english() -> None:
    with short_dir() as d:
        directory, log = d / "srv", d / "serve.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                dvtui_cmd("--lang", "fr", "serve", "--dir", directory), env=env(),
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            wait_for("the server to listen", lambda: "à l’écoute sur" in log.read_text(), log.read_text)
            listening = f"dvtui serve: à l’écoute sur {directory}/dvtui.sock (tables inachevées{NBSP}: 0)\n"
            assert log.read_text() == listening
            second = dvtui("--lang", "fr", "serve", "--dir", directory)
            assert second.returncode == 1
            taken = f"{directory}{NBSP}: un autre «{NBSP}dvtui serve{NBSP}» sert déjà ce dossier"
            assert second.stderr == f"dvtui{NBSP}: erreur{NBSP}: {taken}\n"
            english = dvtui("--lang", "en", "resign", "nope", "--server", directory)  # the server's own words
            assert english.stderr == "dvtui: error: no table nope (see 'dvtui tables')\n"
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=60) == 0
        assert log.read_text().endswith("dvtui serve: arrêté\n")


class Marked(gettext.NullTranslations):
    """An operator's catalogue that marks what it says: a line it never said is in no language."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"


def test_what_people_do_at_the_tables_is_logged_in_the_operators_language(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opens, sits, leaves, releases, resignations: each per-connection line of the
    log is said through the operator's catalogue (the seat's words too), the wire's words are not."""
    logged: list[str] = []
    in_process._log = logged.append
    monkeypatch.setattr(operator_module, "translations", lambda code: Marked())
    speak_to_operator("xx")
    try:
        ana = speaking_for(str(in_process.place.socket), "ana")
        opened = {"type": "open_table", "table": "t", "players": ["ana", "bob", "bot:random"]}
        assert ask(ana, opened, "opened")["type"] == "opened"
        assert ask(ana, {"type": "join", "table": "t", "seat": 0}, "joined")["seat"] == 0
        bob = speaking_for(str(in_process.place.socket), "bob")
        assert ask(bob, {"type": "join", "table": "t", "seat": 1}, "joined")["seat"] == 1
        bob.close()
        wait_for("bob's leaving logged", lambda: any(" left t " in line for line in logged), lambda: str(logged))
        refused = ask(ana, {"type": "join", "table": "nope"}, "joined")
        assert refused["message"] == "no table nope (see 'dvtui tables')"  # the wire: English, unmarked
        assert ask(ana, {"type": "release", "table": "t", "seat": 1, "bot": "greedy"}, "released")["seat"] == 1
        assert ask(ana, {"type": "resign", "table": "t"}, "presence")["type"] == "presence"
        wait_for("the resignation logged", lambda: any(" resigned " in line for line in logged), lambda: str(logged))
        ana.close()
    finally:
        monkeypatch.undo()
        speak_to_operator(ENGLISH)
    assert "«web:ana sits at t «seat 1 (ana)»»" in logged and "«web:bob left t «seat 2 (bob)»»" in logged
    assert "«web:ana released t seat 2 to a greedy bot»" in logged
    assert len(logged) >= 8 and all(line.startswith("«") and line.endswith("»") for line in logged), logged
