"""One table as the server runs it, its authority (boardgame.io's ``Master``): :class:`LiveTable`.

The rules over who is there are :class:`~.table.Table`'s; a live table adds what makes them
run: its lines as written and sent, its locks (one decision at a time, one change of its record
at a time, its talk told in the order kept), its files held only while somebody plays there, its
decisions checked and saved off the loop (:meth:`LiveTable.commit`), its record changed by a rule
and kept (:meth:`LiveTable.change_record`, made again on what another server kept meanwhile),
the lines the other servers wrote applied (:meth:`LiveTable.apply_news`), and who is here told
to everyone at it. It stands on a :class:`Backing` (the store, the peers, the server's threads
and log) and on its guests' :meth:`~.connection.Connection.send`: it says what happened to those at it,
and RETURNS what the server must do of its connections (those it let go: :meth:`LiveTable.evict`,
:meth:`LiveTable.tell_dealt`); it never changes what the server keeps per connection.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeAlias, TypeVar

import msgspec

from ..engine import RuleError
from ..i18n import N_
from ..play.session import PlayedMove, PlaySession
from ..rulewords import english_words, rule_words
from ..store import GameFileError, SaveError
from ..store.codec import line_decoder
from ..tables.older import presence_for
from ..tables.protocol import Bye, Dealt, Joined
from ..tables.reasons import english
from ..tables.wire import ErrorCode, encode
from .chat import RECENT, Heard
from .connection import Connection
from .limits import Coalesced, Limits
from .operator import said
from .peers import Peers
from .stores.base import (
    GameStore,
    Here,
    HoldLost,
    RecordChanged,
    SavesLater,
    TableRecord,
    normal_record,
    record_copy,
)
from .table import Refusal, Table

T = TypeVar("T")

HOLD_TRIES = 8
"""Times a decision is tried when the table's hold goes again and again under it (each time held
again first): a hold lost is a session cut, over in a moment; only a database that keeps cutting
stops the table, rather than a decision going round for ever."""
MAX_LOG_LINES = 20_000
"""A table's log stops taking decisions here (a real game has ~200 lines; a placement undone and
made again forever would otherwise grow it past what a reader accepts)."""


def seat_said(table: Table[Any], seat: int) -> str:
    """A seat as the operator reads it in the log (:meth:`~.table.Table.seat_words`, which the wire
    says in English, in the operator's language)."""
    return said(N_("seat {number} ({name})")).format(number=seat + 1, name=table.session.names[seat])


class RunsIO(Protocol):
    """Runs a blocking call off the event loop (the server's threads for files and the database)."""

    def __call__(self, fn: Callable[[], T]) -> Awaitable[T]: ...


@dataclass(frozen=True)
class Backing:
    """What a live table stands on, the same for every table of a server."""

    store: GameStore
    peers: Peers
    run_io: RunsIO
    log: Callable[[str], None]
    ended: Callable[[LiveTable], Awaitable[None]] | None = None
    """Told each table whose game has just ended here, once its last line is written (the
    server's ratings: :meth:`~.rated.Rater.ended`)."""


Conn: TypeAlias = Connection["LiveTable"]
"""A connection as the server's tables hold it: at a :class:`LiveTable`, or at none."""


class HereSoon(Coalesced):
    """The table's presence, sent soon (:class:`~.limits.Coalesced`), and whether who is here may
    have changed since the store was last told (:meth:`LiveTable.tell_here`): every call but
    :meth:`moved` says it may (a seat taken or left, a spectator, a bot standing in, a rematch
    accepted or declined), so no change of who is here goes untold."""

    def __init__(self, fn: Callable[[], None], tick: float) -> None:
        super().__init__(fn, tick)
        self.changed = True

    def __call__(self) -> None:
        self.changed = True
        super().__call__()

    def moved(self) -> None:
        """The presence sent soon after a decision's lines: the turn and its clock changed, who is here did not."""
        super().__call__()


class LiveTable(Table[Conn]):
    """One table's authority (see the module's docstring): the rules' :class:`~.table.Table` over
    its connections, with its lines as written, its locks, its bot's move and its files."""

    def __init__(
        self, name: str, session: PlaySession, lines: list[bytes], record: TableRecord, backing: Backing,
        presence_tick: float = Limits.presence_tick, left: float | None = None,
    ) -> None:  # fmt: skip
        """``backing``: what the table stands on (its store, the peers told who is here whenever it
        changes, the server's threads and log)."""
        super().__init__(name, session, record, left=left)
        self.backing = backing
        self.lines = lines
        self.lock = asyncio.Lock()
        """Held while a decision is checked and saved: one decision at a time per table."""
        self.record_lock = asyncio.Lock()
        """Held while the table's record is changed and saved: two saves at once would share its
        temporary file, and a record read from another server must not undo a change being saved."""
        self.record_version = -1
        """The version of the record kept that :attr:`record` was read or saved as (-1: unknown):
        a save in place of another version is refused by a shared store, and the change made again."""
        self.bot_task: asyncio.Task[None] | None = None
        self.wanted = False
        """Another server waits to decide here (a shared store): let the table go after this decision."""
        self.playing = True
        """Its game's files are open (its session can write): only while somebody plays there."""
        self.active = time.time()
        """When somebody was last at the table or something was played there (wall clock: a
        restarted server takes it from the files' times)."""
        self.chat: deque[bytes] = deque(maxlen=RECENT)
        """The latest ``said`` lines, for whoever arrives (the server fills it from the chat file)."""
        self.chat_seen = 0
        """How many lines the table's talk keeps up to the last one told here (a shared store's)."""
        self.chat_lock = asyncio.Lock()
        """Held while lines are kept and told: every server tells a table's talk in the order kept."""
        self.told: list[Here] = []
        """Who is here, as the store was last told."""
        self.listed = True
        """The server lists it (False: retired, its name free or another table's; whoever is still
        at it is at it here only, and the store is told nothing more of them)."""
        self.replacing = asyncio.Lock()
        """Held while a game put aside or dealt at the table's name through another server is
        looked at: the notifications of one rematch (its game put aside, the next made) are one change."""
        self.presence_lock = asyncio.Lock()
        """Held while who is here through the other servers is read: one read at a time, the last one read last."""
        self.presence_soon = HereSoon(self._send_presence, presence_tick)
        """Tell everyone at the table who is there: at most once a tick (a crowd joining costs one
        message per person per tick, not one per person per arrival), and always before anything
        else sent to the table, so a line never arrives ahead of the presence it follows. Its
        :meth:`~HereSoon.moved` after a decision's lines: whose turn it is changed, not who is here."""
        self.relisted: Callable[[str], None] = lambda name: None
        """Told the table's name whenever its presence is sent (what the list says of it may have
        changed): the server's :meth:`~.followers.Followers.changed`."""

    @property
    def next_seq(self) -> int:
        return len(self.lines)

    @property
    def game_id(self) -> int | None:
        """The store's identity of the game played here (:meth:`~.stores.base.GameStore.game_id`):
        what is read and changed of it through a shared store is that game's, whatever game has
        the table's name there now."""
        return self.backing.store.game_id(self.session)

    def quiet(self) -> bool:
        """Nobody plays here now: no seat is connected, no bot thinks, no decision is being saved."""
        return self.bot_task is None and not self.lock.locked() and not any(self.seated)

    def _send_presence(self) -> None:
        self.tell_here()
        if self.listed:
            self.relisted(self.name)
        presence = self.presence()
        lines: dict[frozenset[str], bytes] = {}  # one line per vocabulary, not per connection
        for conn in self.told_here():
            line = lines.get(conn.features)
            if line is None:
                line = lines[conn.features] = encode(presence_for(presence, conn.features))
            conn.send(line)

    def tell_here(self) -> None:
        """Tell the store who is here, if that changed (the other servers count them as present).
        Looked at only when something may have changed it (:attr:`HereSoon.changed`): after a
        move, the presence sent is the turn's, and rebuilding who is here to find it the same
        was a good part of the server's work per move. (``told`` empty: never told, or told
        anew since the table was listed again.)"""
        if not self.listed:
            return
        if not self.presence_soon.changed and self.told:
            return
        self.presence_soon.changed = False
        declined = self.record.declined
        here = [
            Here(seat, guest.bot, True, declined) if seat in self.accepted else Here(seat, guest.bot)
            for seat, guest in enumerate(self.seated) if guest
        ]  # fmt: skip
        here += sorted((Here(None, guest.bot) for guest in self.spectators), key=lambda h: h.bot or "")
        if here != self.told:
            self.told = here
            self.backing.peers.tell_presence(self.name, here, self.game_id)

    def told_here(self) -> list[Conn]:
        """Who is at the table and has been sent its ``joined``: one whose seat is being kept (a
        write) hears nothing of the table before its ``joined``, which brings it all there is."""
        return [conn for conn in self.here() if conn.table is self]

    def arrive(self, conn: Conn, since: int, seat: int | None, label: str | None) -> None:
        """``conn`` is at the table now (at ``seat``, or watching): send it its ``joined`` and the
        game from ``since`` (``label``: what its client names the game by), and tell the table."""
        conn.table = self
        self.active = time.time()
        since = since if since <= self.next_seq else 0
        waiting = self.waiting and "waiting" in conn.features
        may_close = "close" in conn.features and self.may_close(conn.identity, operator=os.geteuid())
        joined = Joined(table=self.name, seat=seat, hints=self.record.hints, next_seq=since, waiting=waiting,
                        may_close=may_close, label=label)  # fmt: skip
        conn.send(encode(joined))
        conn.send(b"".join(self.lines[since:]))
        if self.failed is not None:
            conn.tell(self.failed)
        if "chat" in conn.features:
            conn.send(b"".join(self.chat))
        self.presence_soon()

    def presence_line(self, conn: Conn) -> bytes:
        """The table's presence now, as ``conn`` reads it."""
        return encode(presence_for(self.presence(), conn.features))

    def broadcast(self, data: bytes, *, feature: str | None = None) -> None:
        """Send ``data`` to everyone at the table (``feature``: to those whose hello named it only)."""
        self.presence_soon.flush()
        for conn in self.told_here():
            if feature is None or feature in conn.features:
                conn.send(data)

    def halt(self, code: ErrorCode, message: str) -> None:
        """No more decisions here: say why to everyone at the table (and to whoever asks later)."""
        error = self.stop(code, message, self.next_seq)
        self.presence_soon.flush()
        for conn in self.told_here():  # (one still joining is told by its joining: see _arrived)
            conn.tell(error)

    async def save_record(self) -> None:
        """Keep the table's record as it is (a record changed meanwhile through another server is
        taken as it is kept: what changed here was a turn's clock, or a deal already kept)."""
        await self.change_record(lambda again: (None, not again))

    async def change_record(self, change: Callable[[bool], tuple[T, bool]]) -> T:
        """Make ``change`` (a rule of the table, on its record; it returns its value and whether
        the record changed, or raises :class:`~.self.Refusal`) and keep the record, one change at
        a time; the rule's value as last made.
        Kept in place of the version it was made on: when another server changed the record
        meanwhile, the change is made again (``change(True)``) on the record as kept, so two
        seats taken at once through two servers are both kept, and one seat taken twice is
        refused to the second, as on one server."""
        async with self.record_lock:
            value, changed = change(False)
            while changed:
                record = record_copy(self.record)
                version = self.record_version
                try:
                    self.record_version = await self.backing.run_io(
                        partial(self.backing.store.replace_record, self.name, record, version, self.game_id)
                    )
                    return value
                except RecordChanged as e:
                    self.adopt_record(e.record, e.version)
                    value, changed = change(True)
                except OSError as e:
                    unsaved = said(N_("table {table}: cannot save its record: {error}"))
                    self.backing.log(unsaved.format(table=self.name, error=e))
                    return value
            return value

    def adopt_record(self, record: TableRecord | None, version: int) -> None:
        """The table's record as another server kept it (called with ``self.record_lock`` held)."""
        if record is not None:
            self.adopt(normal_record(record, self.session.game.n))
            self.record_version = version
            self.presence_soon()

    async def held(self) -> bool:
        """Whether the table's files are open for a decision: already, or held again now with what
        the other servers wrote meanwhile, applied (False: nobody else writes there, and its files
        are reopened from the store). Called with ``self.lock`` held."""
        if self.playing:
            return True
        news = await self.backing.run_io(partial(self.backing.peers.hold, self.name, self.session, self.next_seq))
        if news is None:
            return False
        self.playing = True
        self.apply_news(news)
        return True

    async def play_here(self) -> None:
        """The table's files open again for a decision (called with ``self.lock`` held)."""
        if await self.held():
            return
        session, lines, _record = await self.backing.run_io(lambda: self.backing.store.reopen(self.name))
        for notice in session.notices:
            self.backing.log(notice)
        self.session, self.lines, self.playing = session, lines, True

    async def hold_again(self) -> bool:
        """The hold of this table through the shared store was lost (its database session ended):
        let it go at once rather than at the next write, tell its people that nothing is saved
        meanwhile, and hold it again (with what another server wrote meanwhile), saying so. Whether
        it is held again now (False: not yet; its next decision asks)."""
        async with self.lock:
            if not self.playing:
                return False
            log = self.backing.log
            log(
                said(N_("table {table}: this server's hold on it was lost (its database session ended)")).format(
                    table=self.name
                )
            )
            self.backing.store.rest(self.name, self.session)
            self.playing = False
            for conn in self.told_here():
                conn.error("busy", english("hold_lost", {}), reason="hold_lost", fields={})
            try:
                await self.play_here()
            except (GameFileError, SaveError, OSError) as e:  # (another server plays it: its next decision asks)
                log(said(N_("table {table}: not held again yet: {error}")).format(table=self.name, error=e))
                return False
            log(said(N_("table {table}: held again")).format(table=self.name))
            for conn in self.told_here():
                conn.error("busy", english("hold_back", {}), reason="hold_back", fields={})
        return True

    async def commit(self, decide: Callable[[PlaySession], PlayedMove], *, undone: int | None = None) -> None:
        """Run ``decide`` (a session call: checked, appended, fsynced) off the loop, on the table's
        session with its files open, then send the lines its writer wrote to everyone at the table.
        Called with ``self.lock`` held. A RuleError is the caller's to report; a failed save stops
        the table. ``undone``: the seat whose undo this is, whose turn comes back with the time it
        had left when it placed (never a whole move time)."""

        def work() -> list[bytes]:
            return decide(self.session).lines

        self.presence_soon.flush()  # what changed before the decision is said before its lines
        try:
            await self.play_here()
            for attempt in range(1, HOLD_TRIES + 1):
                try:
                    if isinstance(self.session.writer, SavesLater):
                        lines = await self.decided_here(decide)
                    else:
                        lines = await self.backing.run_io(work)
                    break
                except HoldLost as e:  # nothing written: held again, with what was written meanwhile, then decided
                    if attempt == HOLD_TRIES:
                        raise
                    self.backing.log(said(N_("{error}: held again before its next line")).format(error=e))
                    self.backing.store.rest(self.name, self.session)
                    self.playing = False
                    seq = self.next_seq
                    await self.play_here()
                    if self.next_seq != seq:  # decided on a position another server has moved on from
                        moved = f"table {self.name} moved on meanwhile: decide again"
                        raise Refusal("stale", moved, seq=self.next_seq) from None
        except (SaveError, OSError, GameFileError) as e:
            self.halt("server", f"table {self.name} has stopped: {e}")
            self.backing.log(said(N_("table {table} has stopped: {error}")).format(table=self.name, error=e))
            return
        self.lines.extend(lines)
        self.active = time.time()
        if lines:
            self.turned()
            if undone is not None:
                self.undone(undone)
            if self.record.banks:  # each seat's time bank as its turn began, kept for a restart
                await self.save_record()
        self.broadcast(b"".join(lines))
        if lines:
            self.presence_soon.moved()  # after the lines: whose turn they began (and its clock)
        self.stop_if_full()
        await self.told_if_ended(lines)

    async def decided_here(self, decide: Callable[[PlaySession], PlayedMove]) -> list[bytes]:
        """``decide`` made on the loop, its lines' commit awaited here (a writer that saves later:
        :class:`~.stores.base.SavesLater`): no thread waits for the commit, no hop to the
        server's threads for a decision that blocks on nothing else. A commit that fails puts the
        game back as it was before the decision (the retry holds the table again on it, with
        what another server wrote) and raises as the save would have."""
        session = self.session
        writer = session.writer
        assert isinstance(writer, SavesLater)
        events = len(session.events)
        played, pending = writer.deciding(lambda: decide(session))
        try:
            await writer.settled(pending)
        except BaseException:
            session.game = played.before
            del session.events[events:]
            raise
        return played.lines

    async def told_if_ended(self, lines: list[bytes]) -> None:
        """The server told of this table's end if ``lines``, just written here or read from another
        server (which may have died before keeping it), ended its game: rated and scored once, by
        whoever sees it first."""
        if lines and self.over and self.backing.ended is not None:
            await self.backing.ended(self)

    def stop_if_full(self) -> None:
        """Stop the table once its log holds as many lines as a table may: after the decision that
        fills it, and when a full table is reopened (so a restart lets no line more in)."""
        if self.next_seq >= MAX_LOG_LINES and not self.over:
            self.halt("log_full", f"table {self.name} has stopped: its log holds {self.next_seq} lines, "
                       f"as many as a table may")  # fmt: skip

    def apply_news(self, news: list[bytes]) -> None:
        """The lines another server wrote, applied to the table's game and sent to everyone here
        (called with ``self.lock`` held). A line the rules refuse stops the table."""
        if not news:
            return
        self.presence_soon.flush()  # what changed before these lines is said before them
        try:
            events = [line_decoder.decode(line) for line in news]
            for event in events:
                event.seq = None
            self.session.take(events, news)
        except (msgspec.DecodeError, RuleError) as e:
            why = english_words(e) if isinstance(e, RuleError) else str(e)
            message = f"table {self.name} has stopped: another server wrote a line this one refuses: {why}"
            self.halt("server", message)  # (the wire's words; the log's are its operator's)
            refused = said(N_("table {table} has stopped: another server wrote a line this one refuses: {error}"))
            self.backing.log(refused.format(table=self.name, error=rule_words(e) if isinstance(e, RuleError) else e))
            return
        self.lines.extend(news)
        self.active = time.time()
        self.turned()
        self.broadcast(b"".join(news))
        self.presence_soon.moved()  # after the lines, as for a decision made here
        self.stop_if_full()

    def tell_chat(self, heard: Heard) -> None:
        """Tell everyone at the table the lines ``heard`` (called with ``self.chat_lock`` held)."""
        self.chat.extend(heard.lines)
        self.chat_seen = heard.seen
        if heard.lines:
            self.broadcast(b"".join(heard.lines), feature="chat")

    def evict(self) -> list[Conn]:
        """Everyone at the table let go (its game is closed, here or through another server): no
        longer at it, each told nothing more of it. Returned, for the server to forget where they were."""
        gone = self.here()
        for there in gone:
            self.leave(there)
            there.table = None
        return gone

    def tell_dealt(self, lines: list[bytes]) -> list[Conn]:
        """Everyone at the table follows into its next game, whose ``lines`` these are; those whose
        client does not know ``rematch`` are said ``bye`` and closed (their reconnection joins the
        new game), and returned, for the server to let them leave (after which the table's
        presence is told again: the caller's :meth:`presence_soon`)."""
        self.presence_soon.cancel()  # the new game's presence follows its lines, never precedes `dealt`
        dealt = encode(Dealt(table=self.name, game=self.record.game)) + b"".join(lines)
        gone: list[Conn] = []
        for conn in self.here():
            if "rematch" in conn.features:
                conn.send(dealt)
            else:
                gone.append(conn)
        return gone

    @staticmethod
    def bye(conn: Conn, name: str) -> None:
        """Say ``bye`` to a connection that does not follow table ``name`` into its next game."""
        conn.send(encode(Bye(reason=f"table {name} deals a new game: join it again")))
        conn.close()


__all__ = ["MAX_LOG_LINES", "Backing", "LiveTable", "RunsIO", "seat_said"]
