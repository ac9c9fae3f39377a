"""Who is at a shared table, in words: what each seat is now (here, away, free, a bot, a bot
standing in, resigned). The full-screen banner and the plain mode's lines say the same words."""

from __future__ import annotations

from ..describe import bot_level_name
from ..engine import Game
from ..i18n import _, pgettext
from ..lookalike import shown_as
from ..printable import printable
from .face import Presence, SeatInfo


def seat_state(state: str) -> str:
    """A seat's state as the table names it (``away``, ``free``) in the language spoken now."""
    names = {"away": pgettext("seat", "away"), "free": pgettext("seat", "free"), "connected": pgettext("seat", "here"),
             "bot": pgettext("seat", "bot")}  # fmt: skip
    return names.get(state, printable(state))


def seat_words(presence: Presence, s: SeatInfo) -> str:
    """What seat ``s`` is now (``you`` for this side's own; who asked for a co-player's stand-in)."""
    if s.seat == presence.seat:
        return _("you")
    if s.state == "bot":
        return _("bot")
    if s.resigned:
        return (_("resigned, {level} bot playing on").format(level=bot_level_name(s.stand_in)) if s.stand_in else
                _("resigned, a bot playing on"))  # fmt: skip
    if s.stand_in is not None:
        what = (_("free, {level} bot standing in") if s.state == "free" else
                _("away, {level} bot standing in")).format(level=bot_level_name(s.stand_in))  # fmt: skip
        if s.stand_in_by is not None:
            what = _("{state} (asked by {user})").format(state=what, user=printable(s.stand_in_by))
        return what
    if s.state == "connected":  # (a bot's level is the server's word)
        return _("bot {level}, here").format(level=bot_level_name(printable(s.bot))) if s.bot is not None else _("here")
    return seat_state(s.state)


def seat_name(presence: Presence, s: SeatInfo) -> str:
    """Seat ``s``'s name as shown, as chat shows a speaker: the account that holds it beside the
    name whenever the name is not that account's, and a mark after a name that mixes scripts, so
    a seat named ``Ana`` that Mal holds reads as Mal's wherever it is named (this side's own seat
    keeps its bare name: its person knows who they are)."""
    return s.name if s.seat == presence.seat else shown_as(s.name, s.user)


def seat_to_take(presence: Presence | None, game: Game, held: int | None) -> int | None:
    """The seat ``held`` (the one this side last sat at) when this side, watching the table now,
    may take it again in place: a person's seat of the game being played, not resigned in it (a
    rematch deals a new game, where the seat is its owner's again), and nobody else's at it now."""
    if presence is None or presence.seat is not None or held is None or game.over:
        return None
    if presence.left is not None or presence.stopped is not None or presence.status != "connected":
        return None
    state = presence.of(held)
    if state is None or state.kind != "human" or state.resigned or state.state not in ("free", "away"):
        return None
    return held


__all__ = ["seat_name", "seat_state", "seat_to_take", "seat_words"]
