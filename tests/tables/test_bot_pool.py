"""The server's bots: a free worker goes to the waiting account that holds the fewest and was served
longest ago, so one person's flood of bot tables never holds a move of another person's table back
more than the moves already thinking; a table nobody is at plays no bots; a server's budget bounds
theirs."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Iterator
from contextlib import AbstractAsyncContextManager

import pytest

from dvtui.server.main import Server
from dvtui.server.pool import BotQueue, MaxBudget, quick

from ..support.processes import dvtui
from ..support.raw import RawClient
from ..support.servers import server_in_thread, wait_for


class RecordingQueue(BotQueue):
    """The server's queue, noting each request and each grant, in order, by account."""

    def __init__(self, slots: int) -> None:
        super().__init__(slots)
        self.log: list[tuple[str, Hashable]] = []

    def turn(self, account: Hashable) -> AbstractAsyncContextManager[None]:
        self.log.append(("want", account))
        return super().turn(account)

    def pick(self) -> Hashable:
        account = super().pick()
        self.log.append(("grant", account))
        return account


async def test_a_free_slot_goes_to_the_account_served_longest_ago_not_to_the_longest_line() -> None:
    queue = BotQueue(1)
    order: list[str] = []
    gates = {name: asyncio.Event() for name in ("m0", "m1", "m2", "m3", "a0", "a1")}

    async def move(account: str, name: str) -> None:
        async with queue.turn(account):
            order.append(name)
            await gates[name].wait()

    tasks = [asyncio.create_task(move("mal", "m0"))]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(move("mal", name)) for name in ("m1", "m2", "m3")]
    tasks += [asyncio.create_task(move("ana", name)) for name in ("a0", "a1")]  # asked last
    async with asyncio.timeout(60):
        for k in range(6):
            while len(order) <= k:
                await asyncio.sleep(0)
            gates[order[k]].set()  # that move is done: the slot is free for the next
        await asyncio.gather(*tasks)
    assert order == ["m0", "a0", "m1", "a1", "m2", "m3"]


async def test_a_request_cancelled_while_it_waits_takes_no_slot() -> None:
    queue = BotQueue(1)
    held = asyncio.Event()
    done = asyncio.Event()

    async def hold() -> None:
        async with queue.turn("mal"):
            held.set()
            await done.wait()

    holder = asyncio.create_task(hold())
    await held.wait()

    async def wait_turn() -> None:
        async with queue.turn("mal"):
            raise AssertionError("a cancelled request ran")

    waiting = asyncio.create_task(wait_turn())
    await asyncio.sleep(0)
    waiting.cancel()
    done.set()
    await holder
    with pytest.raises(asyncio.CancelledError):
        await waiting
    async with asyncio.timeout(60), queue.turn("ana"):  # the slot is free again
        pass


@pytest.fixture
def one_worker() -> Iterator[Server]:
    """A server in this process with one bot worker, its queue recording."""
    with server_in_thread(workers=1) as srv:
        srv.bots.queue = RecordingQueue(1)
        yield srv


def _person(srv: Server, name: str) -> RawClient:
    """A connection speaking for ``name`` (the server trusts its own account, this test's)."""
    client = RawClient(str(srv.place.socket))
    client.send({"type": "hello", "version": 1, "user": name})
    assert client.until("welcome")["user"] == f"web:{name}"
    return client


def _open(client: RawClient, table: str, players: list[str], **options: object) -> None:
    client.send({"type": "open_table", "table": table, "players": players, "seed": 4, **options})
    assert client.until("opened")["table"] == table


def test_a_flood_of_bot_tables_does_not_hold_back_a_move_at_another_persons_table(one_worker: Server) -> None:
    queue = one_worker.bots.queue
    assert isinstance(queue, RecordingQueue)
    flood = []
    for i in range(3):
        mal = _person(one_worker, "mal")
        _open(mal, f"hog{i}", ["bot:strong@0.2s"] * 3)
        mal.send({"type": "watch", "table": f"hog{i}"})  # (watched: a table nobody is at plays no bots)
        flood.append(mal)
    wait_for("the flood to fill the queue", lambda: queue.log.count(("grant", "mal")) >= 4)
    ana = _person(one_worker, "ana")
    _open(ana, "mine", ["Ana", "bot:strong@2000", "bot:strong@2000"], first_player=1)  # (bots that search)
    ana.send({"type": "join", "table": "mine", "seat": 0})
    placed = 0
    while placed < 2:  # both bots' moves, then it is Ana's turn
        message = ana.receive()
        assert message is not None and message["type"] != "error", message
        placed += message["type"] == "card_placed"
    log = list(queue.log)
    asked = [i for i, entry in enumerate(log) if entry == ("want", "ana")]
    assert len(asked) == 2
    for i in asked:  # the next worker freed went to Ana's table, whatever the flood had queued
        assert next(entry for entry in log[i:] if entry[0] == "grant") == ("grant", "ana"), log[i:]
    assert log.count(("want", "mal")) > log.count(("grant", "mal"))  # the flood was waiting all along
    for client in [*flood, ana]:
        client.close()


def test_bots_that_need_no_search_never_wait_behind_one_that_searches(one_worker: Server) -> None:
    queue = one_worker.bots.queue
    assert isinstance(queue, RecordingQueue)
    mal = _person(one_worker, "mal")
    _open(mal, "hog", ["bot:strong@200000"] * 5)  # a move of seconds (bounded by the server's budget)
    mal.send({"type": "watch", "table": "hog"})
    wait_for("the hog's move to think", lambda: ("grant", "mal") in queue.log)
    ana = _person(one_worker, "ana")
    _open(ana, "mine", ["Ana", "bot:greedy", "bot:random"], first_player=1)
    ana.send({"type": "join", "table": "mine", "seat": 0})
    placed = 0
    while placed < 2:  # both bots' moves, then it is Ana's turn
        message = ana.receive()
        assert message is not None and message["type"] != "error", message
        placed += message["type"] == "card_placed"
    assert ("want", "ana") not in queue.log  # her bots played in the quick lane, the one worker searching
    assert [quick(level) for level in ("greedy", "random", "novice", "club", "strong@1000")] == [True] * 5
    assert [quick(level) for level in ("strong", "expert", "master", "strong@0.1s")] == [False] * 4
    for client in (mal, ana):
        client.close()


def test_a_table_nobody_is_at_plays_no_bots_until_somebody_watches(one_worker: Server) -> None:
    owner = _person(one_worker, "ana")
    _open(owner, "bots", ["bot:greedy"] * 3)
    table = one_worker.tables["bots"]
    assert table.bot_to_move() is None and table.bot_task is None and table.next_seq == 1
    listed = dvtui("tables", "--server", str(one_worker.place.directory))
    assert listed.stdout == ("bots  round 1/6, Bot 1 to move (a bot, waiting for somebody to join or watch)  "
                             "[Bot 1: bot; Bot 2: bot; Bot 3: bot]  spectators: 0\n")  # fmt: skip
    owner.send({"type": "watch", "table": "bots"})
    seen = 0
    while seen < 6:
        message = owner.receive()
        assert message is not None and message["type"] != "error", message
        seen += message["type"] == "card_placed"
    owner.close()  # nobody there: the move thinking ends, then the table waits
    wait_for("the table's bot to stop", lambda: not one_worker.conns and table.bot_task is None)
    paused = table.next_seq
    assert table.bot_to_move() is None and not table.over
    back = _person(one_worker, "bob")
    back.send({"type": "watch", "table": "bots", "since": paused})
    while (message := back.receive()) is not None and message["type"] != "game_ended":
        assert message["type"] != "error", message
    assert table.over and table.next_seq > paused
    back.close()


def test_a_server_with_a_lower_budget_refuses_larger_bots_and_thinks_within_it() -> None:
    budget = MaxBudget(iterations=2000, seconds=0.5)
    assert budget.problem("strong@0.5s") is None and budget.problem("greedy") is None
    assert budget.problem("strong@2000") is None
    assert budget.problem("strong@1s") == (
        "strong@1s thinks longer than this server's bots may (at most 2000 iterations or 0.5 seconds a move)"
    )
    assert budget.problem("strong") is not None  # plain strong searches 5000 iterations
    assert [budget.cut(level) for level in ("strong@3s", "strong", "strong@100", "random")] == [
        "strong@0.5s", "strong@2000", "strong@100", "random",
    ]  # fmt: skip
    with server_in_thread(budget=budget) as srv:
        ana = _person(srv, "ana")
        ana.send({"type": "open_table", "table": "big", "players": ["Ana", "Bob", "bot:strong@9s"]})
        refused = ana.until("opened")
        assert refused["code"] == "bad_setup" and "thinks longer than this server's bots may" in refused["message"]
        _open(ana, "small", ["Ana", "Bob", "bot:strong@0.5s"])
        ana.send({"type": "join", "table": "small", "seat": 0})
        ana.until("joined")
        ana.send({"type": "stand_in", "seat": 1, "bot": "strong@5s"})
        refused = ana.until("presence")
        while refused["type"] == "presence":
            refused = ana.until("error")
        assert refused["code"] == "bad_message" and refused["re"] == "stand_in"
        ana.close()


def test_serve_says_what_a_max_budget_is() -> None:
    done = dvtui("serve", "--dir", "/nonexistent/x", "--max-budget", "3x")
    assert done.returncode == 2
    assert done.stderr == (
        "dvtui: error: --max-budget 3x: a budget is a number of iterations (up to 200000) or of seconds (up to 10s)\n"
    )
