"""Settings of a game about to be played, without Textual: what the set-up screen settles and how
fast the table moves. ``dvtui new``/``resume`` check their flags against these before any UI is
imported, so a bad flag is refused at the speed of the headless commands."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import COLORS, Seat


@dataclass(slots=True)
class Pace:
    """How fast the table moves on its own; adjustable in play (``+``/``-``)."""

    bot_delay: float = 0.5
    """Seconds before a bot places (so people can follow)."""
    step_delay: float | None = 0.9
    """Seconds per column of a resolution; None waits for a key or a click."""


@dataclass(slots=True)
class SetupChoice:
    """What the set-up screen settles: seats clockwise, the first player, the seed (None: random)."""

    seats: list[Seat]
    first: int = 0
    seed: int | None = None


@dataclass(slots=True)
class SetupDefaults:
    seats: list[Seat] = field(default_factory=list)
    first: int = 0
    seed: int | None = None
    default_name: str = "Player"

    def initial_seats(self) -> list[Seat]:
        if self.seats:
            return list(self.seats)
        return [
            Seat(name=self.default_name, kind="human", color=COLORS[0]),
            Seat(name="Bot 1", kind="bot", color=COLORS[1], bot="greedy"),
            Seat(name="Bot 2", kind="bot", color=COLORS[2], bot="greedy"),
        ]


def default_player_name() -> str:
    """The person at the keyboard, as the set-up screen first names them: the login name, or
    "Player" (a login starting with "bot" would read as a bot's seat)."""
    import getpass

    try:
        name = getpass.getuser()
    except Exception:
        return "Player"
    name = name.strip().title()[:24]
    return name if name and not name.lower().startswith("bot") else "Player"
