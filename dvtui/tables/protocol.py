"""The table server's wire protocol, version 1 (docs/PROTOCOL.md is its contract for other languages).

JSON Lines over a Unix stream socket, both ways: one message, one JSON object, one line. The
server sends a table's game as the very lines of its ``.dvr`` file (``game_created``,
``card_placed``, ..., each with its ``seq``), so a client folds a table exactly as a reader folds a
file; the few other messages are the control messages below, told apart by ``type`` like events.

Every message a client may send is typed with its bounds (``msgspec.Meta``), here and in
:mod:`.clubwire`, so one decoder refuses anything malformed, oversized or out of range before the
server looks at it; a line is refused for its length before it is decoded at all
(:data:`~.wire.MAX_LINE_BYTES`).

What every message stands on (:class:`~.wire.Message`, :func:`~.wire.encode`, ``error``, the
shared bounds) is :mod:`.wire`; the club's messages (the pool, the ratings, the tournaments) are
:mod:`.clubwire`; this module holds a table's messages and the unions the decoders read.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from ..engine import AnyEvent
from .clock import MAX_MOVE_TIME, MIN_MOVE_TIME
from .clubwire import (
    ArenaJoin,
    ArenaList,
    ArenaNew,
    Arenas,
    ArenaShow,
    ArenaStandings,
    AskProfile,
    AskRatings,
    Leaderboard,
    LeavePool,
    Matched,
    PlayerProfile,
    PoolLeft,
    Seek,
    Seeking,
)
from .tableinfo import Level, SeatState, TableInfo
from .wire import (
    KEPT_GAME,
    TABLE_NAME,
    Entry,
    Error,
    Invitee,
    Message,
    Person,
    SeatIndex,
    Seq,
    TableName,
    Text,
)

FEATURES: tuple[str, ...] = (
    "waiting",
    "clock",
    "chat",
    "close",
    "rematch",
    "turn",
    "reasons",
    "follow",
    "label",
    "bank",
    "seek",
    "ratings",
    "arena",
)
"""What this side of the protocol speaks beyond version 1 as it first was (``hello.features``,
``welcome.features``). The server sends a client what belongs to a feature only if its hello named
it, and something of the first vocabulary instead, or nothing (:mod:`dvtui.tables.older`):
``waiting`` the waiting room's keys (``joined.waiting``, ``presence.waiting``); ``clock`` the move
clock's (``presence.move_time``, ``presence.move_left``); ``chat`` ``said``; ``close`` the error
``closed``; ``rematch`` ``presence.rematch`` and ``dealt``; ``turn`` ``presence.to_move``;
``reasons`` ``error.reason`` and ``error.fields``; ``label`` ``joined.label``; ``bank`` the time
banks' (``open_table.time_bank``/``increment``, ``presence.time_bank``/``increment``/``banks``);
``seek`` the pool that seats strangers together (``seek``, ``leave_pool``, ``seeking``, ``matched``,
``pool_left``: a server that says it back speaks them);
``ratings`` rated tables (``open_table.rated``, ``tables[].rated``) and the requests ``ratings`` and
``profile``; ``arena`` the tournaments (``arena_new``, ``arena_join``, ``arena_show``, ``arena_list``,
``arena``, ``arenas``, ``matched.arena``)."""

# -- client to server ----------------------------------------------------------------------------


class Hello(Message, tag="hello"):
    """The first message of a connection; the server answers ``welcome`` or ``error`` ``version``.

    ``user``: the person this connection speaks for, vouched for by the connecting account (a
    ``dvtui web`` naming the user its login proxy named). Only a trusted account may vouch (the
    server's own, and those of ``dvtui serve --trust``; any other gets ``not_trusted``); the person
    is then the connection's identity, apart from every account and from every other person.

    ``bot``: this client is a program playing (a bot of that level, in its own words) rather than a
    person at a screen; the others see its seat as a bot client (a seat state's ``bot``)."""

    version: int
    client: Text = ""
    user: Person | None = None
    bot: Level | None = None
    features: Annotated[list[Annotated[str, msgspec.Meta(max_length=32)]], msgspec.Meta(max_length=32)] = msgspec.field(
        default_factory=list
    )
    """What this client understands beyond the protocol's first vocabulary (see :data:`FEATURES`;
    names the server does not know are ignored). Without it the server sends this client only the
    messages, keys and error codes of version 1 as it first was."""


MAX_PAGE = 100
"""The most tables one ``tables`` answer holds (fewer when their infos would pass a line's bound)."""


class ListTables(Message, tag="list_tables"):
    """Answered by ``tables``: one page of the tables, by name, from the first after ``after``
    (at most ``limit``, and never a line longer than :data:`MAX_LINE_BYTES`); or, with ``table``,
    that table alone (an empty list: there is none). A client without these keys gets the first page."""

    table: TableName | None = None
    after: Annotated[str, msgspec.Meta(pattern=f"{TABLE_NAME}|{KEPT_GAME}")] | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE)] | None = None
    all: bool = False
    """Also the games the server keeps after their tables (each a table info with ``kept``), in
    the same order by name: a table's kept games follow it."""


class FollowTables(Message, tag="follow_tables"):
    """Feature ``follow``: answered as ``list_tables`` without ``after`` is (its first page; the
    others are asked for with ``list_tables``), then ``tables_changed`` whenever tables are added,
    changed or removed, for as long as the connection lasts: a lobby that stays open costs the
    server what changes, not its whole list again and again. A connection follows one list (a
    second ``follow_tables`` replaces the first); a following connection is never idle."""

    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE)] | None = None
    all: bool = False
    """Also the games the server keeps after their tables (as ``list_tables``' ``all``)."""


class OpenTable(Message, tag="open_table"):
    """Deal a new game at a new table; answered by ``opened`` (then ``join`` or ``watch`` it)."""

    table: TableName
    players: Annotated[list[Entry], msgspec.Meta(min_length=1, max_length=5)]
    first_player: SeatIndex | None = None
    seed: Annotated[int, msgspec.Meta(ge=0, le=(1 << 63) - 1)] | None = None
    hints: bool = True
    move_time: Annotated[int, msgspec.Meta(ge=MIN_MOVE_TIME, le=MAX_MOVE_TIME)] | None = None
    """Seconds each turn may last before a stand-in plays it (the person keeps the seat); the
    waiting room is bounded the same way. None: no clock."""
    time_bank: Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE_TIME)] | None = None
    """Feature ``bank``, with ``move_time``: seconds each seat's time bank holds, spent once a
    turn's move time has run out (None: no bank)."""
    increment: Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE_TIME)] = 0
    """Feature ``bank``, with ``move_time``: seconds a placement made in time adds to its seat's bank."""
    wait: bool = False
    """A waiting room: the first placement waits until every human seat has been taken once, or
    until the opener sends ``start`` (without the key, the table starts at once)."""
    invite: Annotated[list[Invitee | None], msgspec.Meta(max_length=5)] | None = None
    """An invitation per seat (as many as ``players``): the account or ``web:NAME`` the seat is kept
    for, whatever its name; null for a seat its name decides (the protocol's first version)."""
    rated: bool = False
    """Feature ``ratings``: a rated table, whose games' ends move the ratings of the accounts that own
    its seats (kept in ``game_created`` as ``rated: true``; its rematches are rated too)."""


class Join(Message, tag="join"):
    """Sit at ``seat``. None: one's own seat left away; refused (``no_seat``) while one's seat is
    open on another connection; else the free seat kept for one, or named like one's login or the
    person vouched for; for the table's opener, the first free seat kept for nobody; else refused
    (``no_seat``: name a seat). Answered by ``joined``, then the game's lines from ``since``, then
    ``presence``."""

    table: TableName
    seat: SeatIndex | None = None
    since: Seq = 0


class Watch(Message, tag="watch"):
    """Follow a table without a seat; answered like ``join`` (``joined`` with no seat)."""

    table: TableName
    since: Seq = 0


class Place(Message, tag="place"):
    """Place ``card`` under ``column`` for one's seat. ``seq`` is the ``seq`` the placement will have:
    the number of lines the client has, so a decision made on an old position is refused (``stale``)."""

    seq: Seq
    card: Annotated[int, msgspec.Meta(ge=1, le=6)]
    column: Annotated[int, msgspec.Meta(ge=0, le=6)]


class Undo(Message, tag="undo"):
    """Take back one's latest placement of the round (and the bots' since), while no other human has
    placed since; ``seq`` as for ``place``."""

    seq: Seq


class StandIn(Message, tag="stand_in"):
    """Let a bot play ``seat`` while nobody is connected to it, until its owner joins (``bot`` None:
    stop). Only a seated player may ask."""

    seat: SeatIndex
    bot: Level | None = None


class Release(Message, tag="release"):
    """Free ``seat`` of ``table`` (its owner, and the person its name keeps it for, lose it; one
    connected there is pushed off, and takes no seat of the game again). ``to``: the seat is kept
    for that account or ``web:NAME`` now; ``bot``: that bot plays it to the end (at most one of
    the two; neither: free for anyone else). Only the table's opener may ask; answered by ``released``."""

    table: TableName
    seat: SeatIndex
    to: Invitee | None = None
    bot: Level | None = None


class SetClock(Message, tag="set_clock"):
    """Give running ``table`` a move time of ``move_time`` seconds (one without a clock), or a
    shorter one than it has (the turn under way ends no later than it would have, nor later than
    the new time from now). Only the table's opener may ask; answered by its ``presence``."""

    table: TableName
    move_time: Annotated[int, msgspec.Meta(ge=MIN_MOVE_TIME, le=MAX_MOVE_TIME)]
    time_bank: Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE_TIME)] | None = None
    """Feature ``bank``: each seat's time bank (a table without a clock), or a lower one (None: as it is)."""
    increment: Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE_TIME)] | None = None
    """Feature ``bank``: the increment (a table without a clock), or a lower one (None: as it is)."""


class Start(Message, tag="start"):
    """End ``table``'s waiting room: its first placement may be made, and each human seat nobody
    has taken gets a stand-in bot until its person comes. Only the table's opener (or the server's
    own account) may ask; answered by ``started`` (also when the table had started already)."""

    table: TableName


class Bye(Message, tag="bye"):
    """Either side's last message (the connection closes after it). A seat left so is away."""

    reason: Text = ""


class CloseTable(Message, tag="close_table"):
    """End an unfinished table: its game is kept, unfinished, and its name is free. Only the
    table's opener or the server's own account may ask; answered by ``closed``, and everyone at the
    table gets ``error`` ``closed``."""

    table: TableName


class Resign(Message, tag="resign"):
    """Give up one's seat at ``table``: a bot plays it to the end, standing in, and it cannot be
    taken back. Answered by ``presence`` (to everyone at the table; to the resigning connection too)."""

    table: TableName


MAX_CHAT_CHARS = 300
"""The longest line one may say at a table (characters, once what does not print is escaped)."""


class Say(Message, tag="say"):
    """Say ``text`` to everyone at ``table`` (one need not be there: ``dvtui say`` from a shell).
    Answered, to everyone at the table and to the speaker, by ``said``; refused ``chat_limit`` past
    the chat's rate (per connection and per account: the line is dropped, the connection stays)."""

    table: TableName
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CHAT_CHARS)]


class Rematch(Message, tag="rematch"):
    """Propose (``accept``: true) a rematch at ``table``, whose game is over, or accept the one
    proposed; ``accept`` false withdraws one's acceptance and turns the proposal down. Only a
    person seated at the table may. Answered by ``presence`` (its ``rematch``) to everyone at the
    table; once every person seated there has accepted, the table deals its next game (``dealt``)."""

    table: TableName
    accept: bool = True


class FetchGame(Message, tag="fetch_game"):
    """Table ``table``'s game number ``game`` (1: the table's first; see ``tables``' ``game``), the
    current one or one the table played before it; or a kept game (``table`` its name, ``game``
    its number as listed), for who sat at it. Answered by ``game_lines``, then its lines."""

    table: Annotated[str, msgspec.Meta(pattern=f"{TABLE_NAME}|{KEPT_GAME}")]
    game: Annotated[int, msgspec.Meta(ge=1, le=1 << 31)]


ClientMessage = (
    Hello
    | ListTables
    | OpenTable
    | Join
    | Watch
    | Place
    | Undo
    | StandIn
    | Release
    | Start
    | Say
    | CloseTable
    | Resign
    | Rematch
    | FetchGame
    | Bye
    | SetClock
    | FollowTables
    | Seek
    | LeavePool
    | AskRatings
    | AskProfile
    | ArenaNew
    | ArenaJoin
    | ArenaShow
    | ArenaList
)


# -- server to client ----------------------------------------------------------------------------


class Welcome(Message, tag="welcome"):
    version: int
    server: str
    user: str
    """Who the server knows the connection as: the account from the socket, or the person a trusted
    account vouched for (shown ``web:NAME``, as in a seat's ``user``)."""
    features: list[str] = msgspec.field(default_factory=list)
    """What the server speaks of what the hello named (absent for a hello that named nothing)."""


class Tables(Message, tag="tables"):
    """One page of tables by name; ``more``: tables follow (ask again ``after`` the last one here)."""

    tables: list[TableInfo]
    more: bool = False


class TablesChanged(Message, tag="tables_changed"):
    """To a connection that follows the list (``follow_tables``): the tables added or changed since
    the last batch, each as ``tables`` lists it, and the names of those removed. At most one batch
    a tick, a table at most once in it (its latest state)."""

    tables: list[TableInfo] = msgspec.field(default_factory=list)
    removed: list[Annotated[str, msgspec.Meta(pattern=f"{TABLE_NAME}|{KEPT_GAME}")]] = msgspec.field(
        default_factory=list
    )


class Opened(Message, tag="opened"):
    table: str


class Joined(Message, tag="joined"):
    """Sent before the lines of a join or a watch. ``seat`` None: watching. ``next_seq``: how many
    lines the table's game has; the lines from the ``since`` asked for follow."""

    table: str
    next_seq: int
    seat: int | None = None
    hints: bool = True
    waiting: bool = False
    """The table is a waiting room (as ``presence`` says), told before the game's lines."""
    may_close: bool = False
    """This connection may end the table (``close_table``): it opened it, or is the server's own account."""
    label: str | None = None
    """How the server names the table's game (its file there): what a branch made on the client's
    side names as its parent. Absent (a server from before it): the client says ``tables/NAME``."""


class Released(Message, tag="released"):
    table: str
    seat: int


class Closed(Message, tag="closed"):
    table: str
    kept: bool = True
    """Its game is kept, unfinished (false: nobody had made a decision there, and it is removed)."""


class Presence(Message, tag="presence"):
    """Who is at the table, sent on joining and whenever it changes."""

    table: str
    seats: list[SeatState]
    spectators: int = 0
    waiting: bool = False
    """The table is a waiting room: no placement until its free human seats are taken, or its
    opener starts it (``start``)."""
    move_time: int | None = None
    """The table's move time in seconds (None: no clock)."""
    move_left: float | None = None
    """The seconds left to the person to move (or to the waiting room) as this is sent; None: no
    clock runs now (no move time, a bot's seat to move, the game over)."""
    rematch: RematchVote | None = None
    """A rematch proposed at the finished table, and who has accepted it (None: none is)."""
    to_move: int | None = None
    """The seat whose placement the table awaits after the lines sent before this presence (None:
    none is: the game over, a waiting room, a stopped table)."""
    time_bank: int | None = None
    """Feature ``bank``: the seconds each seat's bank held at the game's start (None: no bank)."""
    increment: int = 0
    """Feature ``bank``: the seconds a placement made in time adds to its seat's bank."""
    banks: list[float] | None = None
    """Feature ``bank``: each seat's bank as this is sent (seconds; the seat to move spends its own
    once ``move_left`` is less than it); None: the table has no bank."""


class Started(Message, tag="started"):
    table: str


class RematchVote(msgspec.Struct, kw_only=True):
    """A rematch proposed at a finished table: ``by``, the seat that proposed it; ``accepted``,
    the seats that have accepted (the proposer's first); ``awaited``, the seats of the people at the
    table who have not (yet). Seats are indexes from 0."""

    by: int
    accepted: list[int]
    awaited: list[int]


class Dealt(Message, tag="dealt"):
    """The table deals its next game (a rematch): forget the game so far; its lines follow from
    ``game_created``, then ``presence``. ``game``: its number at the table (the finished one is
    kept: ``fetch_game``)."""

    table: str
    game: int


class GameLines(Message, tag="game_lines"):
    """Answers ``fetch_game``: ``lines`` lines of the game follow (its file's, as a join sends them)."""

    table: str
    game: int
    lines: int


class Said(Message, tag="said"):
    """A line said at ``table``, by ``user`` (as ``welcome.user`` names them), at ``at`` (UTC,
    ISO 8601). ``seat``: the speaker owns that seat of the table (0-based); absent: a spectator.
    The server decides both from who the connection is, never from what it asks. ``text`` is plain
    text, with what does not print escaped (``\\x1b``); a client shows it as it is, never as markup."""

    table: str
    user: str
    text: str
    at: str
    seat: int | None = None


ServerMessage = (
    Welcome
    | Tables
    | Opened
    | Joined
    | Released
    | Started
    | Closed
    | Presence
    | Said
    | Dealt
    | GameLines
    | Error
    | Bye
    | TablesChanged
    | Seeking
    | Matched
    | PoolLeft
    | Leaderboard
    | PlayerProfile
    | ArenaStandings
    | Arenas
)

Incoming = ServerMessage | AnyEvent
"""What a client reads: a control message or a line of the game."""


client_decoder: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)
incoming_decoder: msgspec.json.Decoder[Incoming] = msgspec.json.Decoder(Incoming)
