"""A table of the server's list in one line, as ``dvtui tables`` prints it: where its game is, each
seat and who holds it, its clock and spectators, each part a whole sentence of the catalogue."""

from __future__ import annotations

from ..describe import bot_level_name, moment
from ..i18n import N_, _
from ..printable import printable
from ..tables import SeatState, TableInfo
from ..tables.clock import duration_words, move_time_words
from ..tables.stamps import stamp_time

SEAT_STATES = {
    "free": N_("free"),
    "connected": N_("connected"),
    "away": N_("away"),
    "bot": N_("bot"),
}
"""A seat's state as the listing says it (the protocol's word is the key)."""


def table_line(info: TableInfo) -> str:
    """One table in one line: name, where the game is, each seat and who is there, spectators; each
    part a whole sentence of the catalogue, so a language orders and agrees its own words."""
    table = info.table
    names = [s.name for s in info.seats]
    if info.kept is not None:  # not a table: a game kept after one, as its file has it
        if info.over:
            where = _("game over")
        else:
            where = _("stopped in round {round}/{rounds}").format(round=info.round, rounds=info.rounds)
        said = _("{table}  kept: {state}, last line {line}  [{seats}]")
        line = _kept_moment(info.kept)
        return printable(said.format(table=table, state=where, line=line, seats=_("; ").join(names)))
    details = [_("spectators: {count}").format(count=info.spectators)]
    if info.rated:
        details.insert(0, _("rated"))
    if not info.hints:
        details.append(_("no hints"))
    if info.game > 1:
        details.append(_("game {number} (dvtui fetch {table} --game N: an earlier one)").format(
            number=info.game, table=table))  # fmt: skip
    if info.move_time is not None:
        details.append(_("move time {time}").format(time=move_time_words(info.move_time)))
    if info.time_bank is not None:
        bank = _("time bank {time}").format(time=move_time_words(info.time_bank))
        if info.increment:
            bank += " " + _("+{time} a move").format(time=move_time_words(info.increment))
        details.append(bank)
    said = _("{table}  {state}  [{seats}]  {details}")
    seats = _("; ").join(_seat_words(s) for s in info.seats)
    return printable(said.format(table=table, state=_state_words(info), seats=seats, details=_("; ").join(details)))


def _kept_moment(stamp: str) -> str:
    """A kept game's last line's time stamp (UTC, ISO 8601, as the file has it) in local time, as
    the language writes a date (``6 déc. 2026, 22 h 56``); a stamp that does not read is shown as
    it is."""
    when = stamp_time(stamp)
    return stamp if when is None else moment(when.astimezone())


def _state_words(info: TableInfo) -> str:
    """Where the table's game is: over, its waiting room, or whose turn in which round."""
    if info.over:
        return _("game over")
    if info.waiting:
        awaited = [s.name for s in info.seats if s.state == "free" and s.kind == "human"]
        said = _("waiting room, waiting for {names} (or 'dvtui tables start {table}')")
        return _left(info, said.format(names=_(", ").join(awaited), table=info.table))
    who = info.seats[info.to_move].name if info.to_move is not None else "?"
    state = _left(info, _("round {round}/{rounds}, {name} to move").format(
        round=info.round, rounds=info.rounds, name=who))  # fmt: skip
    mover = info.seats[info.to_move] if info.to_move is not None else None
    nobody = info.spectators == 0 and all(s.state != "connected" for s in info.seats)
    if mover is not None and (mover.state == "bot" or mover.stand_in is not None) and nobody:
        # the server's bots play only then
        state = _("{state} (a bot, waiting for somebody to join or watch)").format(state=state)
    return state


def _seat_words(seat: SeatState) -> str:
    """One seat: its name, its state and who holds it, the bot that plays it, whether it resigned."""
    state = _(SEAT_STATES[seat.state])
    what = state
    if seat.state != "bot":  # a bot seat has no owner to name
        if seat.user is not None and seat.user != seat.name:
            what = _("{state} ({user})").format(state=state, user=seat.user)
        elif seat.kept_for is not None:
            what = _("{state}, kept for {user}").format(state=state, user=seat.kept_for)
    if seat.bot is not None and seat.state == "connected":
        what = _("{state}, bot {level}").format(state=what, level=bot_level_name(seat.bot))
    if seat.stand_in is not None:
        what = _("{state}, {level} bot standing in").format(state=what, level=bot_level_name(seat.stand_in))
        if seat.stand_in_by is not None:
            what = _("{state} (asked by {user})").format(state=what, user=seat.stand_in_by)
    if seat.resigned:
        what = _("{state}, resigned").format(state=what)
    return _("{name}: {state}").format(name=seat.name, state=what)


def _left(info: TableInfo, state: str) -> str:
    """``state`` with the time left on the turn (or the waiting room) as the server listed it."""
    if info.move_left is None:
        return state
    return _("{state}, {time} left").format(state=state, time=duration_words(info.move_left))


__all__ = ["SEAT_STATES", "table_line"]
