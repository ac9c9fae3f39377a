"""Seats as people type them: ``"Ana,bot:greedy,bot:strong@0.5s"`` (clockwise, R2.3)."""

from __future__ import annotations

from ..bots import parse_bot
from ..describe import default_bot_name
from ..engine import COLORS, MAX_PLAYERS, MIN_PLAYERS, Seat, SeatError, check_seats
from ..i18n import _
from ..rulewords import rule_words

__all__ = ["SeatError", "parse_players", "seat_message"]


def parse_players(text: str, *, bots_only: bool = False) -> list[Seat]:
    """Each comma-separated entry is a human's name or ``bot:LEVEL[@BUDGET]``; colours go in
        R1.3's order, bots are named ``Bot 1``, ``Bot 2``, ... in seat order (``Robot 1`` ... for a
    person who speaks French: :func:`dvtui.describe.default_bot_name`). The seats pass the same
        rules as a file's (:func:`dvtui.engine.check_seats`), so the game can always be opened again."""
    entries = [e.strip() for e in text.split(",")]
    if any(not e for e in entries):
        raise SeatError(_("empty entry in players list {players}").format(players=repr(text)))
    if not MIN_PLAYERS <= len(entries) <= MAX_PLAYERS:
        raise SeatError(_("Dolce Vita is for 3 to 5 players (R3), not {players}").format(players=len(entries)))
    seats: list[Seat] = []
    bots = 0
    for i, entry in enumerate(entries):
        color = COLORS[i]
        if entry.lower().startswith("bot:"):
            try:
                spec = parse_bot(entry[4:])
            except SeatError as e:
                raise SeatError(seat_message(e, i)) from None
            bots += 1
            seats.append(Seat(name=default_bot_name(bots), kind="bot", color=color, bot=str(spec)))
        else:
            if bots_only:
                raise SeatError(_("only bots can play here: {entry} is not bot:LEVEL").format(entry=repr(entry)))
            seats.append(Seat(name=entry, kind="human", color=color))
    try:
        check_seats(seats)
    except SeatError as e:
        raise SeatError(seat_message(e, e.seat)) from None
    return seats


def seat_message(error: SeatError, seat: int | None) -> str:
    """``error`` as a person setting up a game reads it: "seat 2: ..." (seats counted from 1)."""
    said = rule_words(error)
    return said if seat is None else _("seat {seat}: {error}").format(seat=seat + 1, error=said)
