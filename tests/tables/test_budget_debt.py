"""An account's budget of messages: its debt is bounded (past a few seconds' wait a message is
answered ``busy`` and spends nothing), and what a connection left queued when it closed is asked
of nobody. The accounts here are people a trusted account (this one, the server's own) vouches
for: each has the budget of an account of its own."""

from __future__ import annotations

import signal
from pathlib import Path

from dvtui.server.limits import PAGE_COST, Limits

from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import Served, in_thread, short_dir, wait_for


def _carol(sock: Path) -> RawClient:
    client = RawClient(str(sock))
    client.send({"type": "hello", "version": 1, "client": "raw", "user": "carol"})
    assert client.until("welcome")["type"] == "welcome"
    return client


def test_past_a_few_seconds_of_debt_a_message_is_answered_busy_and_spends_nothing() -> None:
    limits = Limits(account_rate=4.0, account_burst=4.0, account_wait=0.6)
    with short_dir() as d, in_thread(d / "srv", limits=limits) as srv:
        clients = [_carol(srv.place.socket) for _ in range(6)]  # (a hello, before it, is no one's yet)
        for client in clients:  # each connection one page at once: PAGE_COST each, over one budget
            client.send({"type": "list_tables"})
        answers = [client.receive() for client in clients]
        kinds = [a["type"] if a["type"] != "error" else a["code"] for a in answers if a is not None]
        assert PAGE_COST == 2.0
        # two at once, a third after 0.5 s; the next would wait 1 s or more, past the bound: refused at
        # once, spending nothing (a debt that grew with every connection's waiting message was unbounded)
        assert sorted(kinds) == ["busy"] * 3 + ["tables"] * 3, kinds
        clients[0].send({"type": "list_tables", "table": "none"})  # the debt was not run up: answered
        assert clients[0].until("tables")["type"] == "tables"
        for client in clients:
            client.close()


def test_what_a_closed_connection_left_queued_is_dropped() -> None:
    with short_dir() as d, in_thread(d / "srv", limits=Limits(account_rate=2.0, account_burst=1.0)) as srv:
        carol = _carol(srv.place.socket)
        for name in ("t1", "t2", "t3"):  # t1 at once; t2 waits 0.5 s; t3 after it
            carol.send({"type": "open_table", "table": name, "players": ["carol", "Bob", "Cy"], "seed": 1})
        opened = carol.until("opened")
        assert opened["type"] == "opened", opened
        carol.close()  # while t2 waits its turn
        wait_for("the connection to end", lambda: not srv.conns)
        assert sorted(srv.tables) == ["t1"]  # t2 and t3 were asked by nobody any more


def test_a_placement_sent_before_its_connection_closed_counts_though_it_waited_its_turn() -> None:
    """Queued listings of a closed connection are asked of nobody, but a placement is a person's
    decision, sent before they left (their screen said it was on its way): it is made. The server
    is stopped meanwhile, so that the connection has closed by the time the placement's turn comes."""
    with short_dir() as d, Served(d / "srv") as server:
        server.start("--limit", "account-rate=4", "--limit", "account-burst=2")  # (the placement: 0.25 s)
        assert server.proc is not None
        carol = speaking_for(str(server.place.socket), "carol")
        players = ["Carol", "Bob", "bot:random"]
        opened = {"type": "open_table", "table": "t1", "players": players, "seed": 1, "first_player": 0}
        assert ask(carol, opened, "opened")["type"] == "opened"
        assert ask(carol, {"type": "join", "table": "t1", "seat": 0}, "joined")["seat"] == 0  # the burst spent
        assert carol.until("presence")["type"] == "presence"
        server.proc.send_signal(signal.SIGSTOP)
        try:
            carol.send({"type": "place", "seq": 1, "card": 1, "column": 0})  # it will wait its turn...
            carol.close()  # ... and its connection is closed by then
        finally:
            server.proc.send_signal(signal.SIGCONT)
        wait_for("the placement in the file", lambda: b'"card_placed"' in server.game_file("t1").read_bytes())
