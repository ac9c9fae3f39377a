"""Seats as people type them: ``"Ana,bot:greedy,bot:strong@0.5s"`` (clockwise, R2.3)."""

from __future__ import annotations

from .bots import UnknownBot, parse_bot
from .engine import COLORS, MAX_PLAYERS, MIN_PLAYERS, Seat


class SeatError(ValueError):
    """A players list that cannot seat a game; the message is shown as is."""


def parse_players(text: str, *, bots_only: bool = False) -> list[Seat]:
    """Each comma-separated entry is a human's name or ``bot:LEVEL[@BUDGET]``; colours go in
    R1.3's order, bots are named ``Bot 1``, ``Bot 2``, ... in seat order."""
    entries = [e.strip() for e in text.split(",")]
    if any(not e for e in entries):
        raise SeatError(f"empty entry in players list {text!r}")
    if not MIN_PLAYERS <= len(entries) <= MAX_PLAYERS:
        raise SeatError(f"Dolce Vita is for 3 to 5 players (R3), not {len(entries)}")
    seats: list[Seat] = []
    bots = 0
    names: set[str] = set()
    for i, entry in enumerate(entries):
        color = COLORS[i]
        if entry.lower().startswith("bot:"):
            try:
                spec = parse_bot(entry[4:])
            except UnknownBot as e:
                raise SeatError(str(e)) from None
            bots += 1
            name = f"Bot {bots}"
            seats.append(Seat(name=name, kind="bot", color=color, bot=str(spec)))
        else:
            if bots_only:
                raise SeatError(f"only bots can play here: {entry!r} is not bot:LEVEL")
            if len(entry) > 24:
                raise SeatError(f"name {entry!r} is longer than 24 characters")
            if entry.lower() in names:
                raise SeatError(f"two players are called {entry!r}")
            seats.append(Seat(name=entry, kind="human", color=color))
            names.add(entry.lower())
    return seats
