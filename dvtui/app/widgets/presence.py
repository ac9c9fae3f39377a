"""Who is at a shared table, in the table's words: the banner's line (each seat connected, away,
free, a bot's, or a bot standing in, and how many watch), whose turn it is in the round bar, and
the connection's state at its right end. Only a session that has a table gives a
:class:`~dvtui.play.face.Presence`; a game of this machine has none, and none of this shows."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ...engine import Game
from ...play.face import Presence, SeatInfo
from ...printable import printable
from ...tables.clock import duration_words
from ..theme import ERROR, MUTED, seat_color
from .faces import seat_emphasis
from .hand import hint_text
from .panels import colour_names


def presence_line(presence: Presence, game: Game) -> Text:
    """Each seat and what it is now (``you`` for this side's), then how many watch."""
    words = []
    for s in presence.seats:
        if s.seat == presence.seat:
            what = "you"
        elif s.state == "bot":
            what = "bot"
        elif s.resigned:
            what = f"resigned, {s.stand_in or 'a'} bot playing on"
        elif s.stand_in is not None:
            what = f"{s.state}, {s.stand_in} bot standing in"
        elif s.state == "connected":
            what = f"bot {printable(s.bot)}, here" if s.bot is not None else "here"  # the server's words
        else:
            what = s.state  # away, free
        words.append(f"{s.name} ({what})")
    line = " · ".join(words)
    awaited = presence.awaited()
    if awaited:
        line = f"Waiting room, for {', '.join(awaited)} · {line}"
    if presence.spectators:
        line += f" · {presence.spectators} watching"
    players = game.created.players
    return colour_names(line, [p.name for p in players], [p.color for p in players])


def rematch_words(presence: Presence, names: list[str]) -> str | None:
    """The rematch proposed at the finished table, in words: who proposed it, who has accepted and
    who is awaited (None: none is proposed)."""
    vote = presence.rematch
    if vote is None:
        return None

    def who(seats: list[int]) -> str:
        return ", ".join("you" if seat == presence.seat else names[seat] for seat in seats)

    line = f"Rematch proposed by {who([vote.by])} · accepted: {who(list(vote.accepted))}"
    if vote.awaited:
        line += f" · awaited: {who(list(vote.awaited))}"
    return line


def waiting_words(state: SeatInfo, may_stand_in: bool) -> str | None:
    """The state of the seat the table waits for, when it is not a person at their terminal: a bot
    client, a bot standing in, away, free (never taken); and whether ``a`` may help."""
    if state.resigned:
        return f"resigned · {state.stand_in or 'a'} bot playing on"
    if state.stand_in is not None:
        return f"{'free' if state.state == 'free' else 'away'} · {state.stand_in} bot standing in"
    if state.state == "connected":
        return f"bot {printable(state.bot)} thinking…" if state.bot is not None else None
    if state.state not in ("away", "free"):
        return None
    words = "free seat" if state.state == "free" else "away"
    return words + (" · key a: a bot stands in" if may_stand_in else "")


def waiting_line(presence: Presence, game: Game, may_stand_in: bool) -> Text:
    """Beside the hand of a person's seat this side does not play: why this side plays no more (it
    left the table), or the seat's state in a few words (the name is at the hand's left)."""
    if presence.left is not None and not game.over:
        return Text(f"back here: {presence.rejoin}", style=Style(color=ERROR, italic=True))
    awaited = presence.awaited()
    if awaited:
        return hint_text(f"the table waits for {', '.join(awaited)}")
    state = presence.of(game.to_move)
    words = waiting_words(state, may_stand_in) if state is not None else None
    return hint_text(words or f"{game.created.players[game.to_move].name}'s turn")


def turn_status(
    presence: Presence, game: Game, *, mine: bool, bot: bool, may_stand_in: bool, now: float | None = None
) -> Text:
    """Whose turn it is, for the round bar: ``mine`` (this side is asked), a ``bot`` thinking; with
    the table's move clock, the time left at ``now`` (monotonic) after it."""
    status = _turn_words(presence, game, mine=mine, bot=bot, may_stand_in=may_stand_in)
    left = None if now is None or game.over or presence.left is not None else presence.time_left(now)
    if left is not None:
        status.append(f" · {duration_words(left)} left", style=Style(bold=left <= CLOCK_WARNING))
    return status


CLOCK_WARNING = 10.0
"""Seconds left from which the clock is drawn bold."""


def _turn_words(presence: Presence, game: Game, *, mine: bool, bot: bool, may_stand_in: bool) -> Text:
    if game.over:
        return Text("Game over", style=Style(bold=True))
    if presence.left is not None:
        return Text(f"Left the table: {presence.left}", style=Style(color=ERROR, bold=True))
    awaited = presence.awaited()
    if awaited:  # nobody places yet, this side neither
        return Text(f"Waiting for {', '.join(awaited)} to sit (or the opener to start)", style=Style(color=MUTED))
    seat = game.created.players[game.to_move]
    if mine:
        return Text(f"▶ Your turn, {seat.name}", style=seat_emphasis(seat.color))
    if bot:
        return Text(f"{seat.name} is thinking…", style=Style(color=seat_color(seat.color)))
    state = presence.of(game.to_move)
    words = waiting_words(state, may_stand_in) if state is not None else None
    if words is None:
        return Text(f"{seat.name} to play", style=Style(color=seat_color(seat.color)))
    return Text(f"{seat.name} to play ({words})", style=Style(color=MUTED))


def connection_words(presence: Presence) -> str:
    """The round bar's right end: the table's name, or that the client is finding the server again."""
    if presence.status == "reconnecting" and presence.left is None:
        return "reconnecting… "
    return f"table {presence.table} " if presence.seat is not None else f"watching {presence.table} "
