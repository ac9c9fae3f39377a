"""The replay's states and marks, without a screen ("for every event index of the example
games, the viewer's state equals the engine's fold of the prefix")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.engine import CardPlaced, ColumnResolved, Game, GameEnded, Phase, RoundEnded, RuleError, fold
from dvtui.replay import Replay, timeline
from dvtui.replay.steps import resolution_steps
from dvtui.store import read_game

from ..support.replays import EXAMPLES, KINDS, REPLAYS, cut_copies, fold_prefix, picture
from ..support.said import raises_said


def _replays(tmp_path: Path) -> list[tuple[str, Replay]]:
    files = [REPLAYS / name for name in EXAMPLES] + list(cut_copies(tmp_path).values())
    return [(path.name, Replay(read_game(path).events)) for path in files]


def test_state_at_every_event_is_the_fold_of_the_prefix(tmp_path: Path) -> None:
    """Every moment of every example (and of a torn, a cut and an unfinished file): the state from
    checkpoints equals the engine folding the prefix from the deal, event by event."""
    checked = 0
    for name, replay in _replays(tmp_path):
        events = replay.events
        for k in range(len(events)):
            assert picture(replay.state_at(k)) == picture(fold_prefix(events, k)), f"{name} moment {k}"
            checked += 1
    assert checked > 700


def test_state_at_a_decision_point_is_the_fold_of_the_prefix(tmp_path: Path) -> None:
    """Where no derived event is owed, the state also equals ``fold`` of the prefix (which
    completes owed derived events, so it is compared only there)."""
    for name, replay in _replays(tmp_path):
        for k in range(len(replay.events)):
            state = replay.state_at(k)
            if state.derived_pending:
                continue
            assert picture(state) == picture(fold(replay.events[: k + 1]).game), f"{name} moment {k}"


def test_state_at_returns_an_independent_copy() -> None:
    replay = Replay(read_game(REPLAYS / "game.dvr").events)
    first = replay.state_at(30)
    first.columns[0].clear()
    first.hands[0].clear()
    assert picture(replay.state_at(30)) == picture(fold_prefix(replay.events, 30))


def test_moments_are_clamped() -> None:
    replay = Replay(read_game(REPLAYS / "game-4p.dvr").events)
    assert picture(replay.state_at(-5)) == picture(replay.state_at(0))
    assert picture(replay.state_at(10_000)) == picture(replay.final)
    assert replay.final.over


@pytest.mark.parametrize("name", EXAMPLES)
def test_round_starts_are_fresh_rounds(name: str) -> None:
    replay = Replay(read_game(REPLAYS / name).events)
    assert len(replay.round_starts) == replay.rounds
    for r, k in enumerate(replay.round_starts, 1):
        state = replay.state_at(k)
        assert (state.round, state.phase, state.placements) == (r, Phase.PLACEMENT, [])
        assert all(sorted(h) == [1, 2, 3, 4, 5, 6] for h in state.hands)
        assert replay.round_at(k) == r
        assert replay.round_start(r) == k
    assert replay.round_start(0) is None and replay.round_start(replay.rounds + 1) is None


@pytest.mark.parametrize("name", EXAMPLES)
def test_turn_stops_complete_a_turn_of_placements(name: str) -> None:
    replay = Replay(read_game(REPLAYS / name).events)
    n = replay.n
    stops = replay.turn_stops
    assert stops == sorted(set(stops)) and stops[0] == 0 and stops[-1] == replay.last
    for k in stops:
        event = replay.events[k]
        if isinstance(event, CardPlaced):
            assert len(replay.state_at(k).placements) % n == 0
        else:
            assert k == 0 or isinstance(event, (RoundEnded, GameEnded))
    placements_per_round = [
        sum(1 for k in stops if isinstance(replay.events[k], CardPlaced) and replay.round_at(k) == r)
        for r in range(1, replay.rounds + 1)
    ]
    assert placements_per_round == [5] * replay.rounds  # R4.2: five turns a round


def test_stepping_by_turn_and_by_round() -> None:
    replay = Replay(read_game(REPLAYS / "game-4p.dvr").events)  # 4 players: a turn is 4 placements
    assert replay.next_turn(0) == 4
    assert replay.next_turn(4) == 8
    assert replay.next_turn(5) == 8
    assert replay.previous_turn(8) == 4
    assert replay.previous_turn(6) == 4
    assert replay.previous_turn(0) == 0
    assert replay.next_turn(replay.last) == replay.last
    starts = replay.round_starts
    assert replay.next_round(0) == starts[1]
    assert replay.next_round(starts[1]) == starts[2]
    assert replay.previous_round(starts[2] + 3) == starts[2]  # first back to this round's start
    assert replay.previous_round(starts[2]) == starts[1]  # then to the round before
    assert replay.previous_round(0) == 0
    assert replay.next_round(starts[-1]) == replay.last


def test_a_taken_back_placement_is_stepped_through() -> None:
    """game.dvr holds an undo in round 2: the turn marks count standing placements."""
    replay = Replay(read_game(REPLAYS / "game.dvr").events)
    start = replay.round_starts[1]
    kinds = [KINDS[type(replay.events[k])] for k in range(start + 1, start + 4)]
    assert kinds == ["placement", "undo", "placement"]
    assert len(replay.state_at(start + 2).placements) == 0
    assert replay.next_turn(start) == start + 5  # 1 placed, 1 taken back, then 3 standing


@pytest.mark.parametrize("name", ["game.dvr", "game-5p.dvr", "script-3p.dvr"])
def test_resolution_steps_are_the_live_tables(name: str) -> None:
    """A column's moment is drawn from exactly the step the live table shows for it
    (:func:`dvtui.replay.steps.resolution_steps` from the state before the round's last move)."""
    replay = Replay(read_game(REPLAYS / name).events)
    events = replay.events
    seen = 0
    for k, event in enumerate(events):
        if not (isinstance(event, ColumnResolved) and event.column == 0):
            continue
        last_move = k - 1
        end = next(j for j in range(k, len(events)) if isinstance(events[j], RoundEnded))
        live = resolution_steps(replay.state_at(last_move - 1), events[last_move : end + 1])
        columns = [s for s in live if isinstance(s.event, ColumnResolved)]
        assert len(columns) == 7
        for offset, step in enumerate(columns):
            mine = replay.resolution_step(k + offset)
            assert mine is not None
            assert mine.event == step.event and mine.results == step.results and mine.column == step.column
            assert picture(mine.game) == picture(step.game)
            seen += 1
    assert seen == 7 * replay.rounds
    assert replay.resolution_step(1) is None


def test_an_exchange_and_a_tie_are_in_the_examples() -> None:
    """The snapshots and Pilot tests rely on these moments of game.dvr."""
    replay = Replay(read_game(REPLAYS / "game.dvr").events)
    exchange = [
        k for k, e in enumerate(replay.events) if isinstance(e, ColumnResolved) and any(a.returned for a in e.awards)
    ]
    ties = [k for k, e in enumerate(replay.events) if isinstance(e, ColumnResolved) and e.cancelled]
    assert 22 in exchange and 20 in ties


def test_extending_move_by_move_gives_the_same_replay() -> None:
    events = read_game(REPLAYS / "game.dvr").events
    whole = Replay(events)
    grown = Replay(events[:1])
    for event in events[1:]:
        grown.extend([event])
    assert grown.round_starts == whole.round_starts and grown.turn_stops == whole.turn_stops
    for k in range(0, len(events), 7):
        assert picture(grown.state_at(k)) == picture(whole.state_at(k))
        assert grown.resolution_results(k) == whole.resolution_results(k)


def test_a_log_with_derived_events_missing_is_refused() -> None:
    script = read_game(REPLAYS / "script-3p.dvr")
    file_events = [e for e in script.events if not isinstance(e, (ColumnResolved, RoundEnded, GameEnded))]
    with raises_said(RuleError, "card_placed found where column_resolved is owed") as info:
        Replay(file_events)
    assert info.value.index == next(k for k, e in enumerate(script.events) if isinstance(e, ColumnResolved))
    with pytest.raises(RuleError):
        Replay([])


def test_decision_moment_leaves_a_resolution() -> None:
    replay = Replay(read_game(REPLAYS / "game.dvr").events)
    assert replay.decision_moment(16) == 23  # column A of round 1 -> the round's end
    assert replay.decision_moment(10) == 10
    assert replay.decision_moment(replay.last - 2) == replay.last


def test_the_replay_package_does_not_import_textual() -> None:
    """Like the engine and the store: the viewer's logic, the branch and the export run without a
    terminal, so ``dvtui replay --text`` and ``verify`` start without loading Textual."""
    import subprocess
    import sys

    from ..support.replays import REPO

    code = (
        "import sys\nimport dvtui.replay, dvtui.replay.timeline, dvtui.replay.branch, dvtui.replay.export\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize("name", ["game.dvr", "script-3p.dvr"])
def test_a_file_read_with_checkpoints_is_not_folded_again(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a file folds it once: the timeline takes up the reader's fold (its checkpoints and
    its final state) instead of folding the events a second time."""
    whole = Replay(read_game(REPLAYS / name).events)
    loaded = read_game(REPLAYS / name, checkpoints=True)
    applied = [0]
    apply = Game.apply

    def counting(self: Game, event: object) -> None:
        applied[0] += 1
        apply(self, event)  # type: ignore[arg-type]

    def no_fold(*args: object, **kwargs: object) -> None:
        raise AssertionError("folded again")

    monkeypatch.setattr(timeline, "fold", no_fold)
    monkeypatch.setattr(Game, "apply", counting)
    replay = Replay.of(loaded)
    assert applied[0] == 0
    monkeypatch.setattr(Game, "apply", apply)
    assert replay.events == whole.events and replay.events is not loaded.events
    assert (replay.round_starts, replay.turn_stops) == (whole.round_starts, whole.turn_stops)
    for k in range(len(replay.events)):
        assert picture(replay.state_at(k)) == picture(whole.state_at(k)), k
        assert replay.resolution_results(k) == whole.resolution_results(k)
    assert picture(replay.final) == picture(loaded.game)
