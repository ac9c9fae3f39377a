"""The protocol's rules, spoken by a standard-library client to a server in this process:
hello first, decisions checked against the table's position (``seq``), the turn and the undo
rule, lines sent only once they are in the file, a table's settings, rejoining from a line."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
from pathlib import Path
from typing import Any

import pytest

from dvtui.bots import choose, parse_bot
from dvtui.cli.tables import table_line
from dvtui.engine import Game, Placement
from dvtui.server import live as live_module
from dvtui.server.main import Server
from dvtui.server.stores.files import FileStore
from dvtui.tables import Refused, TableClient
from dvtui.tables.headless import play_seat
from dvtui.tables.tableinfo import SeatState, TableInfo
from dvtui.tables.wire import is_table_name

from ..support.files import strip_at
from ..support.raw import RawClient
from ..support.servers import wait_for


def _client(server: Server) -> RawClient:
    client = RawClient(str(server.place.socket))
    client.hello()
    return client


def _open(server: Server, table: str = "t", **extra: Any) -> None:
    owner = _client(server)
    owner.send({"type": "open_table", "table": table, "players": ["Ana", "Bob", "Cy"], "seed": 1, **extra})
    assert owner.until("opened")["table"] == table
    owner.close()


def _seated(server: Server, seat: int, table: str = "t") -> RawClient:
    client = _client(server)
    client.send({"type": "join", "table": table, "seat": seat})
    assert client.until("joined")["seat"] == seat
    client.until("presence")
    return client


def _next(client: RawClient, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, skipping presence (and failing on an error)."""
    message = client.until(kind)
    assert message["type"] == kind, message
    return message


def test_hello_comes_first_and_in_a_version_the_server_speaks(in_process: Server) -> None:
    mute = RawClient(str(in_process.place.socket))
    mute.send({"type": "list_tables"})
    assert mute.until("welcome")["code"] == "version"
    assert mute.receive() is None  # closed
    future = RawClient(str(in_process.place.socket))
    future.send({"type": "hello", "version": 2})
    refused = future.until("welcome")
    assert refused["code"] == "version" and "speaks version 1" in refused["message"]
    assert future.receive() is None


def test_a_decision_is_checked_against_the_tables_line_the_turn_and_the_seat(in_process: Server) -> None:
    _open(in_process)
    ana, bob = _seated(in_process, 0), _seated(in_process, 1)
    ana.send({"type": "place", "seq": 0, "card": 6, "column": 3})  # decided before game_created was read
    stale = ana.until("card_placed")
    assert stale["code"] == "stale" and stale["seq"] == 1
    bob.send({"type": "place", "seq": 1, "card": 6, "column": 3})  # Ana's turn
    assert bob.until("card_placed")["code"] == "illegal"
    ana.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    path = in_process.games / "t.dvr"
    for client in (ana, bob):  # everyone hears of it, once it is in the file
        placed = _next(client, "card_placed")
        assert (placed["seq"], placed["player"], placed["card"], placed["column"]) == (1, 0, 6, 3)
        assert path.read_bytes().count(b"\n") == 2
    bob.send({"type": "place", "seq": 1, "card": 5, "column": 0})  # on the old position
    assert bob.until("card_placed")["code"] == "stale"
    ana.send({"type": "place", "seq": 2, "card": 5, "column": 0})  # twice in a row
    refused = ana.until("card_placed")
    assert refused["code"] == "illegal" and refused["message"] == "it is seat 2's turn, not seat 1's"
    watcher = _client(in_process)
    watcher.send({"type": "place", "seq": 2, "card": 5, "column": 0})
    assert watcher.until("card_placed")["code"] == "not_seated"


def test_undo_takes_back_ones_own_move_only_while_no_other_human_has_placed_since(in_process: Server) -> None:
    _open(in_process)
    ana, bob = _seated(in_process, 0), _seated(in_process, 1)
    ana.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    _next(ana, "card_placed")
    ana.send({"type": "undo", "seq": 2})
    undone = _next(ana, "placement_undone")
    assert (undone["seq"], undone["player"], undone["card"]) == (2, 0, 6)
    assert _next(bob, "card_placed")["seq"] == 1 and _next(bob, "placement_undone")["seq"] == 2
    ana.send({"type": "place", "seq": 3, "card": 4, "column": 1})
    _next(ana, "card_placed")
    bob.send({"type": "place", "seq": 4, "card": 2, "column": 2})
    _next(ana, "card_placed")
    ana.send({"type": "undo", "seq": 5})
    refused = ana.until("placement_undone")
    assert refused["code"] == "nothing_to_undo" and "Bob has placed since" in refused["message"]
    bob.send({"type": "undo", "seq": 5})
    assert _next(ana, "placement_undone")["player"] == 1


def test_a_tables_settings_and_seats_are_sent_and_listed(in_process: Server) -> None:
    _open(in_process, "quiet", hints=False)
    ana = _client(in_process)
    ana.send({"type": "join", "table": "quiet"})  # no seat named: the opener gets the first free one
    joined = _next(ana, "joined")
    assert joined["hints"] is False and joined["seat"] == 0 and joined["next_seq"] == 0
    assert _next(ana, "game_created")["seq"] == 0
    presence = _next(ana, "presence")
    assert [s["state"] for s in presence["seats"]] == ["connected", "free", "free"]
    ana.send({"type": "list_tables"})
    (info,) = _next(ana, "tables")["tables"]
    assert info["hints"] is False and info["to_move"] == 0 and info["round"] == 1
    line = table_line(TableInfo(**{**info, "seats": [_seat(s) for s in info["seats"]]}))
    seats = f"[Ana: connected ({pwd.getpwuid(os.getuid()).pw_name}); Bob: free; Cy: free]"  # this account
    assert line == f"quiet  round 1/6, Ana to move  {seats}  spectators: 0; no hints"
    ana.send({"type": "open_table", "table": "quiet", "players": ["A", "B", "C"]})
    assert ana.until("opened")["code"] == "table_exists"
    ana.send({"type": "open_table", "table": "odd", "players": ["Ana", "ana", "Cy"]})
    refused = ana.until("opened")
    assert refused["code"] == "bad_setup" and "seat 2" in refused["message"]


def _seat(s: dict[str, Any]) -> SeatState:
    return SeatState(**s)


def test_a_rejoin_from_a_line_gets_the_lines_after_it(in_process: Server) -> None:
    _open(in_process)
    ana = _seated(in_process, 0)
    ana.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    _next(ana, "card_placed")
    lines = (in_process.games / "t.dvr").read_bytes().splitlines()
    ana.close()
    back = _client(in_process)
    back.send({"type": "join", "table": "t", "since": 1})
    assert _next(back, "joined") == {"type": "joined", "table": "t", "next_seq": 1, "seat": 0, "may_close": True}
    placed = _next(back, "card_placed")
    assert strip_at(lines[1] + b"\n") == strip_at(json.dumps(placed, separators=(",", ":")).encode() + b"\n")
    ahead = _client(in_process)
    ahead.send({"type": "watch", "table": "t", "since": 99})  # more than the table has: from line 0
    assert _next(ahead, "joined")["next_seq"] == 0 and _next(ahead, "game_created")["seq"] == 0


def test_a_finished_table_stays_listed_and_watchable_until_its_name_is_used_again(in_process: Server) -> None:
    """Nobody at a finished table any more: it is still listed as over (its files closed), a
    player dropped before the end watches it to learn the result, and its name may be used for a
    new table, which moves the finished game aside whole."""
    owner = _client(in_process)
    owner.send({"type": "open_table", "table": "bots", "players": ["bot:greedy"] * 3, "seed": 3})
    owner.until("opened")
    owner.send({"type": "watch", "table": "bots"})
    _next(owner, "game_ended")  # the bots play the whole game in the server's pool
    owner.send({"type": "watch", "table": "bots"})  # again, from the same connection: the only one there
    assert _next(owner, "joined")["next_seq"] == 0
    owner.close()
    wait_for("the spectator to leave", lambda: not in_process.tables["bots"].spectators)
    table = in_process.tables["bots"]
    assert not table.playing  # nobody plays there: no descriptor is held for it
    late = _client(in_process)
    late.send({"type": "list_tables"})
    (info,) = _next(late, "tables")["tables"]
    assert info["table"] == "bots" and info["over"] is True and info["spectators"] == 0 and "to_move" not in info
    late.send({"type": "watch", "table": "bots"})
    _next(late, "joined")
    ended = _next(late, "game_ended")
    finished = (in_process.games / "bots.dvr").read_bytes()
    assert ended["seq"] == finished.count(b"\n") - 1
    other = _client(in_process)
    other.send({"type": "open_table", "table": "bots", "players": ["Ana", "Bob", "Cy"]})  # the name again
    assert _next(other, "opened")["table"] == "bots"
    (kept,) = in_process.games.glob("bots.*.dvr")  # the finished game moved aside, whole
    assert kept.read_bytes() == finished
    assert (in_process.games / "bots.dvr").read_bytes().count(b"\n") == 1
    other.send({"type": "list_tables", "table": "bots"})
    (info,) = _next(other, "tables")["tables"]
    assert info["over"] is False and info["to_move"] == 0


def test_a_bot_client_stops_with_the_error_when_its_table_takes_no_more_decisions(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Waiting for a turn at a table that has stopped (a failed save, a full log) would be forever."""
    monkeypatch.setattr(live_module, "MAX_LOG_LINES", 5)
    _open(in_process)

    async def seats() -> list[BaseException | Game]:
        clients = [TableClient(in_process.place, "t", seat=s) for s in range(3)]
        for client in clients:
            await client.connect()
        plays = [play_seat(client, parse_bot("greedy")) for client in clients]
        return await asyncio.wait_for(asyncio.gather(*plays, return_exceptions=True), 60)

    results = asyncio.run(seats())
    assert [r.code for r in results if isinstance(r, Refused)] == ["log_full"] * 3  # each of them is told
    assert (in_process.games / "t.dvr").read_bytes().count(b"\n") == 5


def test_an_error_names_the_request_it_answers_and_a_stop_nobody_asked_for_names_none(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``re`` is the type of the client's message an error answers, so a client with a decision
    and a stand-in on their way tells their answers apart; a table stopping answers nobody."""
    monkeypatch.setattr(live_module, "MAX_LOG_LINES", 3)
    _open(in_process)
    ana, bob = _seated(in_process, 0), _seated(in_process, 1)
    ana.send({"type": "stand_in", "seat": 1, "bot": "greedy"})  # Bob is connected
    ana.send({"type": "place", "seq": 0, "card": 6, "column": 3})  # stale
    ana.send({"type": "undo", "seq": 1})
    ana.send({"type": "join", "table": "nowhere"})
    answers = [ana.until("nothing") for _ in range(4)]
    assert [(a["code"], a["re"]) for a in answers] == [
        ("not_away", "stand_in"), ("stale", "place"), ("nothing_to_undo", "undo"), ("no_table", "join"),
    ]  # fmt: skip
    bob.send({"type": "place", "seq": 1, "card": 6, "column": 3})  # Ana's turn
    assert _next(bob, "error")["re"] == "place"
    ana.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    bob.send({"type": "place", "seq": 2, "card": 5, "column": 0})  # the third line: the log is full
    stopped = bob.until("nothing")  # the lines are passed over: the next error
    assert stopped["code"] == "log_full" and "re" not in stopped  # told to everyone, asked by nobody
    assert _next(ana, "error")["code"] == "log_full"
    bob.send({"type": "place", "seq": 3, "card": 4, "column": 1})
    again = _next(bob, "error")
    assert (again["code"], again["re"]) == ("log_full", "place")  # the same stop, now answering a decision


def test_a_join_without_a_seat_comes_back_to_ones_own_and_never_guesses_past_an_open_one(
    in_process: Server,
) -> None:
    """A drop gives one's own seat back. While one's seat is open on another connection, a join
    that names no seat is refused with both ways on (a frozen session's owner must not end up in
    somebody else's chair, nor a second terminal push the first off the table); naming the seat
    takes it over, and the old connection is told."""
    _open(in_process)

    def join(seat: int | None = None) -> tuple[RawClient, dict[str, Any]]:
        client = _client(in_process)
        client.send({"type": "join", "table": "t"} | ({} if seat is None else {"seat": seat}))
        return client, client.until("joined")

    first, joined = join()
    assert joined["seat"] == 0
    second, refused = join()
    assert refused["code"] == "no_seat"
    assert refused["message"] == (
        "your seat Ana is open on another connection: name it to take it over here "
        "(dvtui join t --as Ana), or a free seat (Bob, Cy)"
    )
    second.send({"type": "join", "table": "t", "seat": 1})
    assert _next(second, "joined")["seat"] == 1  # a free seat, named
    second.close()
    wait_for("Bob's seat away", lambda: in_process.tables["t"].seated[1] is None)
    back, joined = join()
    assert joined["seat"] == 1  # its own seat, away since the drop, before the free seat Cy
    over, joined = join(0)
    assert joined["seat"] == 0  # named: taken over
    assert first.until("error")["code"] == "taken_over"
    for client in (back, over):
        client.close()


def test_a_table_name_is_matched_whole_so_none_ends_in_a_newline(in_process: Server, tmp_path: Path) -> None:
    """The name pattern is searched by the decoder: a name ending in a newline (``$`` matches before
    one) is refused like any other bad name, makes no file, and a stray file so named is not reopened."""
    client = _client(in_process)
    for name in ("ok\n", "ok\nx", "\nok", "bad name"):
        client.send({"type": "open_table", "table": name, "players": ["Ana", "Bob", "Cy"]})
        assert client.until("opened")["code"] == "bad_message"
        client.send({"type": "join", "table": name})
        assert client.until("joined")["code"] == "bad_message"
    assert sorted(p.name for p in in_process.games.iterdir() if "ok" in p.name) == []
    client.send({"type": "open_table", "table": "ok", "players": ["Ana", "Bob", "Cy"]})
    assert client.until("opened")["table"] == "ok"
    stray = tmp_path / "games"
    stray.mkdir()
    (stray / "ok\n.dvr").write_bytes((in_process.games / "ok.dvr").read_bytes())
    assert FileStore(stray).names() == []
    assert not is_table_name("ok\n") and is_table_name("ok") and is_table_name("a" * 32)


def test_a_first_line_that_is_not_a_message_is_bad_message_and_closes(in_process: Server) -> None:
    for first in (b"not JSON\n", b'{"type":"nope"}\n', b'{"type":"hello"}\n'):
        client = RawClient(str(in_process.place.socket))
        client.send(first)
        refused = client.until("welcome")
        assert refused["code"] == "bad_message", (first, refused)
        assert client.receive() is None, first  # closed


def test_the_seq_is_checked_before_the_turn_and_each_refusal_of_a_decision_carries_the_tables_line(
    in_process: Server,
) -> None:
    _open(in_process)
    ana, bob = _seated(in_process, 0), _seated(in_process, 1)
    bob.send({"type": "place", "seq": 0, "card": 6, "column": 3})  # off turn and on an old line
    stale = bob.until("card_placed")
    assert (stale["code"], stale["seq"], stale["re"]) == ("stale", 1, "place")
    bob.send({"type": "undo", "seq": 1})
    nothing = bob.until("placement_undone")
    assert (nothing["code"], nothing["seq"], nothing["re"]) == ("nothing_to_undo", 1, "undo")
    ana.close()


def test_a_stand_in_plays_a_seat_nobody_has_taken_and_its_owner_may_take_that_placement_back(
    in_process: Server,
) -> None:
    """``stand_in`` needs only that nobody is connected to the seat: a free one is played too. A
    stand-in's placement is the seat's own: whoever then takes the seat may undo it, and for the
    others it is that seat's placement (their own placed before it can no longer be undone)."""
    _open(in_process)
    ana = _seated(in_process, 0)
    ana.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    _next(ana, "card_placed")
    ana.send({"type": "stand_in", "seat": 1, "bot": "greedy"})
    bob_seat = _next(ana, "presence")["seats"][1]
    assert (bob_seat["state"], bob_seat["stand_in"]) == ("free", "greedy") and "user" not in bob_seat
    placed = _next(ana, "card_placed")
    assert (placed["seq"], placed["player"], placed["stand_in"]) == (2, 1, "greedy")
    bob = _seated(in_process, 1)  # the stand-in stops: Cy (free, nobody standing in) is to move
    bob.send({"type": "undo", "seq": 3})
    undone = _next(bob, "placement_undone")
    assert (undone["seq"], undone["player"], undone["card"]) == (3, 1, placed["card"])
    assert _next(ana, "placement_undone")["seq"] == 3
    ana.send({"type": "undo", "seq": 4})  # the stand-in placed for Bob after Ana, as Bob would have
    refused = ana.until("placement_undone")
    assert (refused["code"], refused["seq"]) == ("nothing_to_undo", 4)


def test_after_game_ended_no_bye_comes_and_a_decision_gets_game_over(in_process: Server) -> None:
    _open(in_process)
    watcher = _client(in_process)
    watcher.send({"type": "watch", "table": "t"})
    _next(watcher, "presence")

    async def play_to_the_end() -> list[tuple[str, str | None]]:
        client = TableClient(in_process.place, "t", seat=1)
        await client.connect()
        for seat in (0, 2):
            await client.stand_in(seat, "greedy")
        answered = None
        answers: list[tuple[str, str | None]] = []
        async for update in client.updates():
            game = client.game
            if update.error is not None:
                answers.append((update.error.code, update.error.re))
                break
            if game is not None and game.over:
                await client.place(Placement(1, 0))  # the table's next line, at a finished game
            elif client.my_turn() and answered != client.next_seq:
                answered = client.next_seq
                await client.place(choose("greedy", game.copy(), client.bot_seed()))
        await client.close()
        return answers

    assert asyncio.run(asyncio.wait_for(play_to_the_end(), 120)) == [("game_over", "place")]
    _next(watcher, "game_ended")
    after = watcher.receive()  # Bob's leaving, not a bye: the connection stays open
    assert after is not None and after["type"] == "presence", after
    watcher.send({"type": "list_tables"})
    assert _next(watcher, "tables")["tables"][0]["over"] is True
