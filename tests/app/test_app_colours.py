"""Every view with the replay's timeline (the viewer, time travel in a game, a spectator's look
back) drawn under every colour system a terminal can ask for (``TEXTUAL_COLOR_SYSTEM``) and with
colours turned off (``NO_COLOR``): each moment kind is drawn to the bytes a terminal would get, and
without colours nothing on screen is coloured."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.color import Color, ColorSystem
from rich.style import Style
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions, Watch
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import compositor
from dvtui.app.widgets.timeline_bar import TimelineBar
from dvtui.engine import ColumnResolved, GameEnded, RoundEnded
from dvtui.play.autoplay import play_game
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.main import Server
from dvtui.store import read_game
from dvtui.tables import RemoteSession, open_table

from ..support.apps import new_session, table_app
from ..support.colours import terminal
from ..support.pilot import until
from ..support.servers import watch_until
from .driver import table, travel_after_a_move

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
SYSTEMS = {"truecolor": ColorSystem.TRUECOLOR, "256": ColorSystem.EIGHT_BIT, "standard": ColorSystem.STANDARD}
"""The colour systems Textual draws in (``TEXTUAL_COLOR_SYSTEM``; ``auto`` picks one of them)."""


@pytest.fixture(
    params=[(system, off) for system in SYSTEMS for off in (False, True)],
    ids=lambda p: f"{p[0]}{'-NO_COLOR' if p[1] else ''}",
)
def colours(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple[str, bool]:
    return terminal(monkeypatch, *request.param)


def is_grey(color: Color | None) -> bool:
    if color is None or color.is_default:
        return True
    r, g, b = color.get_truecolor()
    return r == g == b


def drawn(app: DvtuiApp, colours: tuple[str, bool]) -> str:
    """The screen's text, after checking each cell's colours as a terminal in the colour system
    gets them (no more than the system has), and all grey when colours are off."""
    system, off = colours
    assert app.console.color_system == system
    text: list[str] = []
    for strip in compositor(app.screen).render_strips():
        for segment in strip:
            style = segment.style
            assert style is not None, segment
            for color, foreground in ((style.color, True), (style.bgcolor, False)):
                if color is None or color.is_default:
                    continue
                codes = color.downgrade(SYSTEMS[system]).get_ansi_codes(foreground)
                assert len(codes) == {"truecolor": 5, "256": 3, "standard": 1}[system] or color.is_system_defined
                assert not off or is_grey(color), segment
            text.append(segment.text)
        text.append("\n")
    return "".join(text)


async def show_every_kind_of_moment(pilot: Pilot[int], viewer: ReplayScreen, colours: tuple[str, bool]) -> None:
    """The viewer at the deal, a placement, a column resolved, a round's end and the game's end
    (the last of the file when it has not ended), each drawn."""
    events = viewer.replay.events
    kinds = (ColumnResolved, RoundEnded, GameEnded)
    moments = [
        0,
        1,
        *(next((k for k, e in enumerate(events) if isinstance(e, kind)), viewer.replay.last) for kind in kinds),
    ]
    for moment in moments:
        viewer.go(moment)
        await pilot.pause()
        screen = drawn(pilot.app, colours)  # type: ignore[arg-type]
        assert viewer.query_one(TimelineBar).region.height >= 1 and f"{moment}/{viewer.replay.last}" in screen


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_viewer_draws_every_moment_in_every_colour_system(
    colours: tuple[str, bool], size: tuple[int, int]
) -> None:
    app = DvtuiApp(Watch(read_game(REPLAYS / "game.dvr", checkpoints=True)), AppOptions(pace=Pace(0.0, None)))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await show_every_kind_of_moment(pilot, viewer, colours)
    assert app.return_code in (None, 0)


async def test_time_travel_in_a_game_draws_without_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    colours = terminal(monkeypatch, "256", True)
    app = table_app(new_session(Path("travel.dvr")))
    async with app.run_test(size=(80, 24)) as pilot:
        await travel_after_a_move(pilot, app)
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await show_every_kind_of_moment(pilot, viewer, colours)
        await pilot.press("escape")
        await pilot.pause()
        assert table(app).session.game.round == 1
    assert app.return_code in (None, 0)


async def test_a_spectator_looks_back_without_colours(in_process: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    colours = terminal(monkeypatch, "standard", True)
    players = ["Ana", "bot:greedy", "bot:greedy"]
    opening = open_table(in_process.place, "nc", players, seed=2, first_player=1, wait=False)
    await asyncio.to_thread(lambda: asyncio.run(opening))
    await asyncio.to_thread(watch_until, in_process.place, "nc", 2)  # a table nobody is at plays no bots
    watcher = await RemoteSession.open(in_process.place, "nc", watch=True)
    app = DvtuiApp(watcher, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.session is watcher
            for _ in range(3000):
                if len(watcher.events) >= 3:
                    break
                await pilot.pause(0.02)
            assert len(watcher.events) >= 3, "the bots' moves never reached the spectator"
            await pilot.press("t")
            await pilot.pause()
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen) and viewer.replay.last >= 2
            await show_every_kind_of_moment(pilot, viewer, colours)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen
        assert app.return_code in (None, 0)
    finally:
        watcher.close()


def contrast(style: Style, background: Color) -> float:
    """WCAG contrast of a cell's words on its background (reversed when the style says so)."""

    def luminance(color: Color) -> float:
        def linear(c: int) -> float:
            s = c / 255
            return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

        r, g, b = color.get_truecolor()
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)

    fg = style.color or Color.parse("#ffffff")
    bg = style.bgcolor or background
    if style.reverse:
        fg, bg = bg, fg
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def name_contrasts(app: DvtuiApp, names: list[str]) -> list[tuple[str, int, float]]:
    """Every place a name is drawn on screen: (name, row, contrast of its first cell)."""
    background = Color.parse("#000000")
    found: list[tuple[str, int, float]] = []
    for y, strip in enumerate(compositor(app.screen).render_strips()):
        cells = [(char, segment.style) for segment in strip for char in segment.text]
        line = "".join(char for char, _ in cells)
        for name in names:
            for x in (m.start() for m in re.finditer(re.escape(name), line)):
                style = cells[x][1]
                assert style is not None
                found.append((name, y, contrast(style, background)))
    return found


NAMES = ["Bot 1", "Bot 2", "Bot 3", "B1", "B2", "B3"]
"""The players' names, and their tags on the board."""


async def test_without_colours_names_read_as_well_as_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal(monkeypatch, "truecolor", True)
    game, events = play_game(parse_players("bot:random,bot:greedy,bot:greedy"), seed=3)
    app = table_app(LocalSession(PlaySession(game, None, Path("finished.dvr"), events)))
    async with app.run_test(size=(80, 24)) as pilot:
        # the winner's line and the ranking, then the table under it (scoreboard, board, log): each
        # is waited for until drawn
        def drawn(screen: type[object], names: int) -> Callable[[], bool]:
            return lambda: isinstance(app.screen, screen) and len(name_contrasts(app, NAMES)) >= names

        await until(pilot, "the end screen", drawn(EndScreen, 4))
        end = name_contrasts(app, NAMES)
        await pilot.press("t")
        await until(pilot, "the table", drawn(TableScreen, 6))
        table_names = name_contrasts(app, NAMES)
    low = [(name, y, round(c, 1)) for name, y, c in end + table_names if c < 4.5]
    assert not low
