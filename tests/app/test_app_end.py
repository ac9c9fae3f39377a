"""The end of a game on the table: what the table says after the last round, and what the end
screen offers next (a rematch, a new game)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import msgspec
from textual.widgets import Select

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.flow import Cursor
from dvtui.app.options import AppOptions
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.setup import SeatRow, SetupScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import RoundBar
from dvtui.app.widgets.scoreboard import Scoreboard, Standings
from dvtui.engine import CardPlaced, GameCreated, Seat
from dvtui.play.face import Abilities, Presence
from dvtui.play.local import LocalSession
from dvtui.store import read_game

from ..support.apps import SEED, new_session, table_app
from ..support.files import engine_events, file_bytes
from .driver import HUMAN, next_decision, table

REPO = Path(__file__).resolve().parents[2]


def finished_app(tmp_path: Path) -> DvtuiApp:
    """The app on replays/game.dvr (round 6 was started by Bot 3), its game over."""
    path = tmp_path / "done.dvr"
    shutil.copy(REPO / "replays" / "game.dvr", path)
    return DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))


async def test_after_the_game_the_table_names_the_last_rounds_first_player(tmp_path: Path) -> None:
    app = finished_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("t")
        await pilot.pause()
        bar = app.screen.query_one(RoundBar).render().plain
        assert "Game over  ·  Round 6 of 6  ·  first Bot 3" in bar
        scores = app.screen.query_one(Scoreboard).render().plain
        hand = app.screen.query_one(HandBar).render().plain
        for name in ("Bot 1 (greedy)", "Bot 2 (greedy)", "Bot 3 (random)"):  # hands played out, as on the hand bar
            assert f"{name} · · · · · ·" in scores
        assert "Bot 1    ·   ·   ·   ·   ·   ·   Game over" in hand


async def test_rematch_deals_the_next_seed_to_the_same_seats_in_a_new_file(tmp_path: Path, data_dir: Path) -> None:
    app = finished_app(tmp_path)
    before = (tmp_path / "done.dvr").read_bytes()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        session = app.session
        assert session is not None and session.path is not None and session.path.parent == data_dir / "games"
        created = session.game.created
        assert created.seed == 43 and [s.name for s in created.players] == ["Bot 1", "Bot 2", "Bot 3"]
        assert not session.game.over
    assert (tmp_path / "done.dvr").read_bytes() == before  # the finished game is as it was
    assert read_game(session.path).created.seed == 43


async def test_a_rematch_starts_with_nothing_of_the_old_games_cursor_or_resolution(data_dir: Path) -> None:
    """Each turn starts on column A, a rematch's first one too: the table's state of the old game
    (cursor, card, hint, resolution) is replaced whole."""
    app = table_app(new_session(None, players="Ana,bot:greedy,bot:greedy"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("f", "3")
        screen = table(app)
        assert (screen.flow.cursor.card, screen.flow.cursor.column) == (3, 5)
        old = screen.flow
        app.rematch()
        assert await next_decision(pilot, app) == HUMAN
        assert table(app) is screen and screen.session.game.created.seed == SEED + 1
        assert screen.flow is not old and screen.flow.cursor == Cursor(player=0) and screen.flow.resolution is None
        assert "▸" not in screen.query_one(HandBar).render().plain  # no card chosen


async def test_new_game_opens_the_set_up_filled_in_and_esc_comes_back(tmp_path: Path) -> None:
    app = finished_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert [seat.name for seat in app.screen.seats()] == ["Bot 1", "Bot 2", "Bot 3"]
        await pilot.press("escape", "y")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("n")
        await pilot.pause()
        rows = list(app.screen.query(SeatRow))
        rows[0].query_one(".seat-kind", Select).value = "human"
        await pilot.pause()
        rows[0].name_input.value = "Ana"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.names == ["Ana", "Bot 1", "Bot 2"]
        assert app.session.path is not None and app.session.path.is_file()


async def test_table_news_before_the_results_are_drawn_is_said_once_they_are(tmp_path: Path) -> None:
    """A shared table's results are pushed, then composed: news of the table (a rematch proposed)
    may come in between, and is then said by the results as they are drawn, never an error."""
    from ..support.pilot import until

    app = finished_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the results drawn", lambda: bool(app.screen.query(Standings)))
        assert app.session is not None
        await app.pop_screen()  # back to the table, under which a shared table's results open
        end = EndScreen(app.session, table="t")
        app.push_screen(end)
        end.table_changed()  # not composed yet
        await until(pilot, "the results drawn", lambda: bool(end.query("#end-rematch")))
        assert app.screen is end


@dataclass
class _SeatAtTable:
    """A seat as a table's presence lists it (what the results ask of it)."""

    seat: int
    name: str
    kind: str = "human"
    state: str = "away"
    stand_in: str | None = None
    bot: str | None = None
    resigned: bool = False
    user: str | None = None
    stand_in_by: str | None = None


@dataclass
class _FinishedTable:
    """A shared table's finished game, as far as the results ask: Ana's seat, Cy resigned."""

    inner: LocalSession

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    @property
    def path(self) -> None:
        return None  # the table server keeps the file

    @property
    def abilities(self) -> Abilities:
        return Abilities((0,), table="t", branch="lines", stand_ins=True, chat=300, resign=True)

    @property
    def table(self) -> object:
        """A shared table's side: this fake's own ``presence``."""
        return self

    def presence(self) -> Presence:
        seats = [_SeatAtTable(0, "Ana"), _SeatAtTable(1, "Cy", stand_in="strong", resigned=True),
                 _SeatAtTable(2, "Bot 3", kind="bot", state="bot", bot="greedy")]  # fmt: skip
        return Presence("t", 0, seats, 0, "connected", None, "dvtui join t")


async def test_the_results_of_a_shared_table_say_who_resigned_who_a_bot_stood_in_for_and_each_bots_level(
    tmp_path: Path,
) -> None:
    """Cy resigned in round 3 and a bot played her seat to the end; a bot stood in for Ana twice:
    each line of the results says so after the total (a winner's too), and a bot is named with its
    level, as the table named it."""
    events = engine_events("bot:random,bot:greedy,bot:greedy", 4)
    created = events[0]
    assert isinstance(created, GameCreated)
    seats = [Seat(name="Ana", kind="human", color=created.players[0].color),
             Seat(name="Cy", kind="human", color=created.players[1].color), created.players[2]]  # fmt: skip
    events[0] = msgspec.structs.replace(created, players=seats)
    stood = 0
    for i, e in enumerate(events):
        if not isinstance(e, CardPlaced):
            continue
        if (e.player == 1 and e.round >= 3) or (e.player == 0 and stood < 2):
            stood += e.player == 0
            events[i] = msgspec.structs.replace(e, stand_in="strong")
    cy_by_bot = sum(1 for e in events if isinstance(e, CardPlaced) and e.player == 1 and e.round >= 3)
    path = tmp_path / "t.dvr"
    path.write_bytes(file_bytes(events))
    session = _FinishedTable(LocalSession.resume(read_game(path)))
    app = DvtuiApp(session, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        lines = str(app.screen.query_one(Standings).render()).splitlines()
        line = {name: next(s for s in lines if s[3:].startswith(name)) for name in ("Ana", "Cy", "Bot 3")}
        assert line["Cy"].endswith(f"resigned · {cy_by_bot} placements by a bot")
        assert line["Ana"].endswith("2 placements by a stand-in")
        assert "Bot 3 (greedy)" in line["Bot 3"]
        assert "placement" not in line["Bot 3"]
