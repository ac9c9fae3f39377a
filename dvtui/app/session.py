"""A game being played: the state, its save file, and who decides what. No Textual here.

The table screen turns keys and clicks into calls on :class:`PlaySession`; the session hands them
to the engine and the events to the store, and only then returns. So when the screen asks for the
next decision, everything before it is already on disk (issue 3, autosave). A save that fails
leaves the game as it was before the decision, never ahead of its file.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..bots import BotSpec, bot_seed
from ..engine import ColumnResolved, Event, Game, GameCreated, NothingToUndo, PlacementUndone
from ..engine.game import PLACEMENT
from ..headless import bot_specs
from ..store import GameWriter, LoadedGame
from .describe import seat_tags


@dataclass(slots=True)
class Move:
    """A decision as played: its events (derived ones included) and the state just before it,
    from which the resolution is replayed column by column on screen."""

    events: list[Event]
    before: Game

    @property
    def resolves(self) -> bool:
        return len(self.events) > 1


@dataclass(slots=True)
class PlaySession:
    """One live game and its writer (``writer`` None: nothing is saved, for previews and tests)."""

    game: Game
    writer: GameWriter | None
    path: Path | None = None
    history: list[Event] = field(default_factory=list)
    """Every event of the game so far, for the log."""
    notices: list[str] = field(default_factory=list)
    """What the store recovered when the file was read (a torn tail), to tell the player."""
    bots: list[tuple[BotSpec, int] | None] = field(init=False)
    """Each seat's bot and its seed (None for a person)."""

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

    # -- who is who ------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.game.created.players]

    @property
    def tags(self) -> list[str]:
        return seat_tags(self.names)

    def is_bot(self, player: int) -> bool:
        return self.bots[player] is not None

    @property
    def humans(self) -> list[int]:
        return [p for p in range(self.game.n) if not self.is_bot(p)]

    def human_to_move(self) -> int | None:
        """The human whose placement is awaited, if any."""
        game = self.game
        if game.phase != PLACEMENT or self.is_bot(game.to_move):
            return None
        return game.to_move

    def hint_seed(self, player: int) -> int:
        """The seed the strong bot thinks with when it advises ``player``: fixed per seat, so the
        same position always gets the same advice."""
        return bot_seed(self.game.created.seed or 0, player)

    # -- decisions -------------------------------------------------------------------------------

    def place(self, card: int, column: int, player: int | None = None) -> Move:
        """Place, save, and return the move; raises RuleError (nothing changed) or SaveError
        (the game is put back as it was: the file never lags behind the screen)."""
        before = self.game.copy()
        events = self.game.place(column, card, player=player)
        self._save(events, before)
        return Move(events, before)

    def undo_player(self) -> int | None:
        """Whose placement ``u`` takes back: the human to move, or else (a bot is about to move)
        the human who placed last this round."""
        game = self.game
        if game.phase != PLACEMENT:
            return None
        if not self.is_bot(game.to_move):
            return game.to_move
        for placed in reversed(game.placements):
            if not self.is_bot(placed.player):
                return placed.player
        return None

    def undo(self, player: int) -> list[PlacementUndone]:
        """Take back ``player``'s latest placement of this round, and the bots' placements made
        after it (they answered a move that no longer stands). Never another human's move, never
        across a resolution. Each undo is saved before the next one is made."""
        game = self.game
        if game.phase != PLACEMENT or not game.placements:
            raise NothingToUndo("nothing to take back: undo never crosses a resolution")
        names = self.names
        count = 0
        for placed in reversed(game.placements):
            count += 1
            if placed.player == player:
                break
            if not self.is_bot(placed.player):
                raise NothingToUndo(f"{names[placed.player]} has placed since; only your own latest placement can go")
        else:
            raise NothingToUndo(f"{names[player]} has placed nothing this round")
        done: list[PlacementUndone] = []
        for _ in range(count):
            before = game.copy()
            event = game.undo()
            self._save([event], before)
            done.append(event)
        return done

    def _save(self, events: Sequence[Event], before: Game) -> None:
        if self.writer is not None:
            try:
                self.writer.append(events)
            except BaseException:
                self.game = before
                raise
        self.history.extend(events)


def preview(game: Game, player: int, card: int, column: int) -> ColumnResolved | None:
    """What ``column`` would do if ``player`` placed ``card`` there and the round ended now (the
    engine's own projection; the UI never re-derives R5/R6). None when the placement is illegal."""
    trial = game.copy()
    try:
        events = trial.place(column, card, player=player)
    except Exception:
        return None
    resolved = [e for e in events if isinstance(e, ColumnResolved)]
    if not resolved:
        resolved, _ = trial.projected()
    return next((e for e in resolved if e.column == column), None)


@contextlib.contextmanager
def _closed_on_error(writer: GameWriter | None) -> Iterator[None]:
    """Close ``writer`` (releasing the game's lock) if making the session fails: a session that
    never existed must not keep its game locked."""
    try:
        yield
    except BaseException:
        if writer is not None:
            writer.close()
        raise
