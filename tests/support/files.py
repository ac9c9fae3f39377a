"""Real game files: bot games played by the engine, written as ``.dvr`` the way play writes them.

A test starts from what the engine itself writes (never a hand-typed file), then damages or trims it
the way a crash, a disk or a person with a text editor would, or compares it with what a run wrote.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import msgspec

from dvtui.engine import (
    AnyEvent,
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    Placement,
    PlacementUndone,
    RoundEnded,
    Seat,
)
from dvtui.play.autoplay import play_game, play_out
from dvtui.play.seats import parse_players
from dvtui.store import GameWriter, encode_line

from .positions import BOTS3, created

DERIVED = (ColumnResolved, RoundEnded, GameEnded)

PLAYERS = {
    3: "bot:random,bot:greedy,bot:greedy",
    4: "bot:greedy,bot:random,bot:greedy,bot:random",
    5: "bot:random,bot:random,bot:greedy,bot:greedy,bot:random",
}

_AT = re.compile(rb',"at":"(?:[^"\\]|\\.)*"}\n')
"""A line's ``at`` stamp: a JSON string, the last key of its line (the writer puts it there)."""


@functools.cache
def _played(players: str, seed: int, first: int) -> tuple[bytes, ...]:
    _, events = play_game(parse_players(players), seed, first)
    return tuple(encode_line(ev, i) for i, ev in enumerate(events))


def engine_events(players: str, seed: int, first: int = 0) -> list[Event]:
    """A complete bot game's events, ``seq`` cleared: fresh objects every call (tests mutate)."""
    return [decode(line) for line in _played(players, seed, first)]


def engine_lines(players: str, seed: int, first: int = 0) -> list[bytes]:
    """The engine's own file for that game, one ``\\n``-terminated line per event, no ``at``."""
    return list(_played(players, seed, first))


def decode(line: bytes) -> Event:
    """One line as the event it holds, ``seq`` cleared (the engine's events carry none)."""
    event: Event = msgspec.json.decode(line, type=AnyEvent)  # type: ignore[arg-type]
    event.seq = None
    return event


def file_bytes(events: list[Event], at: str | None = None) -> bytes:
    """The file of ``events`` as the engine writes it (``at`` on every line when given)."""
    return b"".join(encode_line(ev, i, at) for i, ev in enumerate(events))


def lines_of(data: bytes) -> list[bytes]:
    """The file's lines, each with its ``\\n``."""
    return data.splitlines(keepends=True)


def complete_lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` that end in ``\\n``, each with it (a torn last line left out)."""
    return data.splitlines(keepends=True)[: data.count(b"\n")]


def strip_at(data: bytes) -> bytes:
    """A file, or one line of it, without its ``at`` stamps: what "byte-identical apart from at"
    compares."""
    return _AT.sub(b"}\n", data)


def obj(line: bytes) -> dict[str, object]:
    return json.loads(line)


def dump(o: dict[str, object]) -> bytes:
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def renumber(lines: list[bytes]) -> list[bytes]:
    """Set every line's ``seq`` to its position, as a tool editing a file would."""
    out = []
    for i, line in enumerate(lines):
        o = obj(line)
        o["seq"] = i
        out.append(dump(o))
    return out


def write_game(
    path: Path, players: str, seed: int, first: int = 0, *, upto: int | None = None
) -> tuple[Game, list[Event]]:
    """Play a bot game and save it the way interactive play does: event by event, durably, stamped;
    ``upto`` stops the file after that many decisions. Returns the whole game and its events."""
    writer: list[GameWriter] = []
    decisions = 0

    def sink(events: list[Event]) -> None:
        nonlocal decisions
        decisions += 1
        if upto is not None and decisions > upto:
            return
        if not writer:
            assert isinstance(events[0], GameCreated)
            writer.append(GameWriter.create(path, events[0], stamp=True))
            events = events[1:]
        if events:
            writer[0].append(events)

    try:
        return play_game(parse_players(players), seed, first, sink)
    finally:
        if writer:
            writer[0].close()


def start_game(path: Path, seats: list[Seat] = BOTS3, seed: int = 11, first: int = 0) -> Path:
    """A new game file holding only ``game_created``, as ``dvtui new`` leaves it before a move."""
    GameWriter.create(path, created(seats, seed, first)).close()
    return path


@functools.cache
def _reference(seats: str, seed: int, first: int) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "ref.dvr"
        c = created(msgspec.json.decode(seats, type=list[Seat]), seed, first)
        with GameWriter.create(path, c) as writer:
            play_out(Game(c), writer.append)
        return path.read_bytes()


def reference(seats: list[Seat] = BOTS3, seed: int = 11, first: int = 0) -> bytes:
    """The game played in one go by the same writer, never interrupted (stamps included)."""
    return _reference(msgspec.json.encode(seats).decode(), seed, first)


def replay_independently(events: list[Event]) -> list[Event]:
    """The canonical log of ``events``' decisions, built with ``Game.place``/``undo`` (not the
    reader's ``apply`` path): an independent judge of whether a file is consistent."""
    first = events[0]
    assert isinstance(first, GameCreated)
    game = Game(first)
    out: list[Event] = [first]
    for ev in events[1:]:
        if isinstance(ev, CardPlaced):
            assert ev.round == game.round
            out.extend(game.place(Placement(ev.card, ev.column), player=ev.player))
        elif isinstance(ev, PlacementUndone):
            undone = game.undo()
            assert undone == ev
            out.append(undone)
        elif isinstance(ev, GameCreated):
            raise AssertionError("game_created twice")
    return out


def same_state(a: Game, b: Game) -> None:
    """Assert two games are in the same position, field by field (with a readable diff)."""
    assert a.columns == b.columns
    assert a.goods == b.goods
    assert a.money == b.money
    assert a.scores() == b.scores()
    assert a.hands == b.hands
    assert a.round_scores == b.round_scores
    assert (a.round, a.phase, a.to_move, a.first_player, a.over) == (
        b.round,
        b.phase,
        b.to_move,
        b.first_player,
        b.over,
    )


@dataclass
class Games:
    """A directory of consistent game files, and what each holds."""

    dir: Path
    complete: dict[int, tuple[Path, list[Event]]]
    """Players -> a complete game of that many bots."""
    script: Path
    script_events: list[Event]
    unfinished: Path
