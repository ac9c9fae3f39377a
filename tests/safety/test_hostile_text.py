"""Names and file names that look like markup, or hold terminal controls, are shown as they are on
every screen and in every notice of the app, and never crash it, never run an action.

A game file comes from anyone: its players' names, its file name and the lock record beside it are
outside text. ``[/]`` is markup that does not parse (the app would die of a MarkupError),
``[@click=app.screenshot('x','.')]`` is markup that would make a click write a file where the name's
author chose, ``[b]`` would silently restyle. Each screen is opened at 80x24 and read back as the
terminal shows it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Select

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Setup, Watch
from dvtui.app.screens.branch import BranchScreen
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.help import HelpScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.setup import SeatRow, SetupScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import Toast, compositor
from dvtui.engine import Game, Seat, new_game
from dvtui.play.autoplay import play_out
from dvtui.play.local import LocalSession
from dvtui.store import GameWriter, lock_path, read_game

CLOSE = "[/]"  # markup that does not parse
CLICK = "[@click=app.quit]Clic[/]"  # markup that would run an action (24 characters: a name's most)
BOLD = "[b]bold[/b]"  # markup that would restyle
DIR = "x["
PATH = "x[/]y.dvr"  # a file "]y.dvr" in the directory "x[": the path holds "[/]"
BOTS = [
    Seat(name=CLOSE, kind="bot", color="red", bot="greedy"),
    Seat(name=CLICK, kind="bot", color="yellow", bot="greedy"),
    Seat(name=BOLD, kind="bot", color="green", bot="greedy"),
]
SIZE = (80, 24)


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own directory (the paths above are relative to it; the screenshot the click
    markup asks for would land here) and saves directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / DIR).mkdir()
    return tmp_path


def screen_text(app: App[int]) -> str:
    """The screen as the terminal shows it (every layer: toasts too), as plain text."""
    return "\n".join(strip.text for strip in compositor(app.screen).render_strips())


def toast_text(app: App[int]) -> str:
    """The toasts on screen, each as drawn but unwrapped (a toast wraps a long name mid-word)."""
    return "\n".join(toast.render().plain for toast in app.screen.query(Toast))


def finished_game(path: Path | str, seats: list[Seat] = BOTS) -> Path:
    created = new_game(seats, first_player=0, seed=9)
    with GameWriter.create(path, created) as writer:
        play_out(Game(created), writer.append)
    return Path(path)


async def human_to_move(pilot: object, app: DvtuiApp, seat: int) -> None:
    """Wait for the bots until ``seat`` is asked to place."""
    for _ in range(200):
        await app.workers.wait_for_complete()
        await pilot.pause(0.01)  # type: ignore[attr-defined]
        screen = app.screen
        if isinstance(screen, TableScreen) and screen.session.human_to_move() == seat:
            return
    raise AssertionError(f"seat {seat} is never asked to place")


async def click_text(pilot: object, app: App[int], word: str) -> None:
    """Click where ``word`` is drawn in a toast (where an action would be, if it were markup)."""
    lines = screen_text(app).splitlines()
    for toast in app.screen.query(Toast):
        region = toast.region
        for y in range(region.y, region.bottom):
            x = lines[y].find(word, region.x)
            if 0 <= x < region.right:
                await pilot.click(offset=(x + 1, y))  # type: ignore[attr-defined]
                return
    raise AssertionError(f"{word!r} is not in a toast:\n" + "\n".join(lines))


async def test_set_up_screen_shows_typed_names_as_they_are() -> None:
    app = DvtuiApp(
        Setup(),
        AppOptions(
            setup=SetupDefaults(default_name="Zed[/]"),
            pace=Pace(0.0, None),
            seed_source=lambda: 5,
            save_path=lambda created: Path(PATH),
        ),
    )
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "1. Zed[/]" in screen_text(app)
        rows = list(app.screen.query(SeatRow))
        rows[0].name_input.value = BOLD
        rows[1].query_one(".seat-kind", Select).value = "human"
        await pilot.pause()
        rows[1].name_input.value = BOLD  # the same name twice: the error quotes it
        await pilot.press("ctrl+s")
        await pilot.pause()
        text = screen_text(app)
        assert f"1. {BOLD}" in text and f"two seats are called '{BOLD}'" in text
        rows[1].name_input.value = "[red]Bea"
        await pilot.pause()
        app.screen.query_one("#first", Select).value = 1
        await pilot.pause()
        assert "2. [red]Bea" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert BOLD in screen_text(app)
    assert [s.name for s in read_game(PATH).created.players] == [BOLD, "[red]Bea", "Bot 1"]


async def test_table_notices_palette_time_travel_and_branch_quote_names_and_paths() -> None:
    """Hot-seat ``CLICK`` and ``[/]`` with a bot ``[b]bold[/b]``, saved in ``x[/]y.dvr``: the
    undo toasts, the palette's "where is this game saved", help, time travel and the branch dialog."""
    seats = [
        Seat(name=CLICK, kind="human", color="red"),
        Seat(name=CLOSE, kind="human", color="yellow"),
        Seat(name=BOLD, kind="bot", color="green", bot="greedy"),
    ]
    session = LocalSession.start(new_game(seats, first_player=2, seed=9), Path(PATH))
    app = DvtuiApp(session, AppOptions(pace=Pace(0.0, None), branch_path=lambda created: Path("x[/]branch.dvr")))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        table = app.screen
        assert isinstance(table, TableScreen)
        await human_to_move(pilot, app, 0)  # the bot starts
        assert CLOSE in screen_text(app)
        await pilot.press("u")  # CLICK has placed nothing this round (only the bot has)
        await pilot.pause(0.2)
        assert f"{CLICK} has nothing to take back this round" in toast_text(app)
        await click_text(pilot, app, "Clic")  # where the action would be: nothing runs
        await pilot.pause()
        assert app.is_running
        await pilot.press("1", "a", "enter")  # CLICK places, then [/], then the bot
        await pilot.pause()
        await pilot.press("1", "b", "enter")
        await human_to_move(pilot, app, 0)
        await pilot.press("u")  # [/] placed last of the people: at the keyboard, they take it back
        await pilot.pause(0.2)
        assert f"{CLOSE} took back 1 from column B" in screen_text(app)

        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"where")
        for _ in range(100):  # the palette searches in the background
            await pilot.pause(0.02)
            if "Where is this game saved?" in screen_text(app):
                break
        assert PATH in screen_text(app)  # the command's help is the path
        await pilot.press("enter")
        await pilot.pause()
        assert f"Saved in {PATH}" in toast_text(app)

        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("t")  # time travel
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert CLOSE in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BranchScreen)
        text = screen_text(app)
        assert f"{CLOSE} play on" in text and f"Play {BOLD}'s seat too" in text
        await pilot.press("enter")  # keep the seats
        await pilot.pause()
        assert app.screen is table and app.branched == Path("x[/]branch.dvr")
        assert f"as it was in {PATH}" in toast_text(app)
        await pilot.press("q")
    assert not Path("x").exists()


async def test_end_screen_names_the_winners_and_the_file() -> None:
    """The winners by name, and the file (a name holding markup and an escape sequence)."""
    path = Path(DIR) / "]y\x1b[2J.dvr"
    app = DvtuiApp(LocalSession.resume(read_game(finished_game(path))), AppOptions(pace=Pace(0.0, None)))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(50):
            await pilot.pause(0.01)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "GAME OVER" in text and "Saved in x[/]y\\x1b[2J.dvr" in text and "\x1b" not in text
        assert any(name in text.split("GAME OVER")[1].splitlines()[0] for name in (CLOSE, CLICK, BOLD))


async def test_viewer_shows_the_torn_tail_notice_with_the_file_name_escaped() -> None:
    """A file name holding markup and an escape sequence: the viewer's notice panel shows both as
    text (the escape as ``\\x1b``), never sends the sequence to the terminal."""
    path = Path(DIR) / "]y\x1b[2J[b].dvr"
    finished_game(path)
    with open(path, "ab") as f:
        f.write(b'{"type":"card_pla')  # a torn last line: a notice naming the file
    app = DvtuiApp(Watch(read_game(path)), AppOptions(pace=Pace(0.0, None)))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "\x1b" not in text
        assert "]y\\x1b[2J[b].dvr line " in text and "torn last line" in text
        assert CLOSE in text


async def test_resume_notices_quote_the_torn_file_and_the_lock_record_as_text() -> None:
    """Resuming a torn file whose dead holder's lock record names a hostile host and user: the
    "Recovered" toasts (the torn tail, the lock taken over) show them as they are."""
    seats = [
        Seat(name=CLICK, kind="human", color="red"),
        Seat(name=CLOSE, kind="bot", color="yellow", bot="greedy"),
        Seat(name=BOLD, kind="bot", color="green", bot="greedy"),
    ]
    GameWriter.create(PATH, new_game(seats, first_player=1, seed=9)).close()
    with open(PATH, "ab") as f:
        f.write(b'{"type":"card_pla')
    record = {
        "host": "[/]host",
        "pid": 4242,
        "user": "[@click=app.screenshot('x','.')]Me[/]",
        "since": "2026-01-01T00:00:00Z",
    }
    lock_path(PATH).write_text(json.dumps(record))
    app = DvtuiApp(LocalSession.resume(read_game(PATH)), AppOptions(pace=Pace(0.0, None)))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:  # room for the three toasts
        await pilot.pause()
        text = toast_text(app)
        assert "torn last line" in text and text.count(PATH) >= 2
        assert "took over the lock left by pid 4242 on [/]host (user [@click=app.screenshot('x','.')]Me[/])" in text
        await click_text(pilot, app, "]M")  # where the action would be (a toast wraps the name)
        await pilot.pause()
        await pilot.press("q")
    assert not Path("x").exists()
