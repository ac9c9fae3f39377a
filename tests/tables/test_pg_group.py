"""Group commit on PostgreSQL: the decisions of several tables that arrive while a commit is under
way are committed together, in one transaction, each before its append returns; a game of the
batch refused by the primary key (another server wrote its ``seq`` first) keeps nothing of its
decision, and the others' lines stand."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from dvtui.engine import GameCreated, new_game
from dvtui.play.seats import parse_players
from dvtui.server.stores import pggroup
from dvtui.server.stores.base import HoldLost, TableRecord
from dvtui.server.stores.pg import PgStore
from dvtui.server.stores.pgerrors import DatabaseError, DatabaseLost
from dvtui.server.stores.pggroup import Append
from dvtui.server.stores.pgrows import RowWriter

from ..support.postgres import db_lines, told_so_far
from ..support.servers import wait_for

pytestmark = pytest.mark.postgresql

LINE = b'{"type":"card_placed","seq":%d}\n'


def _created(seed: int) -> GameCreated:
    return new_game(parse_players("bot:random,bot:greedy,bot:random"), seed=seed)


def _record() -> TableRecord:
    return TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=1000)


@pytest.fixture
def store(pg_database: str, tmp_path: Path) -> Iterator[PgStore]:
    pg = PgStore(pg_database, tmp_path)
    try:
        yield pg
    finally:
        pg.close()


UNGUARDED = pggroup.APPEND.replace(
    "AND NOT EXISTS (SELECT 1 FROM dvtui_events e WHERE e.game_id = b.game_id AND e.seq >= b.seq)", ""
)
"""The statement without its own look at the game's lines: the primary key alone refuses the game
that is behind (the whole batch, then committed again one game at a time)."""


@pytest.mark.parametrize("statement", [pggroup.APPEND, UNGUARDED], ids=["checked", "key-only"])
def test_a_game_refused_by_the_key_keeps_nothing_and_the_other_games_lines_of_the_batch_stand(
    pg_database: str, store: PgStore, statement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert UNGUARDED != pggroup.APPEND  # (the clause taken out is there)
    monkeypatch.setattr(pggroup, "APPEND", statement)
    ids: dict[str, int] = {}
    for name, seed in (("a", 1), ("b", 2)):
        session, _ = store.create(name, _created(seed), _record())
        ids[name] = store.game_id(session) or 0
    with psycopg.connect(pg_database, autocommit=True) as other:
        # another writer wrote game a's line 1 first (its decision was one line, ours two)
        other.execute("INSERT INTO dvtui_events (game_id, seq, line) VALUES (%s, 1, %s)", (ids["a"], LINE % 1))
        other.execute("LISTEN dvtui")
        a = Append(ids["a"], "a", 1, [LINE % 1 + b" ours", LINE % 2])
        b = Append(ids["b"], "b", 1, [LINE % 1, LINE % 2])
        store.group.write([a, b])  # one batch
        told = told_so_far(other)
    assert isinstance(a.error, HoldLost) and "another server wrote its next line first" in str(a.error)
    assert b.error is None
    assert db_lines(pg_database, "a")[1:] == [LINE % 1]  # nothing of ours, not even the line that had no rival
    assert db_lines(pg_database, "b")[1:] == [LINE % 1, LINE % 2]
    assert told == [f"lines b {ids['b']} 3"]
    assert store.holds.lost(ids["a"]) and not store.holds.lost(ids["b"])  # a is held again before its next decision


def test_decisions_that_arrive_during_a_commit_are_committed_together_each_before_it_returns(
    pg_database: str, store: PgStore
) -> None:
    names = [f"t{i}" for i in range(5)]
    ids: dict[str, int] = {}
    for i, name in enumerate(names):
        session, _ = store.create(name, _created(i), _record())
        ids[name] = store.game_id(session) or 0
    committed_before_return: dict[str, bool] = {}

    def decide(name: str) -> None:
        store.group.append(Append(ids[name], name, 1, [LINE % 1]))
        committed_before_return[name] = db_lines(pg_database, name)[1:] == [LINE % 1]

    with store.holds.session():  # a commit under way: nobody writes until it ends
        first = threading.Thread(target=decide, args=(names[0],))
        first.start()
        wait_for("the first decision to lead", lambda: store.group.waiting == 0)
        rest = [threading.Thread(target=decide, args=(name,)) for name in names[1:]]
        for thread in rest:
            thread.start()
        wait_for("the others to queue behind it", lambda: store.group.waiting == len(rest))
    for thread in [first, *rest]:
        thread.join(30)
    assert committed_before_return == dict.fromkeys(names, True)
    assert store.group.commits == 2  # the first alone, then the four that arrived meanwhile


def test_a_decision_after_the_holders_connection_was_lost_is_refused_not_kept_waiting(store: PgStore) -> None:
    """The holder's connection gone while no commit was under way: the next commit makes it again
    (every game held then is lost until held anew), and the decision is refused with HoldLost."""
    session, _ = store.create("gone", _created(1), _record())
    game_id = store.game_id(session) or 0
    store.holds.close()
    outcome: list[BaseException | None] = []

    def decide() -> None:
        try:
            store.group.append(Append(game_id, "gone", 1, [LINE % 1]))
            outcome.append(None)
        except HoldLost as e:
            outcome.append(e)

    thread = threading.Thread(target=decide, daemon=True)
    thread.start()
    thread.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], HoldLost), outcome
    assert store.holds.lost(game_id)


def test_an_error_on_the_holders_session_is_a_refusal_only_when_the_database_says_so(store: PgStore) -> None:
    """A statement the database refuses (a SQLSTATE of its own) stops what was being written; an
    error of the connection itself (psycopg's own, as a pipeline cut by a connection lost raises
    it, with no SQLSTATE) is the database lost: the session is made again and the decision held
    again, never the table stopped for it."""
    with pytest.raises(DatabaseError) as refused, store.holds.session() as holder:
        holder.conn.execute("SELECT 1 / 0")
    assert not isinstance(refused.value, DatabaseLost)
    with pytest.raises(DatabaseLost), store.holds.session():
        raise psycopg.OperationalError("cannot exit pipeline mode while busy")
    with store.holds.session() as holder:  # made again
        assert holder.conn.execute("SELECT 1").fetchone() == (1,)


def test_a_batch_retried_one_game_at_a_time_reports_a_failure_only_to_the_decisions_it_did_not_commit(
    pg_database: str, store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key refuses the batch (its statement's own look left out): it is committed again one
    game at a time; one of those the database refuses for another reason: that decision fails, the
    one committed before it stands, and the one refused by the key is told so (held again)."""
    monkeypatch.setattr(pggroup, "APPEND", UNGUARDED)
    ids: dict[str, int] = {}
    for name, seed in (("a", 1), ("b", 2), ("c", 3)):
        session, _ = store.create(name, _created(seed), _record())
        ids[name] = store.game_id(session) or 0
    with psycopg.connect(pg_database, autocommit=True) as other:
        other.execute("INSERT INTO dvtui_events (game_id, seq, line) VALUES (%s, 1, %s)", (ids["a"], LINE % 1))
    a = Append(ids["a"], "a", 1, [LINE % 1])
    c = Append(ids["c"], "c", 1, [LINE % 1])
    b = Append(ids["b"], "b", 1, [None])  # type: ignore[list-item]  # (a line the database refuses: NOT NULL)
    store.group.write([a, c, b])
    assert isinstance(a.error, HoldLost) and "another server wrote its next line first" in str(a.error)
    assert c.error is None and db_lines(pg_database, "c")[1:] == [LINE % 1]
    assert isinstance(b.error, DatabaseError) and not isinstance(b.error, HoldLost)


def _plan_nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _plan_nodes(child)


def test_a_commits_work_does_not_grow_with_the_tables_the_server_holds(pg_database: str, store: PgStore) -> None:
    """A commit's statement reads only its batch's games: not the lock table, whose every read
    copies each lock of the cluster (one per table held), so that with a thousand tables held the
    hold's check cost the database more than the write. With 40 tables held, no step of the
    statement's plan (executed, then rolled back) reads the lock table, and no set of rows it
    makes up (the batch's, unnested) is larger than the batch."""
    held = 40
    ids = []
    for i in range(held):
        session, _ = store.create(f"t{i}", _created(i), _record())
        ids.append(store.game_id(session) or 0)
    batch = [Append(ids[0], "t0", 1, [LINE % 1])]
    with store.holds.session() as holder:
        assert all(map(holder.holds, ids))
        with holder.conn.transaction(force_rollback=True):
            row = holder.conn.execute(
                "EXPLAIN (ANALYZE, FORMAT JSON) " + pggroup.APPEND, pggroup.statement_params(batch, holder.pid)
            ).fetchone()
    assert row is not None
    nodes = [node for top in row[0] for node in _plan_nodes(top["Plan"])]
    functions = [node for node in nodes if node["Node Type"] == "Function Scan"]  # (what is not a table's rows)
    assert functions and not any(node.get("Function Name") == "pg_lock_status" for node in functions)
    assert all(node["Actual Rows"] + node.get("Rows Removed by Filter", 0) <= len(batch) for node in functions), [
        (node.get("Function Name"), node["Actual Rows"]) for node in functions
    ]


def test_the_commits_statement_writes_nothing_on_a_session_other_than_the_one_that_holds_the_games(
    pg_database: str, store: PgStore
) -> None:
    """The statement is run on the holder's session with that session's pid: run elsewhere (as
    a pooler handing the connection to another session would), it keeps nothing and says the game
    is not held."""
    session, _ = store.create("a", _created(1), _record())
    game_id = store.game_id(session) or 0
    batch = [Append(game_id, "a", 1, [LINE % 1])]
    with psycopg.connect(pg_database, autocommit=True) as other, other.transaction():
        rows = other.execute(pggroup.APPEND, pggroup.statement_params(batch, store.holds.pid or 0)).fetchall()
    assert [(row[0], row[1], row[2]) for row in rows] == [(game_id, False, False)]
    assert db_lines(pg_database, "a")[1:] == []
    with store.holds.session() as holder, holder.conn.transaction():
        rows = holder.conn.execute(pggroup.APPEND, pggroup.statement_params(batch, holder.pid)).fetchall()
    assert [(row[0], row[1], row[2]) for row in rows] == [(game_id, True, True)]
    assert db_lines(pg_database, "a")[1:] == [LINE % 1]


def test_the_batches_go_through_one_cursor_kept_with_the_holders_connection(
    pg_database: str, store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cursor keeps the dumpers it found for each parameter's type (a fresh one looks them up
    again, lists element by element): the holder's batches are written through one cursor, made
    once per holder's connection, and anew on the connection made again after one was lost."""
    session, _ = store.create("a", _created(1), _record())
    game_id = store.game_id(session) or 0
    used: list[psycopg.Cursor[Any]] = []
    execute = psycopg.Cursor.execute

    def noted(self: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> psycopg.Cursor[Any]:
        if query == pggroup.APPEND:
            used.append(self)
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", noted)
    for seq in (1, 2, 3):
        store.group.append(Append(game_id, "a", seq, [LINE % seq]))
    assert len(used) == 3 and all(cursor is used[0] for cursor in used)
    store.holds.close()  # the holder's connection lost: made again, the game held anew
    with pytest.raises(HoldLost):
        store.group.append(Append(game_id, "a", 4, [LINE % 4]))
    assert store.take(game_id)
    store.group.append(Append(game_id, "a", 4, [LINE % 4]))
    assert used[-1] is not used[0] and used[0].connection.closed and not used[-1].connection.closed
    assert db_lines(pg_database, "a")[1:] == [LINE % seq for seq in (1, 2, 3, 4)]


def test_a_decision_made_while_a_commit_is_under_way_queues_without_waiting_for_the_holds_lock(
    pg_database: str, store: PgStore
) -> None:
    """A commit keeps the holds' lock for its whole round trip: a decision that arrives meanwhile
    asks whether its game's hold was lost without that lock, and is queued for the next commit
    at once (it does not sleep until the commit ends, to be woken only to queue)."""
    sessions = [store.create(name, _created(seed), _record())[0] for name, seed in (("a", 1), ("b", 2))]
    threads = []
    for session in sessions:
        game = session.game
        place = {"player": game.to_move}
        threads.append(threading.Thread(target=session.place, args=(game.legal_placements()[0],), kwargs=place))
    with store.holds.session():  # a commit under way: one decision leads the next (waiting for it), one queues
        for thread in threads:
            thread.start()
        wait_for("a decision to queue for the next commit", lambda: store.group.waiting == 1)
    for thread in threads:
        thread.join(30)
    assert store.group.commits == 2
    for name, session in zip(("a", "b"), sessions, strict=True):
        writer = session.writer
        assert isinstance(writer, RowWriter) and writer.next_seq > 1
        assert len(db_lines(pg_database, name)) == writer.next_seq


def test_decisions_in_flight_are_not_bounded_by_the_servers_threads(
    pg_database: str, store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """40 tables deciding at once through a server of 4 threads, whose commits are slow: no thread
    waits for a commit (each table awaits its own on the loop), so the decisions that arrive while
    a commit is under way are all in the next one, and each is committed before anyone hears of it."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from dvtui.server.live import Backing, LiveTable
    from dvtui.server.peers import NoPeers
    from dvtui.server.stores.base import normal_record
    from tests.support.visitors import Visitor, seat

    batches: list[int] = []
    slow_commit = pggroup.GroupCommit._commit

    def commit(self: pggroup.GroupCommit, batch: list[Append]) -> bool:
        batches.append(len(batch))
        threading.Event().wait(0.3)
        return slow_commit(self, batch)

    monkeypatch.setattr(pggroup.GroupCommit, "_commit", commit)
    pool = ThreadPoolExecutor(max_workers=4)

    async def run_io(fn: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, fn)

    backing = Backing(store, NoPeers(), run_io, lambda line: None)
    tables: list[LiveTable] = []
    watchers: list[Visitor] = []
    for i in range(40):
        record = normal_record(_record(), 3)
        session, lines = store.create(f"t{i}", new_game(parse_players("ana,bob,cy"), seed=i), record)
        table = LiveTable(f"t{i}", session, lines, record, backing, 0.0)
        watcher = Visitor(1, "ana")
        seat(table, watcher, 0)
        tables.append(table)
        watchers.append(watcher)

    async def decide(table: LiveTable) -> None:
        game = table.session.game
        placement, player = game.legal_placements()[0], game.to_move
        async with table.lock:
            await table.commit(lambda session: session.place(placement, player=player))

    async def all_at_once() -> None:
        await asyncio.gather(*(decide(table) for table in tables))

    try:
        asyncio.run(all_at_once())
    finally:
        pool.shutdown()
    assert max(batches) > 4, batches  # more decisions in one commit than the server has threads
    for table, watcher in zip(tables, watchers, strict=True):
        assert table.failed is None and table.next_seq == 2
        assert db_lines(pg_database, table.name) == table.lines and table.lines[1] in watcher.sent


def test_a_decision_whose_commit_is_refused_is_made_again_on_the_game_as_it_was(
    pg_database: str, store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table decides on its loop and awaits the commit: one refused (the hold found lost) puts
    the game back as it was before the decision, the table is held again with what was written
    meanwhile (nothing), and the decision is made again and written once."""
    import asyncio

    from dvtui.server.live import Backing, LiveTable
    from dvtui.server.stores.base import normal_record
    from dvtui.server.stores.pgpeers import PgPeers
    from tests.support.visitors import Visitor, seat

    refused: list[int] = []
    commit_as_usual = pggroup.GroupCommit._commit

    def commit(self: pggroup.GroupCommit, batch: list[Append]) -> bool:
        if not refused:
            refused.append(batch[0].seq)
            self._refused(batch[0], held=True)
            return True
        return commit_as_usual(self, batch)

    monkeypatch.setattr(pggroup.GroupCommit, "_commit", commit)

    async def run_io(fn: Any) -> Any:
        return fn()

    logged: list[str] = []
    record = normal_record(_record(), 3)
    session, lines = store.create("t", new_game(parse_players("ana,bob,cy"), seed=4), record)
    table = LiveTable("t", session, lines, record, Backing(store, PgPeers(store), run_io, logged.append), 0.0)
    ana = Visitor(1, "ana")
    seat(table, ana, 0)
    game = table.session.game
    placement, player = game.legal_placements()[0], game.to_move

    async def decide() -> None:
        async with table.lock:
            await table.commit(lambda session: session.place(placement, player=player))

    asyncio.run(decide())
    assert refused == [1] and any("held again before its next line" in line for line in logged)
    assert table.failed is None and table.next_seq == 2 and len(table.session.events) == 2
    assert db_lines(pg_database, "t") == table.lines and table.lines[1] in ana.sent


def test_the_store_closes_after_the_commit_under_way_not_under_it(
    pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision is committed by the store's committer thread, which no thread of the server waits
    for: closing the store waits for the commit under way (its row is there), not cut under it."""
    store = PgStore(pg_database, tmp_path)
    session = store.create("a", _created(1), _record())[0]
    game_id = store.game_id(session) or 0
    slow_commit = pggroup.GroupCommit._commit

    def commit(self: pggroup.GroupCommit, batch: list[Append]) -> bool:
        threading.Event().wait(0.5)
        return slow_commit(self, batch)

    monkeypatch.setattr(pggroup.GroupCommit, "_commit", commit)
    outcome: list[BaseException | None] = []
    store.group.submit(Append(game_id, "a", 1, [LINE % 1]), lambda request: outcome.append(request.error))
    store.close()
    assert outcome == [None] and db_lines(pg_database, "a")[1:] == [LINE % 1]


def test_a_closed_store_leaves_no_committer_thread_behind(pg_database: str, tmp_path: Path) -> None:
    """The committer thread, started at a store's first submitted decision, ends with the store: a
    process that opens and closes stores (a test run, a tool) does not keep one idle thread each."""
    store = PgStore(pg_database, tmp_path)
    session = store.create("a", _created(1), _record())[0]
    game_id = store.game_id(session) or 0
    committed = threading.Event()
    store.group.submit(Append(game_id, "a", 1, [LINE % 1]), lambda request: committed.set())
    assert committed.wait(10)
    committer = store.group._committer
    assert committer is not None and committer.is_alive()
    store.close()
    assert not committer.is_alive()
