"""One request to the table server over a connection of its own, and its answer: the list of
tables, a table's state, opening one, the requests of a table's owner or seat from a shell (release,
clock, start, close, resign, say), and a game's lines (the current one, an earlier one, a kept one).
A connection that ends before its answer is the server gone (:class:`~.connection.Unreachable`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from .connection import Connection, Dropped, Refused, lost
from .listing import lobby_order, mine_first, server_account
from .protocol import (
    Bye,
    Closed,
    CloseTable,
    FetchGame,
    GameLines,
    Joined,
    ListTables,
    Opened,
    OpenTable,
    Presence,
    Release,
    Released,
    Resign,
    Said,
    Say,
    SetClock,
    Start,
    Started,
    Tables,
    Watch,
)
from .ratings import has_ratings
from .received import BadServer, check_game_bytes, check_line
from .tableinfo import TableInfo
from .where import ServerPlace
from .wire import Error, Message

MAX_LISTED = 100_000
"""The most tables a client takes from one server's list (a server's own bound is far below)."""


def next_page(conn: Connection, page: Tables, after: str | None, count: int) -> str | None:
    """The table after which the list's next page is asked for, once ``page`` (asked for after
    ``after``) has come and ``count`` tables are listed; None: the list is whole (its last page, or
    as many tables as a client takes). A page that does not move on is a server gone wrong."""
    if not page.more or not page.tables or count >= MAX_LISTED:
        return None
    last = page.tables[-1].table
    if after is not None and last <= after:
        raise conn.refused("a list of tables whose pages do not move on")
    return last


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
        raise lost(place, e) from None


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
            after = next_page(conn, reply, after, len(infos))
            if after is None:
                return conn.welcome.user, infos


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


async def set_clock(
    place: ServerPlace, name: str, move_time: int, *, user: str | None = None, time_bank: int | None = None,
    increment: int | None = None,
) -> None:  # fmt: skip
    """Give table ``name`` a move time of ``move_time`` seconds, or a shorter one (Refused
    ``not_opener`` unless this is the table's opener, ``illegal`` for a longer one); ``time_bank``
    and ``increment`` likewise (None: as they are)."""
    async with _connection(place, user=user) as conn:
        message = SetClock(table=name, move_time=move_time, time_bank=time_bank, increment=increment)
        await conn.request(message, Presence)


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
    move_time: int | None = None, invite: list[str | None] | None = None, time_bank: int | None = None,
    increment: int = 0, rated: bool = False,
) -> None:  # fmt: skip
    """Deal a new game at a new table ``name`` (Refused ``table_exists``, ``bad_setup`` ...).
    ``user``: the person who will sit there, vouched for already here, so that an account the
    server does not trust is refused before a table is opened that it could not sit at. ``wait``
    (dvtui's default): the table is a waiting room until every human seat is taken once or its
    opener starts it; False: it deals at once;
    ``move_time``: the seconds each turn may last before a stand-in plays it; ``invite``: per seat,
    the account or ``web:NAME`` it is kept for (None: as its name decides); ``time_bank`` and
    ``increment`` (with ``move_time``): each seat's bank and what a placement in time adds to it;
    ``rated``: a rated table (:class:`~.ratings.NoRatings` from a server that has no ratings)."""
    try:
        conn = await Connection.open(place, user=user)
        try:
            if rated:
                has_ratings(conn)
            message = OpenTable(
                table=name, players=players, first_player=first_player, seed=seed, hints=hints, wait=wait,
                move_time=move_time, invite=invite, time_bank=time_bank, increment=increment, rated=rated,
            )  # fmt: skip
            await conn.request(message, Opened)
        finally:
            conn.close()
    except Dropped as e:
        raise lost(place, e) from None
