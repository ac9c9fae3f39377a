"""A seated player cannot fill a table's log: undos are bounded per seat and round, counted in the
log itself (a fresh connection per burst, or a restarted server, gives none back), and a table
whose log is full stays stopped when the server reopens it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from dvtui.engine import NothingToUndo, Placement
from dvtui.play.face import News, Refused
from dvtui.server import live as live_module
from dvtui.server.main import Server
from dvtui.tables import RemoteSession, open_table
from dvtui.tables.undos import MAX_UNDOS_PER_ROUND

from ..support.raw import RawClient
from ..support.servers import WAIT, Served, in_thread, short_dir


def _seat(sock: str, table: str, seat: int, since: int = 0) -> tuple[RawClient, int]:
    """A fresh connection at ``seat`` of ``table`` (taking it over from the last); the table's next line."""
    client = RawClient(sock)
    client.hello()
    client.send({"type": "join", "table": table, "seat": seat, "since": since})
    joined = client.until("joined")
    assert joined["type"] == "joined", joined
    return client, _lines_until_presence(client, joined["next_seq"])


def _lines_until_presence(client: RawClient, seq: int) -> int:
    while (message := client.receive()) is not None and message["type"] != "presence":
        seq += message["type"] not in ("joined", "error")
    return seq


def _decide(client: RawClient, message: dict[str, Any]) -> dict[str, Any]:
    """Send a decision; the line it wrote, or the error answering it."""
    client.send(message)
    while True:
        answer = client.receive()
        assert answer is not None
        if answer["type"] == "error" or answer["type"] in ("card_placed", "placement_undone"):
            return answer


def test_a_seat_that_places_and_undoes_over_fresh_connections_is_refused_past_the_rounds_bound() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        opened = server.dvtui("new", "--table", "sat", "--players", "Ana,Bob,Cy", "--seed", "3", "--start-now")
        assert opened.returncode == 0, opened.stderr
        sock = str(server.place.socket)
        seq = 1
        for _ in range(MAX_UNDOS_PER_ROUND):  # a new connection for each pair, as the attack does
            ana, seq = _seat(sock, "sat", 0, since=seq)
            assert _decide(ana, {"type": "place", "seq": seq, "card": 6, "column": 0})["type"] == "card_placed"
            assert _decide(ana, {"type": "undo", "seq": seq + 1})["type"] == "placement_undone"
            seq += 2
            ana.close()
        ana, seq = _seat(sock, "sat", 0, since=seq)
        assert _decide(ana, {"type": "place", "seq": seq, "card": 6, "column": 0})["type"] == "card_placed"
        refused = _decide(ana, {"type": "undo", "seq": seq + 1})
        assert refused == {
            "type": "error", "code": "undo_limit", "seq": seq + 1, "re": "undo",
            "message": f"seat 1 has taken back {MAX_UNDOS_PER_ROUND} placements this round, as many as a table "
            "allows; the next round allows as many again",
        }  # fmt: skip
        ana.close()
        assert server.lines("sat") == seq + 1
        server.kill9()  # a restarted server gives no undo back: the count is the log's
        server.start()
        ana, at = _seat(sock, "sat", 0)
        assert at == seq + 1
        assert _decide(ana, {"type": "undo", "seq": at})["code"] == "undo_limit"
        ana.close()
        assert server.lines("sat") == seq + 1
        assert server.stop() == 0


def test_a_table_whose_log_is_full_stays_stopped_when_the_server_reopens_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_module, "MAX_LOG_LINES", 5)  # game_created and two place/undo pairs
    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        with in_thread(d / "srv") as srv:
            sock = str(srv.place.socket)
            owner = RawClient(sock)
            owner.hello()
            owner.send({"type": "open_table", "table": "full", "players": ["Ana", "Bob", "Cy"], "seed": 2})
            owner.until("opened")
            ana, seq = _seat(sock, "full", 0)
            for _ in range(2):
                assert _decide(ana, {"type": "place", "seq": seq, "card": 6, "column": 0})["type"] == "card_placed"
                assert _decide(ana, {"type": "undo", "seq": seq + 1})["type"] == "placement_undone"
                seq += 2
            assert ana.until("error")["code"] == "log_full"
            ana.close()
            owner.close()
        games = d / "srv" / "games"
        assert (games / "full.dvr").read_bytes().count(b"\n") == 5
        with in_thread(d / "srv") as srv:  # the server again, on the same directory
            ana = RawClient(str(srv.place.socket))
            ana.hello()
            ana.send({"type": "join", "table": "full", "seat": 0})
            told = []
            while (message := ana.receive()) is not None and message["type"] != "presence":  # (sent last)
                told += [(message["code"], "re" in message)] if message["type"] == "error" else []
            assert told == [("log_full", False)]  # told on joining, as anyone at the table is
            refused = _decide(ana, {"type": "place", "seq": 5, "card": 6, "column": 0})
            assert (refused["code"], refused["re"]) == ("log_full", "place")
            ana.close()
        assert (games / "full.dvr").read_bytes().count(b"\n") == 5


async def test_a_seat_at_its_bound_is_told_so_before_anything_is_sent_and_u_is_off(in_process: Server) -> None:
    await open_table(in_process.place, "t", ["Ana", "Bob", "Cy"], first_player=0, seed=5, wait=False)
    ana = await RemoteSession.open(in_process.place, "t", seat=0)
    news: list[News] = []
    ana.attach(news.append)

    async def decided(decide: Callable[[], None]) -> None:
        """Hand a decision in and wait for it to come back (the table's answer is news)."""
        decide()
        async with asyncio.timeout(WAIT):
            while ana.deciding:
                await asyncio.sleep(0.01)
        assert not any(isinstance(n, Refused) for n in news), news

    try:
        for _ in range(MAX_UNDOS_PER_ROUND):
            await decided(lambda: ana.place(Placement(6, 3)))
            assert ana.undo_player() == 0
            await decided(lambda: ana.undo(0))
        await decided(lambda: ana.place(Placement(6, 3)))
        lines = (in_process.games / "t.dvr").read_bytes().count(b"\n")
        said = f"Ana has taken back {MAX_UNDOS_PER_ROUND} placements this round, as many as a table allows"
        assert ana.undo_player() is None and ana.why_no_undo().startswith(said)  # (the footer's u goes)
        with pytest.raises(NothingToUndo, match=said):
            ana.undo(0)
        assert not ana.deciding and (in_process.games / "t.dvr").read_bytes().count(b"\n") == lines
    finally:
        ana.close()
