"""Settings of a game about to be played, without Textual: what the set-up screen settles and how
fast the table moves. ``dvtui new``/``resume`` check their flags against these before any UI is
imported, so a bad flag is refused at the speed of the headless commands.

The pace is the person's, not the game's: it is kept in their settings file (the platform's user
config directory, or ``$DVTUI_DATA_DIR`` when that is set, so tests and portable installs keep
everything in one place), never in a ``.dvr`` file, which records the game's decisions for anyone
who reads it and is the same whoever watches it and how fast.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ..describe import decimal
from ..engine import COLORS, MAX_NAME_CHARS, Seat, SeatError, check_name
from ..i18n import _, language
from ..settings import settings_path

PACES: tuple[tuple[float, float], ...] = (
    (0.0, 0.1),
    (0.1, 0.2),
    (0.2, 0.4),
    (0.3, 0.6),
    (0.5, 0.9),
    (0.8, 1.4),
    (1.2, 2.0),
    (2.0, 3.0),
    (3.0, 4.5),
    (4.0, 6.0),
)
"""The steps ``+``/``-`` move along, fastest first: (seconds a bot waits, seconds a column of the
resolution shows). Every value has one decimal, so the pace always reads in one format."""
DEFAULT_PACE = PACES[4]
MAX_BOT_DELAY = 10.0
"""The longest ``--bot-delay`` (and saved bot delay) accepted, in seconds."""


@dataclass(slots=True)
class Pace:
    """How fast the table moves on its own; adjustable in play (``+``/``-``)."""

    bot_delay: float = DEFAULT_PACE[0]
    """Seconds before a bot places (so people can follow)."""
    step_delay: float | None = DEFAULT_PACE[1]
    """Seconds per column of a resolution; None waits for a key or a click."""
    hold_round_end: bool = True
    """In a game with a human, the round's summary waits for a key (a bots-only game goes on)."""

    def change(self, direction: int) -> str | None:
        """One step of :data:`PACES` slower (``direction`` > 0) or faster; returns "slowest" or
        "fastest" when the pace is now at that end (pressing on there changes nothing)."""
        if direction > 0:
            level = next((p for p in PACES if p[0] > self.bot_delay), None)
        else:
            level = next((p for p in reversed(PACES) if p[0] < self.bot_delay), None)
        if level is not None:
            self.bot_delay = level[0]
            if self.step_delay is not None:
                self.step_delay = level[1]
        if direction > 0 and self.bot_delay >= PACES[-1][0]:
            return _("slowest")
        if direction <= 0 and self.bot_delay <= PACES[0][0]:
            return _("fastest")
        return None

    def words(self) -> str:
        """``"bots wait 0.5 s, a column shows 0.9 s"``."""
        step = self.step_delay
        if step is None:
            return _("bots wait {bots} s, each column waits for a key").format(bots=decimal(self.bot_delay, 1))
        return _("bots wait {bots} s, a column shows {column} s").format(
            bots=decimal(self.bot_delay, 1), column=decimal(step, 1)
        )


class _Settings(msgspec.Struct, omit_defaults=True):
    """The settings file: what the person chose last (unknown keys are ignored)."""

    bot_delay: float = DEFAULT_PACE[0]
    step_delay: float | None = DEFAULT_PACE[1]
    hold_round_end: bool = True
    notify: bool = False
    """At a shared table, ask the terminal for a desktop notification when it becomes one's turn."""
    language: str | None = None
    """The language dvtui speaks (``"fr"``), after ``--lang`` and ``DVTUI_LANG`` (read by
    :func:`dvtui.settings.saved_language`; kept here so that saving the pace keeps it)."""
    azerty: bool | None = None
    """An AZERTY keyboard: its top row, unshifted, picks cards 1-6 as the digits do (None: as the
    language has it, on for French, whose keyboards are AZERTY in France and Belgium)."""
    plain: bool = False
    """Play line by line, without the full screen (read by :func:`dvtui.settings.saved_plain`;
    kept here so that saving the pace keeps it)."""


def _saved() -> _Settings | None:
    """The settings file, or None when there is none or it cannot be read."""
    try:
        return msgspec.json.decode(settings_path().read_bytes(), type=_Settings)
    except (OSError, msgspec.DecodeError):
        return None


def load_notify() -> bool:
    """Whether the person asked for a desktop notification on their turn (off unless they did)."""
    saved = _saved()
    return saved is not None and saved.notify


AZERTY_LANGUAGES = frozenset({"fr"})
"""The languages whose speakers' keyboards are AZERTY unless they say otherwise (a Swiss or a
Canadian keyboard is not: the set-up screen's switch, kept in the settings, turns it off)."""


def load_azerty() -> bool:
    """Whether the person's keyboard is AZERTY: ``"azerty"`` in the settings file, else whether
    the language spoken now is one whose keyboards are."""
    saved = _saved()
    if saved is not None and saved.azerty is not None:
        return saved.azerty
    return language() in AZERTY_LANGUAGES


def save_azerty(on: bool) -> None:
    """Remember the AZERTY option, the other settings as they are."""
    _write(msgspec.structs.replace(_saved() or _Settings(), azerty=on))


def load_pace(bot_delay: float | None = None) -> Pace:
    """The pace the person chose last (defaults when there is no settings file, or it cannot be
    read: a preference is never worth refusing to start over); ``bot_delay`` (``--bot-delay``)
    wins over it."""
    pace = Pace()
    saved = _saved()
    if saved is not None:
        if 0 <= saved.bot_delay <= MAX_BOT_DELAY:
            pace.bot_delay = saved.bot_delay
        if saved.step_delay is None or 0 < saved.step_delay <= PACES[-1][1]:
            pace.step_delay = saved.step_delay
        pace.hold_round_end = saved.hold_round_end
    if bot_delay is not None:
        pace.bot_delay = bot_delay
    return pace


def save_pace(pace: Pace) -> None:
    """Remember ``pace`` for the next game and the next resume (written whole, then renamed over
    the old file: a crash leaves the old settings or the new ones, never half a file)."""
    kept = _saved() or _Settings()  # the settings that are not the pace stay as they are
    _write(msgspec.structs.replace(kept, bot_delay=pace.bot_delay, step_delay=pace.step_delay,
                                   hold_round_end=pace.hold_round_end))  # fmt: skip


def _write(settings: _Settings) -> None:
    """The settings file written whole, then renamed over the old one."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = msgspec.json.encode(settings)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data + b"\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
    """The person at the keyboard, as the set-up screen first names them: ``DVTUI_PLAYER`` (the
    user a login proxy named to ``dvtui web`` for this browser tab), else the login name, or
    "Player" (a name starting with "bot" would read as a bot's seat)."""
    import getpass

    try:
        name = os.environ.get("DVTUI_PLAYER") or getpass.getuser()
    except Exception:
        return "Player"
    name = name.strip().title()[:MAX_NAME_CHARS]
    if name.lower().startswith("bot"):
        return "Player"
    try:
        check_name(name, human=True)  # the seat rules every name passes
    except SeatError:
        return "Player"
    return name
