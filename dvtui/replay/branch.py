"""Branch, "play from here": a new game file whose events are a replay's prefix up to a moment.

"What if I had played the 6 there?": the new file starts with the parent's ``game_created`` (same
seats, same deal, same seed, so the same bots) annotated with ``parent`` (the parent file) and
``parent_seq`` (the parent's last line it shares), then holds the parent's events up to the moment
exactly, and goes on live. The parent file is only ever read.

A game of bots only has nobody to ask "what if": a branch may hand one bot's seat to a person
(:func:`take_seat`); the seat keeps its colour and everything it did before the moment.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import msgspec

from ..engine import DERIVED_TYPES, MAX_NAME_CHARS, Event, GameCreated, Seat, SeatError, check_name
from ..printable import printable
from ..store import GameWriter, LoadedGame, read_game
from .timeline import Replay

_DERIVED = DERIVED_TYPES

T = TypeVar("T")


class BranchError(Exception):
    """No game can be branched at this moment (the game is already decided there)."""


@dataclass(frozen=True, slots=True)
class Branch:
    """What a branch file holds: its header and the parent's events after it, up to ``moment``."""

    created: GameCreated
    events: list[Event]
    moment: int
    """The parent's moment the branch starts from (a moment inside a resolution moves on to the
    round's end: no decision can be made before it)."""


def parent_line(loaded: LoadedGame, moment: int) -> int:
    """The ``seq`` of the parent file's line holding ``moment``, or of the last line before it.

    A full log's lines are its moments; a game script's lines are its decisions only (the derived
    events between them are recomputed); derived events a cut file lost at its end are on no line.
    """
    if loaded.decisions_only:
        return sum(1 for ev in loaded.events[1 : moment + 1] if not isinstance(ev, _DERIVED))
    return min(moment, loaded.file_lines - 1)


def take_seat(players: list[Seat], seat: int, name: str) -> list[Seat]:
    """``players`` with bot ``seat`` played by a person from now on (same colour).

    In a game of bots, that person joins it as ``name``, made unique at the table (a person
    called like another seat gets " (you)"). With a person already at the table, that person
    plays the seat too (hot-seat), and it keeps its name."""
    if not 0 <= seat < len(players) or players[seat].kind != "bot":
        raise BranchError(f"seat {seat + 1} is not a bot's: there is no seat to take there")  # counted from 1
    if any(p.kind == "human" for p in players):
        name = players[seat].name
    others = {p.name.strip().casefold() for i, p in enumerate(players) if i != seat}
    name = name.strip()[:MAX_NAME_CHARS]
    try:
        check_name(name, human=True)
    except SeatError:
        name = "Player"  # (a login name may be anything; a seat's name follows the seats' rules)
    if name.casefold() in others:
        name = f"{name[:18]} (you)"
    out = list(players)
    out[seat] = Seat(name=name, kind="human", color=players[seat].color)
    return out


def plan_branch(replay: Replay, moment: int, parent: str, parent_seq: int, players: list[Seat] | None = None) -> Branch:
    """The branch of ``replay`` at ``moment`` (with ``players`` instead of the parent's seats,
    when given); raises :class:`BranchError` when nothing is left to decide there."""
    moment = replay.decision_moment(moment)
    if replay.state_at(moment).over:
        raise BranchError("nothing is left to play from here: every card of the game is placed by this moment")
    seats = replay.created.players if players is None else players
    if len(seats) != len(replay.created.players):
        raise BranchError("a branch keeps the number of players")
    created = msgspec.structs.replace(
        replay.created, players=list(seats), parent=parent, parent_seq=parent_seq, seq=None, rated=False
    )  # (a branch is this machine's game: a table's rated game rates nothing once branched)
    return Branch(created, list(replay.events[1 : moment + 1]), moment)


def branch_file(
    loaded: LoadedGame, replay: Replay, moment: int, path: Path, players: list[Seat] | None = None
) -> LoadedGame:
    """Write the branch of ``loaded`` (read as ``replay``) at ``moment`` to the new file ``path``
    and read it back through the store's reader (so it is known to verify). Never touches the
    parent; refuses to overwrite ``path``, and leaves nothing there when it fails."""
    start = replay.decision_moment(moment)
    # an annotation, never opened: written printable, so a parent whose file name holds a
    # control character still gives a branch the reader accepts
    parent = printable(str(Path(loaded.path).resolve()))
    branch = plan_branch(replay, start, parent, parent_line(loaded, start), players)
    writer = GameWriter.create(path, branch.created)  # refuses an existing file: from here it is ours
    try:
        with writer:
            if branch.events:
                writer.append(branch.events)
        return read_game(path)
    except BaseException:
        remove_branch(path)
        raise


def start_branch(
    loaded: LoadedGame,
    replay: Replay,
    moment: int,
    *,
    take: int | None,
    player_name: str,
    path_for: Callable[[GameCreated], Path],
    open_game: Callable[[LoadedGame], T],
) -> T:
    """ "Play from here": the branch of ``loaded`` (read as ``replay``) at ``moment``, written to
    a new file and opened with ``open_game`` (which takes the game's lock, say).

    ``take``: the bot's seat ``player_name`` plays from there (:func:`take_seat`), or None to keep
    the seats. ``path_for`` names the file after the branch's header, so after who plays it. The
    parent file is only read; when writing or opening the branch fails, its file is removed
    again. Raises :class:`BranchError` (nothing to branch there), ``SeatError``, the store's
    errors, ``OSError``, or whatever ``open_game`` raises."""
    players = None if take is None else take_seat(replay.created.players, take, player_name)
    created = replay.created if players is None else msgspec.structs.replace(replay.created, players=players)
    path = path_for(created)
    branch = branch_file(loaded, replay, moment, path, players)  # removed again if it fails
    try:
        return open_game(branch)
    except BaseException:
        remove_branch(path)
        raise


def remove_branch(path: Path) -> None:
    """Take back a branch file that could not be made or opened (it is only ever a new file)."""
    with contextlib.suppress(OSError):
        path.unlink()


__all__ = [
    "Branch",
    "BranchError",
    "branch_file",
    "parent_line",
    "plan_branch",
    "remove_branch",
    "start_branch",
    "take_seat",
]
