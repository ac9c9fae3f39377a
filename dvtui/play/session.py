"""A game being played, synchronously: the state, its save file, and who decides what. No Textual.

:class:`PlaySession` hands a decision to the engine and its events to the store, and only then
returns: a save that fails leaves the game as it was before the decision, never ahead of its file.
The table server plays each table with one (in a thread), ``resume --headless`` plays bots with
one, and :class:`~dvtui.play.local.LocalSession` puts one behind the screens' face, saving in a
worker so that the screen never waits.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..bots import BotSpec, bot_seed
from ..engine import (
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    NothingToUndo,
    Phase,
    Placement,
    PlacementUndone,
    RoundEnded,
    RuleError,
)
from ..i18n import _
from ..store import GameWriter, LoadedGame, SaveFailed
from .autoplay import bot_players, bot_specs


class Saver(Protocol):
    """What a session saves through: a game's one writer (:class:`~dvtui.store.GameWriter` for a
    file; a table server's store may bring its own, e.g. rows in a database)."""

    failed: SaveFailed | None

    def append(self, events: Sequence[Event]) -> list[bytes]:
        """Make ``events`` durable, then return their lines; raises SaveError (SaveFailed: for good)."""
        ...

    def close(self) -> None: ...


@dataclass(slots=True)
class PlayedMove:
    """A decision as played: its events (derived ones included), the state just before it, from
    which the resolution is replayed column by column on screen, and the state after it."""

    events: list[Event]
    before: Game
    after: Game
    lines: list[bytes] = field(default_factory=list)
    """The lines that hold it in the game's file, as its writer wrote them (a table server sends
    those on); none when nothing is saved."""


@dataclass(slots=True)
class Standing:
    """A placement of the round being played that has not been taken back."""

    placed: CardPlaced
    locked: bool = False
    """Another human has placed after it: its player can no longer take it back."""


@dataclass(slots=True)
class PlaySession:
    """One live game and its writer (``writer`` None: nothing is saved, for previews and tests)."""

    game: Game
    writer: Saver | None
    path: Path | None = None
    events: list[Event] = field(default_factory=list)
    """Every event of the game so far, for the log."""
    notices: list[str] = field(default_factory=list)
    """What the store recovered when the file was read (a torn tail), to tell the player."""
    bots: list[tuple[BotSpec, int] | None] = field(init=False)
    """Each seat's bot and its seed (None for a person)."""
    rewriter: Callable[[int], Saver] | None = None
    """How a writer is made again for a game held again after another server wrote to it (given
    the number of lines the game has then: see :meth:`write_again`); None: never."""

    def __post_init__(self) -> None:
        self.bots = bot_specs(self.game)

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def start(cls, created: GameCreated, path: Path | None) -> PlaySession:
        """A new game; with ``path`` its file is created (exclusively) holding ``game_created``."""
        writer = GameWriter.create(path, created) if path is not None else None
        notices = list(getattr(writer, "notices", []))
        with _closed_on_error(writer):
            return cls(Game(created), writer, path, [created], notices)

    @classmethod
    def resume(cls, loaded: LoadedGame) -> PlaySession:
        """Continue a game read from its file (the writer repairs a torn tail first)."""
        writer = GameWriter.resume(loaded)
        notices = [*loaded.notices, *getattr(writer, "notices", [])]
        with _closed_on_error(writer):
            return cls(loaded.game, writer, Path(loaded.path), list(loaded.events), notices)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    @property
    def saving(self) -> bool:
        return self.writer is not None

    @property
    def save_failure(self) -> SaveFailed | None:
        """The save that failed, once one has: the game has stopped (the writer refuses the rest)."""
        return self.writer.failed if self.writer is not None else None

    # -- who is who ------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.game.created.players]

    def is_bot(self, player: int) -> bool:
        return self.bots[player] is not None

    @property
    def humans(self) -> list[int]:
        return [p for p in range(self.game.n) if not self.is_bot(p)]

    def human_to_move(self) -> int | None:
        """The human whose placement is awaited, if any."""
        game = self.game
        if game.phase != Phase.PLACEMENT or self.is_bot(game.to_move):
            return None
        return game.to_move

    def hint_seed(self, player: int) -> int:
        """The seed the strong bot thinks with when it advises ``player``: fixed per seat, so the
        same position always gets the same advice."""
        return bot_seed(self.game.created.seed or 0, player)

    # -- decisions -------------------------------------------------------------------------------

    def place(self, placement: Placement, player: int | None = None, *, stand_in: str | None = None) -> PlayedMove:
        """Place, save, and return the move; raises RuleError (nothing changed) or SaveError
        (the game is put back as it was: the file never lags behind the screen). ``stand_in``: the
        bot level placing for an absent human (a shared table), noted on ``card_placed``."""
        before = self.game.copy()
        events = self.game.place(placement, player=player, stand_in=stand_in)
        lines = self._save(events, before)
        return PlayedMove(events, before, self.game, lines)

    def standing_placements(self) -> list[Standing]:
        """This round's placements still on the table, oldest first, each marked ``locked`` once
        another human has placed after it, even if that placement was taken back since: at one
        keyboard a move stays open to its player only until the next person commits theirs.
        Derived from the events, so a resumed game keeps the same locks."""
        events = self.events
        start = 0
        for i in range(len(events) - 1, -1, -1):
            if isinstance(events[i], (RoundEnded, GameCreated)):
                start = i + 1
                break
        standing: list[Standing] = []
        for event in events[start:]:
            if isinstance(event, CardPlaced):
                if not self.is_bot(event.player):
                    for earlier in standing:
                        if earlier.placed.player != event.player and not self.is_bot(earlier.placed.player):
                            earlier.locked = True
                standing.append(Standing(event))
            elif isinstance(event, PlacementUndone) and standing:
                standing.pop()
        return standing

    def _latest_human(self) -> Standing | None:
        return next((s for s in reversed(self.standing_placements()) if not self.is_bot(s.placed.player)), None)

    def undo_player(self) -> int | None:
        """Whose placement ``u`` takes back: the human who placed last this round (with the bots'
        answers since), as long as no other human has placed after them. None: nothing can go."""
        if self.game.phase != Phase.PLACEMENT:
            return None
        latest = self._latest_human()
        if latest is None or latest.locked:
            return None
        return latest.placed.player

    def at_keyboard(self) -> int | None:
        """The person the table is speaking to: the human to move, or else the human who placed
        last this round (a bot is answering them)."""
        human = self.human_to_move()
        if human is not None:
            return human
        latest = self._latest_human()
        return None if latest is None else latest.placed.player

    def why_no_undo(self) -> str:
        """Why ``u`` can take nothing back now, said to the person at the keyboard."""
        game = self.game
        if game.over:
            return _("The game is over: nothing can be taken back.")
        if game.phase != Phase.PLACEMENT:
            return _("The round is being resolved: nothing can be taken back.")
        names = self.names
        who = self.at_keyboard()
        latest = self._latest_human()
        if latest is not None and latest.locked:
            owner = latest.placed.player
            if who is not None and who != owner:
                said = _("{name} has nothing to take back; {owner}'s move can no longer be undone.")
                return said.format(name=names[who], owner=names[owner])
            said = _("{owner}'s move can no longer be undone: another player has placed since.")
            return said.format(owner=names[owner])
        if game.round > 1 and not game.placements:
            if who is None:
                return _("There is nothing to take back: round {round} has just begun (a resolution stands).").format(
                    round=game.round
                )
            said = _("{name} has nothing to take back: round {round} has just begun (a resolution stands).")
            return said.format(name=names[who], round=game.round)
        if who is None:
            return _("There is nothing to take back this round.")
        return _("{name} has nothing to take back this round.").format(name=names[who])

    def undo(self, player: int) -> PlayedMove:
        """Take back ``player``'s latest placement of this round, and the bots' placements made
        after it (they answered a move that no longer stands), returned as one move (its events
        are the ``placement_undone`` ones). Never another human's move, never a move another
        human has placed after, never across a resolution. Each undo is saved before the next
        one is made. A refusal says why in words with the seats' names, and names its code and
        seat for a table server to send (which has its own words for it)."""
        game = self.game
        if game.phase != Phase.PLACEMENT or not game.placements:
            said = _("nothing to take back: undo never crosses a resolution")
            raise NothingToUndo(said, code="undo_resolved")
        names = self.names
        count = 0
        for standing in reversed(self.standing_placements()):
            placed = standing.placed
            count += 1
            if placed.player == player:
                if standing.locked:
                    said = _("{owner}'s move can no longer be undone: another player has placed since")
                    raise NothingToUndo(said.format(owner=names[player]), code="undo_locked", fields={"seat": player})
                break
            if not self.is_bot(placed.player):
                said = _("{name} has placed since; only your own latest placement can go")
                fields = {"seat": placed.player}
                raise NothingToUndo(said.format(name=names[placed.player]), code="undo_placed_since", fields=fields)
        else:
            said = _("{name} has placed nothing this round").format(name=names[player])
            raise NothingToUndo(said, code="undo_nothing_placed", fields={"seat": player})
        first = game.copy()
        done: list[Event] = []
        lines: list[bytes] = []
        for _step in range(count):
            before = game.copy()
            event = game.undo()
            lines += self._save([event], before)
            done.append(event)
        return PlayedMove(done, first, self.game, lines)

    def _save(self, events: Sequence[Event], before: Game) -> list[bytes]:
        """Save ``events`` (already applied to the game: it is put back to ``before`` if the save
        fails), then count them in; their lines."""
        lines: list[bytes] = []
        if self.writer is not None:
            try:
                lines = self.writer.append(events)
            except BaseException:
                self.game = before
                raise
        self.events.extend(events)
        return lines

    # -- decisions made elsewhere ----------------------------------------------------------------

    def write(self, events: Sequence[Event]) -> list[bytes]:
        """Save ``events``, decided on a copy of this game, and return their lines, without moving
        the game on: :meth:`take` does that once they are saved. Touches only the writer, so a
        worker thread may save while the game is drawn; raises SaveError (the game is as it was)."""
        return self.writer.append(events) if self.writer is not None else []

    def take(self, events: Sequence[Event], lines: Sequence[bytes] = ()) -> PlayedMove:
        """The one way in for what was decided elsewhere: ``events`` saved by :meth:`write`, sent
        by a table, or written by another server, with ``lines``, the lines that hold them in the
        game's file. Folded onto a copy of the game: a RuleError changes nothing. A saved game
        takes no event without its lines: the file is never behind the game."""
        if events and self.writer is not None and not lines:
            raise ValueError("events taken into a saved game come with the lines that hold them")
        before = self.game
        after = before.copy()
        for event in events:
            after.apply(event)
        self.game = after
        self.events.extend(events)
        return PlayedMove(list(events), before, after, list(lines))

    def write_again(self, lines: int) -> None:
        """Write on after the game's first ``lines`` lines with a new writer (the last one was
        closed when another server held the game): made by :attr:`rewriter`."""
        if self.rewriter is None:
            raise ValueError("this game's writer is never made again")
        self.writer = self.rewriter(lines)

    # -- bots alone ------------------------------------------------------------------------------

    def play_bots(
        self, stop: Callable[[], object], pause: float = 0.0, *, saved: Callable[[list[bytes]], object] | None = None
    ) -> bool:
        """Let the bots play on, each decision saved as it is made, until the game is over or a
        person is to move (True), or until ``stop()``, asked before the first decision and after
        each saved one, is true (False). ``pause``: seconds between two decisions, after which
        ``stop()`` is asked again. ``saved``: told each decision's lines as the file has them. A
        save that fails raises ``SaveError``; this session is then ahead of its file and is not to
        be played on (its writer refuses every later save).

        Derived events owed at the start (a file cut after a round's last placement) come first:
        they need no one."""

        def save(events: list[Event]) -> None:
            lines = self.writer.append(events) if self.writer is not None else []
            self.events.extend(events)
            if saved is not None:
                saved(lines)
            if stop():
                raise _Stopped
            if pause and not self.game.over:
                time.sleep(pause)
                if stop():
                    raise _Stopped

        if stop():
            return False
        try:
            self.game.play(bot_players(self.game), save)
        except _Stopped:
            return False
        return True


class _Stopped(Exception):
    """``stop()`` said so: leave the bots' loop between two decisions."""


def preview(game: Game, player: int, placement: Placement) -> ColumnResolved | None:
    """What the placement's column would do if ``player`` made it and the round ended now (the
    engine's own projection; the UI never re-derives R5/R6). None when the placement is illegal."""
    trial = game.copy()
    try:
        events = trial.place(placement, player=player)
    except RuleError:
        return None
    resolved = [e for e in events if isinstance(e, ColumnResolved)]
    if not resolved:
        resolved, _ = trial.projected()
    return next((e for e in resolved if e.column == placement.column), None)


@contextlib.contextmanager
def _closed_on_error(writer: Saver | None) -> Iterator[None]:
    """Close ``writer`` (releasing the game's lock) if making the session fails: a session that
    never existed must not keep its game locked."""
    try:
        yield
    except BaseException:
        if writer is not None:
            writer.close()
        raise
