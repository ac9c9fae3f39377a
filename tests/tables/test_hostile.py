"""Hostile and broken clients: each gets an error or is dropped, and nobody else notices.

1,000 hostile messages from a seeded generator (garbage, huge lines, floods, moves for other seats,
stale ``seq``, no hello, wrong versions, fields out of range) go to a real server while another
table plays a whole game; the game's file is the uninterrupted one and the server still answers.
A client that stops reading is dropped once its unsent data passes the bound (an in-process server
with a small bound, so the test need not push megabytes), and one that reads nothing as its
connection is closed is cut off after a grace (a short one here: the fuzzer reads as it writes, so
it never waits that grace out).
"""

from __future__ import annotations

import json
import random
import select
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.server import connection
from dvtui.server.limits import Limits
from dvtui.server.main import Server

from ..support.files import strip_at
from ..support.raw import RawClient
from ..support.servers import WAIT, Served, server_in_thread, short_dir, uninterrupted, wait_for

PLAYERS = "Ana,Bob,Cy"
LEVELS = ["greedy", "greedy", "greedy"]


def hostile(rng: random.Random) -> bytes | dict[str, object]:
    """One hostile message (bytes as they are, or an object to send as JSON)."""
    kind = rng.randrange(12)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).replace(b"\n", b"") + b"\n"
    if kind == 1:
        return rng.choice([b"[]\n", b"null\n", b"42\n", b'"hello"\n', b"{}\n", b'{"type":"nope"}\n', b"\n",
                           b"[" * 5000 + b"\n", b'{"type":"place","seq":"x"}\n', b"\xff\xfe\n"])  # fmt: skip
    if kind == 2:
        return {"type": "place", "seq": rng.choice([-1, 0, 1, 2, 10**12]), "card": rng.choice([0, 1, 6, 7, -3, 999]),
                "column": rng.choice([-1, 0, 3, 6, 7, 10**6])}  # fmt: skip
    if kind == 3:
        return {"type": "place", "seq": rng.randrange(0, 4), "card": rng.randrange(1, 7), "column": rng.randrange(7)}
    if kind == 4:
        # (not the calm table: another connection of the same user may take a seat over, by design)
        return {"type": "join", "table": rng.choice(["victim", "../etc", "x" * 40, "\x1b[2J", "nope"]),
                "seat": rng.choice([None, 0, 1, 2, 4, 9, -1])}  # fmt: skip
    if kind == 5:
        return {"type": "watch", "table": rng.choice(["victim", "calm", "nope"]), "since": rng.choice([0, 5, 10**9])}
    if kind == 6:
        return {"type": "open_table", "table": rng.choice(["victim", "t" + str(rng.randrange(5)), "bad name"]),
                "players": rng.choice([[], ["Ana"], ["Ana", "Ana", "Bob"], ["a,b", "c", "d"], ["x\x1b", "y", "z"],
                                       ["bot:nobody", "b", "c"], ["A"] * 9]),
                "first_player": rng.choice([None, 0, 4, -1]), "seed": rng.choice([None, -1, 2**64])}  # fmt: skip
    if kind == 7:
        return {"type": "undo", "seq": rng.choice([0, 1, 3, -2])}
    if kind == 8:
        return {"type": "stand_in", "seat": rng.choice([0, 1, 2, 5]), "bot": rng.choice(["greedy", "god", None, ""])}
    if kind == 9:
        return {"type": "hello", "version": rng.choice([0, 2, 1, "1", None])}
    if kind == 10:
        return b'{"type":"list_tables","pad":"' + b"x" * rng.choice([10, 70_000]) + b'"}\n'
    return {"type": "list_tables"}


class Fuzzer:
    """Sends hostile messages over connections it opens again whenever the server drops one; reads
    replies only now and then (a client may be slow), never waiting on them."""

    def __init__(self, sock: Path, seed: int) -> None:
        self.sock = sock
        self.rng = random.Random(seed)
        self.sent = 0
        self.dropped = 0
        self.errors: set[str] = set()
        self.client: RawClient | None = None

    def _client(self) -> RawClient:
        if self.client is None:
            self.client = RawClient(str(self.sock), timeout=30)
            if self.rng.random() < 0.9:  # now and then no hello at all
                self.client.hello()
                self.client.send({"type": "join" if self.rng.random() < 0.5 else "watch", "table": "victim"})
        return self.client

    def send(self, count: int) -> None:
        for _ in range(count):
            message = hostile(self.rng)
            if self.rng.random() < 0.02:  # a flood: far past the rate, in one go
                message = b'{"type":"list_tables"}\n' * 400
            try:
                self._write(message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n")
                if self.rng.random() < 0.3:
                    self._drain()
            except (BrokenPipeError, ConnectionResetError, ConnectionError):
                self._drop()  # (ConnectionError: closed before its hello was answered)
            self.sent += 1

    def _write(self, data: bytes) -> None:
        """Send ``data``, reading what the server says whenever it cannot take more: a server that
        closes the connection (a line too long, a flood) while this client still writes is seen to
        at once, as by a client that reads while it writes; one that reads only between its writes
        waits until the server gives up on it (:func:`test_a_client_that_reads_nothing_as_it_is_closed_is_cut_off`)."""
        client = self._client()
        rest = memoryview(data)
        while rest:
            readable, writable, _ = select.select([client.sock], [client.sock], [], WAIT)
            assert readable or writable, "the server neither read nor wrote for two minutes"
            if writable:
                rest = rest[client.sock.send(rest) :]
            elif readable:
                self._drain()
                if self.client is None:
                    raise ConnectionError("closed while it wrote")

    def _drain(self) -> None:
        assert self.client is not None
        self.client.sock.setblocking(False)
        try:
            while True:
                chunk = self.client.sock.recv(65536)
                if not chunk:
                    self._drop()
                    return
                self.errors.update(m["code"] for m in _messages(chunk) if m.get("type") == "error")
        except (BlockingIOError, InterruptedError):
            self.client.sock.setblocking(True)
        except ConnectionResetError:
            self._drop()

    def settle(self) -> None:
        """Waits for every answer owed on the connection in use, then sends one more malformed line
        on a connection of its own and waits for that answer: what the drains in passing read
        depends on how fast a loaded server replies; what this reads does not."""
        if self.client is not None:
            try:
                self.client.send({"type": "list_tables"})  # answered after everything sent before it
                while (message := self.client.receive()) is not None and message["type"] != "tables":
                    if message["type"] == "error":
                        self.errors.add(message["code"])
            except (BrokenPipeError, ConnectionError, TimeoutError):
                pass  # dropped meanwhile: nothing more is owed on it
            self.client.close()
            self.client = None
        probe = RawClient(str(self.sock), timeout=30)
        probe.hello()
        probe.send(b"[]\n")
        self.errors.add(probe.until("error")["code"])
        probe.close()

    def _drop(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
            self.dropped += 1


def _messages(chunk: bytes) -> Iterator[dict[str, object]]:
    for line in chunk.split(b"\n"):
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict):
            yield message


@pytest.mark.long
def test_a_thousand_hostile_messages_while_another_table_plays_a_whole_game() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        for table, seed in (("victim", 3), ("calm", 12)):
            opened = server.dvtui("new", "--table", table, "--players", PLAYERS, "--seed", str(seed), "--start-now")
            assert opened.returncode == 0, opened.stderr
        ana, bob = server.player("calm", "Ana"), server.player("calm", "Bob")
        wait_for("the calm table's first placements", lambda: server.lines("calm") == 3)
        fuzz = Fuzzer(server.place.socket, seed=2026)
        fuzz.send(500)
        cy = server.player("calm", "Cy")  # the calm table plays on during the second half
        fuzz.send(500)
        assert fuzz.sent == 1000
        fuzz.settle()
        for player in (ana, bob, cy):
            code, out, err = player.finish()
            assert code == 0, err
            assert out.splitlines()[-1].startswith("table calm: Game over: ")
        expected = uninterrupted(PLAYERS, 12, 0, LEVELS, server.directory)
        assert strip_at(server.game_file("calm").read_bytes()) == strip_at(expected)
        assert server.proc is not None and server.proc.poll() is None  # never crashed
        assert "internal error" not in server.log() and "Traceback" not in server.log()
        listed = server.dvtui("tables")
        assert listed.returncode == 0 and "victim  round 1/6" in listed.stdout
        assert "bad_message" in fuzz.errors, fuzz.errors
        assert fuzz.dropped > 0
        flood = RawClient(str(server.place.socket))
        flood.hello()
        flood.send(b'{"type":"list_tables"}\n' * 400)
        assert flood.until("error")["code"] == "flood"
        while flood.receive() is not None:  # then closed
            pass
        assert server.stop() == 0


def test_a_client_that_stops_reading_is_dropped_and_the_others_are_served() -> None:
    limits = Limits(queued_per_conn=64 * 1024, conn_burst=100_000.0)
    with server_in_thread(limits=limits) as in_process:
        _slow_reader_dropped(in_process)


def _slow_reader_dropped(in_process: Server) -> None:
    sock = str(in_process.place.socket)
    owner = RawClient(sock)
    owner.hello()
    owner.send({"type": "open_table", "table": "big", "players": ["Ana", "Bob", "Cy"], "seed": 1})
    assert owner.until("opened")["table"] == "big"
    slow = RawClient(sock)
    slow.hello()
    slow.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    request = b'{"type":"watch","table":"big"}\n'  # each answered by the game's first line, ~1.5 KiB
    try:
        for _ in range(2000):
            slow.sock.sendall(request)
    except (BrokenPipeError, ConnectionResetError):
        pass  # dropped while it was still sending
    wait_for("the slow client to be dropped", lambda: len(in_process.conns) == 1)
    owner.send({"type": "list_tables"})
    assert owner.until("tables")["tables"][0]["table"] == "big"  # the others never noticed
    owner.close()


def test_a_client_that_reads_nothing_as_it_is_closed_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that floods and reads nothing, not even the answers queued for it when its
    connection is closed for the flood, is cut off once the grace to read them is over (a tenth of
    a second here): the closing connection does not wait for it forever, and the others are served."""
    monkeypatch.setattr(connection, "CLOSE_GRACE", 0.1)
    with server_in_thread(limits=Limits(conn_burst=300)) as in_process:
        sock = str(in_process.place.socket)
        other = RawClient(sock)
        other.hello()
        other.send({"type": "open_table", "table": "big", "players": ["Ana", "Bob", "Cy"], "seed": 1})
        assert other.until("opened")["table"] == "big"
        deaf = RawClient(sock, timeout=WAIT)
        deaf.hello()
        deaf.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # 300 answered (~1.5 KiB each, more than the buffers on the way hold), then a flood
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            for _ in range(1000):  # until cut off: the server reads no more of it once it closes
                deaf.sock.sendall(b'{"type":"watch","table":"big"}\n' * 2000)
        wait_for("the deaf client to be gone", lambda: len(in_process.conns) == 1)
        other.send({"type": "list_tables"})
        assert other.until("tables")["type"] == "tables"
        for client in (other, deaf):
            client.close()


def test_every_answer_to_a_request_names_it_even_a_field_out_of_range() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        assert server.dvtui("new", "--table", "t", "--players", PLAYERS, "--seed", "1", "--start-now").returncode == 0
        client = RawClient(str(server.place.socket))
        client.hello()
        client.send({"type": "join", "table": "t", "seat": 0})
        client.until("presence")
        nested = b'{"type":"list_tables","x":' + b"[" * 30_000 + b"]" * 30_000 + b"}\n"  # under the line bound
        for message, answers in (
            ({"type": "place", "seq": 1, "card": 7, "column": 0}, "place"),
            ({"type": "join", "table": "t", "seat": 7}, "join"),
            ({"type": "open_table", "table": "u", "players": ["A", "B", "C"], "seed": -1}, "open_table"),
            ({"type": "rematch"}, "rematch"),  # a newer client's request: answered, not left waiting
            (b'{"type":"place","seq":"x"\n', None),  # not JSON: no type to read
            (nested, None),
        ):
            client.send(message)
            error = client.until("error")
            assert error["code"] == "bad_message" and error.get("re") == answers, (message, error)
        client.send({"type": "list_tables"})
        assert client.until("tables")["tables"][0]["table"] == "t"  # still served
        assert "Traceback" not in server.log() and "RecursionError" not in server.log()
        assert server.stop() == 0


def test_a_first_line_that_is_not_json_gets_bad_message_and_is_closed(in_process: Server) -> None:
    client = RawClient(str(in_process.place.socket))
    client.send(b"GET / HTTP/1.1\n")
    error = client.until("error")
    assert error["code"] == "bad_message" and "re" not in error
    assert client.receive() is None  # closed


def test_requests_from_a_client_that_has_gone_cost_no_log() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        for _ in range(20):
            client = RawClient(str(server.place.socket))
            client.send(b'{"type":"hello","version":1}\n' + b'{"type":"list_tables"}\n' * 150)
            client.close()  # at once: every answer is written to a connection that is gone
        assert server.dvtui("tables").returncode == 0  # (after the server has read them all)
        assert server.stop() == 0
        assert len(server.log().splitlines()) <= 3, server.log()  # listening, stopped
