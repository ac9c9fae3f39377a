"""What a client takes from a table server, checked as the reader checks a file.

A server is a process of whichever account listens in the directory a client was pointed at: any
account can run one in a directory it owns. So nothing it sends is shown or kept on trust. Every
message is held to what a sound server sends: names by the rules a game file's names follow
(:func:`dvtui.engine.check_seats`, :func:`dvtui.store.check_created`), every other string a
screen shows printable as itself (:func:`dvtui.printable.printable` would leave it unchanged),
numbers in their ranges, and a table's lines bounded as a file is (:data:`MAX_GAME_BYTES`). What
fails is :class:`BadServer`: the client stops and says why in one line (a name quoted escaped and
cut, as the reader quotes one).
"""

from __future__ import annotations

import re

import msgspec

from ..engine import MAX_PLAYERS, MIN_PLAYERS, Event, GameCreated, Seat, SeatError, check_seats, parse_bot
from ..rulewords import english_words
from ..store import MAX_FILE_BYTES, GameFileError, check_created
from .clock import MAX_MOVE_TIME, MIN_MOVE_TIME
from .clubwire import MAX_RECENT, MAX_TOP, Leaderboard, Matched, PlayerProfile, RatedGame, RatedLine, Seeking
from .protocol import (
    MAX_CHAT_CHARS,
    Bye,
    Closed,
    Dealt,
    GameLines,
    Incoming,
    Joined,
    Opened,
    Presence,
    Said,
    Started,
    Tables,
    TablesChanged,
    Welcome,
)
from .tableinfo import SeatState, TableInfo
from .wire import KEPT_GAME, MAX_ERROR_CHARS, MAX_PERSON_CHARS, TABLE_NAME, VOUCHED_PREFIX, Error, Message

MAX_GAME_BYTES = MAX_FILE_BYTES
"""The most a client keeps of one table's lines: what the reader accepts of a game file. A server
that sends more (an endless stream of placements taken back) is refused, not followed."""
MAX_ACCOUNT_CHARS = 256
"""The longest account name a seat's ``user`` may be (the system's own bound, LOGIN_NAME_MAX)."""
MAX_TEXT_CHARS = 200
"""The longest ``welcome.server`` and ``bye.reason``."""
MAX_ROUNDS = 64
"""Far above any game's rounds (the rules deal 6 at most): a bound on what a table info says."""
_TABLE_NAME = re.compile(TABLE_NAME)
_KEPT_GAME = re.compile(KEPT_GAME)


class BadServer(Exception):
    """The server sent what no sound server sends; the message says what and where, in words that
    follow "sent what no dvtui server sends:" (a quoted name is escaped and cut)."""


def check_message(message: Incoming) -> None:
    """Raise :class:`BadServer` unless ``message`` is one a sound server sends. Game lines other
    than ``game_created`` are the rules' to check (the client folds them through the engine)."""
    if isinstance(message, Welcome):
        _text("welcome.server", message.server, MAX_TEXT_CHARS)
        _user("welcome.user", message.user)
    elif isinstance(message, Tables | TablesChanged):
        for info in message.tables:
            check_table_info(info)
    elif isinstance(message, Opened):
        _table("opened.table", message.table)
    elif isinstance(message, Started):
        _table("started.table", message.table)
    elif isinstance(message, Closed):
        _table("closed.table", message.table)
    elif isinstance(message, Joined):
        _table("joined.table", message.table)
        if message.seat is not None and not 0 <= message.seat < MAX_PLAYERS:
            raise BadServer(f"joined.seat {message.seat} is no seat")
        if message.next_seq < 0:
            raise BadServer("joined.next_seq is negative")
    elif isinstance(message, Presence):
        _table("presence.table", message.table)
        check_seat_states("presence", message.seats)
        if message.spectators < 0:
            raise BadServer("presence.spectators is negative")
        _move_time("presence", message.move_time, message.move_left)
        _banks(message)
        if message.to_move is not None and not 0 <= message.to_move < len(message.seats):
            raise BadServer("presence.to_move names a seat the table has not")
        vote = message.rematch
        if vote is not None:
            seats = [vote.by, *vote.accepted, *vote.awaited]
            if not all(0 <= seat < len(message.seats) for seat in seats):
                raise BadServer("presence.rematch names a seat the table has not")
    elif isinstance(message, Leaderboard):
        if len(message.standings) > MAX_TOP or message.accounts < len(message.standings):
            raise BadServer("leaderboard has more lines than asked for or than accounts")
        for line in message.standings:
            _rated_line("leaderboard", line)
    elif isinstance(message, PlayerProfile):
        _rated_line("player_profile", message.standing)
        if len(message.places) > MAX_PLAYERS or any(n < 0 for n in message.places):
            raise BadServer("player_profile.places is not a count per place")
        if len(message.history) > min(MAX_RECENT, message.standing.games):
            raise BadServer("player_profile.history has more games than the account played")
        for game in message.history:
            _rated_game(game)
    elif isinstance(message, Dealt):
        _table("dealt.table", message.table)
        if not 1 <= message.game <= 1 << 31:
            raise BadServer(f"dealt.game {message.game} is no game's number")
    elif isinstance(message, GameLines):
        if _KEPT_GAME.fullmatch(message.table) is None:
            _table("game_lines.table", message.table)
        if not 0 <= message.lines <= MAX_GAME_BYTES:
            raise BadServer(f"game_lines.lines {message.lines} is no game's")
    elif isinstance(message, Said):
        _table("said.table", message.table)
        _user("said.user", message.user)
        _text("said.text", message.text, MAX_CHAT_CHARS)
        _text("said.at", message.at, 40)
        if message.seat is not None and not 0 <= message.seat < MAX_PLAYERS:
            raise BadServer(f"said.seat {message.seat} is no seat")
    elif isinstance(message, Seeking | Matched):
        _seek(message)
    elif isinstance(message, Error):
        _text("error.message", message.message, MAX_ERROR_CHARS)
        if message.re is not None:
            _text("error.re", message.re, 32)
        if message.seq is not None and message.seq < 0:
            raise BadServer("error.seq is negative")
    elif isinstance(message, Bye):
        _text("bye.reason", message.reason, MAX_TEXT_CHARS)
    elif isinstance(message, GameCreated):
        try:
            check_created(message, "game_created")
        except GameFileError as e:
            raise BadServer(e.message) from None
    if isinstance(message, Message):  # every string left, the fields a newer protocol adds included
        _strings(str(message.__struct_config__.tag), message)


def _seek(message: Seeking | Matched) -> None:
    """What the pool says of a seek (a countdown shown to a person, a table to join), in bounds."""
    if isinstance(message, Matched):
        _table("matched.table", message.table)
        if not MIN_PLAYERS <= message.players <= MAX_PLAYERS or not 0 <= message.seat < message.players:
            raise BadServer(f"matched.seat {message.seat} is no seat of a table of {message.players}")
        if not 0 <= message.bots < message.players:
            raise BadServer(f"matched.bots {message.bots} is no count of a table's bots")
        return
    if not message.players or any(not MIN_PLAYERS <= n <= MAX_PLAYERS for n in message.players):
        raise BadServer("seeking.players names no table size")
    _move_time("seeking", message.move_time, None)
    if not 0 <= message.wait_left <= MAX_MOVE_TIME or message.pool < 0 or message.window < 0:
        raise BadServer("seeking.wait_left, pool or window is out of bounds")


def _move_time(where: str, move_time: int | None, left: float | None) -> None:
    """A table's move time and the time left, as a server may say them (a clock is shown to people:
    a negative or endless one is a server's fault, never drawn)."""
    if move_time is not None and not MIN_MOVE_TIME <= move_time <= MAX_MOVE_TIME:
        raise BadServer(f"{where}.move_time {move_time} is no move time")
    if left is not None and not 0 <= left <= 2 * MAX_MOVE_TIME:  # a move time and a bank
        raise BadServer(f"{where}.move_left is out of bounds")


def _banks(message: Presence) -> None:
    """A table's time banks as a server may say them: within a clock's bounds, one per seat."""
    if message.time_bank is not None and not 0 <= message.time_bank <= MAX_MOVE_TIME:
        raise BadServer("presence.time_bank is out of bounds")
    if not 0 <= message.increment <= MAX_MOVE_TIME:
        raise BadServer("presence.increment is out of bounds")
    banks = message.banks
    if banks is not None and (len(banks) != len(message.seats) or not all(0 <= b <= MAX_MOVE_TIME for b in banks)):
        raise BadServer("presence.banks are not one bank per seat within a clock's bounds")


def check_table_info(info: TableInfo) -> None:
    if info.kept is None:
        _table("a table's name", info.table)
    else:  # a game kept after its table
        if _KEPT_GAME.fullmatch(info.table) is None:
            raise BadServer(f"{info.table!r} is not a kept game's name")
        _text(f"kept game {info.table}'s time", info.kept, 40)
    where = f"table {info.table}"
    check_seat_states(where, info.seats)
    if not 1 <= info.rounds <= MAX_ROUNDS or not 0 <= info.round <= info.rounds:
        raise BadServer(f"{where}: round {info.round} of {info.rounds} is no game's")
    if info.to_move is not None and not 0 <= info.to_move < len(info.seats):
        raise BadServer(f"{where}: to_move {info.to_move} is no seat")
    _move_time(f"table {info.table}", info.move_time, info.move_left)
    if (
        info.time_bank is not None and not 0 <= info.time_bank <= MAX_MOVE_TIME
    ) or not 0 <= info.increment <= MAX_MOVE_TIME:
        raise BadServer(f"{where}: time_bank or increment is out of bounds")
    if info.opener is not None:
        _user(f"{where}: opener", info.opener)
    if info.spectators < 0:
        raise BadServer(f"{where}: spectators is negative")


def check_seat_states(where: str, seats: list[SeatState]) -> None:
    """A table's seats: 3 to 5, each at its index, named by the rules every game's names follow
    (1 to 24 printable characters, no two alike), its owner and stand-in printable and bounded."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise BadServer(f"{where}: {len(seats)} seats (a game has {MIN_PLAYERS} to {MAX_PLAYERS})")
    for i, seat in enumerate(seats):
        if seat.seat != i:
            raise BadServer(f"{where}: seats[{i}] says it is seat {seat.seat}")
        if seat.kind not in ("human", "bot"):
            raise BadServer(f"{where}: seats[{i}].kind is neither human nor bot")
        for key, person in (("user", seat.user), ("stand_in_by", seat.stand_in_by)):
            if person is not None:
                _user(f"{where}: seats[{i}].{key}", person)
        if seat.stand_in is not None:
            try:
                parse_bot(seat.stand_in)
            except SeatError:
                raise BadServer(f"{where}: seats[{i}].stand_in is no bot level") from None
    try:
        check_seats([Seat(name=s.name, kind=s.kind, color="") for s in seats])
    except SeatError as e:
        raise BadServer(f"{where}: seats[{e.seat}].name: {english_words(e)}") from None


def check_game_bytes(total: int) -> None:
    """The lines of one table so far, ``total`` bytes: at most what a game file may hold."""
    if total > MAX_GAME_BYTES:
        raise BadServer(f"more than {MAX_GAME_BYTES} bytes of one table's lines, more than a game file holds")


def check_line(event: Event, seq: int) -> None:
    """A game line's ``seq``, when it has one, is the next line's."""
    if event.seq is not None and event.seq != seq:
        raise BadServer(f"line {event.seq} where line {seq} was due")


def _strings(where: str, value: object) -> None:
    """Every string in ``value`` (a message, and the structs and lists in it) printable as itself
    and at most :data:`MAX_ERROR_CHARS` long (the longest any message holds); the checks by field
    bound some more tightly."""
    if isinstance(value, str):
        _text(where, value, MAX_ERROR_CHARS)
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            _strings(f"{where}.{name}", getattr(value, name))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _strings(f"{where}[{i}]", item)


_RATINGS = range(-100_000, 100_001)
"""Far beyond any rating the model gives (a bound on what a leaderboard or a profile says)."""


def _rated_line(where: str, line: RatedLine) -> None:
    _user(f"{where}.account", line.account)
    if line.rank < 0 or line.games < 0 or line.shown not in _RATINGS or line.by not in _RATINGS:
        raise BadServer(f"{where} has a rank, a count or a rating out of range")
    if not (abs(line.mu) < _RATINGS.stop and 0 <= line.sigma < _RATINGS.stop):
        raise BadServer(f"{where} has a mean or an uncertainty out of range")
    try:
        parse_bot(line.like)
    except SeatError:
        raise BadServer(f"{where}.like is not a bot level") from None


def _rated_game(game: RatedGame) -> None:
    _table("player_profile.history.table", game.table)
    _text("player_profile.history.game", game.game, 200)
    _text("player_profile.history.ended", game.ended, 40)
    if not (MIN_PLAYERS <= game.players <= MAX_PLAYERS and 1 <= game.place <= game.players and game.number >= 1):
        raise BadServer("player_profile.history has a place or a game number out of range")
    if game.before not in _RATINGS or game.after not in _RATINGS:
        raise BadServer("player_profile.history has a rating out of range")


def _table(where: str, name: str) -> None:
    if _TABLE_NAME.fullmatch(name) is None:
        raise BadServer(f"{where} is not a table's name")


def _user(where: str, user: str) -> None:
    """An account's name, or a vouched person's as the server shows one (``web:NAME``)."""
    limit = len(VOUCHED_PREFIX) + MAX_PERSON_CHARS if user.startswith(VOUCHED_PREFIX) else MAX_ACCOUNT_CHARS
    _text(where, user, limit)
    if not user or user.strip() != user:
        raise BadServer(f"{where} is not an account's or a person's name")


def _text(where: str, text: str, limit: int) -> None:
    if len(text) > limit:
        raise BadServer(f"{where} is {len(text)} characters long (at most {limit})")
    if not text.isprintable():  # the rule printable() escapes by: what prints as itself only
        raise BadServer(f"{where} holds a control character (an escape, a bidi override, a line break...)")


__all__ = ["MAX_GAME_BYTES", "BadServer", "check_game_bytes", "check_message"]
