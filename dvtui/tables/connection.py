"""One connection to a table server, greeted, and what its failures are: :class:`Connection`
dials the server's socket (the personal server started first if none runs), says hello and reads
the welcome, then sends messages and receives them checked (:mod:`.received`), a line no sound
server sends stopping the client (:class:`Diverged`); an ``error`` answering a request is
:class:`Refused`, said in the reader's language (:func:`refusal_words`), a connection that ends
:class:`Dropped`, no server at all :class:`Unreachable`. :class:`Backoff` is how long a client
waits between connections, :data:`LINGER` how long one is left open after its goodbye.
:class:`~.client.TableClient` (a seat) and :mod:`.requests` (one request each) stand on it."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import msgspec

from ..engine import AnyEvent
from ..i18n import ENGLISH, N_, _, language
from ..printable import printable
from ..store import SaveError
from .dial import MOST_WAIT, Crowded, dial
from .protocol import FEATURES, Hello, Incoming, ServerMessage, Welcome, incoming_decoder
from .reasons import reason_words
from .received import BadServer, check_message
from .where import ServerPlace, check_socket_path, connect_error, ensure_personal_server, foreign_owner
from .wire import MAX_LINE_BYTES, PROTOCOL_VERSION, Error, Message, encode


class Unreachable(Exception):
    """No server answers (and none could be started)."""


ERROR_WORDS: dict[str, str] = {
    "bad_message": N_("the table server did not understand a message"),
    "too_long": N_("a message was too long for the table server"),
    "flood": N_("too many messages too fast: the table server hung up"),
    "version": N_("the table server does not speak this dvtui's protocol"),
    "no_table": N_("there is no such table"),
    "table_exists": N_("a table of that name is already open"),
    "no_arena": N_("there is no such tournament"),
    "arena_exists": N_("a tournament of that name is already kept here"),
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


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waits between attempts to reconnect: from ``first`` doubling up to ``most`` (each drawn at
    random in its upper half, so clients dropped together do not come back together); after
    ``give_up`` seconds without a server, :class:`Unreachable`.

    The server is always a Unix socket of this host: an attempt while it is down costs one
    ``connect()`` that fails at once, so the ceiling is the dial's own (half a second), not the few
    seconds a remote server would call for: a player is back within half a second of the server's
    restart, and those dropped together still come back spread over a quarter of a second, which
    the server's backlog and its accept loop take without turning anyone away."""

    first: float = 0.05
    most: float = MOST_WAIT
    give_up: float = 600.0


Answer = TypeVar("Answer", bound=Message)


async def ask_once(
    place: ServerPlace, message: Message, answer: type[Answer], *, user: str | None = None,
    speaks: Callable[[Connection], None] = lambda conn: None,
) -> Answer:  # fmt: skip
    """One request on a connection of its own, and its answer of type ``answer`` (an ``error``
    raises Refused); ``speaks`` raises, before anything is asked, when the server does not speak
    the feature the request needs (an older dvtui)."""
    try:
        conn = await Connection.open(place, user=user)
        try:
            speaks(conn)
            reply = await conn.request(message, answer)
            assert isinstance(reply, answer)
            return reply
        finally:
            conn.close()
    except Dropped as e:
        raise lost(place, e) from None


__all__ = [
    "ERROR_WORDS",
    "LINGER",
    "Backoff",
    "Connection",
    "Diverged",
    "Dropped",
    "Refused",
    "Unreachable",
    "ask_once",
    "lost",
    "refusal_words",
    "warn_of_owner",
]
