"""The face a game shows the screens, whichever side keeps it. No Textual here.

A decision is handed in and the call returns at once: ``place`` and ``undo`` raise ``RuleError``
only for what is known on this side (not this seat's turn, a card not in the hand, nothing to take
back). Every decision that stands then comes back as one piece of :data:`News`, :class:`Decided`,
whoever made it: this keyboard, a bot, another terminal at the table, a stand-in. A decision that
does not stand comes back as :class:`Refused` (the table answered that another move came first,
or the save failed). So the screen never waits: a local game saves in a worker thread and a shared
table's answer comes over the network while the screen draws and takes keys.

What a game's side can do differs (a game of this machine plays its bots here, offers a rematch
and branches from its file; a seat at a shared table decides for itself only, and is told who is
there): the screens ask :class:`Abilities`, and a shared table's seat has a
:attr:`GameSession.table` side (who is there, what one may ask of the table) that a game of this
machine lacks; never which kind of session they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..bots import BotSpec
from ..engine import Event, Game, Placement
from ..store import LoadedGame, SaveFailed
from .session import PlayedMove, Standing


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision that stands, with every event it caused (a round's resolution included), and
    the game before and after it."""

    move: PlayedMove


@dataclass(frozen=True, slots=True)
class Refused:
    """The decision this side handed in does not stand: ``reason`` in words. ``save_failed``:
    it could not be saved, and the game has stopped there (:attr:`GameSession.save_failure`)."""

    reason: str
    save_failed: bool = False


@dataclass(frozen=True, slots=True)
class TableNews:
    """Who is at the table, or the connection's state, changed (see :meth:`GameSession.presence`);
    ``notice``: what the table said that answers no decision (a refused stand-in), to show once."""

    notice: str | None = None


@dataclass(frozen=True, slots=True)
class Spoken:
    """A line said at the table: ``speaker`` (the name the table knows them by), ``text`` (plain
    text, shown as it is, never as markup); ``seat``: the seat the speaker plays (None: a spectator)."""

    speaker: str
    text: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Redealt:
    """The table dealt its next game (a rematch everyone there accepted): ``session`` plays it
    from now on; the session that told this plays no more."""

    session: GameSession


News = Decided | Refused | TableNews | Spoken | Redealt
"""What a session tells the screen that plays it."""

Tell = Callable[[News], None]
"""Where a session's news goes: called on the loop the session was attached on."""


@dataclass(frozen=True, slots=True)
class Abilities:
    """What a game's side may do, asked by the screens instead of the session's kind.

    ``table``: the shared table's name (None: a game of this machine). ``branch``: how "play from
    here" makes its branch: ``file`` (from the game's file), ``lines`` (from the lines this side
    holds: the table's file is the server's), or None (no file: nothing to branch from).
    ``rematch``: None when the end screen's rematch and new game play here, else why not.
    ``hints``: None when ``h`` asks the strong bot, else why not. ``stand_ins``: this side may let a
    bot play an away seat. ``chat``: the longest line this side may say to the table (None: it
    may say none). ``leave_to_branch``: a
    branch means leaving a seat (asked first). ``close``: this side may end the table (its opener,
    or the server's own account). ``resign``: this side holds a seat it may give up to a bot.
    ``seats_here``: the seats people play at this keyboard."""

    seats_here: tuple[int, ...] = ()
    table: str | None = None
    branch: str | None = "file"
    rematch: str | None = None
    hints: str | None = None
    stand_ins: bool = False
    chat: int | None = None
    leave_to_branch: bool = False
    table_rematch: bool = False
    """The end screen's ``r`` proposes (or accepts) a rematch to the table, which deals it once
    everyone there has accepted (:meth:`GameSession.rematch`); ``rematch`` says why no game of this
    machine follows it here."""
    close: bool = False
    resign: bool = False


class SeatInfo(Protocol):
    """One seat as a table says it is (the protocol's ``presence`` entries)."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def stand_in(self) -> str | None: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def resigned(self) -> bool: ...
    @property
    def stand_in_by(self) -> str | None:
        """Who asked for the stand-in (a co-player; None: the table itself)."""
        ...

    @property
    def user(self) -> str | None:
        """Who holds the seat (an account's name, or ``web:NAME``; None: nobody)."""
        ...


@dataclass(frozen=True, slots=True)
class RematchVote:
    """A rematch proposed at a finished table: ``by``, the seat that proposed it; ``accepted``,
    the seats that have accepted it; ``awaited``, the seats of the people there who have not yet."""

    by: int
    accepted: Sequence[int]
    awaited: Sequence[int]


@dataclass(frozen=True, slots=True)
class Presence:
    """Who is at a shared table, as its server last said, and this side's place there.

    ``seat``: this side's seat (None: watching). ``status``: ``connected``, ``reconnecting`` or
    ``lost``. ``left``: why this side plays no more (taken over elsewhere, no server), else None.
    ``rejoin``: the command that brings this side back. ``waiting``: the table is a waiting room
    (no placement until its free people's seats are taken, or its opener starts it). ``stopped``:
    why the table takes no more decisions (closed, a failed save), else None."""

    table: str
    seat: int | None
    seats: Sequence[SeatInfo]
    spectators: int
    status: str
    left: str | None
    rejoin: str
    waiting: bool = False
    move_left: tuple[float, float] | None = None
    """The seconds the table said were left to the person to move, and when (``time.monotonic``);
    None: no clock runs (see :meth:`time_left`)."""
    rematch: RematchVote | None = None
    """A rematch proposed at the finished table (None: none is)."""
    stopped: str | None = None
    banks: Sequence[float] | None = None
    """Each seat's time bank as the table said it with ``move_left`` (None: the table has none)."""

    def time_left(self, now: float) -> float | None:
        """The seconds left to the person to move at ``now`` (monotonic), counted down on this side."""
        if self.move_left is None:
            return None
        left, said_at = self.move_left
        return max(0.0, left - (now - said_at))

    def bank_left(self, seat: int, now: float | None = None) -> float | None:
        """``seat``'s time bank (None: no bank) as the table said it; given ``now`` (monotonic),
        the bank of the seat to move at ``now``: it spends its own once its move time has run out,
        so it is never more than the turn's time left."""
        if self.banks is None or not 0 <= seat < len(self.banks):
            return None
        bank = self.banks[seat]
        left = None if now is None else self.time_left(now)
        return bank if left is None else min(bank, left)

    def awaited(self) -> list[str]:
        """The names of the people's seats a waiting room waits for (empty: it waits for nobody)."""
        if not self.waiting:
            return []
        return [s.name for s in self.seats if s.state == "free" and s.kind == "human"]

    def of(self, seat: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def away(self) -> list[int]:
        """The people's seats nobody plays now (away or never taken) with no bot standing in."""
        return [s.seat for s in self.seats if s.state in ("away", "free") and s.kind == "human" and s.stand_in is None]


class TableSide(Protocol):
    """What a seat (or a spectator) at a shared table has besides the game: who is there, and what
    it may ask of the table. Each request returns at once; the table's answer is news."""

    def presence(self) -> Presence:
        """Who is at the table, as its server last said."""
        ...

    def stand_in(self, seat: int, level: str | None) -> None:
        """Let bot ``level`` play ``seat`` while its person is away (None: stop)."""
        ...

    def start_table(self) -> None:
        """End the table's waiting room (its opener may; the table's answer is news)."""
        ...

    def say(self, text: str) -> None:
        """Say ``text`` to everyone at the table (only when :attr:`Abilities.chat`)."""
        ...

    def rematch(self, accept: bool) -> None:
        """Propose or accept (``accept``) the table's rematch of its finished game, or turn it down
        (only when :attr:`Abilities.table_rematch`); the table's answer is news."""
        ...

    def close_table(self) -> None:
        """End the table, its game kept unfinished (only when :attr:`Abilities.close`; the table's
        answer is news: it stops)."""
        ...

    def resign(self) -> None:
        """Give this side's seat up to a bot for the rest of the game (only when
        :attr:`Abilities.resign`; the table's presence then says so, and this side watches)."""
        ...

    def sit(self, seat: int) -> None:
        """Watching a table, take ``seat`` there in place (one's own again in its rematch after
        resigning: :func:`~dvtui.play.presence.seat_to_take`); the table's presence then says so."""
        ...


class GameSession(Protocol):
    """A game as the screens see it: the state to draw, whose turn it is, the decisions they hand
    in, and what this side may do (see the module's docstring)."""

    @property
    def game(self) -> Game:
        """The state after every decision that stands so far."""
        ...

    @property
    def events(self) -> Sequence[Event]:
        """Every event of the game so far, ``game_created`` first."""
        ...

    @property
    def path(self) -> Path | None:
        """The game's file on this machine, when it has one (the end screen and the palette name it)."""
        ...

    @property
    def notices(self) -> Sequence[str]:
        """What was recovered when the game was opened (a torn tail), to tell the player."""
        ...

    @property
    def names(self) -> list[str]: ...

    @property
    def bots(self) -> Sequence[tuple[BotSpec, int] | None]:
        """Each seat's bot and its seed, for the seats whose bot thinks on this side (None for a
        person, and for a bot that thinks elsewhere)."""
        ...

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        ...

    @property
    def saving(self) -> bool:
        """Whether decisions are saved at all (a preview's are not)."""
        ...

    @property
    def save_failure(self) -> SaveFailed | None:
        """The save that failed, once one has: the game has stopped there."""
        ...

    @property
    def abilities(self) -> Abilities: ...

    @property
    def deciding(self) -> bool:
        """A decision of this side was handed in and has not come back yet."""
        ...

    @property
    def table(self) -> TableSide | None:
        """The shared table this side sits (or watches) at (None: a game of this machine)."""
        ...

    def attach(self, tell: Tell) -> None:
        """Send news to ``tell`` from now on; called on the running loop the news is told on."""
        ...

    def is_bot(self, player: int) -> bool: ...

    def human_to_move(self) -> int | None:
        """The seat whose placement this side is asked for, if any."""
        ...

    def hint_seed(self, player: int) -> int: ...

    def standing_placements(self) -> list[Standing]: ...

    def undo_player(self) -> int | None: ...

    def why_no_undo(self) -> str: ...

    def place(self, placement: Placement, player: int | None = None) -> None: ...

    def undo(self, player: int) -> None: ...

    def as_file(self) -> LoadedGame:
        """The game as a file read back, what a branch is made from (raises GameFileError, OSError)."""
        ...

    def close(self) -> None:
        """Let go of the game (its file's lock, the table's connection); nothing more is saved after."""
        ...


def presence_of(session: GameSession) -> Presence | None:
    """Who is at ``session``'s table (None: a game of this machine, which has no table)."""
    table = session.table
    return None if table is None else table.presence()
