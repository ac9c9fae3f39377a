"""The start menu's tables: the table server's tables as the menu lists them, this person's first
(those where it is their turn first of all), then the others', each in one line with the time left
on its clock.

The list is followed over one connection (:func:`lobby_changes`): the server sends it once, then
pushes what changes. A server that does not (an older one) is asked for the whole list again every
:data:`POLL` seconds. No server answering is no lobby: the menu is as it is without one, and
nothing is said."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from ...engine import Seat
from ...i18n import _, ngettext
from ...printable import printable
from ...tables import (
    Diverged,
    Dropped,
    Refused,
    RemoteSession,
    ServerPlace,
    TableInfo,
    Unreachable,
    follow_lobby,
    invited_by,
    is_my_turn,
    lobby_tables,
    open_table,
)
from ...tables.clock import duration_words, parse_duration
from ...tables.ratings import NoRatings
from ..config import SetupChoice
from ..theme import GOLD, MUTED
from .seats import SeatChoice

POLL = 5.0
"""Seconds between two readings of the table server's list (a clock shown moves on as often)."""
SHOWN = 40
"""The most tables the menu lists (this person's come first): a server's whole list is for
``dvtui tables``."""


@dataclass(frozen=True, slots=True)
class Lobby:
    """Where the menu looks for tables, and who looks: ``user`` the person this account vouches
    for there (a login proxy's user; None: the account itself), ``person`` the name of the seat
    offered first."""

    place: ServerPlace
    person: str
    user: str | None = None

    def choice(self, table: str) -> SeatChoice:
        """The seat chooser's question for ``table``, asked by this person."""
        return SeatChoice(self.place, table, self.person, user=self.user)


async def read_lobby(lobby: Lobby) -> tuple[str, list[TableInfo]] | None:
    """Who the server knows this person as and its tables in the lobby's order; None when no
    server answers, or one that answers wrongly (the menu then shows no tables)."""
    try:
        me, infos = await lobby_tables(lobby.place, user=lobby.user)
    except (Unreachable, Refused, Dropped, Diverged, OSError):
        return None
    return me, infos[:SHOWN]


async def lobby_changes(lobby: Lobby) -> AsyncIterator[tuple[str, list[TableInfo]]]:
    """Who the server knows this person as and its tables in the lobby's order, once listed and
    again after each change the server pushes (see :func:`~dvtui.tables.follow_lobby`, which
    says what it raises: no server, or one that pushes no changes)."""
    async for me, infos in follow_lobby(lobby.place, user=lobby.user):
        yield me, infos[:SHOWN]


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What a table adds to a game's set-up, as ``dvtui new --table`` takes it: ``move_time`` in
    seconds (None: no clock), ``invite`` per seat the account it is kept for (None: as its name
    decides), ``hints`` (``--no-hints`` off), ``wait`` for everyone in a waiting room (``--start-now``
    off), ``time_bank`` and ``increment`` (``--time-bank``, ``--increment``: seconds), ``rated``
    (``--rated``)."""

    move_time: int | None = None
    invite: list[str | None] | None = None
    hints: bool = True
    wait: bool = True
    time_bank: int | None = None
    increment: int = 0
    rated: bool = False


def parse_move_time(text: str) -> int | None:
    """The set-up's move time: empty for none, else as ``--move-time`` takes it (ValueError says the rule)."""
    text = text.strip()
    return parse_duration(text) if text else None


def parse_invitations(text: str, seats: list[Seat]) -> list[str | None] | None:
    """The set-up's invitations, ``SEAT=USER`` separated by commas or spaces as ``--invite`` takes
    each (a seat by its name, case aside, or its number from 1): per seat, the account it is kept
    for; None when there are none. ValueError says what is wrong."""
    entries = [entry for entry in text.replace(",", " ").split() if entry]
    if not entries:
        return None
    names = [seat.name.casefold() for seat in seats]
    invite: list[str | None] = [None] * len(seats)
    for entry in entries:
        where, sep, user = entry.partition("=")
        if not sep or not where or not user:
            raise ValueError(_("invitation {text}: give SEAT=USER, e.g. 2=alice or Bob=web:bob").format(text=entry))
        if where.casefold() in names:
            i = names.index(where.casefold())
        elif where.isdigit() and 1 <= int(where) <= len(seats):
            i = int(where) - 1
        else:
            raise ValueError(_("invitation {text}: no seat {seat}").format(text=entry, seat=where))
        if seats[i].kind != "human":
            raise ValueError(_("invitation {text}: {name} is a bot's seat").format(text=entry, name=seats[i].name))
        invite[i] = user
    return invite


async def open_new_table(
    lobby: Lobby, name: str, choice: SetupChoice, options: TableOptions = TableOptions()
) -> RemoteSession:  # fmt: skip
    """Open table ``name`` with the set-up screen's seats (a person by name, a bot by level; the
    server gives the seats its colours), its first player and seed, and ``options``, and sit there
    as this person (the seat the server picks: the one named like them, else the first free one).
    ValueError says why not, as the set-up screen shows it."""
    players = [seat.name if seat.kind == "human" else f"bot:{seat.bot}" for seat in choice.seats]
    try:
        await open_table(lobby.place, name, players, first_player=choice.first, seed=choice.seed, user=lobby.user,
                         hints=options.hints, wait=options.wait, move_time=options.move_time,
                         invite=options.invite, time_bank=options.time_bank, increment=options.increment,
                         rated=options.rated)  # fmt: skip
        return await RemoteSession.open(lobby.place, name, seat=None, user=lobby.user)
    except (Unreachable, Refused, Dropped, Diverged, NoRatings) as e:
        raise ValueError(str(e)) from None


def table_label(info: TableInfo, me: str, known: Collection[str] = ()) -> Text:
    """One table in one line (cut, never wrapped): its name, whose turn it is (``me``'s said so),
    the time left on its clock, the round and how many watch; ``known``: the people ``me`` plays
    with (:func:`played_with`), whose invitations are ``me``'s tables, not a stranger's."""
    line = Text(no_wrap=True, overflow="ellipsis")
    mine = is_my_turn(info, me, known)
    line.append("▶ " if mine else "  ", style=Style(color=GOLD, bold=True))
    line.append(printable(info.table), style=Style(bold=True))
    if info.rated:
        line.append("  " + _("rated"), style=Style(color=MUTED))
    if info.over:
        line.append("  " + _("the game is over"))
        return line
    if info.waiting:
        awaited = [s.name for s in info.seats if s.state == "free" and s.kind == "human"]
        where = _("waiting for {names}").format(names=", ".join(awaited)) if awaited else _("waiting room")
    elif mine:
        where = _("your turn")
    elif (inviter := invited_by(info, me, known)) is not None:  # a seat kept for one by a stranger
        where = _("invited by {user}").format(user=inviter)
    else:
        where = _("{name} to play").format(name=info.seats[info.to_move].name) if info.to_move is not None else "?"
    line.append(f"  {printable(where)}", style=Style(color=GOLD, bold=True) if mine else Style())
    if info.move_left is not None:
        line.append(", " + _("{time} left").format(time=duration_words(info.move_left)), style=Style(bold=True))
    line.append(" · " + _("round {round} of {rounds}").format(round=info.round, rounds=info.rounds))
    if info.spectators > 0:
        watching = ngettext("{n} watching", "{n} watching", info.spectators).format(n=info.spectators)
        line.append(f" · {watching}", style=Style(color=MUTED))
    return line


__all__ = [
    "POLL", "SHOWN", "Lobby", "TableOptions", "lobby_changes", "open_new_table", "parse_invitations",
    "parse_move_time", "read_lobby", "table_label",
]  # fmt: skip
