"""What the replay tests share: the example games, files cut the ways a real file gets cut, a
comparable picture of a game state, and the viewer opened on a file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions, Watch
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.app.widgets.timeline_bar import TimelineBar
from dvtui.engine import CardPlaced, ColumnResolved, Event, Game, GameCreated, GameEnded, PlacementUndone, RoundEnded
from dvtui.store import read_game
from dvtui.store.codec import encode_line

REPO = Path(__file__).resolve().parents[2]
REPLAYS = REPO / "replays"
EXAMPLES = ["game.dvr", "game-3p.dvr", "game-4p.dvr", "game-5p.dvr", "script-3p.dvr"]


def picture(game: Game) -> dict[str, Any]:
    """Everything a state holds that a view could show, as plain data (``==`` compares it)."""
    return {
        "columns": [list(c) for c in game.columns],
        "goods": [list(g) for g in game.goods],
        "money": [sorted(m) for m in game.money],
        "hands": [sorted(h) for h in game.hands],
        "totals": [list(t) for t in game.totals],
        "placements": [(e.round, e.player, e.column, e.card) for e in game.placements],
        "scores": game.scores(),
        "round_scores": [list(h) for h in game.round_scores],
        "round": game.round,
        "phase": game.phase,
        "to_move": game.to_move,
        "first_player": game.first_player,
        "next_column": game.next_column if game.derived_pending else None,
    }


def fold_prefix(events: Sequence[Event], k: int) -> Game:
    """The engine's plain fold of ``events[0..k]``, event by event from the deal: what
    :meth:`dvtui.replay.Replay.state_at` must equal (the tests and the benchmark compare the two)."""
    first = events[0]
    assert isinstance(first, GameCreated)
    game = Game(first)
    for event in events[1 : k + 1]:
        game.apply(event)
    return game


KINDS: dict[type, str] = {
    GameCreated: "deal",
    CardPlaced: "placement",
    PlacementUndone: "undo",
    ColumnResolved: "column",
    RoundEnded: "round_end",
    GameEnded: "game_end",
}
"""What kind of moment an event makes: ``KINDS[type(replay.events[k])]``."""


def cut_copies(tmp: Path, name: str = "game-5p.dvr") -> dict[str, Path]:
    """The example ``name`` cut as a crash would leave it: a torn last line, and a file that stops
    between two lines in the middle of a round's resolution (the reader recomputes the rest)."""
    data = (REPLAYS / name).read_bytes()
    lines = data.split(b"\n")
    torn = tmp / "torn.dvr"
    torn.write_bytes(b"\n".join(lines[:60]) + b"\n" + lines[60][:25])
    between = tmp / "cut-in-resolution.dvr"
    # lines 0-27: round 1's placements (1-25) and its first two column_resolved (26, 27)
    between.write_bytes(b"\n".join(lines[:28]) + b"\n")
    unfinished = tmp / "unfinished.dvr"
    unfinished.write_bytes(b"\n".join(lines[:45]) + b"\n")
    return {"torn": torn, "between": between, "unfinished": unfinished}


def write_undo_loop(path: Path, size: int, created: GameCreated | None = None) -> int:
    """A valid game file of at most ``size`` bytes that never leaves round 1: the deal (``created``,
    by default that of ``replays/game.dvr``), then a placement by the player to move and its undo,
    again and again: with ``size`` the reader's bound, the most events a file can hold, each one
    legal. Returns the number of events."""
    if created is None:
        created = read_game(REPLAYS / "game.dvr").created
    first = encode_line(created, 0)
    game = Game(created)
    card, column = game.legal_placements()[0]
    move = b'"round":1,"player":%d,"column":%d,"card":%d}\n' % (game.to_move, column, card)
    place = b'{"type":"card_placed",' + move
    undo = b'{"type":"placement_undone",' + move
    pairs = (size - len(first)) // (len(place) + len(undo))
    path.write_bytes(first + (place + undo) * pairs)
    return 1 + 2 * pairs


def replay_app(path: Path | str = REPLAYS / "game.dvr", **kwargs: object) -> DvtuiApp:
    """The app opened on the viewer over ``path`` (as ``dvtui replay``); a branch plays on with
    bots that do not wait and a resolution that waits for a key."""
    return DvtuiApp(
        Watch(read_game(path, checkpoints=True)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None), **kwargs)
    )  # type: ignore[arg-type]


def viewer(app: DvtuiApp) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen), screen
    return screen


def assert_at(screen: ReplayScreen, moment: int) -> None:
    """The screen shows ``moment`` everywhere: the state drawn is the engine's fold of the prefix,
    and the log's cursor and the bar are on the same event."""
    assert screen.moment == moment
    assert picture(screen.game) == picture(fold_prefix(screen.replay.events, moment))
    assert screen.query_one(ReplayLog).cursor == moment
    assert screen.query_one(TimelineBar).moment == moment
