"""Who is at a shared table, in the table's words: the banner's line (each seat connected, away,
free, a bot's, or a bot standing in, and how many watch), whose turn it is in the round bar, and
the connection's state at its right end. Only a session that has a table gives a
:class:`~dvtui.play.face.Presence`; a game of this machine has none, and none of this shows."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ...describe import bot_level_name
from ...engine import Game
from ...i18n import _, ngettext, pgettext
from ...play.face import Presence, SeatInfo
from ...play.presence import seat_name, seat_words
from ...printable import printable
from ...tables.clock import duration_words
from ..theme import ERROR, MUTED, seat_color
from .faces import seat_emphasis
from .hand import hint_text
from .panels import colour_names


def presence_line(presence: Presence, game: Game) -> Text:
    """Each seat and what it is now (``you`` for this side's), then how many watch; once the table
    has stopped (closed), that nobody plays there any more: who was there last is moot."""
    if presence.stopped is not None and not game.over:
        return Text(
            _("Nobody plays on at table {table}: its game stays as it is.").format(table=presence.table),
            style=Style(color=ERROR),
        )
    words = [f"{seat_name(presence, s)} ({seat_words(presence, s)}{_bank_words(presence, s)})" for s in presence.seats]
    line = " · ".join(words)
    awaited = presence.awaited()
    if awaited:
        line = _("Waiting room, for {names} · {seats}").format(names=", ".join(awaited), seats=line)
    if presence.spectators:
        watching = ngettext("{n} watching", "{n} watching", presence.spectators).format(n=presence.spectators)
        line += f" · {watching}"
    if game.created.rated:
        line += " · " + _("rated")
    players = game.created.players
    return colour_names(line, [p.name for p in players], [p.color for p in players])


def _bank_words(presence: Presence, seat: SeatInfo) -> str:
    """``, bank 10:00`` after a person's seat's state at a table with time banks (empty: none, or
    a bot's seat, which has no clock)."""
    bank = None if seat.kind == "bot" else presence.bank_left(seat.seat)
    return "" if bank is None else ", " + _("bank {time}").format(time=duration_words(bank))


def rematch_words(presence: Presence, names: list[str]) -> str | None:
    """The rematch proposed at the finished table, in words: who proposed it, who has accepted and
    who is awaited (None: none is proposed)."""
    vote = presence.rematch
    if vote is None:
        return None

    def who(seats: list[int]) -> str:
        return ", ".join(_("you") if seat == presence.seat else names[seat] for seat in seats)

    line = _("Rematch proposed by {proposer} · accepted: {accepted}").format(
        proposer=who([vote.by]), accepted=who(list(vote.accepted))
    )
    if vote.awaited:
        line += " · " + _("awaited: {names}").format(names=who(list(vote.awaited)))
    return line


def waiting_words(state: SeatInfo, may_stand_in: bool) -> str | None:
    """The state of the seat the table waits for, when it is not a person at their terminal: a bot
    client, a bot standing in, away, free (never taken); and whether ``a`` may help."""
    if state.resigned:
        return (
            _("resigned · {level} bot playing on").format(level=bot_level_name(state.stand_in))
            if state.stand_in
            else _("resigned · a bot playing on")
        )
    if state.stand_in is not None:
        return (
            _("free · {level} bot standing in") if state.state == "free" else _("away · {level} bot standing in")
        ).format(level=bot_level_name(state.stand_in))
    if state.state == "connected":
        if state.bot is None:
            return None
        return _("bot {level} thinking…").format(level=bot_level_name(printable(state.bot)))
    if state.state not in ("away", "free"):
        return None
    words = _("free seat") if state.state == "free" else pgettext("seat", "away")
    return words + (" · " + _("key a: a bot stands in") if may_stand_in else "")


def waiting_line(presence: Presence, game: Game, may_stand_in: bool) -> Text:
    """Beside the hand of a person's seat this side does not play: why this side plays no more (it
    left the table), or the seat's state in a few words (the name is at the hand's left)."""
    if presence.left is not None and not game.over:
        return Text(_("back here: {command}").format(command=presence.rejoin), style=Style(color=ERROR, italic=True))
    if presence.stopped is not None and not game.over:
        return Text(_("no more moves · q leaves"), style=Style(color=ERROR, italic=True))
    awaited = presence.awaited()
    if awaited:
        return hint_text(_("the table waits for {names}").format(names=", ".join(awaited)))
    state = presence.of(game.to_move)
    words = waiting_words(state, may_stand_in) if state is not None else None
    return hint_text(words or _("{name}'s turn").format(name=game.created.players[game.to_move].name))


def turn_status(
    presence: Presence, game: Game, *, mine: bool, bot: bool, may_stand_in: bool, now: float | None = None
) -> Text:
    """Whose turn it is, for the round bar: ``mine`` (this side is asked), a ``bot`` thinking; with
    the table's move clock, the time left at ``now`` (monotonic) after it."""
    status = _turn_words(presence, game, mine=mine, bot=bot, may_stand_in=may_stand_in)
    gone = presence.left is not None or presence.stopped is not None
    left = None if now is None or game.over or gone else presence.time_left(now)
    if left is not None:
        bank = presence.bank_left(game.to_move, now)
        move = left if bank is None else left - bank  # the move time is spent first, then the bank
        said = _("{time} left").format(time=duration_words(move))
        if bank is not None:
            said += " · " + _("bank {time}").format(time=duration_words(bank))
        status.append(f" · {said}", style=Style(bold=left <= CLOCK_WARNING))
    return status


CLOCK_WARNING = 10.0
"""Seconds left from which the clock is drawn bold."""


def _turn_words(presence: Presence, game: Game, *, mine: bool, bot: bool, may_stand_in: bool) -> Text:
    if game.over:
        return Text(_("Game over"), style=Style(bold=True))
    if presence.left is not None:
        return Text(_("Left the table: {why}").format(why=presence.left), style=Style(color=ERROR, bold=True))
    if presence.stopped is not None:
        return Text(_("Table stopped: {why}").format(why=presence.stopped), style=Style(color=ERROR, bold=True))
    awaited = presence.awaited()
    if awaited:  # nobody places yet, this side neither
        said = _("Waiting for {names} to sit (or the opener to start)").format(names=", ".join(awaited))
        return Text(said, style=Style(color=MUTED))
    seat = game.created.players[game.to_move]
    if mine:
        return Text(_("▶ Your turn, {name}").format(name=seat.name), style=seat_emphasis(seat.color))
    if bot:
        return Text(_("{name} is thinking…").format(name=seat.name), style=Style(color=seat_color(seat.color)))
    state = presence.of(game.to_move)
    words = waiting_words(state, may_stand_in) if state is not None else None
    if words is None:
        return Text(_("{name} to play").format(name=seat.name), style=Style(color=seat_color(seat.color)))
    return Text(_("{name} to play ({state})").format(name=seat.name, state=words), style=Style(color=MUTED))


def connection_words(presence: Presence) -> str:
    """The round bar's right end: the table's name, or that the client is finding the server again."""
    if presence.status == "reconnecting" and presence.left is None:
        return _("reconnecting… ")
    said = _("table {table} ") if presence.seat is not None else _("watching {table} ")
    return said.format(table=presence.table)
