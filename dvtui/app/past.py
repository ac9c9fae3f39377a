"""The games a person played, one line each for the start menu's "Your games" (:mod:`.screens.history`):
the saves of this machine and the games of a table server they sat at, newest first.

Textual-free: each game is a :class:`PastGame` of words, built from a file read and checked by the
reader (:func:`dvtui.store.read_game`), never from a file's text as it is. A file that does not read
is a line that says so, not a game.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from ..describe import amount, bot_level_name, join_names, moment
from ..engine import Game, Seat
from ..i18n import _
from ..printable import printable
from ..store import GameFileError, LoadedGame
from ..store.saves import SavedGame
from ..tables import TableInfo, has_seat
from ..tables.stamps import stamp_time

MAX_FETCHED = 20
"""The table server's games of a person fetched for their lines, newest first: each is a game's
lines sent whole, so a person with a long past waits for the ones they are likely to look for."""


@dataclass(frozen=True, slots=True)
class PastGame:
    """One line of "Your games": ``when`` it was last played (None: not known yet), ``where`` (a
    file's name, or a table's), and its words. ``path``: a saved game's file; ``table``: a table
    server's game (a kept game's name, or a finished table's); neither: a file that does not read."""

    when: datetime | None
    where: str
    opponents: str = ""
    result: str = ""
    place: str = ""
    path: Path | None = None
    table: str | None = None
    kept: bool = False
    """``table`` is a game kept after its table (fetched as one), not a table still listed."""
    you: int | None = None
    """Which seat was this person's (None: not known, such as a hot-seat game of several people)."""
    damaged: str = ""
    """Why the file or the server's game cannot be opened (empty: it can)."""

    @property
    def opens(self) -> bool:
        return not self.damaged and (self.path is not None or self.table is not None)


def your_seat(seats: Sequence[Seat], person: str) -> int | None:
    """The seat of the person at the keyboard in a game of this machine: the human seat with
    their name (capitals aside), else the only human seat; None in a game of several people
    none of whom has their name, or of bots alone."""
    people = [i for i, seat in enumerate(seats) if seat.kind == "human"]
    named = [i for i in people if seats[i].name.casefold() == person.casefold()]
    if named:
        return named[0]
    return people[0] if len(people) == 1 else None


def described(entry: PastGame, game: Game) -> PastGame:
    """``entry`` with the words of ``game``: its opponents (bots with their level), its result and
    the place of ``entry.you`` (shared by the players with the same score)."""
    seats = game.created.players
    others = [_seat_label(seat) for i, seat in enumerate(seats) if i != entry.you]
    opponents = _("with {names}").format(names=join_names(others)) if others else ""
    outcome = game.outcome()
    if outcome is None:
        result = _("unfinished, round {round} of {rounds}").format(round=game.round, rounds=game.rounds)
        return replace(entry, opponents=opponents, result=result)
    you = entry.you
    if you is not None and you in outcome.winners:
        result = (_("you share the victory with {amount}") if outcome.shared else _("you win with {amount}")).format(
            amount=amount(outcome.best)
        )
    elif outcome.shared:
        names = join_names([printable(seats[p].name) for p in outcome.winners])
        result = _("{names} share the victory with {amount}").format(names=names, amount=amount(outcome.best))
    else:
        name = printable(seats[outcome.winners[0]].name)
        result = _("{name} wins with {amount}").format(name=name, amount=amount(outcome.best))
    place = ""
    if you is not None:
        ahead = sum(1 for score in outcome.scores if score > outcome.scores[you])
        place = _("your place: {place} of {players}").format(place=ahead + 1, players=len(seats))
    return replace(entry, opponents=opponents, result=result, place=place)


def _seat_label(seat: Seat) -> str:
    """``Bot 1 (master)``: a bot's level is part of who was played against."""
    name = printable(seat.name)
    if seat.kind == "bot" and seat.bot:
        return f"{name} ({bot_level_name(printable(seat.bot))})"
    return name


def saved_games(games: Sequence[SavedGame], bad: Sequence[GameFileError], person: str) -> list[PastGame]:
    """The saves of this machine (as :func:`dvtui.store.list_games` read them) as lines, the files
    that do not read among them, each one line saying so."""
    entries: list[PastGame] = []
    for saved in games:
        created = saved.loaded.game.created
        entry = PastGame(datetime.fromtimestamp(saved.modified), printable(saved.path.name), path=saved.path,
                         you=your_seat(created.players, person))  # fmt: skip
        entries.append(described(entry, saved.loaded.game))
    for error in bad:
        path = Path(error.path or "")
        try:
            when: datetime | None = datetime.fromtimestamp(os.stat(path).st_mtime)
        except OSError:
            when = None
        said = _("damaged, does not open: {error}").format(error=printable(error.message))
        entries.append(PastGame(when, printable(path.name), damaged=said))
    return entries


def server_games(me: str, infos: Sequence[TableInfo]) -> list[PastGame]:
    """The games a table server lists (``tables`` with its kept games) that ``me`` sat at and that
    are over or kept, newest first: their words come once each is fetched (:func:`fetched`)."""
    entries: list[PastGame] = []
    for info in infos:
        if not has_seat(info, me) or not (info.over or info.kept is not None):
            continue
        seat = next((s.seat for s in info.seats if s.user == me), None)
        if seat is None:
            seat = next((s.seat for s in info.seats if s.kept_for == me), None)
        when = _kept_time(info.kept) if info.kept is not None else None
        where = _("table {table}").format(table=printable(info.table))
        entries.append(PastGame(when, where, table=info.table, kept=info.kept is not None, you=seat,
                                result=_("fetching…")))  # fmt: skip
    return newest_first(entries)


def fetched(entry: PastGame, loaded: LoadedGame, last: float | None) -> PastGame:
    """A table server's game with its words, once its lines came and read back as a game; its
    time ``last`` (its last line's, seconds since the epoch) when the list did not say it (a
    table still listed)."""
    when = entry.when
    if when is None and last is not None:
        when = datetime.fromtimestamp(last)
    you = entry.you if entry.you is not None and entry.you < len(loaded.game.created.players) else None
    return described(replace(entry, when=when, you=you), loaded.game)


def unfetched(entry: PastGame, why: str) -> PastGame:
    """A table server's game whose lines did not come or did not read: one line saying why."""
    return replace(entry, result="", damaged=_("could not be fetched: {error}").format(error=printable(why)))


def _kept_time(stamp: str) -> datetime | None:
    """A time stamp as the server and game files write it (UTC, ISO 8601) in local time; None for
    one that does not read."""
    when = stamp_time(stamp)
    return None if when is None else when.astimezone().replace(tzinfo=None)


def newest_first(entries: Sequence[PastGame]) -> list[PastGame]:
    """Newest first; a game whose time is not known yet (a finished table still listed, not yet
    fetched) before the others: it is the latest of all."""
    return sorted(entries, key=lambda e: (e.when is None, e.when or datetime.min), reverse=True)


def when_words(entry: PastGame) -> str:
    """The date and time as the language writes them (as ``dvtui resume --list`` does)."""
    return moment(entry.when) if entry.when is not None else _("just now")
