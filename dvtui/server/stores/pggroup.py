"""Group commit: the decisions of several tables saved in one transaction (:class:`GroupCommit`).

A server on PostgreSQL saves each decision before anyone hears of it; one transaction per decision
costs a commit (a flush of PostgreSQL's log) and its round trips each, and that is what bounds the
moves a server makes per second. So the decisions that arrive while a commit is under way wait for
it to end and are then committed together, in one transaction, each still committed before its
``append`` returns (before its lines are sent): a queue, and whichever writer finds no commit under
way leads the next one, with every decision queued by then.

The transaction runs on the connection that holds the tables' advisory locks
(:class:`~.pgholds.Holds`), and its one statement writes only the lines of the games that session
holds (the games it took, and a check that the statement runs on that session): the hold's check
and the write are one, with no round trip of its own, and no read of the lock table. A
game whose lock that session no longer holds, or whose ``seq`` another server wrote first, is
kept out of the batch (nothing of it is kept) and its writer told :class:`~.base.HoldLost`; the
other games' lines stand. The statement is its own transaction (the session is in autocommit), in
one round trip.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .base import HoldLost
from .pgconn import CHANNEL, Pool
from .pgerrors import DatabaseLost
from .pgholds import Holds

if TYPE_CHECKING:
    import psycopg

logging.getLogger("psycopg").addHandler(logging.NullHandler())
"""What psycopg may log of a connection lost is not shown: the store says what happened itself
(the decision held again, or the database away), in one line."""

APPEND = """WITH batch AS (
    SELECT * FROM unnest(%(batch)b::bigint[], %(firsts)b::integer[], %(told)b::text[]) AS b (game_id, seq, payload)
), held AS (
    SELECT b.game_id FROM batch b WHERE pg_backend_pid() = %(pid)b
), fit AS (
    SELECT b.game_id FROM batch b WHERE b.game_id IN (SELECT game_id FROM held)
        AND NOT EXISTS (SELECT 1 FROM dvtui_events e WHERE e.game_id = b.game_id AND e.seq >= b.seq)
), ins AS (
    INSERT INTO dvtui_events (game_id, seq, line)
    SELECT r.game_id, r.seq, r.line FROM unnest(%(games)b::bigint[], %(seqs)b::integer[], %(lines)b::bytea[])
        AS r (game_id, seq, line)
    WHERE r.game_id IN (SELECT game_id FROM fit)
    RETURNING game_id
), touched AS (
    UPDATE dvtui_games SET written_at = now() WHERE id IN (SELECT game_id FROM fit)
), told AS (
    SELECT pg_notify(%(channel)b, b.payload) FROM batch b WHERE b.game_id IN (SELECT game_id FROM fit)
)
SELECT b.game_id, b.game_id IN (SELECT game_id FROM fit), b.game_id IN (SELECT game_id FROM held),
    (SELECT count(*) FROM ins), (SELECT count(*) FROM told)
FROM batch b"""
"""A batch in one statement, on the session holding the games' locks: the lines of each game that
no line is written at or past the decision's ``seq`` of (another server's, written while it held
the game) are inserted, its ``written_at`` set and its ``lines NAME GAME NEXT`` notified (sent at
commit); the other games keep nothing. Then, per game of the batch, whether it was written and
whether its lock is held. The batch holds only games this session took
(:class:`~.pgholds.HolderSession`), and the statement writes nothing unless it runs on that very session (its
backend's pid): it never reads the lock table, whose every read copies each lock of the cluster
(one per table held, by every server) and cost the database more than the write itself. Nobody
else writes a game while this session holds its lock, so what the statement sees of it is all
there is: a game goes in whole or not at all, and the primary key stands guard besides (a batch
it refuses is committed again one game at a time). Its parameters go in PostgreSQL's binary form
(``%(...)b``): psycopg dumps a list of ints, strings or bytes that way in a fraction of the time its
text form takes (quoting each element in Python), paid by the server's core at every commit."""


class Committing(Protocol):
    """What a group commit needs of its store (:class:`~.pg.PgStore`): the holder's session to
    write on, connections to read what a lost commit left, and patience with a database away."""

    pool: Pool
    holds: Holds
    patience: float

    def database_back(self) -> None: ...

    def wait_for_database(self, lost: DatabaseLost, deadline: float) -> None: ...


@dataclass(eq=False)
class Append:
    """One decision's lines, for game ``game_id`` (table ``name``) from line ``seq`` on, waiting
    for its commit: ``error`` once it has failed (None: committed)."""

    game_id: int
    name: str
    seq: int
    lines: list[bytes]
    error: BaseException | None = None
    leads: bool = False
    """Woken to lead the next commit (the one that led the last found it queued)."""
    woken: threading.Event | None = None
    """What its writer's thread waits on (:meth:`GroupCommit.append`; None: submitted, nobody waits)."""
    done: Callable[[Append], None] | None = None
    """Told once the request is committed or has failed (:meth:`GroupCommit.submit`): no thread
    waits for it (None: its writer's thread waits, :meth:`GroupCommit.append`)."""

    @property
    def told(self) -> str:
        return f"lines {self.name} {self.game_id} {self.seq + len(self.lines)}"


class GroupCommit:
    """The commits of a store's writers, grouped (see the module's docstring)."""

    def __init__(self, store: Committing) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._queue: list[Append] = []
        self._leading = False
        self._cursor: psycopg.Cursor[Any] | None = None
        """The cursor the batches are written through, kept with the holder's connection it was
        made on (used only under the holds' lock, as that connection is)."""
        self.commits = 0
        """Transactions committed (for a bench: the decisions saved per commit)."""
        self._committer: threading.Thread | None = None
        self._wake = threading.Event()
        """Wakes the committer thread to lead the next commit (:meth:`submit`)."""
        self._closed = False
        """Set by :meth:`close`: the committer thread ends at its next waking."""

    @property
    def waiting(self) -> int:
        """How many decisions wait for the next commit."""
        with self._lock:
            return len(self._queue)

    def append(self, request: Append) -> None:
        """Commit ``request`` with whatever else is queued when its turn comes; returns once it is
        committed, or raises its error (nothing of it kept)."""
        woken = request.woken = threading.Event()
        with self._lock:
            self._queue.append(request)
            lead = not self._leading
            self._leading = True
        if not lead:
            woken.wait()
        if lead or request.leads:
            self._lead()
        if request.error is not None:
            raise request.error

    def submit(self, request: Append, done: Callable[[Append], None]) -> None:
        """Queue ``request`` for the next commit and return at once; ``done`` is told (on another
        thread) once it is committed or has failed (its ``error``). No thread is held while it
        waits: the server's decisions in flight are not bounded by its threads, only by the
        tables deciding (each awaits its own commit on the loop)."""
        request.done = done
        with self._lock:
            self._queue.append(request)
            lead = not self._leading
            self._leading = True
        if lead:
            self._hand_to_committer()

    def settle(self, timeout: float) -> bool:
        """Wait (up to ``timeout`` seconds) for the commits under way and queued to end: the store
        closes its connections after, not under, a decision's commit (no thread of the server's
        waits for one, so stopping the server's threads does not). Whether none is left."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._leading:
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)

    def close(self, timeout: float) -> None:
        """What is under way and queued committed (:meth:`settle`, up to ``timeout`` seconds), then
        the committer thread ended: a process that makes and closes stores keeps no idle thread
        per store."""
        self.settle(timeout)
        self._closed = True
        self._wake.set()
        if self._committer is not None:
            self._committer.join(timeout)

    def _hand_to_committer(self) -> None:
        """The next commit led by the committer thread (started at the first submission)."""
        if self._committer is None:
            self._committer = threading.Thread(target=self._commit_forever, name="dvtui-commit", daemon=True)
            self._committer.start()
        self._wake.set()

    def _commit_forever(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._closed:
                return
            self._lead()

    def _lead(self) -> None:
        """Commit everything queued, then hand the lead to the first queued meanwhile, if any
        (its own thread if one waits for it, else the committer thread)."""
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            self.write(batch)
        finally:
            committer = False
            with self._lock:
                if not self._queue:
                    self._leading = False
                elif self._queue[0].woken is not None:
                    self._queue[0].leads = True
                    self._queue[0].woken.set()
                else:
                    committer = True
            if committer:
                self._hand_to_committer()
            for request in batch:
                if request.done is not None:
                    request.done(request)
                elif request.woken is not None:
                    request.woken.set()

    def write(self, batch: list[Append]) -> None:
        """Commit ``batch`` in one transaction (one game at a time if the primary key refuses it);
        each request's ``error`` says how it ended. A connection lost meanwhile is tried again
        until the store's patience is out: a request whose lines are found there already was
        committed just before the loss; one that is not, is not written (its hold went with the
        session: :class:`HoldLost`)."""
        store = self.store
        deadline = time.monotonic() + store.patience
        later = list(batch)
        settled: list[Append] = []
        while later:
            now, later = _one_per_game(later)
            try:
                if self._commit(now):
                    settled += now
                else:
                    for request in now:  # (one game at a time: the one refused is told so alone)
                        if not self._commit([request]):
                            self._refused(request, held=True)
                        settled.append(request)
                store.database_back()
            except DatabaseLost as e:
                self._after_loss([r for r in [*now, *later] if r not in settled], e, deadline)
                return
            except Exception as e:  # (a refusal: each request not yet committed raises it)
                for request in [*now, *later]:
                    if request not in settled:
                        request.error = e
                return

    def _commit(self, batch: list[Append]) -> bool:
        """One transaction, one round trip (the statement alone, which the session's autocommit
        commits as it ends: no BEGIN, no COMMIT, no pipeline to pay for in the server's CPU): the
        batch's games that this session holds, each whole; the others told why they kept nothing.
        False: the primary key refused the batch (nothing of it kept)."""
        import psycopg

        with self.store.holds.session() as holder:
            for request in batch:
                if not holder.holds(request.game_id):  # (lost already: told so here, the holds' lock being held)
                    request.error = HoldLost(
                        f"table {request.name}: this server's hold on it was lost (its database session ended)"
                    )
            batch = [request for request in batch if request.error is None]
            if not batch:
                return True
            try:  # (one statement on a session in autocommit: a transaction of its own, committed as it returns)
                rows = self._cursor_on(holder.conn).execute(APPEND, statement_params(batch, holder.pid)).fetchall()
            except psycopg.errors.UniqueViolation:
                return False
            went = {int(row[0]): (bool(row[1]), bool(row[2])) for row in rows}
        self.commits += 1
        for request in batch:
            written, held = went[request.game_id]
            if not written:
                self._refused(request, held=held)
        return True

    def _cursor_on(self, conn: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
        """The cursor kept on ``conn`` (made anew with a new holder's connection): a cursor keeps
        the dumpers it found for each parameter's type, which a fresh one (``conn.execute``) looks
        up again at every commit, lists element by element, for about half of psycopg's CPU in it."""
        cursor = self._cursor
        if cursor is None or cursor.connection is not conn:
            cursor = self._cursor = conn.cursor()
        return cursor

    def _refused(self, request: Append, *, held: bool) -> None:
        """``request`` kept nothing: another server wrote the game's next line first (``held``:
        the lock is this session's all the same), or the session no longer holds its lock. Either
        way the game is held again, reading what was written, before its next decision."""
        self.store.holds.mark_lost(request.game_id)
        request.error = HoldLost(
            f"table {request.name}: another server wrote its next line first"
            if held
            else f"table {request.name}: this server's hold on it was lost (its database session ended)"
        )

    def _after_loss(self, batch: list[Append], lost: DatabaseLost, deadline: float) -> None:
        """The batch's commit may or may not have happened: each request's lines are looked for
        (there: committed; another's there, or none: not written, its hold gone with the
        session). At once first, since what went is often the session alone (terminated, cut by
        a pooler), then again while the database is away."""
        store = self.store
        while True:
            try:
                store.holds.renew()
                with store.pool.conn() as conn:
                    there = {request.game_id: _lines_from(conn, request) for request in batch}
                break
            except DatabaseLost as e:
                lost = e
            try:
                store.wait_for_database(lost, deadline)
            except DatabaseLost as e:
                for request in batch:
                    request.error = e
                return
        store.database_back()
        for request in batch:
            if there[request.game_id] != request.lines:
                store.holds.mark_lost(request.game_id)  # (gone with the session: another may have written since)
                request.error = HoldLost(
                    f"table {request.name}: this server's hold on it was lost (its database session ended)"
                )


def _lines_from(conn: psycopg.Connection[Any], request: Append) -> list[bytes]:
    rows = conn.execute(
        "SELECT line FROM dvtui_events WHERE game_id = %s AND seq >= %s ORDER BY seq", (request.game_id, request.seq)
    )
    return [bytes(row[0]) for row in rows]


def _one_per_game(batch: list[Append]) -> tuple[list[Append], list[Append]]:
    """``batch`` as two: one decision per game, then the rest (a game's next, for the next commit)."""
    now: list[Append] = []
    later: list[Append] = []
    games: set[int] = set()
    for request in batch:
        (later if request.game_id in games else now).append(request)
        games.add(request.game_id)
    return now, later


def statement_params(batch: list[Append], pid: int) -> dict[str, object]:
    """:data:`APPEND`'s parameters for ``batch`` (one decision per game, each of a game held), on
    the session whose backend's pid is ``pid``."""
    return {
        "pid": pid,
        "batch": [request.game_id for request in batch],
        "firsts": [request.seq for request in batch],
        "told": [request.told for request in batch],
        "games": [request.game_id for request in batch for _ in request.lines],
        "seqs": [request.seq + i for request in batch for i in range(len(request.lines))],
        "lines": [line for request in batch for line in request.lines],
        "channel": CHANNEL,
    }


__all__ = ["APPEND", "Append", "Committing", "GroupCommit", "statement_params"]
