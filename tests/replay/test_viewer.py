"""The replay viewer driven like a person: every key, clicks on the bar and the log, the
table and the log always at the same moment, scrubbing back and forth giving identical screens,
every example and every kind of file opening."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.screens.replay import SPEEDS, ReplayHelp, ReplayScreen
from dvtui.app.textual_private import compositor, notifications, settle
from dvtui.app.widgets.board import Board
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import Banner, RoundBar
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.app.widgets.timeline_bar import TimelineBar, cell_of, moment_at

from ..support.pilot import press, settled
from ..support.replays import EXAMPLES, REPLAYS, assert_at, cut_copies, replay_app, viewer


def screen_cells(app: DvtuiApp) -> tuple[tuple[str, object], ...]:
    """Every cell of the screen as drawn (text and style, segment by segment): a screen compared
    exactly, much faster than an SVG screenshot."""
    strips = compositor(app.screen).render_strips()
    return tuple((seg.text, seg.style) for strip in strips for seg in strip.simplify())


async def test_every_key_moves_to_its_moment() -> None:
    app = replay_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        replay = screen.replay
        starts = replay.round_starts
        assert_at(screen, 0)

        async def step(key: str, moment: int) -> None:
            await press(pilot, key)
            assert_at(screen, moment)

        await step("left", 0)  # nothing before the deal
        await step("right", 1)
        await step("right", 2)
        await step("left", 1)
        await step("shift+right", 3)  # one turn: each of the 3 players once
        await step("down", 6)
        await step("up", 3)
        await step("shift+left", 0)
        await step("pagedown", starts[1])
        await step("right_square_bracket", starts[2])
        await step("right", starts[2] + 1)
        await step("pageup", starts[2])  # back to this round's start first
        await step("left_square_bracket", starts[1])
        await step("5", starts[4])
        await step("1", 0)
        await step("end", replay.last)
        await step("right", replay.last)
        await step("home", 0)
        await step("9", 0)  # no round 9: a warning, no move
        assert any("no round 9" in n.message for n in notifications(app))


async def test_space_plays_and_pauses_and_the_speed_changes() -> None:
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        for _ in range(len(SPEEDS)):
            await press(pilot, "plus")
        assert SPEEDS[screen.speed] == max(SPEEDS)
        await press(pilot, "space")
        assert screen.playing and "▶" in screen.query_one(TimelineBar).status
        for _ in range(200):
            if screen.moment >= 3:
                break
            await asyncio.sleep(0.02)
        assert screen.moment >= 3
        await press(pilot, "space")
        assert not screen.playing and "‖" in screen.query_one(TimelineBar).status
        stopped = screen.moment
        await asyncio.sleep(0.3)
        assert screen.moment == stopped
        assert_at(screen, stopped)
        await press(pilot, "minus", "minus")
        assert SPEEDS[screen.speed] == max(SPEEDS) / 4
        await press(pilot, "end", "space")  # at the end, play starts over from the deal
        assert screen.playing and screen.moment == 0
        await press(pilot, "space")


async def test_playback_stops_at_the_end() -> None:
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        screen.go(screen.replay.last - 2)
        screen.speed = len(SPEEDS) - 1
        await press(pilot, "space")
        for _ in range(200):
            if not screen.playing:
                break
            await asyncio.sleep(0.02)
        assert not screen.playing and screen.moment == screen.replay.last


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_clicking_the_bar_jumps_there(size: tuple[int, int]) -> None:
    app = replay_app()
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        screen = viewer(app)
        bar = screen.query_one(TimelineBar)
        replay = screen.replay

        def geometry() -> tuple[int, int]:
            """The width of the words left of the track (they grow with the moment's number),
            and the track's cells."""
            label = len(f" {bar.status} ")
            return label, bar.size.width - label - 1

        for part in (3, 1, 20):
            label, cells = geometry()
            x = cells // part - 1
            assert await pilot.click("#timeline", offset=(label + x, 0))
            assert_at(screen, moment_at(x, bar.track, cells))
        label, cells = geometry()
        third = cell_of(replay.round_starts[2], replay.last, cells)
        assert await pilot.click("#timeline", offset=(label + third, 0))
        assert_at(screen, replay.round_starts[2])  # a round's mark: that round's start exactly
        label, cells = geometry()
        assert await pilot.click("#timeline", offset=(label + cells - 1, 0))
        assert_at(screen, replay.last)
        assert await pilot.click("#timeline", offset=(1, 0))  # the words left of the track: nothing
        assert_at(screen, replay.last)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_clicking_a_line_of_the_log_jumps_there(size: tuple[int, int]) -> None:
    app = replay_app()
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        screen = viewer(app)
        log = screen.query_one(ReplayLog)
        await press(pilot, "3")
        start = screen.moment
        await settled(pilot)
        assert log.region.height >= 3
        later = log.shown()[-1]
        assert later > start  # what comes next is in view, below the moment
        assert await pilot.click(log, offset=(4, len(log.shown()) - 1))
        assert_at(screen, later)
        await settled(pilot)
        earlier = log.shown()[0]
        assert earlier < later
        assert await pilot.click(log, offset=(4, 0))
        assert_at(screen, earlier)


async def test_the_log_scrolls_with_the_wheel_and_comes_back_to_the_moment() -> None:
    app = replay_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        log = screen.query_one(ReplayLog)
        await press(pilot, "end")
        await settled(pilot)
        bottom = list(log.shown())
        await pilot.mouse_down(log)  # bring the pointer over the log, then scroll it
        for _ in range(5):
            log.post_message(
                __import__("textual.events", fromlist=["MouseScrollUp"]).MouseScrollUp(
                    log, 2, 2, 0, 0, 0, False, False, False
                )
            )
        await settled(pilot)
        assert log.shown()[0] < bottom[0]  # older events in view
        assert screen.moment == screen.replay.last
        await press(pilot, "home")
        await settled(pilot)
        assert log.shown()[0] == 0


async def test_a_banner_click_steps_on() -> None:
    app = replay_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        screen.go(16)  # column A of round 1
        await settled(pilot)
        banner = screen.query_one(Banner)
        assert banner.display and not screen.query_one(HandBar).display
        assert "Column A" in banner.text.plain
        assert await pilot.click(Banner)
        assert_at(screen, 17)


async def test_a_resolution_step_is_drawn_as_live_play_draws_it() -> None:
    """Column G of round 1 in game.dvr: Bot 1 takes house 400 and gives back house 300 (R6.1),
    after column E's tie (R5.2). The focus, the results so far and the banner are the live step's."""
    app = replay_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        screen.go(22)
        await settled(pilot)
        step = screen.replay.resolution_step(22)
        assert step is not None
        models = screen.query_one(Board).models
        assert models[6].focus and sum(m.focus for m in models) == 1
        assert all(models[c].resolved for c in range(7))
        assert models[6].returned == {"house-300": 0}
        assert models[4].outcome is not None and models[4].outcome.cancelled == [1, 2]
        banner = screen.query_one(Banner).text.plain
        assert "Column G" in banner and "Bot 1 takes house 400, returns house 300" in banner
        bar = screen.query_one(RoundBar).render().plain
        assert "Resolving column G" in bar and "Round 1 of 6" in bar
        await press(pilot, "right")
        await settled(pilot)
        assert "Round 1 is over" in screen.query_one(Banner).text.plain
        assert "Round 2 of 6" in screen.query_one(RoundBar).render().plain


async def test_scrubbing_forward_and_back_gives_identical_screens() -> None:
    """Every moment of game.dvr, stepping forward then back one event at a time: the same screen
    at each moment, and at each the state of the engine's fold. (Keys are the other tests'.)"""
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        last = screen.replay.last
        forward: list[tuple[tuple[str, object], ...]] = []
        for k in range(last + 1):
            if k:
                screen.action_step(1)
            await settle(pilot)
            assert_at(screen, k)
            forward.append(screen_cells(app))
        for k in range(last, -1, -1):
            if k < last:
                screen.action_step(-1)
            await settle(pilot)
            assert screen_cells(app) == forward[k], f"moment {k} differs on the way back"
        assert len(set(forward)) > last * 0.9  # the moments do look different
        await press(pilot, "end")
        await settled(pilot)
        assert screen_cells(app) == forward[last]  # and a key press gives the same picture


async def test_jumps_give_the_screens_of_steps() -> None:
    """A jump by round or by turn draws the same screen as stepping there one event at a time
    (compared as SVG screenshots, the snapshot tests' own pictures)."""
    app = replay_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        target = screen.replay.round_starts[2] + 7
        for _ in range(target):
            screen.action_step(1)
            await settle(pilot)
        await settled(pilot)
        stepped = app.export_screenshot()
        await press(pilot, "home", "3", "shift+right", "shift+right", "right")
        await settled(pilot)
        assert screen.moment == target
        assert app.export_screenshot() == stepped


@pytest.mark.parametrize("name", EXAMPLES)
async def test_every_example_opens_on_a_drawn_table(name: str) -> None:
    app = replay_app(REPLAYS / name)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        assert_at(screen, 0)
        assert "Round 1 of" in screen.query_one(RoundBar).render().plain
        board = screen.query_one(Board)
        assert len(board.models) == 7 and board.region.height >= 12
        assert not screen.query_one("#replay-notice").display
        await press(pilot, "end")
        assert screen.game.over and "GAME OVER" in screen.query_one(Banner).text.plain


@pytest.mark.parametrize("kind", ["torn", "between", "unfinished", "new"])
async def test_every_kind_of_file_opens_and_scrubs(tmp_path: Path, kind: str) -> None:
    """A cut file (torn, or cut between two lines of a resolution), an unfinished game, a game of
    one line (just dealt): each opens, and its first and last moments are the engine's."""
    files = cut_copies(tmp_path)
    files["new"] = tmp_path / "new.dvr"
    files["new"].write_bytes((REPLAYS / "game.dvr").read_bytes().split(b"\n")[0] + b"\n")
    app = replay_app(files[kind])
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        assert_at(screen, 0)
        await press(pilot, "end")
        assert_at(screen, screen.replay.last)
        await press(pilot, "left", "pageup", "down", "3")
        assert_at(screen, screen.moment)
        assert await pilot.click("#timeline", offset=(30, 0))
        assert_at(screen, screen.moment)
        assert screen.query_one("#replay-notice").display == (kind in ("torn", "between"))


async def test_a_torn_file_opens_with_a_visible_notice(tmp_path: Path) -> None:
    torn = cut_copies(tmp_path)["torn"]
    before = torn.read_bytes()
    app = replay_app(torn)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        notice = screen.query_one("#replay-notice")
        assert notice.display and notice.region.height >= 1
        assert "torn last line" in str(notice.render())
        await press(pilot, "end")
        assert_at(screen, screen.replay.last)
        assert not screen.game.over
    assert torn.read_bytes() == before


async def test_an_unfinished_file_ends_where_it_stops(tmp_path: Path) -> None:
    unfinished = cut_copies(tmp_path)["unfinished"]
    app = replay_app(unfinished)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = viewer(app)
        await press(pilot, "end")
        await settled(pilot)
        assert screen.query_one(HandBar).display
        assert "end of the file" in screen.query_one(HandBar).info.plain
        await press(pilot, "4")  # the file stops in round 2
        assert screen.moment == screen.replay.last
        assert any("stops in round 2" in n.message for n in notifications(app))


async def test_help_and_quit() -> None:
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "escape")  # not time travel: nothing to go back to
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "question_mark")
        await settled(pilot)
        assert isinstance(app.screen, ReplayHelp)
        assert "play from here" in "".join(text for text, _ in screen_cells(app))
        await press(pilot, "escape")
        await settled(pilot)
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "q")
        await settled(pilot)
    assert app.return_code == 0


async def test_the_palette_offers_the_rounds() -> None:
    app = replay_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Round 4" in titles and "Play from here" in titles and "Play / pause" in titles


async def _wait(pilot: Pilot[int], check: object, limit: int = 400) -> None:
    for _ in range(limit):
        if callable(check) and check():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition never met")


@pytest.mark.parametrize("content", [None, b"", b"not json\n{}\n"])
def test_dvtui_replay_refuses_what_is_not_a_game_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    from dvtui.cli import main

    path = tmp_path / "x.dvr"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"dvtui: error: {path}") and err.count("\n") == 1


async def test_viewing_never_writes_the_file(tmp_path: Path) -> None:
    import shutil

    path = tmp_path / "game.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", path)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    app = replay_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "end", "home", "3", "space", "space", "q")
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dvr"]  # no lock, no copy left behind


async def test_the_viewers_help_lists_only_the_viewers_keys() -> None:
    app = replay_app()
    async with app.run_test(size=(120, 70)) as pilot:  # tall enough to show the whole help
        await settled(pilot)
        await press(pilot, "question_mark")
        await settled(pilot)
        assert isinstance(app.screen, ReplayHelp)
        text = "".join(text for text, _ in screen_cells(app))
        assert "Equal totals cancel" in text  # the rules are all there
        assert "play / pause" in text and "the deal / the end of the file" in text
        for live_only in ("choose a card", "take back", "hint", "back to the game"):
            assert live_only not in text


async def test_at_the_end_the_viewer_names_the_last_rounds_first_player() -> None:
    """replays/game.dvr: round 6 was started by Bot 3 (the text export says so too)."""
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "end")
        await settled(pilot)
        assert "Game over  ·  Round 6 of 6  ·  first Bot 3" in app.screen.query_one(RoundBar).render().plain


async def test_the_branch_choice_leaves_the_board_in_sight() -> None:
    """Choosing who plays on is about the position on the board: the dialog does not cover it."""
    from dvtui.app.screens.branch import BranchScreen

    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "2", "down", "down", "b")
        await settled(pilot)
        assert isinstance(app.screen, BranchScreen)
        box = app.screen.query_one("#branch-box").region
        board = app.screen_stack[-2].query_one(Board).region
        assert box.height > 4 and not box.overlaps(board)
