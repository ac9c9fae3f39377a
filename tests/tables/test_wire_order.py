"""The order of what a table sends, as docs/PROTOCOL.md states it: ``joined`` before anything else
of the table, even when two join at once; a decision's lines before the ``presence`` that follows
them, whose ``to_move`` and clock are for the turn those lines began; the presence of a finished
game never carries the next game's clock, and the next game's comes after ``dealt`` and its lines.
And what the document promises of the rest: kept games listed with every key, every time stamp in
UTC ending in ``Z``, a full table's refusal naming the command that watches it."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from dvtui import i18n
from dvtui.server.limits import Limits
from dvtui.server.stores.files import FileStore, TableRecord
from dvtui.store import parse_game
from dvtui.tables.connection import refusal_words
from dvtui.tables.protocol import FEATURES, Presence
from dvtui.tables.received import BadServer, check_message
from dvtui.tables.tableinfo import SeatState
from dvtui.tables.wire import Error

from ..support.processes import in_process, one_error_line
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import in_thread, short_dir

GAME_LINES = {"game_created", "card_placed", "placement_undone", "column_resolved", "round_ended", "game_ended"}


def _to_move(lines: list[dict[str, Any]]) -> int | None:
    """Whose turn it is after ``lines``, as a reader folds the game's file (None: the game is over)."""
    game = parse_game(b"".join(json.dumps(line).encode() + b"\n" for line in lines)).game
    return None if game.over else game.to_move


def test_a_decisions_presence_follows_its_lines_and_names_whose_turn_they_began() -> None:
    """(Presences a hundredth of a second apart at most, not a tenth: Ana places as each of her
    turns' presence comes, a whole game and a rematch's start of them, and every decision's lines
    have one of their own to be checked against.)"""
    with short_dir() as d, in_thread(d, limits=Limits(presence_tick=0.01)) as server:
        me = RawClient(str(server.place.socket))
        me.send({"type": "hello", "version": 1, "features": list(FEATURES)})
        me.until("welcome")
        opened = {"type": "open_table", "table": "t", "players": ["Ana", "bot:random", "bot:random"], "seed": 5,
                  "first_player": 0, "move_time": 600}  # fmt: skip
        assert ask(me, opened, "opened")["type"] == "opened"
        assert ask(me, {"type": "join", "table": "t", "seat": 0}, "joined")["seat"] == 0
        lines: list[dict[str, Any]] = []
        placed: set[tuple[int, int]] = set()  # (round, card) of mine
        presences = 0
        while not lines or lines[-1]["type"] != "game_ended":
            message = me.receive()
            assert message is not None and message["type"] in GAME_LINES | {"presence"}, message
            if message["type"] != "presence":
                lines.append(message)
                continue
            presences += 1
            turn = _to_move(lines)
            assert message.get("to_move") == turn, (message, len(lines))  # the lines sent before it
            assert ("move_left" in message) == (turn == 0), message  # a clock runs for a person's turn only
            if turn == 0:
                round_ = parse_game(b"".join(json.dumps(line).encode() + b"\n" for line in lines)).game.round
                card = min(c for c in range(1, 7) if (round_, c) not in placed)
                placed.add((round_, card))
                me.send({"type": "place", "seq": len(lines), "card": card, "column": 0})
                answer = me.receive()  # the placement's own line comes first
                assert answer is not None and answer["type"] == "card_placed" and answer["player"] == 0, answer
                lines.append(answer)
        assert presences > len(placed)
        me.send({"type": "rematch", "table": "t"})
        told: list[dict[str, Any]] = []
        while not told or told[-1]["type"] != "presence" or not any(m["type"] == "dealt" for m in told):
            message = me.receive()
            assert message is not None
            told.append(message)
        dealt = [m["type"] for m in told].index("dealt")
        finished = [m for m in told[:dealt] if m["type"] == "presence"]
        assert all("move_left" not in m and "to_move" not in m for m in finished), finished  # the finished game's
        assert told[dealt + 1]["type"] == "game_created"
        assert told[-1].get("to_move") == 1 and told[-1].get("move_time") == 600, told[dealt:]  # the next game's
        game2 = [m for m in told[dealt + 1 :] if m["type"] != "presence"]  # the next game's lines so far
        while (message := me.receive()) is not None:
            if message["type"] == "presence" and message.get("to_move") == 0:
                break  # my turn in the next game
            if message["type"] != "presence":
                game2.append(message)
        me.send({"type": "place", "seq": len(game2), "card": 1, "column": 0})  # (a game nobody decided in is not kept)
        assert me.until("card_placed")["player"] == 0
        said = ask(me, {"type": "say", "table": "t", "text": "gg"}, "said")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", said["at"]), said  # UTC, Z, as every stamp
        # both games kept: each listed with every key a table info has, its own number first of all
        me.send({"type": "close_table", "table": "t"})
        assert me.until("error")["code"] == "closed"  # (seated there: told first, as everyone there)
        assert me.until("closed") == {"type": "closed", "table": "t"}
        listed = ask(me, {"type": "list_tables", "all": True}, "tables")["tables"]
        assert [(t["game"], t["waiting"], t["move_time"], t["move_left"]) for t in listed] == [
            (1, False, 600, None), (2, False, 600, None)], listed  # fmt: skip


def test_two_joining_at_once_each_gets_joined_before_any_presence(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's record is kept (a write that takes a while) before its ``joined``: meanwhile the
    table tells the one who joined first who is there, but never the one still joining."""
    slow = FileStore.replace_record

    def replace_record(self: FileStore, name: str, record: TableRecord, version: int, game: int | None = None) -> int:
        time.sleep(0.3)
        return slow(self, name, record, version, game)

    monkeypatch.setattr(FileStore, "replace_record", replace_record)
    with short_dir() as d, in_thread(d) as server:
        ana, bob = (RawClient(str(server.place.socket)) for _ in range(2))
        for client in (ana, bob):
            client.send({"type": "hello", "version": 1, "features": list(FEATURES)})
            client.until("welcome")
        opened = {"type": "open_table", "table": "t", "players": ["Ana", "Bob", "bot:random"], "seed": 5}
        assert ask(ana, opened, "opened")["type"] == "opened"
        ana.send({"type": "join", "table": "t", "seat": 0})
        bob.send({"type": "join", "table": "t", "seat": 1})
        for client in (ana, bob):
            first = client.receive()
            assert first is not None and first["type"] == "joined", first


def test_dvtui_join_at_a_full_table_names_the_command_that_watches_it() -> None:
    with short_dir() as d, in_thread(d) as server:
        ana, bob = speaking_for(str(server.place.socket), "ana"), speaking_for(str(server.place.socket), "bob")
        opened = {"type": "open_table", "table": "full", "players": ["Ana", "Bob", "bot:random"], "seed": 1}
        assert ask(ana, opened, "opened")["type"] == "opened"
        for seat, client in enumerate((ana, bob)):
            assert ask(client, {"type": "join", "table": "full", "seat": seat}, "joined")["seat"] == seat
        done = in_process("join", "full", "--bot", "greedy", "--server", d)  # (no process: its words are the same)
        assert done.returncode == 1 and done.stdout == ""
        assert one_error_line(done.stderr) == ("every human seat of table full is taken or kept for somebody else: "
                                               "watch it with 'dvtui watch full'")  # fmt: skip


def test_a_turn_or_a_reason_no_server_could_mean_is_never_shown() -> None:
    seats = [SeatState(seat=i, name=name, kind="human", state="free") for i, name in enumerate(["Ana", "Bob", "Cy"])]
    check_message(Presence(table="t", seats=seats, to_move=2))
    with pytest.raises(BadServer, match="to_move"):
        check_message(Presence(table="t", seats=seats, to_move=3))
    i18n.set_language(i18n.ENGLISH)
    odd = Error(code="illegal", message="the server's words", reason="not_your_turn", fields={"to_move": -1, "seat": 0})
    assert refusal_words(odd) == "the server's words"  # a field no sentence could say: the message instead
