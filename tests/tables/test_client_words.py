"""The table server speaks English on the wire, with a code per error; the client says each error
in the person's language from its code (in English, the server's own words)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from dvtui import i18n
from dvtui.server.main import Server
from dvtui.tables.connection import ERROR_WORDS, refusal_words
from dvtui.tables.protocol import FEATURES
from dvtui.tables.wire import Error, ErrorCode

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


def _refusals(lang: str) -> list[dict[str, object]]:
    """What a server run in ``lang`` answers to a table the rules refuse and to an undo its session
    refuses (Ana's last placement has Bob's after it)."""
    with short_dir() as d, Served(d / "srv", {"DVTUI_LANG": lang, "LANG": f"{lang}_FR.UTF-8"}) as server:
        server.start()
        clients = [RawClient(str(server.place.socket)) for _ in range(3)]
        for client in clients:
            client.hello(list(FEATURES))
        owner, ana, bob = clients
        opened = {"type": "open_table", "table": "t", "players": ["Ana", "Bob", "Cy"], "seed": 1}
        refused_setup = ask(owner, {**opened, "first_player": 4}, "opened")
        assert ask(owner, opened, "opened")["type"] == "opened"
        for seat, client in enumerate((ana, bob)):
            assert ask(client, {"type": "join", "table": "t", "seat": seat}, "joined")["seat"] == seat
        assert ask(ana, {"type": "place", "seq": 1, "card": 6, "column": 3}, "card_placed")["seq"] == 1
        assert bob.until("card_placed")["seq"] == 1
        assert ask(bob, {"type": "place", "seq": 2, "card": 2, "column": 2}, "card_placed")["seq"] == 2
        assert ana.until("card_placed")["seq"] == 2
        refused_undo = ask(ana, {"type": "undo", "seq": 3}, "placement_undone")
        return [refused_setup, refused_undo]


def test_a_rule_error_goes_on_the_wire_as_its_code_and_values_whatever_the_servers_language() -> None:
    """The same refusals from a server run in French and one run in English, message for message
    (the rule's code and values as ``reason`` and ``fields``, the message in English); a client
    says them in its reader's language from the code."""
    french, english = _refusals("fr"), _refusals("en")
    assert [json.dumps(m) for m in french] == [json.dumps(m) for m in english]
    setup, undo = english
    assert setup == {"type": "error", "code": "bad_setup", "message": "first player must be a seat from 0 to 2, not 4",
                     "re": "open_table", "reason": "first_player", "fields": {"last": 2, "first": 4}}  # fmt: skip
    assert (undo["code"], undo["reason"], undo["fields"]) == ("nothing_to_undo", "undo_placed_since", {"seat": 1})
    assert undo["message"] == "Bob has placed since; only your own latest placement can go"
    i18n.set_language("fr")
    assert refusal_words(msgspec.convert(setup, Error)) == "le premier joueur doit être une place de 0 à 2, pas 4"
    i18n.set_language(i18n.PSEUDO)  # (every sentence the client translates reads differently)
    said = i18n.pseudo("seat {seat} has placed since; only your own latest placement can go").format(seat=2)
    assert refusal_words(msgspec.convert(undo, Error)) == said  # (seats from 1, as every sentence counts them)
