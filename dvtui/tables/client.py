"""A client of the table server, without a screen: the headless commands use it, and
:mod:`.remote` puts it behind the session face the screens talk to.

:class:`TableClient` is a seat (or a spectator) at one table that outlives its connection: the
server is the game's only owner, so after a drop (the server restarted, the personal server
left while idle) the client connects again with backoff, joins the same seat from the line it has,
and goes on; it folds the lines it receives exactly as a reader folds a file, and checks every
message as the reader checks a file (:mod:`.received`): whoever listens in a server's directory is
not trusted to send only what a sound server sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import msgspec

from ..bots import bot_seed
from ..engine import AnyEvent, Event, Game, GameCreated, Placement, RuleError
from ..i18n import ENGLISH, N_, _, language
from ..printable import printable
from ..rulewords import english_words
from ..store import SaveError
from .dial import Crowded, dial
from .protocol import (
    FEATURES,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    Bye,
    Closed,
    CloseTable,
    Dealt,
    Error,
    GameLines,
    Hello,
    Incoming,
    Join,
    Joined,
    Message,
    Opened,
    Place,
    Presence,
    Released,
    Rematch,
    RematchVote,
    Resign,
    Said,
    Say,
    ServerMessage,
    StandIn,
    Start,
    Started,
    Tables,
    TablesChanged,
    Undo,
    Watch,
    Welcome,
    encode,
    incoming_decoder,
)
from .reasons import reason_words
from .received import BadServer, check_game_bytes, check_line, check_message
from .tableinfo import SeatState
from .where import ServerPlace, check_socket_path, connect_error, ensure_personal_server, foreign_owner


class Unreachable(Exception):
    """No server answers (and none could be started)."""


ERROR_WORDS: dict[str, str] = {
    "bad_message": N_("the table server did not understand a message"),
    "too_long": N_("a message was too long for the table server"),
    "flood": N_("too many messages too fast: the table server hung up"),
    "version": N_("the table server does not speak this dvtui's protocol"),
    "no_table": N_("there is no such table"),
    "table_exists": N_("a table of that name is already open"),
    "bad_setup": N_("the table server refuses these players or this first player"),
    "seat_taken": N_("that seat is someone else's"),
    "no_seat": N_("there is no such seat free for a person"),
    "not_seated": N_("you have no seat at this table"),
    "stale": N_("another move came first: look again and decide"),
    "illegal": N_("the rules do not allow that move"),
    "nothing_to_undo": N_("there is no placement to take back"),
    "undo_limit": N_("this seat has taken back as many placements this round as the table allows"),
    "not_away": N_("that seat's person is at the table"),
    "game_over": N_("the game is over"),
    "log_full": N_("the table's log is full: the table has stopped"),
    "server": N_("the table server could not save: the table has stopped"),
    "taken_over": N_("your seat was taken by another connection of yours"),
    "not_trusted": N_("this account may not vouch for the people it serves"),
    "not_opener": N_("only the table's opener may do that"),
    "shutdown": N_("the table server is stopping"),
    "busy": N_("the table server is busy: try again later"),
    "closed": N_("the table was closed"),
    "chat_limit": N_("too many lines too fast: that line was not said"),
    "timeout": N_("the table server hung up: too long without a word"),
}
"""What each protocol error code means, as the client says it in a language other than English
(the server speaks English on the wire: in English its own words, which say more, are shown)."""


def refusal_words(error: Error) -> str:
    """``error`` in the language spoken now: the sentence of its ``reason`` when this client knows
    it (made from its ``fields``, whatever the server's language), else the server's own message
    in English, else the catalogue's sentence for its code."""
    said = reason_words(error.reason, error.fields)
    if said is not None:
        return said
    if language() == ENGLISH or error.code not in ERROR_WORDS:
        return error.message
    return _(ERROR_WORDS[error.code])


class Refused(Exception):
    """The server answered a request with an ``error``."""

    def __init__(self, error: Error) -> None:
        super().__init__(refusal_words(error))
        self.code = error.code
        self.error = error


class Dropped(Exception):
    """The connection ended (or the server said something that is not the protocol)."""


class Diverged(Exception):
    """The server sent what no sound server sends (lines that do not fold into a game, a name no
    game may hold, more lines than a game file holds, a line that is not the protocol): the
    client stops."""


_KNOWN_TYPES = frozenset(t.__struct_config__.tag for t in (*ServerMessage.__args__, *AnyEvent.__args__))
"""The ``type`` of every message this client reads; a server may send others (a newer server's
additions, which a client may ignore)."""

_warned: set[str] = set()
"""The server directories whose owner this process has warned about (once each)."""


def warn_of_owner(place: ServerPlace) -> None:
    """Say on stderr, once per directory, that a server's directory is another account's (not
    yours, not root's): whatever that account runs there is the server a client talks to."""
    owner = foreign_owner(place)
    if owner is None or str(place.directory) in _warned:
        return
    _warned.add(str(place.directory))
    said = _("{directory} belongs to account {owner}, not to you or root: its table server is whatever that "
             "account runs there")  # fmt: skip
    message = said.format(directory=printable(str(place.directory)), owner=printable(owner))
    print(_("dvtui: warning: {message}").format(message=message), file=sys.stderr, flush=True)


LINGER = 5.0
"""Seconds a connection left with a decision on its way stays open for reading after its goodbye."""


class Connection:
    """One connection to a server, greeted."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, welcome: Welcome, place: ServerPlace
    ) -> None:  # fmt: skip
        self.reader = reader
        self.writer = writer
        self.welcome = welcome
        self.place = place
        self.line_bytes = 0
        """The length of the last line received."""
        self.last_line = b""
        """The last line received, as sent (a game's line is kept as the server wrote it)."""

    @classmethod
    async def open(
        cls, place: ServerPlace, *, start: bool = True, user: str | None = None, bot: str | None = None
    ) -> Connection:
        """Connect and say hello; the personal server is started first if ``start`` and none runs.
        ``user``: the person this connection speaks for (the server refuses it, ``not_trusted``,
        unless it trusts this account to vouch for people). ``bot``: the level of the bot this
        client is (the table shows its seat as a bot client's)."""
        try:
            path = check_socket_path(place)
            if not place.personal:  # the personal server's directory is checked to be one's own
                warn_of_owner(place)
            if place.personal and start:
                await asyncio.to_thread(ensure_personal_server, place)
            sock = await dial(str(path))  # (through a full queue of connections: see dial.py)
            reader, writer = await asyncio.open_unix_connection(sock=sock, limit=MAX_LINE_BYTES)
        except SaveError as e:
            raise Unreachable(str(e)) from None
        except Crowded as e:
            raise Unreachable(_("{socket}: {why}").format(socket=place.socket, why=e.strerror)) from None
        except OSError as e:
            raise Unreachable(connect_error(place, e)) from None
        from .. import __version__

        hello = Hello(version=PROTOCOL_VERSION, client=f"dvtui {__version__}", user=user, bot=bot, features=[*FEATURES])
        writer.write(encode(hello))
        conn = cls(reader, writer, Welcome(version=0, server="", user=""), place)
        try:
            reply = await conn.receive()
        except BaseException:
            conn.close()
            raise
        if isinstance(reply, Error):
            conn.close()
            raise Refused(reply)
        if not isinstance(reply, Welcome):
            conn.close()
            raise Dropped(f"the server answered hello with {type(reply).__name__}")
        conn.welcome = reply
        return conn

    async def send(self, message: Message) -> None:
        try:
            self.writer.write(encode(message))
            await self.writer.drain()
        except (ConnectionError, OSError) as e:
            raise Dropped(str(e)) from None

    async def receive(self) -> Incoming:
        """The next message the client knows (others are skipped), checked: :class:`Diverged` for
        one no sound server sends, :class:`Dropped` when the connection ends."""
        while True:
            try:
                line = await self.reader.readuntil(b"\n")
            except asyncio.LimitOverrunError:
                raise self.refused(f"a line longer than {MAX_LINE_BYTES:,} bytes, the protocol's bound") from None
            except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
                raise Dropped(str(e) or "the connection closed") from None
            self.line_bytes = len(line)
            self.last_line = line
            try:
                message = incoming_decoder.decode(line)
            except (msgspec.DecodeError, RecursionError):
                if _unknown_type(line):
                    continue
                raise self.refused("a line that is not the protocol") from None
            try:
                check_message(message)
            except BadServer as e:
                raise self.refused(str(e)) from None
            return message

    def refused(self, what: str) -> Diverged:
        """The error that stops a client whose server sent ``what`` (said without quoting it raw)."""
        return Diverged(f"the table server at {self.place.directory} sent what no dvtui server sends: {what}")

    async def request(self, message: Message, answer: type[Message]) -> Message:
        """Send ``message`` and return the reply of type ``answer`` (an ``error`` raises Refused)."""
        await self.send(message)
        while True:
            reply = await self.receive()
            if isinstance(reply, Error):
                raise Refused(reply)
            if isinstance(reply, answer):
                return reply

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


def _unknown_type(line: bytes) -> bool:
    """``line`` is an object whose ``type`` this client does not know (a message it may ignore)."""
    try:
        value = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return False
    return isinstance(value, dict) and isinstance(value.get("type"), str) and value["type"] not in _KNOWN_TYPES


def lost(place: ServerPlace, e: Dropped) -> Unreachable:
    """A connection that ended before its answer: the server went away (or was never one)."""
    return Unreachable(f"the table server at {place.directory} closed the connection before answering ({e})")


@dataclass(slots=True)
class Update:
    """What one message from the server changed: new lines of the game (``events``), who is there
    (``presence``), an ``error`` answering a request, or the connection's ``status``
    (``reconnecting`` / ``connected``)."""

    events: list[Event] = field(default_factory=list)
    presence: bool = False
    error: Error | None = None
    status: str | None = None
    said: Said | None = None
    """A line said at the table (chat)."""
    dealt: int | None = None
    """The table deals its next game, so numbered (a rematch): the game so far is forgotten, and
    the new one's lines follow."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waits between attempts to reconnect: from ``first`` doubling up to ``most`` (each drawn at
    random in its upper half, so clients dropped together do not come back together); after
    ``give_up`` seconds without a server, :class:`Unreachable`."""

    first: float = 0.05
    most: float = 2.0
    give_up: float = 600.0


class TableClient:
    """A seat (``seat``; None: the server picks) or a spectator (``watch``) at table ``table``;
    ``user``: the person it sits for, vouched for by this account in every hello (reconnections
    too), else the account itself; ``bot``: the level of the bot playing the seat through it,
    said in every hello too (None: a person)."""

    def __init__(
        self, place: ServerPlace, table: str, *, seat: int | None = None, watch: bool = False,
        backoff: Backoff | None = None, user: str | None = None, bot: str | None = None,
    ) -> None:  # fmt: skip
        self.server = place
        self.table = table
        self.user = user
        self.bot = bot
        self.seat = seat
        self.watch = watch
        self.backoff = backoff or Backoff()
        self.events: list[Event] = []
        self.game: Game | None = None
        self.game_bytes = 0
        """The length of the lines :attr:`events` came in (bounded as a game file is)."""
        self.seats: list[SeatState] = []
        self.spectators = 0
        self.waiting = False
        """The table is a waiting room (its latest presence says so)."""
        self.move_time: int | None = None
        self.move_left: tuple[float, float] | None = None
        """The seconds the server said were left to the person to move, and when that came (this
        process's monotonic clock): the time left now is counted down from it."""
        self.banks: list[float] | None = None
        """Each seat's time bank as the latest presence said it, with :attr:`move_left` (None: none)."""
        self.hints = True
        self.rematch_vote: RematchVote | None = None
        """The rematch proposed at the finished table (its latest presence says so)."""
        self.features: frozenset[str] = frozenset()
        """What the server speaks beyond the protocol's first vocabulary (its welcome said so)."""
        self.may_close = False
        """This side may end the table: it opened it, or is the server's own account (``joined`` says)."""
        self.label = f"tables/{table}"
        """How the server names the table's game (``joined`` says; a branch's parent)."""
        self._conn: Connection | None = None
        self._closed = False
        self._delay = 0.0
        """The wait before the next attempt to reconnect: 0 after a connection that worked."""
        self._sitting = False
        """A spectator asked to take a seat (:meth:`sit`): the next join is that seat's."""
        self._not_seated: Error | None = None
        """Why the table refused the seat :meth:`sit` asked for (told once, as an error update)."""

    # -- the game as received ------------------------------------------------------------------

    @property
    def next_seq(self) -> int:
        return len(self.events)

    def my_turn(self) -> bool:
        """This seat is to place now (never in a waiting room: the table refuses any placement there)."""
        game = self.game
        return (
            self.seat is not None and game is not None and not game.over and not game.derived_pending
            and game.to_move == self.seat and not self.waiting
        )  # fmt: skip

    def bot_seed(self) -> int:
        """The seed a bot playing this seat thinks with: the one the seat's hints use, so a seat
        played by a bot client plays as the seat's own bot would."""
        assert self.game is not None and self.seat is not None
        return bot_seed(self.game.created.seed or 0, self.seat)

    # -- the connection --------------------------------------------------------------------------

    async def connect(self) -> None:
        """The first join: raises :class:`Refused` (no such table, the seat is another user's ...)
        or :class:`Unreachable`; the game's lines so far then come through :meth:`updates`."""
        try:
            await self._join()
        except Dropped as e:
            raise lost(self.server, e) from None

    async def _join(self) -> None:
        conn = await Connection.open(self.server, user=self.user, bot=self.bot)
        since = self.next_seq
        message: Message = (
            Watch(table=self.table, since=since) if self.watch else Join(table=self.table, seat=self.seat, since=since)
        )
        try:
            reply = await conn.request(message, Joined)
        except BaseException:
            conn.close()
            raise
        assert isinstance(reply, Joined)
        if reply.table != self.table or (reply.seat is None) != self.watch or self.seat not in (None, reply.seat):
            conn.close()
            asked = f"table {self.table} seat {self.seat}"
            raise conn.refused(f"a join to table {reply.table} seat {reply.seat} for one to {asked}")
        self.seat = reply.seat
        self.hints = reply.hints
        self.features = frozenset(conn.welcome.features)
        self.waiting = reply.waiting  # before the game's lines: a bot client must not answer them yet
        self.may_close = reply.may_close
        self.label = reply.label or f"tables/{self.table}"
        if reply.next_seq != since:  # the server starts over from the first line
            self.events = []
            self.game = None
            self.game_bytes = 0
        self._conn = conn

    async def _reconnect(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.backoff.give_up
        while True:
            if self._delay:
                await asyncio.sleep(self._delay * random.uniform(0.5, 1.0))
            self._delay = min(self.backoff.most, max(self.backoff.first, self._delay * 2))
            try:
                await self._join()
                self._sitting = False
                return
            except Refused as e:
                if not self._sitting:
                    raise
                self._sitting, self._not_seated = False, e.error  # the seat is not to be had: watch on
                self.seat, self.watch, self._delay = None, True, 0.0
            except (Unreachable, Dropped) as e:
                if loop.time() > deadline:
                    raise Unreachable(str(e)) from None

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    async def updates(self) -> AsyncIterator[Update]:
        """Each change as it comes, connecting again whenever the connection drops. Ends once
        :meth:`close` is called; raises :class:`Refused` if the server turns the seat away on a
        rejoin (taken over elsewhere), :class:`Unreachable` after ``backoff.give_up``, and
        :class:`Diverged` if the server sends what no sound server sends."""
        while not self._closed:
            if self._conn is None:
                yield Update(status="reconnecting")
                await self._reconnect()
                yield Update(status="connected")
                if self._not_seated is not None:
                    refused, self._not_seated = self._not_seated, None
                    yield Update(error=refused)
            assert self._conn is not None
            conn = self._conn
            try:
                message = await conn.receive()
                update = self._take(message, conn.line_bytes)
            except Dropped:
                self._drop()
                continue
            except BadServer as e:
                self._drop()
                raise conn.refused(str(e)) from None
            except Diverged:
                self._drop()
                raise
            self._delay = 0.0
            if update is not None:
                yield update

    def _take(self, message: Incoming, size: int) -> Update | None:
        """Fold ``message`` (a line of ``size`` bytes) in: :class:`BadServer` for what no sound
        server sends at this point."""
        if isinstance(message, Presence):
            if message.table != self.table:
                raise BadServer(f"the presence of table {message.table} at table {self.table}")
            game = self.game
            if game is not None and [s.name for s in message.seats] != [p.name for p in game.created.players]:
                raise BadServer("a presence whose seats are not the game's")
            self.seats, self.spectators, self.waiting = message.seats, message.spectators, message.waiting
            if self.seat is not None and self.seat < len(message.seats) and message.seats[self.seat].resigned:
                self.seat, self.watch = None, True  # the table made this side a spectator: it comes back as one
            self.move_time = message.move_time
            self.move_left = None if message.move_left is None else (message.move_left, time.monotonic())
            self.banks = message.banks
            self.rematch_vote = message.rematch
            return Update(presence=True)
        if isinstance(message, Error):
            if message.code in ("taken_over", "version"):
                self._closed = True
                raise Refused(message)
            return Update(error=message)
        if isinstance(message, Said):
            if message.table != self.table:
                raise BadServer(f"a line said at table {message.table} at table {self.table}")
            return Update(said=message)
        if isinstance(message, Dealt):
            if message.table != self.table:
                raise BadServer(f"a game dealt at table {message.table} at table {self.table}")
            if self.game is None or not self.game.over:
                raise BadServer("a new game dealt while the game is not over")
            self.events, self.game, self.game_bytes = [], None, 0
            return Update(dealt=message.game)
        if isinstance(message, Bye | Joined | Welcome | Tables | Opened | Released | Started | Closed | GameLines):
            return None
        if isinstance(message, TablesChanged):  # (sent only to a connection that follows the list)
            return None
        event: Event = message
        check_line(event, self.next_seq)
        check_game_bytes(self.game_bytes + size)
        event.seq = None  # as a reader's events: the position is the index
        try:
            if isinstance(event, GameCreated):
                if self.events:
                    raise BadServer("a second game_created")
                self.game = Game(event)
            elif self.game is None:
                raise BadServer("a game's line before its game_created")
            else:
                self.game.apply(event)
        except RuleError as e:
            raise BadServer(f"line {self.next_seq}, which the rules refuse: {english_words(e)}") from None
        self.events.append(event)
        self.game_bytes += size
        return Update(events=[event])

    # -- requests (each answered by the lines it causes, or by an error update) ---------------

    async def place(self, placement: Placement, seq: int | None = None) -> None:
        """``seq``: the position decided on (default: the lines received so far)."""
        card, column = placement
        await self._send(Place(seq=self.next_seq if seq is None else seq, card=card, column=column))

    async def undo(self, seq: int | None = None) -> None:
        await self._send(Undo(seq=self.next_seq if seq is None else seq))

    async def stand_in(self, seat: int, bot: str | None) -> None:
        await self._send(StandIn(seat=seat, bot=bot))

    async def start(self) -> None:
        await self._send(Start(table=self.table))

    async def say(self, text: str) -> None:
        await self._send(Say(table=self.table, text=text))

    async def rematch(self, accept: bool) -> None:
        await self._send(Rematch(table=self.table, accept=accept))

    async def close_table(self) -> None:
        await self._send(CloseTable(table=self.table))

    async def resign(self) -> None:
        await self._send(Resign(table=self.table))

    async def _send(self, message: Message) -> None:
        """Best effort: a request lost with its connection is made again on the position the
        reconnection brings (a request on an old position is refused as ``stale``)."""
        if self._conn is None:
            return
        try:
            await self._conn.send(message)
        except Dropped:
            self._drop()

    def sit(self, seat: int) -> None:
        """A spectator takes ``seat`` (its own again, in a rematch after it resigned) on the same
        table, without leaving it: the connection is made again as that seat's join, from the lines
        this side has. Refused (the seat is another's now), it watches on and the error is told as
        an update."""
        if self.seat is not None or self._closed:
            return
        self.seat, self.watch, self._sitting = seat, False, True
        self._drop()

    def leave(self, unanswered: Message | None = None) -> None:
        """Close now, from outside a coroutine (the app's last act): the goodbye is written without
        waiting for it to go (the transport sends what it holds before it closes). ``unanswered``:
        a decision sent and not yet answered, written again first, so that one made just before
        leaving goes even when its own sending had not run yet (its seq makes it count once)."""
        self._closed = True
        conn = self._conn
        if conn is None:
            return
        with contextlib.suppress(Exception):
            before = b"" if unanswered is None else encode(unanswered)
            conn.writer.write(before + encode(Bye(reason="done")))
        if unanswered is None:
            self._drop()
            return
        # A decision is on its way: end only this side's writing, so the server reads it before
        # it meets the end, and what it writes meanwhile still has somewhere to go (closed both
        # ways at once, its first write could fail and the rest of what was sent go unread).
        self._conn = None
        with contextlib.suppress(Exception):
            if conn.writer.can_write_eof():
                conn.writer.write_eof()
        try:
            asyncio.get_running_loop().call_later(LINGER, conn.close)
        except RuntimeError:  # (no loop runs: nothing could read the answers anyway)
            conn.close()

    async def close(self) -> None:
        self._closed = True
        if self._conn is not None:
            with contextlib.suppress(Dropped):
                await self._conn.send(Bye(reason="done"))
            self._drop()
