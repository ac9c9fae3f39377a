"""A table as the server shows it, in ``tables``, ``tables_changed`` and ``presence``: its seats
(:class:`SeatState`) and what the list says of it (:class:`TableInfo`, read leniently; :class:`ListedTable`,
as this server sends it). Plain structs, not messages: :mod:`.protocol` carries them, and the
lobby, ``dvtui tables`` and the seat chooser read them."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Level = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
"""A bot's level as the wire takes it: a seat's here, and a hello's, a stand-in's, a seat
released to a bot (:mod:`.protocol`)."""


SeatStateName = Literal["free", "connected", "away", "bot"]


class SeatState(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One seat as the table shows it: ``free`` (nobody has taken it), ``connected``, ``away`` (its
    owner's connection dropped), ``bot`` (a bot seat). ``user``: its owner, an account's name or a
    vouched person's (``web:NAME``). ``stand_in``: the bot playing for it meanwhile. ``bot``: a
    connected seat's client is a bot of that level (its hello said so), not a person. ``kept_for``:
    a free seat named like an account or a vouched person is theirs to take alone."""

    seat: int
    name: str
    kind: str
    state: SeatStateName
    user: str | None = None
    stand_in: str | None = None
    bot: Level | None = None
    kept_for: str | None = None
    resigned: bool = False
    """Its owner resigned: the ``stand_in`` plays it to the end and nobody takes it back."""
    stand_in_by: str | None = None
    """Who asked for the ``stand_in`` (a co-player, as ``user`` names people); absent: the table
    itself (its clock, its start, a resignation, its opener)."""


class TableInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A table as ``tables`` lists it (read leniently: a server may leave out a key at its default)."""

    table: str
    seats: list[SeatState]
    round: int
    rounds: int
    to_move: int | None = None
    """Whose placement is awaited (None: the game is over)."""
    over: bool = False
    spectators: int = 0
    hints: bool = True
    waiting: bool = False
    """A waiting room (see ``presence``)."""
    move_time: int | None = None
    """The table's move time in seconds (None: no clock)."""
    game: int = 1
    """The number of the game being played at the table (each rematch adds one); the games before
    it are kept (``fetch_game``)."""
    kept: str | None = None
    """Not a table but a game kept after its table (``table`` is its :data:`~.protocol.KEPT_GAME` name): the
    time of its last line (UTC, ISO 8601), which its keeping is counted from."""
    move_left: float | None = None
    """The seconds left on the turn (or the waiting room) as the list is sent, as ``presence`` says
    them (None: no clock runs now)."""
    opener: str | None = None
    """Who opened the table (as ``user`` names people; None: not said): a seat kept for someone
    is an invitation from them."""
    time_bank: int | None = None
    """Feature ``bank``: the seconds each seat's bank holds at a game's start (None: no bank)."""
    increment: int = 0
    """Feature ``bank``: the seconds a placement made in time adds to its seat's bank."""
    rated: bool = False
    """Feature ``ratings``: the table's games are rated."""


class ListedTable(TableInfo, kw_only=True, omit_defaults=False):
    """A table info as this server sends it: ``over``, ``spectators`` and ``hints`` always, and
    ``to_move`` left out once the game is over (never ``null``), as the protocol's document says;
    the later keys always to a client that named their feature, never to one that did not
    (:func:`~.older.listed_for`); ``kept`` only for a kept game (listed only when ``all`` is asked)."""

    to_move: int | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    waiting: bool | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    move_time: int | msgspec.UnsetType | None = msgspec.UNSET  # type: ignore[assignment]
    game: int | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    kept: str | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    move_left: float | msgspec.UnsetType | None = msgspec.UNSET  # type: ignore[assignment]
    opener: str | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    time_bank: int | msgspec.UnsetType | None = msgspec.UNSET  # type: ignore[assignment]
    increment: int | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    rated: bool | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]


__all__ = ["ListedTable", "SeatState", "SeatStateName", "TableInfo"]
