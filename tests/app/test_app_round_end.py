"""A round's end that people can read: the summary waits for a key when people play (bots alone
go on), says what each player took and gave back, the footer says Enter moves on, the log
scrolls at 80x24, the pace is on screen and remembered, and a game left during a resolution
opens on a recap of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.events import Key, MouseScrollUp

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, load_pace, settings_path
from dvtui.app.options import AppOptions
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import FooterKey, notifications
from dvtui.app.widgets.board import Board
from dvtui.app.widgets.panels import Banner, EventLog, PaceLabel, RoundBar
from dvtui.describe import gains_line
from dvtui.engine import ColumnResolved, GameCreated, RoundEnded
from dvtui.play.local import LocalSession
from dvtui.store import read_game

from ..support.apps import new_session, table_app
from ..support.pilot import press, screen_lines, text, until
from .driver import (
    HUMAN,
    choose,
    hot_seat_session,
    next_decision,
    play_exchange_and_tie,
    table,
)


async def play_round(pilot, app: DvtuiApp) -> TableScreen:  # type: ignore[no-untyped-def]
    await play_exchange_and_tie(pilot)
    screen = table(app)
    assert screen.flow.resolution and screen.flow.resolution.index == 0
    return screen


async def to_summary(pilot, screen: TableScreen) -> None:  # type: ignore[no-untyped-def]
    while not isinstance(screen.flow.resolution.step.event, RoundEnded):
        await pilot.press("space")


def footer(app: DvtuiApp) -> dict[str, str]:
    return {key.action: key.description for key in app.screen.query(FooterKey)}


async def test_with_people_at_the_table_enter_steps_s_skips_to_the_summary_which_waits_for_a_key(
    make_created: Callable[..., GameCreated],
) -> None:
    """One round's end as people see it (the flow's tests hold the rules of each step): the footer
    offers Enter for the next step, s goes to the summary, which says what each player took and
    gave back and waits for a key, and the next key goes on to the next round."""
    app = table_app(hot_seat_session(make_created))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.pause()
        assert footer(app).get("place") == "place" and "next_step" not in footer(app)
        await play_round(pilot, app)
        keys = {key.action: key for key in app.screen.query(FooterKey)}
        assert "place" not in keys and keys["next_step"].description == "next"
        assert keys["next_step"].key == "enter"
        banner = app.screen.query_one(Banner)
        assert "Column A" in text(banner) and "Column B" not in text(banner)
        await press(pilot, "enter")
        assert "Column B" in text(banner)
        await press(pilot, "s")
        lines = banner.text.plain.splitlines()
        assert lines[0].startswith(" Round 1 is over  Ben starts round 2") and lines[0].endswith("⏎ next")
        assert lines[1] == "Ana +700k → 700k: HSE 300, HSE 600, $$$ 100; returned HSE 300"
        assert lines[2] == "Ben +0 → 0: nothing"
        assert len(lines) == 4 and lines[3].startswith("Cy ")
        await press(pilot, "s")
        title = screen_lines(app)[0]
        assert "Ben to play" in title and "Round 2 of 6" in title and not banner.summary


async def test_bots_alone_go_on_past_the_summary() -> None:
    """Nobody to read it: the round's summary goes by on the pace's timer, as its columns do,
    and the bots play the next round (the flow's test holds that the summary is not held)."""
    session = new_session(players="bot:greedy,bot:greedy,bot:greedy")
    app = DvtuiApp(session, AppOptions(pace=Pace(bot_delay=0.0, step_delay=0.01)))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "round 2", lambda: "Round 2 of 6" in screen_lines(app)[0])


@pytest.mark.long
async def test_the_log_can_be_focused_and_scrolled_at_80x24(make_created: Callable[..., GameCreated]) -> None:
    app = table_app(hot_seat_session(make_created))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_round(pilot, app)
        await press(pilot, "s", "s")
        screen = app.screen
        log, board = screen.query_one(EventLog), screen.query_one(Board)
        assert log.max_scroll_y > 0 and log.scroll_offset.y == log.max_scroll_y  # following the game
        short = log.size.height
        await press(pilot, "tab")
        await pilot.pause()
        assert app.focused is log
        assert footer(app).get("scroll_up") == "scroll"
        # read, the log takes the board's and the hand's place: most of the screen, the scores kept
        assert board.region.area == 0
        assert log.size.height >= 24 - 3 - 3 - 1 > short  # round bar, three scores, footer
        await press(pilot, "home")
        await pilot.pause()
        assert log.scroll_offset.y == 0
        await press(pilot, "down")
        await pilot.pause()
        assert log.scroll_offset.y == 1
        await press(pilot, "escape")
        await pilot.pause()
        assert app.focused is None and board.region.area > 0 and log.size.height == short  # the table is back
        assert log.following and log.scroll_offset.y == log.max_scroll_y  # and the log follows the game again
        await press(pilot, "tab", "home", "escape")
        await pilot.pause()
        await press(pilot, "4", "a", "enter")  # the game goes on: its newest line is shown
        await pilot.pause()
        assert log.scroll_offset.y == log.max_scroll_y and "placed 4 under column A" in log.entries[-1].plain
        await press(pilot, "end")  # not the log's key: nothing moves
        await pilot.mouse_down(log)  # the pointer over the log, then the wheel (focused or not)
        await press(pilot, "escape")
        await pilot.pause()
        for _ in range(2):
            log.post_message(MouseScrollUp(log, 2, 0, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert log.scroll_offset.y < log.max_scroll_y


async def test_the_pace_is_on_screen_one_note_at_a_time_and_kept_for_the_resume() -> None:
    app = table_app(new_session(), step_delay=0.9)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        label = app.screen.query_one(PaceLabel)
        assert label.render().plain == "+− pace 0.0 s"
        await pilot.press("minus")
        await pilot.pause()
        assert label.render().plain == "+− pace 0.1 s"
        for _ in range(12):  # quick presses, none waiting for the one before to be drawn
            app.post_message(Key("minus", "-"))
        await pilot.pause()
        notes = [str(n.message) for n in notifications(app)]
        assert notes == ["Pace: bots wait 4.0 s, a column shows 6.0 s — slowest."]
        assert label.render().plain == "+− pace 4.0 s"
        for _ in range(3):
            await pilot.press("plus")
        await pilot.pause()
        assert [str(n.message) for n in notifications(app)] == ["Pace: bots wait 1.2 s, a column shows 2.0 s."]
        await pilot.press("q")
    assert settings_path().is_file()
    pace = load_pace()
    assert (pace.bot_delay, pace.step_delay) == (1.2, 2.0)
    resumed = DvtuiApp(LocalSession.resume(read_game(Path("game.dvr"))))  # as dvtui resume builds it
    async with resumed.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert resumed.screen.query_one(PaceLabel).render().plain == "+− pace 1.2 s"
        assert resumed.pace.step_delay == 2.0
        await pilot.press("q")
    assert load_pace(bot_delay=3.0).bot_delay == 3.0  # --bot-delay wins over the saved pace


async def test_a_game_left_during_its_resolution_opens_on_a_recap_of_it(
    make_created: Callable[..., GameCreated],
    tmp_path: Path,
) -> None:
    path = tmp_path / "left.dvr"
    app = table_app(hot_seat_session(make_created, path))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_round(pilot, app)  # column A on screen, the rest not seen
        await pilot.press("q")
    resumed = table_app(LocalSession.resume(read_game(path)))
    async with resumed.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = table(resumed)
        assert screen.flow.resolution is not None and screen.flow.resolution.recap and screen.flow.resolution.index == 0
        log = resumed.screen.query_one(EventLog)
        assert 0 < log.max_scroll_y == log.scroll_offset.y  # a long history opens on its end
        first = screen.flow.resolution.steps[0].event
        assert isinstance(first, ColumnResolved) and first.column == 0
        assert "Recap · Resolving column A" in resumed.screen.query_one(RoundBar).render().plain
        # the log is where the table is: column A told, the rest of the round's end not yet
        assert log.entries[-1].plain.startswith("Column A") and not any("Column B" in e.plain for e in log.entries)
        assert not any("Round 1 is over" in e.plain for e in log.entries)
        await pilot.press("s")
        summary = resumed.screen.query_one(Banner).text.plain
        assert "Ana +700k → 700k: HSE 300, HSE 600, $$$ 100; returned HSE 300" in summary
        await pilot.press("enter")
        assert screen.flow.resolution is None and screen.session.human_to_move() == 1
        await pilot.press("3", "c", "enter")
        await pilot.pause()
        assert log.scroll_offset.y == log.max_scroll_y  # still following, after the summary came and went
        assert log.entries[-1].plain == "Ben placed 3 under column C"
        assert sum("Round 1 is over" in e.plain for e in log.entries) == 1  # told once, not twice


async def test_a_game_resumed_in_the_middle_of_placements_has_no_recap(tmp_path: Path) -> None:
    path = tmp_path / "mid.dvr"
    session = new_session(path)
    session.place(choose(session.game), player=0)
    session.close()
    app = table_app(LocalSession.resume(read_game(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert table(app).flow.resolution is None


def test_a_round_that_costs_a_player_reads_as_a_loss() -> None:
    line = gains_line("Ana", -300_000, 400_000, ["jewel-200"], ["jewel-500"])
    assert line == "Ana −300k → 400k: JWL 200; returned JWL 500"


def test_a_settings_file_that_cannot_be_read_gives_the_default_pace() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    assert (load_pace().bot_delay, load_pace().step_delay) == (Pace().bot_delay, Pace().step_delay)
    path.write_text('{"bot_delay": -3, "step_delay": 99, "hold_round_end": false}')
    pace = load_pace()
    assert (pace.bot_delay, pace.step_delay, pace.hold_round_end) == (Pace().bot_delay, Pace().step_delay, False)
