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
import pwd
import random
import sys
import time
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field

import msgspec

from ..bots import bot_seed
from ..engine import AnyEvent, Event, Game, GameCreated, Placement, RuleError
from ..i18n import ENGLISH, N_, _, language
from ..printable import printable
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
    FetchGame,
    GameLines,
    Hello,
    Incoming,
    Join,
    Joined,
    ListTables,
    Message,
    Opened,
    OpenTable,
    Place,
    Presence,
    Release,
    Released,
    Rematch,
    RematchVote,
    Resign,
    Said,
    Say,
    SeatState,
    ServerMessage,
    SetClock,
    StandIn,
    Start,
    Started,
    TableInfo,
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


def _lost(place: ServerPlace, e: Dropped) -> Unreachable:
    """A connection that ended before its answer: the server went away (or was never one)."""
    return Unreachable(f"the table server at {place.directory} closed the connection before answering ({e})")


MAX_LISTED = 100_000
"""The most tables a client takes from one server's list (a server's own bound is far below)."""


@contextlib.asynccontextmanager
async def _connection(place: ServerPlace, *, user: str | None = None, start: bool = True) -> AsyncIterator[Connection]:
    """A connection for one request and its answer; one that ends first is the server gone."""
    try:
        conn = await Connection.open(place, user=user, start=start)
        try:
            yield conn
        finally:
            conn.close()
    except Dropped as e:
        raise _lost(place, e) from None


async def list_tables(place: ServerPlace, *, kept: bool = False) -> list[TableInfo]:
    """Every table of the server, page after page (each page after the last table of the one
    before); ``kept``: and the games it keeps after their tables (``list_tables``' ``all``)."""
    return (await _listed(place, kept=kept))[1]


async def my_tables(
    place: ServerPlace, *, user: str | None = None, kept: bool = False, start: bool = True
) -> tuple[str, list[TableInfo]]:
    """Who the server knows this side as, and the tables with a seat of theirs (taken, or kept for
    them), the ones where it is their turn first (:func:`mine_first`); ``kept``: and the games kept
    after their tables, last. ``start``: start this account's own server if none answers (not for
    a list looked at in passing: :class:`Unreachable` then)."""
    me, infos = await _listed(place, user=user, kept=kept, start=start)
    return me, mine_first(infos, me, server_account(place))


async def lobby_tables(place: ServerPlace, *, user: str | None = None) -> tuple[str, list[TableInfo]]:
    """Who the server knows this side as, and every table in the lobby's order
    (:func:`lobby_order`). A personal server that is not running is not started for it: a list
    looked at in passing is no reason to run one (:class:`Unreachable` then)."""
    me, infos = await _listed(place, user=user, start=False)
    return me, lobby_order(infos, me, server_account(place))


def server_account(place: ServerPlace) -> tuple[str, ...]:
    """The account that runs the server at ``place`` (its directory's owner), as a seat's ``user``
    names it: whoever runs the server is no stranger to the people it serves, so its invitations
    are tables of theirs (empty: the directory cannot be looked at, or its owner has no name)."""
    try:
        return (pwd.getpwuid(place.directory.stat().st_uid).pw_name,)
    except (OSError, KeyError):
        return ()


def lobby_order(infos: list[TableInfo], me: str, trusted: Collection[str] = ()) -> list[TableInfo]:
    """``me``'s tables first as :func:`mine_first` orders them, then the others' unfinished
    tables, then their finished ones; by name within each."""
    mine = mine_first(infos, me, trusted)
    listed = {info.table for info in mine}
    others = sorted((info for info in infos if info.table not in listed), key=lambda info: (info.over, info.table))
    return mine + others


def mine_first(infos: list[TableInfo], me: str, trusted: Collection[str] = ()) -> list[TableInfo]:
    """The tables where ``me`` has a seat: those where it is their turn first, then the unfinished
    others, then the finished ones, then the invitations of people ``me`` has not played with
    (:func:`invited_by`); by name within each."""
    known = played_with(infos, me, trusted)
    mine = [info for info in infos if has_seat(info, me)]
    return sorted(mine, key=lambda info: (_standing(info, me, known), info.table))


def played_with(infos: list[TableInfo], me: str, trusted: Collection[str] = ()) -> frozenset[str]:
    """``me`` and the people ``me`` plays with: those holding a seat at (or who opened) a table
    where ``me`` holds one; and ``trusted`` (the server's own account, :func:`server_account`)."""
    known = {me, *trusted}
    for info in infos:
        if any(seat.user == me for seat in info.seats):
            known.update(seat.user for seat in info.seats if seat.user is not None)
            known.update([info.opener] if info.opener is not None else [])
    return frozenset(known)


def invited_by(info: TableInfo, me: str, known: Collection[str] = ()) -> str | None:
    """Who invited ``me`` to the table, when all ``me`` has there is a free seat kept for them by
    an opener not in ``known`` (nor ``me``): anybody may name a seat after anybody, so such a
    table is an invitation, never "your turn" (``"?"``: the server did not say who opened it).
    None: ``me`` holds a seat there, opened it, or knows its opener."""
    if any(seat.user == me for seat in info.seats) or not has_seat(info, me):
        return None
    if info.opener is not None and (info.opener == me or info.opener in known):
        return None
    return info.opener or "?"


def is_my_turn(info: TableInfo, me: str, known: Collection[str] = ()) -> bool:
    """Whether the placement the table awaits is from a seat of ``me``'s (never at a game kept
    after its table: nobody plays it any more, nor at an invitation of a stranger's, :func:`invited_by`)."""
    if info.over or info.to_move is None or info.kept is not None or invited_by(info, me, known) is not None:
        return False
    mover = next((seat for seat in info.seats if seat.seat == info.to_move), None)
    return mover is not None and _is_mine(mover, me)


def has_seat(info: TableInfo, me: str) -> bool:
    """Whether ``me`` has a seat at the table (taken, or a free one kept for them)."""
    return any(_is_mine(seat, me) for seat in info.seats)


def _is_mine(seat: SeatState, me: str) -> bool:
    return seat.user == me or (seat.user is None and seat.kept_for == me)


def _standing(info: TableInfo, me: str, known: Collection[str] = ()) -> int:
    if invited_by(info, me, known) is not None:
        return 4
    return 0 if is_my_turn(info, me, known) else 3 if info.kept is not None else 2 if info.over else 1


async def _listed(
    place: ServerPlace, *, user: str | None = None, kept: bool = False, start: bool = True
) -> tuple[str, list[TableInfo]]:
    """The welcome's name for this side, and every table (``kept``: and kept game), page after page
    (``start``: start this account's own server if none answers)."""
    async with _connection(place, user=user, start=start) as conn:
        infos: list[TableInfo] = []
        after: str | None = None
        while True:
            reply = await conn.request(ListTables(after=after, all=kept), Tables)
            assert isinstance(reply, Tables)
            infos.extend(reply.tables)
            if not reply.more or not reply.tables or len(infos) >= MAX_LISTED:
                return conn.welcome.user, infos
            if after is not None and reply.tables[-1].table <= after:
                raise conn.refused("a list of tables whose pages do not move on")
            after = reply.tables[-1].table


async def table_info(place: ServerPlace, name: str, *, user: str | None = None) -> TableInfo | None:
    """Table ``name`` as the server lists it (None: there is none). The answer is searched for that
    name rather than taken whole: a server is not trusted to have sent only the table asked for."""
    async with _connection(place, user=user) as conn:
        reply = await conn.request(ListTables(table=name), Tables)
        assert isinstance(reply, Tables)
        return next((info for info in reply.tables if info.table == name), None)


async def release_seat(
    place: ServerPlace, name: str, seat: int, *, user: str | None = None, to: str | None = None, bot: str | None = None
) -> None:
    """Free ``seat`` of table ``name`` (Refused ``not_opener`` unless this is the table's opener);
    ``to``: keep it for that account or ``web:NAME``; ``bot``: a bot of that level plays it to the end."""
    async with _connection(place, user=user) as conn:
        await conn.request(Release(table=name, seat=seat, to=to, bot=bot), Released)


async def set_clock(place: ServerPlace, name: str, move_time: int, *, user: str | None = None) -> None:
    """Give table ``name`` a move time of ``move_time`` seconds, or a shorter one (Refused
    ``not_opener`` unless this is the table's opener, ``illegal`` for a longer one)."""
    async with _connection(place, user=user) as conn:
        await conn.request(SetClock(table=name, move_time=move_time), Presence)


async def start_table(place: ServerPlace, name: str, *, user: str | None = None) -> None:
    """End table ``name``'s waiting room (Refused ``not_opener`` unless this is the table's opener)."""
    async with _connection(place, user=user) as conn:
        await conn.request(Start(table=name), Started)


async def close_table(place: ServerPlace, name: str, *, user: str | None = None) -> bool:
    """End unfinished table ``name`` (Refused ``not_opener`` unless this is its opener or the
    server's own account; ``game_over`` for a finished one). Whether its game is kept (not when
    nobody had made a decision there)."""
    async with _connection(place, user=user) as conn:
        closed = await conn.request(CloseTable(table=name), Closed)
    assert isinstance(closed, Closed)
    return closed.kept


async def resign(place: ServerPlace, name: str, *, user: str | None = None) -> None:
    """Give up one's seat at table ``name`` to a bot, for the rest of the game."""
    async with _connection(place, user=user) as conn:
        await conn.request(Resign(table=name), Presence)


async def say(place: ServerPlace, name: str, text: str, *, user: str | None = None) -> Said:
    """Say ``text`` at table ``name`` (``dvtui say``); the line as the table shows it (Refused
    ``chat_limit`` past the chat's rate, ``no_table``...)."""
    async with _connection(place, user=user) as conn:
        reply = await conn.request(Say(table=name, text=text), Said)
        assert isinstance(reply, Said)
        return reply


async def kept_game_lines(place: ServerPlace, name: str, *, user: str | None = None) -> bytes:
    """Kept game ``name``'s lines (the server gives them to who sat at it), checked as
    :func:`game_lines` checks them: its number as the list of kept games says, then that game."""
    _, infos = await _listed(place, user=user, kept=True)
    info = next((info for info in infos if info.table == name and info.kept is not None), None)
    if info is None:
        raise Refused(Error(code="no_table", message=f"no kept game {name} (see 'dvtui tables --all')"))
    async with _connection(place, user=user) as conn:
        reply = await conn.request(FetchGame(table=name, game=info.game), GameLines)
        assert isinstance(reply, GameLines)
        if reply.table != name or reply.game != info.game:
            raise conn.refused(f"{reply.table}'s game {reply.game} for kept game {name}")
        return await _game_lines(conn, reply.lines)


async def earlier_game_lines(place: ServerPlace, name: str, game: int) -> bytes:
    """Table ``name``'s game number ``game`` (1: its first), the current one or one it played
    before a rematch: the lines of its file, each checked as :func:`game_lines` checks them."""
    async with _connection(place) as conn:
        reply = await conn.request(FetchGame(table=name, game=game), GameLines)
        assert isinstance(reply, GameLines)
        if reply.table != name or reply.game != game:
            raise conn.refused(f"table {reply.table}'s game {reply.game} for table {name}'s game {game}")
        return await _game_lines(conn, reply.lines)


async def game_lines(place: ServerPlace, name: str) -> bytes:
    """Table ``name``'s game as the server holds it: the lines of its file, as a spectator gets them
    (each checked as the client checks every line, and bounded as a game file is)."""
    async with _connection(place) as conn:
        await conn.request(Watch(table=name), Joined)
        return await _game_lines(conn, None)


async def _game_lines(conn: Connection, count: int | None) -> bytes:
    """The lines of a game the server sends on ``conn``, each checked as the client checks every
    line and bounded as a game file is; then the connection is left. ``count``: how many come (a
    kept game's); None: a watched table's, up to its presence (a stopped table's error, and the
    latest chat a watch brings after the lines, are never the game's)."""
    lines: list[bytes] = []
    total = 0
    while count is None or len(lines) < count:
        message = await conn.receive()
        if count is None and isinstance(message, Error | Said):
            continue
        if count is None and isinstance(message, Presence):
            break
        if isinstance(message, Message):
            raise conn.refused(f"a {message.__class__.__name__} among a game's lines")
        total += conn.line_bytes
        try:
            check_line(message, len(lines))
            check_game_bytes(total)
        except BadServer as e:
            raise conn.refused(str(e)) from None
        lines.append(conn.last_line)
    with contextlib.suppress(Dropped):
        await conn.send(Bye(reason="done"))
    return b"".join(lines)


async def open_table(
    place: ServerPlace, name: str, players: list[str], *, first_player: int | None = None,
    seed: int | None = None, hints: bool = True, user: str | None = None, wait: bool = True,
    move_time: int | None = None, invite: list[str | None] | None = None,
) -> None:  # fmt: skip
    """Deal a new game at a new table ``name`` (Refused ``table_exists``, ``bad_setup`` ...).
    ``user``: the person who will sit there, vouched for already here, so that an account the
    server does not trust is refused before a table is opened that it could not sit at. ``wait``
    (dvtui's default): the table is a waiting room until every human seat is taken once or its
    opener starts it; False: it deals at once;
    ``move_time``: the seconds each turn may last before a stand-in plays it; ``invite``: per seat,
    the account or ``web:NAME`` it is kept for (None: as its name decides)."""
    try:
        conn = await Connection.open(place, user=user)
        try:
            message = OpenTable(
                table=name, players=players, first_player=first_player, seed=seed, hints=hints, wait=wait,
                move_time=move_time, invite=invite,
            )  # fmt: skip
            await conn.request(message, Opened)
        finally:
            conn.close()
    except Dropped as e:
        raise _lost(place, e) from None


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
        self.hints = True
        self.rematch_vote: RematchVote | None = None
        """The rematch proposed at the finished table (its latest presence says so)."""
        self.features: frozenset[str] = frozenset()
        """What the server speaks beyond the protocol's first vocabulary (its welcome said so)."""
        self.may_close = False
        """This side may end the table: it opened it, or is the server's own account (``joined`` says)."""
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
            raise _lost(self.server, e) from None

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
            raise BadServer(f"line {self.next_seq}, which the rules refuse: {e}") from None
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

    def leave(self) -> None:
        """Close now, from outside a coroutine (the app's last act): the goodbye is written without
        waiting for it to go (the transport sends what it holds before it closes)."""
        self._closed = True
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.writer.write(encode(Bye(reason="done")))
            self._drop()

    async def close(self) -> None:
        self._closed = True
        if self._conn is not None:
            with contextlib.suppress(Dropped):
                await self._conn.send(Bye(reason="done"))
            self._drop()
