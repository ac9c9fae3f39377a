"""A game file as long as the reader allows (a placement and its undo, again and again: half a
million events in 32 MiB) opens, and the viewer jumps anywhere in it and quits at once; time
travel over such a game on the table too. The index and the log do work bounded by the screen and
a checkpoint's distance, never by the length of the file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dvtui import describe
from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets import replay_log
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.app.widgets.timeline_bar import TimelineBar
from dvtui.engine import CHECKPOINT_EVERY, Game, new_game
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.replay import Replay
from dvtui.store import read_game
from dvtui.store.reader import MAX_FILE_BYTES

from ..support.frames import frames_drawn
from ..support.pilot import press, settled
from ..support.replays import assert_at, fold_prefix, picture, replay_app, viewer, write_undo_loop

pytestmark = pytest.mark.usefixtures("data_dir")  # saves and the working directory: the test's own

LONG = 4 * 1024 * 1024
"""About 63,000 events: where work in proportion to the file would be thousands of times the
work the screen needs."""


def count_words(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events the replay's log puts into words (``[n]``, counting from now on)."""
    calls = [0]

    def counting(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return describe.describe_event(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replay_log, "describe_event", counting)
    return calls


def test_the_state_at_any_event_folds_at_most_a_checkpoints_distance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1 never ends in this file, so round starts alone would leave one checkpoint."""
    path = tmp_path / "long.dvr"
    count = write_undo_loop(path, LONG)
    replay = Replay(read_game(path).events)
    assert replay.last == count - 1 and replay.round_starts == [0]
    applied = [0]
    apply = Game.apply

    def counting(self: Game, event: object) -> None:
        applied[0] += 1
        apply(self, event)  # type: ignore[arg-type]

    moments = [0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, count // 2, count - 2, count - 1]
    for k in moments:
        applied[0] = 0
        monkeypatch.setattr(Game, "apply", counting)
        state = replay.state_at(k)
        monkeypatch.setattr(Game, "apply", apply)
        assert applied[0] <= CHECKPOINT_EVERY, f"moment {k}"
        assert picture(state) == picture(fold_prefix(replay.events, k)), f"moment {k}"


async def test_the_largest_file_opens_and_end_then_q_shows_the_last_event_and_quits(tmp_path: Path) -> None:
    path = tmp_path / "largest.dvr"
    count = write_undo_loop(path, MAX_FILE_BYTES)
    assert MAX_FILE_BYTES - 200 < path.stat().st_size <= MAX_FILE_BYTES
    app = replay_app(path)
    last = count - 1
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        assert screen.moment == 0 and screen.replay.last == last  # every line read
        await press(pilot, "end")
        await settled(pilot)
        log = screen.query_one(ReplayLog)
        assert screen.moment == last and log.cursor == last and screen.query_one(TimelineBar).moment == last
        assert log.shown()[-1] == last  # the last event is the log's last line on screen
        assert f"{last}/{last}" in screen.query_one(TimelineBar).status
        assert picture(screen.game) == picture(app.watched.game)  # type: ignore[union-attr]
        await press(pilot, "q")
        assert app.return_code == 0  # the app is leaving


async def test_jumps_in_a_long_file_word_only_the_events_near_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "long.dvr"
    count = write_undo_loop(path, LONG)
    app = replay_app(path)
    worded = count_words(monkeypatch)
    with frames_drawn():  # (the words a frame needs: the frames drawn as in a terminal)
        await _jump_about(app, count, worded)


async def _jump_about(app: DvtuiApp, count: int, worded: list[int]) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        log = screen.query_one(ReplayLog)
        height = log.size.height
        assert 0 < worded[0] <= height
        jumps: list[tuple[str, int]] = [
            ("end", count - 1),
            ("home", 0),
            ("end", count - 1),
            ("pageup", 0),
            ("pagedown", count - 1),
            ("left", count - 2),
        ]
        for key, moment in jumps:
            worded[0] = 0
            await press(pilot, key)
            await settled(pilot)
            assert_at(screen, moment)
            assert worded[0] <= height, key  # at most a screenful of new lines
            assert moment in log.shown()
        worded[0] = 0
        screen.query_one(TimelineBar).post_message(TimelineBar.Jump(count // 2))
        await settled(pilot)
        assert_at(screen, count // 2)
        assert worded[0] <= height and count // 2 in log.shown()


async def test_the_wheel_scrolls_a_long_log_within_its_ends(tmp_path: Path) -> None:
    path = tmp_path / "long.dvr"
    count = write_undo_loop(path, LONG)
    app = replay_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        log = screen.query_one(ReplayLog)
        wheel: Callable[[int], None] = log._scroll_by  # what a notch of the wheel does, 3 lines a notch
        await press(pilot, "end")
        await settled(pilot)
        bottom = log.shown()
        assert bottom[-1] == count - 1
        wheel(-3)
        wheel(-3)
        assert log.shown() == [k - 6 for k in bottom]  # one line an event here
        for _ in range(10):
            wheel(3)
        assert log.shown() == bottom  # no further than the end
        await press(pilot, "home")
        await settled(pilot)
        deal = log.shown().count(0)  # the deal's lines; every other event is one line
        wheel(-3)
        assert log.shown()[0] == 0  # nor above the start
        wheel(30)
        assert log.shown()[0] == 30 - (deal - 1) and screen.moment == 0


async def test_time_travel_over_a_long_resumed_game_jumps_to_either_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``t`` on the table builds the same index and log over the live game's history."""
    created = new_game(parse_players("Ana,bot:greedy,bot:greedy"), first_player=0, seed=3)
    path = tmp_path / "long.dvr"
    count = write_undo_loop(path, LONG, created)
    app = DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    worded = count_words(monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        table = app.screen
        assert isinstance(table, TableScreen) and table.session.human_to_move() == 0  # Ana's turn: nothing moves
        await press(pilot, "t")
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.live and screen.moment == count - 1
        log = screen.query_one(ReplayLog)
        assert log.shown()[-1] == count - 1
        assert worded[0] <= log.size.height  # opened at the end: only what is on screen
        for key, moment in (("home", 0), ("end", count - 1)):
            worded[0] = 0
            await press(pilot, key)
            await settled(pilot)
            assert screen.moment == moment and moment in log.shown()
            assert worded[0] <= log.size.height
        await press(pilot, "escape")
        await settled(pilot)
        assert app.screen is table
