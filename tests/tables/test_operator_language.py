"""``dvtui serve`` speaks to its operator in the operator's language (its log lines and startup
errors, in its terminal) and English on the wire (each client says a refusal in its own)."""

from __future__ import annotations

import signal
import subprocess

from ..support.processes import dvtui, dvtui_cmd, env
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
