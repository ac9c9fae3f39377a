"""The table server speaks English on the wire, with a code per error; the client says each error
in the person's language from its code (in English, the server's own words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui import i18n
from dvtui.server.main import Server
from dvtui.tables.client import ERROR_WORDS, refusal_words
from dvtui.tables.protocol import FEATURES, Error, ErrorCode

from ..support.processes import dvtui
from ..support.raw import RawClient, ask
from ..support.servers import Served, short_dir


def test_every_error_code_has_its_words() -> None:
    assert sorted(ERROR_WORDS) == sorted(ErrorCode.__args__)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "said"), [("en", "no table zz here"), ("fr", "cette table n’existe pas")])
def test_a_refusal_in_the_language_spoken(lang: str, said: str) -> None:
    i18n.set_language(lang)
    assert refusal_words(Error(code="no_table", message="no table zz here")) == said


def test_a_real_command_says_the_servers_refusal_in_french(in_process: Server, tmp_path: Path) -> None:
    srv = str(in_process.place.directory)
    done = dvtui("--lang", "fr", "say", "nosuch", "bonjour", "--server", srv, data=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "dvtui : erreur : cette table n’existe pas\n"
    english = dvtui("say", "nosuch", "hello", "--server", srv, data=tmp_path)
    assert english.stderr.startswith("dvtui: error: no table nosuch")


def test_a_server_run_in_french_refuses_in_the_wires_words_with_a_reason_and_seats_from_1() -> None:
    """The wire's words never depend on the server's language: a refusal of the rules carries its
    ``reason`` and ``fields`` (seats from 0, as on the wire), and its message counts seats from 1."""
    with short_dir() as d, Served(d / "srv", {"DVTUI_LANG": "fr", "LANG": "fr_FR.UTF-8"}) as server:
        server.start()
        me = RawClient(str(server.place.socket))
        me.send({"type": "hello", "version": 1, "features": list(FEATURES)})
        me.until("welcome")
        opened = {"type": "open_table", "table": "t", "players": ["Ana", "Bob", "bot:random"], "first_player": 0,
                  "seed": 1}  # fmt: skip
        assert ask(me, opened, "opened")["type"] == "opened"
        twice = ask(me, {**opened, "table": "u", "players": ["Ana", "Ana", "bot:random"]}, "error")
        assert (twice["code"], twice["message"]) == ("bad_setup", "seat 2: two seats are called 'Ana'; each seat needs "
                                                                  "its own name")  # fmt: skip
        assert ask(me, {"type": "join", "table": "t", "seat": 1}, "joined")["seat"] == 1
        refused = ask(me, {"type": "place", "seq": 1, "card": 3, "column": 2}, "error")
        assert refused == {"type": "error", "code": "illegal", "message": "it is seat 1's turn, not seat 2's",
                           "seq": 1, "re": "place", "reason": "not_your_turn",
                           "fields": {"to_move": 0, "seat": 1}}  # fmt: skip
        stale = ask(me, {"type": "place", "seq": 0, "card": 3, "column": 2}, "error")
        assert (stale["code"], stale["reason"], stale["fields"]) == ("stale", "stale", {"next_seq": 1, "seq": 0})
        assert stale["message"] == "the table is at line 1, not 0: another decision came first"


def test_the_client_says_a_refusal_from_its_reason_in_the_readers_language() -> None:
    i18n.set_language(i18n.PSEUDO)  # (every sentence the client translates reads differently)
    turn = Error(code="illegal", message="whatever the server said", reason="not_your_turn",
                 fields={"to_move": 0, "seat": 1})  # fmt: skip
    said = i18n.pseudo("it is seat {to_move}'s turn, not seat {seat}'s")
    assert refusal_words(turn) == said.format(to_move=1, seat=2)
    unknown = Error(code="illegal", message="newer words", reason="a_newer_reason", fields={"x": 1})
    assert refusal_words(unknown) == i18n.pseudo(ERROR_WORDS["illegal"])  # the code's words
    misfit = Error(code="illegal", message="words", reason="not_your_turn", fields={"seat": 1})
    assert refusal_words(misfit) == i18n.pseudo(ERROR_WORDS["illegal"])
    i18n.set_language(i18n.ENGLISH)
    assert refusal_words(turn) == "it is seat 1's turn, not seat 2's"
