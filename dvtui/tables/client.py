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
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from ..bots import bot_seed
from ..engine import Event, Game, GameCreated, Placement, RuleError
from ..rulewords import english_words
from .clubwire import Arenas, ArenaStandings, Leaderboard, Matched, PlayerProfile, PoolLeft, Seeking
from .connection import LINGER, Backoff, Connection, Diverged, Dropped, Refused, Unreachable, lost
from .protocol import (
    Bye,
    Closed,
    CloseTable,
    Dealt,
    GameLines,
    Incoming,
    Join,
    Joined,
    Opened,
    Place,
    Presence,
    Released,
    Rematch,
    RematchVote,
    Resign,
    Said,
    Say,
    StandIn,
    Start,
    Started,
    Tables,
    TablesChanged,
    Undo,
    Watch,
    Welcome,
)
from .received import BadServer, check_game_bytes, check_line
from .tableinfo import SeatState
from .where import ServerPlace
from .wire import Error, Message, encode


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
        if isinstance(message, TablesChanged | Leaderboard | PlayerProfile | ArenaStandings | Arenas):  # (asked for)
            return None
        if isinstance(message, Seeking | Matched | PoolLeft):  # (sent only to a connection that seeks)
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
