"""How a run of the app ended: what :meth:`DvtuiApp.run <dvtui.app.app.DvtuiApp.run>` returns, for
the command line to say once the screen is gone. No Textual here: the command line matches on it
before (and without) importing the app.

Every outcome carries ``code``, the app's exit status: 0, 1 after an error inside the app, or
128 + the signal after a hang-up. Outcomes are frozen msgspec Structs, as the events are: quicker
to define than dataclasses, and the app's start-up defines them.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..play.face import GameSession
from ..store import SaveFailed


class NoGameFile(msgspec.Struct, frozen=True):
    """Nothing to point to: the app closed before a game began, or its game has no file."""

    code: int = 0


class HungUp(msgspec.Struct, frozen=True):
    """SIGHUP (the terminal is gone) or SIGTERM: every decision was saved, and there is nobody
    left to tell where."""

    code: int


class NotSaved(msgspec.Struct, frozen=True):
    """The game stopped at a save that failed (its file holds everything before it)."""

    failure: SaveFailed
    code: int = 0


class Played(msgspec.Struct, frozen=True):
    """The game last on the table is in ``path``: finished (``over``) or to be resumed."""

    path: Path
    over: bool
    branched_from: str | None = None
    """The file this game branched from, when the branch was made in this run."""
    code: int = 0


ExitState = NoGameFile | HungUp | NotSaved | Played


def exit_state_of(
    session: GameSession | None, code: int = 0, *, hung_up: bool = False, branched: bool = False
) -> ExitState:
    """The outcome of a run whose table played ``session`` last (``branched``: a branch made in
    this run). A failed save is said even after a hang-up: the error goes where the terminal went."""
    failure = session.save_failure if session is not None else None
    if failure is not None:
        return NotSaved(failure, code)
    if hung_up:
        return HungUp(code)
    if session is None or session.path is None:
        return NoGameFile(code)
    game = session.game
    parent = game.created.parent if branched else None
    return Played(session.path, game.over, parent, code)


__all__ = ["ExitState", "HungUp", "NoGameFile", "NotSaved", "Played", "exit_state_of"]
