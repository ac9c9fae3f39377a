"""The set-up screen of ``dvtui new``: seats (human by name or bot by level), colours, who starts,
the seed; mistakes are said on the screen, and starting creates the game file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label, Select, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Setup
from dvtui.app.screens.setup import LeaveSetup, SeatRow, SetupScreen, kind_options, level_words
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import notifications
from dvtui.bots import LADDER, LEVELS, RATINGS, about
from dvtui.engine import Seat
from dvtui.store import read_game

from ..support.pilot import press, settled, text, until


def setup_app(tmp_path: Path) -> DvtuiApp:
    return DvtuiApp(
        Setup(),
        AppOptions(
            setup=SetupDefaults(default_name="Ana"),
            pace=Pace(0.0, None),
            seed_source=lambda: 77,
            save_path=lambda created: tmp_path / "set-up.dvr",
        ),
    )


async def test_seats_are_set_up_and_the_game_starts(tmp_path: Path) -> None:
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert isinstance(app.screen, SetupScreen)
        await press(pilot, "ctrl+u", *"Zoe")
        await press(pilot, "ctrl+n")  # a fourth seat: a greedy bot in blue
        await settled(pilot)
        rows = list(app.screen.query(SeatRow))
        assert len(rows) == 4 and rows[3].color == "blue"
        rows[1].query_one(".seat-kind", Select).value = "bot:random"
        rows[2].query_one(".seat-kind", Select).value = "human"
        await settled(pilot)
        rows[2].name_input.value = "Ben"
        app.screen.query_one("#first", Select).value = 2
        await settled(pilot)
        await press(pilot, "ctrl+s")
        await settled(pilot)
        assert isinstance(app.screen, TableScreen)
    created = read_game(tmp_path / "set-up.dvr").created
    assert [(s.name, s.kind, s.bot, s.color) for s in created.players] == [
        ("Zoe", "human", None, "red"),
        ("Bot 1", "bot", "random", "yellow"),
        ("Ben", "human", None, "green"),
        ("Bot 2", "bot", "greedy", "blue"),
    ]
    assert created.first_player == 2 and created.seed == 77 and created.rounds == 4


async def test_mistakes_are_said_on_the_screen(tmp_path: Path) -> None:
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "ctrl+u")  # no name
        await press(pilot, "ctrl+s")
        await settled(pilot)
        error = app.screen.query_one("#setup-error", Static)
        assert "seat 1: the name is empty" in str(error.render())
        await press(pilot, *"Ana")
        rows = list(app.screen.query(SeatRow))
        rows[1].query_one(".seat-color", Select).value = "red"  # two reds
        await settled(pilot)
        await press(pilot, "ctrl+s")
        await settled(pilot)
        assert "each seat has its own colour" in str(app.screen.query_one("#setup-error", Static).render())
        rows[1].query_one(".seat-color", Select).value = "yellow"
        app.screen.query_one("#seed", Input).value = "1234"
        await press(pilot, "ctrl+s")
        await settled(pilot)
        assert isinstance(app.screen, TableScreen)
    assert read_game(tmp_path / "set-up.dvr").created.seed == 1234


async def test_a_typed_name_is_kept_and_the_seat_rules_are_said(tmp_path: Path) -> None:
    """A name like a bot's is the person's to type (kept, not wiped while typing); the rules that
    refuse a name are those of the command line and the file reader, in their words."""
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "ctrl+u", *"Bot 12")
        await settled(pilot)
        rows = list(app.screen.query(SeatRow))
        assert rows[0].name_input.value == "Bot 12"
        await press(pilot, "ctrl+u", *"bot:strong")
        await press(pilot, "ctrl+s")
        await settled(pilot)
        error = str(app.screen.query_one("#setup-error", Static).render())
        assert "seat 1: the name 'bot:strong' is how a bot is written" in error
        await press(pilot, "ctrl+u", *"Bot 1")  # the name of the bot in seat 2
        await press(pilot, "ctrl+s")
        await settled(pilot)
        assert "seat 2: two seats are called 'Bot 1'" in str(app.screen.query_one("#setup-error", Static).render())
        await press(pilot, "ctrl+u", *"Bot 12")
        await press(pilot, "ctrl+s")
        await settled(pilot)
        assert isinstance(app.screen, TableScreen)
    assert read_game(tmp_path / "set-up.dvr").created.players[0].name == "Bot 12"


async def test_a_bot_seat_turned_human_drops_the_bot_name(tmp_path: Path) -> None:
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        rows = list(app.screen.query(SeatRow))
        assert rows[1].name_input.value == "Bot 1"
        rows[1].query_one(".seat-kind", Select).value = "human"
        await settled(pilot)
        assert rows[1].name_input.value == ""


async def test_minus_seat_removes_the_seat_you_were_on(tmp_path: Path) -> None:
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "ctrl+n")  # 4 seats: Ana, Bot 1, Bot 2, Bot 3
        await settled(pilot)
        rows = list(app.screen.query(SeatRow))
        rows[1].query_one(".seat-color", Select).focus()  # working on seat 2 (Bot 1, yellow)
        await settled(pilot)
        await pilot.click("#remove-seat")
        await settled(pilot)
        rows = list(app.screen.query(SeatRow))
        assert [row.color for row in rows] == ["red", "green", "blue"]
        assert [str(row.query_one(".seat-number", Label).render()) for row in rows] == ["1.", "2.", "3."]


async def test_enter_in_a_name_moves_on_and_a_sixth_seat_says_why_not(tmp_path: Path) -> None:
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        name = app.screen.focused
        assert isinstance(name, Input)
        await press(pilot, "enter")
        await settled(pilot)
        assert app.screen.focused is not name
        await press(pilot, "ctrl+n", "ctrl+n")
        await settled(pilot)
        await press(pilot, "ctrl+n")  # a sixth
        await settled(pilot)
        assert len(app.screen.query(SeatRow)) == 5
        assert any("5 seats at most" in n.message for n in notifications(app))
        help_line = str(app.screen.query_one("#level-help", Static).render())
        assert help_line.startswith("Bot: greedy · ")  # the seat worked on is the new greedy bot's


async def test_escape_asks_before_the_set_up_is_thrown_away(tmp_path: Path) -> None:
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "escape")
        await settled(pilot)
        assert isinstance(app.screen, LeaveSetup)
        await press(pilot, "escape")  # stay
        await settled(pilot)
        assert isinstance(app.screen, SetupScreen) and app.is_running
        await press(pilot, "escape", "y")
        await settled(pilot)
    assert app.return_code == 0 and not list(tmp_path.glob("*.dvr"))


def test_a_colours_name_is_drawn_in_the_labels_colour_and_only_its_swatch_in_the_colour() -> None:
    """The focused dropdown is gold: a name in its own colour (yellow on gold) could not be read."""
    from dvtui.app.screens.setup import color_options

    for prompt, value in color_options():
        assert prompt.plain == f"■ {value}"
        assert not prompt.style  # no colour for the whole line ...
        assert [(span.start, span.end) for span in prompt.spans] == [(0, 2)]  # ... only for the swatch


async def test_the_help_line_speaks_of_the_level_of_the_seat_worked_on(tmp_path: Path) -> None:
    """Choosing a bot for a seat shows its level's sentence and its measured strength; a person's seat
    shows what every level is."""
    app = setup_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the set-up", lambda: isinstance(app.screen, SetupScreen))
        help_line = app.screen.query_one("#level-help", Static)
        await until(pilot, "the help for every level", lambda: "Bots, weakest first" in text(help_line))
        rows = list(app.screen.query(SeatRow))
        rows[1].query_one(".seat-kind", Select).value = "bot:club"
        await until(pilot, "club's words", lambda: "Plans the round and rarely strays" in text(help_line))
        assert f"measured strength: {-RATINGS['club']} Elo below strong" in text(help_line)
        rows[1].query_one(".seat-kind", Select).value = "bot:random"  # never measured: no strength shown
        await until(pilot, "random's words", lambda: "Places any card anywhere." in text(help_line))
        assert "measured" not in text(help_line)
        rows[2].query_one(".seat-kind", Select).focus()  # a greedy bot's seat, reached by focus alone
        await until(pilot, "greedy's words", lambda: "Takes what pays best this round." in text(help_line))
        rows[0].name_input.focus()  # back on the person's seat
        await until(pilot, "the help for every level again", lambda: "Bots, weakest first" in text(help_line))


def test_every_level_has_words_and_the_ladder_a_measured_strength_in_order() -> None:
    """Every level can be described, and the ladder's ratings are the gauntlet's (weakest first)."""
    for level in LEVELS:
        sentence, _rating = about(level)
        assert sentence and sentence.endswith(".")
        assert level_words(f"bot:{level}").startswith(f"Bot: {level} · {sentence}")
    assert all(level.name in RATINGS for level in LADDER)
    assert RATINGS["strong"] == RATINGS["expert"] == 0  # expert is strong under a ladder name
    assert level_words("bot:expert").endswith("measured strength: strong's, being the same player")
    assert RATINGS["novice"] == min(RATINGS.values())
    assert RATINGS["master"] == max(RATINGS.values())


def test_the_levels_are_offered_weakest_first_as_measured() -> None:
    """A seat's levels come in the order the gauntlet measured (random, never measured, first), and
    each player once: ``expert``, ``strong`` under another name, is not offered beside it."""
    levels = [kind.removeprefix("bot:") for _label, kind in kind_options()[1:]]
    assert levels[0] == "random"
    assert levels[1:] == sorted(levels[1:], key=lambda level: RATINGS[level])
    assert levels == ["random", "novice", "casual", "greedy", "club", "strong", "master"]
    assert set(LEVELS) - set(levels) == {"expert"}


async def test_a_seat_of_expert_is_set_up_as_strong(tmp_path: Path) -> None:
    """A set-up that starts from a game of ``bot:expert`` (the last game's seats) shows that seat as
    ``strong``, the same player, rather than falling back to another level."""
    seats = [Seat(name="Ana", kind="human", color="red"), Seat(name="Bot 1", kind="bot", color="yellow", bot="expert"),
             Seat(name="Bot 2", kind="bot", color="green", bot="master")]  # fmt: skip
    app = DvtuiApp(
        Setup(),
        AppOptions(
            setup=SetupDefaults(default_name="Ana", seats=seats),
            pace=Pace(0.0, None),
            seed_source=lambda: 77,
            save_path=lambda created: tmp_path / "set-up.dvr",
        ),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the set-up", lambda: isinstance(app.screen, SetupScreen))
        rows = list(app.screen.query(SeatRow))
        assert [row.kind for row in rows] == ["human", "bot:strong", "bot:master"]
