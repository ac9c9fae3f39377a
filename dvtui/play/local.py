"""A game of this machine behind the face the screens play any game through.

:class:`LocalSession` checks a decision against the rules at once (a ``RuleError`` is raised
before anything changes) and saves it in a worker thread: an fsync can take long on a busy or
failing disk, and the screen draws and takes keys meanwhile. Once the decision is on disk, and only
then, the game moves on and the screen is told :class:`~dvtui.play.face.Decided`: the file never
lags behind the screen. A save that fails is told as :class:`~dvtui.play.face.Refused` and leaves
the game as it was; the writer then refuses every later save (the game has stopped).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from ..bots import BotSpec
from ..engine import Event, Game, GameCreated, Placement, RuleError
from ..store import LoadedGame, SaveError, SaveFailed, read_game
from .face import Abilities, Decided, News, Presence, Refused, Tell
from .session import PlayedMove, PlaySession, Standing


class LocalSession:
    """``play``: the game and its writer (a writer of None saves nothing: previews, tests)."""

    def __init__(self, play: PlaySession) -> None:
        self.play = play
        self._tell: Tell = _nobody
        self._loop: asyncio.AbstractEventLoop | None = None
        self._saver: ThreadPoolExecutor | None = None
        self._saving: Future[list[bytes]] | None = None

    @classmethod
    def start(cls, created: GameCreated, path: Path | None) -> LocalSession:
        """A new game; with ``path`` its file is created (exclusively) holding ``game_created``."""
        return cls(PlaySession.start(created, path))

    @classmethod
    def resume(cls, loaded: LoadedGame) -> LocalSession:
        """Continue a game read from its file (the writer repairs a torn tail first)."""
        return cls(PlaySession.resume(loaded))

    def attach(self, tell: Tell) -> None:
        self._tell = tell
        self._loop = asyncio.get_running_loop()

    def close(self) -> None:
        """Wait for a decision being saved (it is the player's: it is never dropped), then let go
        of the file and its lock."""
        if self._saver is not None:
            self._saver.shutdown(wait=True)
        self.play.close()

    # -- what the game is ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.play.game

    @property
    def events(self) -> Sequence[Event]:
        return self.play.events

    @property
    def path(self) -> Path | None:
        return self.play.path

    @property
    def notices(self) -> Sequence[str]:
        return self.play.notices

    @property
    def names(self) -> list[str]:
        return self.play.names

    @property
    def bots(self) -> Sequence[tuple[BotSpec, int] | None]:
        return self.play.bots

    @property
    def humans(self) -> list[int]:
        return self.play.humans

    @property
    def saving(self) -> bool:
        return self.play.saving

    @property
    def save_failure(self) -> SaveFailed | None:
        return self.play.save_failure

    @property
    def abilities(self) -> Abilities:
        return Abilities(tuple(self.humans), branch="file" if self.path is not None else None)

    @property
    def deciding(self) -> bool:
        return self._saving is not None

    def presence(self) -> Presence | None:
        return None

    def is_bot(self, player: int) -> bool:
        return self.play.is_bot(player)

    def human_to_move(self) -> int | None:
        return self.play.human_to_move()

    def hint_seed(self, player: int) -> int:
        return self.play.hint_seed(player)

    def standing_placements(self) -> list[Standing]:
        return self.play.standing_placements()

    def undo_player(self) -> int | None:
        return self.play.undo_player()

    def why_no_undo(self) -> str:
        return self.play.why_no_undo()

    def as_file(self) -> LoadedGame:
        """The game's file read back (every decision is in it before the screen hears of it)."""
        if self.path is None:
            raise OSError("this game has no file")
        return read_game(self.path, checkpoints=True)

    # -- decisions -------------------------------------------------------------------------------

    def place(self, placement: Placement, player: int | None = None) -> None:
        """Check the placement (RuleError: nothing changed) and save it in the worker; the move is
        told once it is on disk."""
        self._free()
        before = self.play.game
        after = before.copy()
        events = after.place(placement, player=player)
        self._save(PlayedMove(events, before, after))

    def undo(self, player: int) -> None:
        """Take back ``player``'s latest placement and the bots' answers since (by
        :meth:`PlaySession.undo`'s rule, checked at once: NothingToUndo says why not)."""
        self._free()
        before = self.play.game
        trial = PlaySession(before.copy(), None, None, list(self.play.events))
        undone: list[Event] = list(trial.undo(player))
        self._save(PlayedMove(undone, before, trial.game))

    def stand_in(self, seat: int, level: str | None) -> None:
        raise RuleError("no seat of a game of this machine is away: there is nobody to stand in for")

    def start_table(self) -> None:
        raise RuleError("a game of this machine has no waiting room: it starts when it is dealt")

    def say(self, text: str) -> None:
        raise RuleError("a game of this machine has nobody else to talk to")

    def rematch(self, accept: bool) -> None:
        raise RuleError("a game of this machine has no table to ask: its rematch is dealt here")

    def close_table(self) -> None:
        raise RuleError("a game of this machine is not a table: quit, and resume it whenever you like")

    def resign(self) -> None:
        raise RuleError("a game of this machine has no seat to give up: its file is yours")

    def sit(self, seat: int) -> None:
        raise RuleError("a game of this machine has no table to sit at: its seats are played here")

    def _free(self) -> None:
        if self._saving is not None:
            raise RuleError("the last decision is still being saved")
        if self.play.save_failure is not None:
            raise RuleError(f"the game has stopped: {self.play.save_failure.reason}")

    def _save(self, move: PlayedMove) -> None:
        writer = self.play.writer
        loop = self._loop
        if loop is None:  # nobody attached: nobody is drawing meanwhile
            if writer is not None:
                writer.append(move.events)
            self._saved(move, None)
            return
        if writer is None:  # nothing to save (a preview): told as a saved move is, after this call
            self._saving = Future()
            loop.call_soon(self._saved, move, None)
            return
        if self._saver is None:
            self._saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="save")
        self._saving = saving = self._saver.submit(writer.append, move.events)
        saving.add_done_callback(lambda done: loop.call_soon_threadsafe(self._saved, move, done))

    def _saved(self, move: PlayedMove, done: Future[list[bytes]] | None) -> None:
        """On the loop: the save ended (``done``; None: nothing was saved)."""
        self._saving = None
        error = done.exception() if done is not None else None
        if error is not None:
            reason = str(error) if isinstance(error, SaveError) else f"the save failed: {error}"
            self._tell(Refused(reason, save_failed=True))
            return
        self.play.game = move.after
        self.play.events.extend(move.events)
        self._tell(Decided(move))


def _nobody(news: News) -> None:
    """Before a screen attaches: nobody to tell."""


__all__ = ["LocalSession"]
