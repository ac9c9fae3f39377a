"""The table at 80x24 and below, with long and wide names, and without colours: every line of
advice is shown whole, whose turn it is comes first in the title, names are fitted in terminal
cells (CJK and emoji take two) and stay told apart, a too-small terminal says so, and emphasis
survives NO_COLOR and 16-colour terminals. What is checked is what the screen shows."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Select

from dvtui.app.app import MAX_TOASTS, DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Setup, Watch
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import FooterKey, SelectCurrent, Toast, compositor, notifications
from dvtui.app.widgets.board import Board, SeatLooks, build_models, column_lines, column_spans
from dvtui.app.widgets.faces import cell_tags, fit_names
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import Banner, RoundBar, wrap_items
from dvtui.app.widgets.scoreboard import Scoreboard
from dvtui.app.widgets.table_view import TableLayout, compact_minimum_size, minimum_size
from dvtui.engine import CardPlaced, ColumnResolved, Game, Placement, RoundEnded
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.store import read_game

from ..support.apps import new_session, table_app
from ..support.pilot import press, resize, screen_cells, screen_lines
from .driver import HUMAN, RESOLVING, choose, next_decision, table, travel_after_a_move

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
LONG = "Maximiliana Alexandrovna,WWWWWWWWWWWWWWWWWWWWWWWW"
WIDE = "李小龍,🎲Dice👑,Zoë"


def widget_text(app: DvtuiApp, widget: Widget) -> list[str]:
    """The lines of the screen ``widget`` covers."""
    region = widget.region
    rows = screen_cells(app)[region.y : region.bottom]
    return ["".join(row[region.x : region.right]) for row in rows]


def reads(app: DvtuiApp, widget: Widget, words: str) -> bool:
    """``words`` are all on screen in ``widget``, on one line or wrapped over its lines."""
    return words in " ".join(" ".join(widget_text(app, widget)).split())


# -- the advice beside the hand -------------------------------------------------------------------


async def test_the_prompt_fits_80_columns_even_with_five_players() -> None:
    app = table_app(new_session(None, players="Ana,bot:greedy,bot:greedy,bot:greedy,bot:greedy"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.pause()
        hand = table(app).query_one(HandBar)
        assert hand.size.height == 1  # no row to spare at 80x24 with five players
        assert any("pick a card 1-6, column a-g, then ⏎" in line for line in widget_text(app, hand))
        assert not on_screen(app, table(app).query_one(Scoreboard))  # every player's row, whole


@pytest.mark.parametrize("players", ["Ana,bot:greedy,bot:strong", "Ana,bot:greedy,bot:strong,bot:greedy,bot:random"])
async def test_the_hint_is_shown_whole_at_80x24(players: str) -> None:
    app = table_app(new_session(None, players=players, seed=42))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = table(app)
        assert screen.flow.cursor.hint is not None and screen.flow.cursor.hint.endswith("% to win")
        assert reads(app, screen.query_one(HandBar), screen.flow.cursor.hint)


async def test_a_tie_warning_with_long_names_wraps_onto_a_second_row() -> None:
    app = table_app(new_session(None, players=f"{LONG},Cid"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("4", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("4", "c")
        await pilot.pause()
        warning = "4 → C: you would tie with Maximiliana Alexandrovna at 4: cancelled"
        assert reads(app, table(app).query_one(HandBar), warning)


async def test_the_game_over_line_fits_80_columns() -> None:
    game, events = play_game(parse_players("bot:random,bot:greedy,bot:greedy"), seed=3)
    from dvtui.play.local import LocalSession
    from dvtui.play.session import PlaySession

    app = table_app(LocalSession(PlaySession(game, None, Path("finished.dvr"), events)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("t")
        await pilot.pause()
        hand = table(app).query_one(HandBar)
        assert reads(app, hand, "Game over: e for the results, q to leave")


# -- names ------------------------------------------------------------------------------------------


async def test_the_title_starts_with_whose_turn_it_is_with_24_character_names() -> None:
    app = table_app(new_session(None, players=f"{LONG},bot:strong"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("4", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        await pilot.pause()
        title = screen_lines(app)[0]
        assert title.strip().startswith("▶ WWWWWWWWWWWWWWWWWWWWWWWW to play")
        assert "Round 1 of 6" in title and title.rstrip().endswith("not saved")
        assert "first Maxim" in title and "…" in title  # the starting player's name gives way


async def test_cjk_and_emoji_names_keep_the_columns_and_every_scoreboard_row_at_80x24() -> None:
    app = table_app(new_session(None, players=WIDE, seed=9))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("4", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("5", "c")
        await pilot.pause()
        screen = table(app)
        board = screen.query_one(Board)
        rows = screen_cells(app)[board.region.y : board.region.bottom]
        spans = column_spans(board.size.width)

        def column(row: list[str], c: int) -> str:
            x, w = spans[c]
            return "".join(row[board.region.x + x : board.region.x + x + w])

        bottom_cards, *players, _outcomes = rows[-5:]
        codes = ("HSE", "CAR", "BOA", "HRS", "JWL", "WCH", "HOL", "$$$")
        assert all(column(bottom_cards, c).startswith(codes) for c in range(7))  # every card in its column
        assert column(bottom_cards, 2).split()[-1] == "李"  # the taker's tag, two cells, in column C
        assert [column(players[0], c).strip() for c in range(7)] == ["·", "·", "4", "·", "·", "·", "·"]
        assert [column(players[1], c).strip() for c in range(7)] == ["·", "·", "+5", "·", "·", "·", "·"]
        scores = widget_text(app, screen.query_one(Scoreboard))
        assert len(scores) == 3
        for line, name in zip(scores, ["李小龍", "🎲Dice👑", "Zoë"], strict=True):
            assert name in line and line.split()[-1] == "0"  # one line each, the total at its end


def test_cut_names_stay_told_apart() -> None:
    pairs = (
        ["Alexandra Smith", "Alexandra Smyth", "Bot 1"],
        ["abcdefghijXk", "abcdefghijYk", "Bo"],
        ["李小龍李小龍李", "李小龍李小龍虎", "Zoë"],
        ["🎲Dice👑🎲Dice👑", "🎲Dice👑🎲Dice👀", "x"],
    )
    for names in pairs:
        for width in range(4, 16):
            fitted = fit_names(names, width)
            assert len(set(fitted)) == len(names), (names, width, fitted)
            assert all(cell_len(f) <= width for f in fitted)
            assert all(f == n or f.count("…") == 1 for f, n in zip(fitted, names, strict=True))
    assert fit_names(["Alexandra Smith", "Alexandra Smyth", "Bot 1"], 10) == ["Alex…Smith", "Alex…Smyth", "Bot 1"]
    assert cell_tags(["李小龍", "🎲Dice👑", "Zoë"]) == ["李…", "🎲…", "Zoë"]  # cut: the …, as names
    assert cell_tags(["李小龍", "🎲Dice👑", "Zoë"], 2) == ["李", "🎲", "Zo"]  # two cells: no room for it
    assert cell_tags(["Root", "Bot 1", "Bot 2"]) == ["Ro…", "B1", "B2"]
    assert cell_tags(["李小龍", "李小虎", "Bot 1"]) == ["李1", "李2", "B1"]


async def test_similar_long_names_differ_on_the_table() -> None:
    app = table_app(new_session(None, players="Alexandra Theodora Smith,Alexandra Theodora Smyth,bot:greedy"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        scores = widget_text(app, screen.query_one(Scoreboard))
        assert "Alexandra …Smith" in scores[0] and "Alexandra …Smyth" in scores[1]  # cut, told apart
        hand = widget_text(app, screen.query_one(HandBar))[0]
        assert "▶ A…Smith" in hand  # the bar's seven cells: the last name kept


def test_a_cards_value_and_its_takers_tag_are_a_space_apart(make_game: Callable[..., Game]) -> None:
    """The value is never cut (``HOL5`` would read as 5) and never runs into the tag: the tag
    shortens first, then the label drops its inner space; the label keeps the column's form
    when it can."""
    game = make_game(3, {0: ["holiday-500"]})
    game.place(Placement(6, 0))
    model = build_models(game)[0]
    for tag, short in (("Ana", "An"), ("B1", "B1"), ("李", "李"), ("Ro…", "Ro")):
        seats = SeatLooks(("red", "yellow", "green"), (tag, "B2", "B3"), (short, "B2", "B3"))
        for width in range(9, 17):
            bottom = column_lines(model, seats, width, 14)[9]
            others = column_lines(model, seats, width, 14)[8].plain.split()  # a card with no tag
            *label, shown = bottom.plain.split()
            assert cell_len(bottom.plain) == width
            assert shown in (tag, short)
            assert "".join(label) in ("HOL500", "holiday500")  # the value whole, a space before the tag
            if len(label) < 2:  # the label lost its space: there was no room for it with any tag
                assert width < len(" ".join(others)) + 1 + 2


def test_the_rounds_summary_wraps_between_items_never_inside_one() -> None:
    from rich.console import Console

    line = "Ana +500k → 500k: BOA 300, $$$ 100, BOA 100, WCH 200, $$$ 100; returned BOA 300"
    items = ["Ana +500k → 500k:", "BOA 300,", "$$$ 100,", "BOA 100,", "WCH 200,", "$$$ 100;", "returned BOA 300"]
    for width in range(20, 90):
        lines = [wrapped.plain for wrapped in wrap_items(Text(line), width, Console())]
        assert all(cell_len(text) <= width for text in lines), (width, lines)
        assert " ".join(" ".join(lines).split()) == line  # nothing lost, nothing added
        for item in items:
            assert any(item in text for text in lines), (width, item, lines)  # each item on one line
        assert all(text.startswith("   ") for text in lines[1:])  # the lines after the first, indented


# -- small terminals -------------------------------------------------------------------------------


async def test_a_terminal_too_small_says_so_instead_of_a_broken_table() -> None:
    app = table_app(new_session(None, players="Ana,bot:greedy,bot:strong,bot:greedy", seed=9))
    async with app.run_test(size=(40, 12)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.pause()
        need = compact_minimum_size(4)  # (a table narrower than the scoreboard's line plays compact)
        text = "\n".join(screen_lines(app))
        assert f"terminal too small (needs {need[0]}×{need[1]})" in text
        assert not table(app).query_one(Board).display or table(app).query_one(Board).region.height == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "too small" not in text and "Round 1 of 4" in text
        await pilot.resize_terminal(*need)
        await pilot.pause()
        assert "too small" not in "\n".join(screen_lines(app))
        board = table(app).query_one(Board)
        assert board.region.height >= 1 + 4 + 4 + 1  # every player's row under the bottom cards
        assert reads(app, table(app).query_one(HandBar), "pick a card 1-6, column a-g, then ⏎")


async def test_in_a_browser_tab_too_small_speaks_of_the_window_not_a_terminal() -> None:
    """A browser tab (``dvtui web``) shows no terminal: the notice names the window and its zoom."""
    app = DvtuiApp(
        new_session(None, players="Ana,bot:greedy,bot:greedy", seed=9),
        AppOptions(in_browser=True, pace=Pace(bot_delay=0.0, step_delay=None)),
    )
    async with app.run_test(size=(60, 14)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.pause()
        need = compact_minimum_size(3)
        text = "\n".join(screen_lines(app))
        assert f"window too small (needs {need[0]}×{need[1]} characters)" in text and "zoom out" in text
        assert "terminal" not in text


# -- every player's line, at every size ---------------------------------------------------------------

FIVE = "Ana,Bea,Cid,Dan,Eve"


def readme_minimum(players: int) -> tuple[int, int]:
    """The smallest terminal docs/PLAYING.md states for ``players`` (the table and the viewer alike)."""
    text = " ".join((REPLAYS.parent / "docs" / "PLAYING.md").read_text().split())
    found = re.search(
        r"smallest terminal it works in is (\d+) columns by (\d+) rows for 3 players "
        r"\((\d+) for 4, (\d+) for 5",
        text,
    )
    assert found, "docs/PLAYING.md's sentence on the smallest terminal"
    columns, *rows = map(int, found.groups())
    return columns, rows[players - 3]


def readme_compact_minimum(players: int) -> tuple[int, int]:
    """The smallest terminal docs/PLAYING.md states the live table plays in, compact."""
    text = " ".join((REPLAYS.parent / "docs" / "PLAYING.md").read_text().split())
    found = re.search(
        r"plays compact from (\d+) columns, with (\d+) rows for 3 players \((\d+) for 4, (\d+) for 5", text
    )
    assert found, "docs/PLAYING.md's sentence on the compact table"
    columns, *rows = map(int, found.groups())
    return columns, rows[players - 3]


def sizes(need: tuple[int, int], layout: Callable[[int, int], TableLayout]) -> list[tuple[int, int]]:
    """The minimum ``need`` and a row and a column less, 80x24, a browser tab of about 87x21,
    the heights from the minimum to 30 at 80 columns, and the larger terminals of the side panel.

    Of the heights at 80 columns, those the table is laid out alike at (``layout``: where the
    board, the hand and the banner go, and their rows) differ only in the rows the scoreboard and
    the log have below them: the least and the most of those rows are the cases, and the heights
    between have rows between."""
    width, height = need
    layouts: dict[TableLayout, list[int]] = {}
    for rows in range(height, 31):
        layouts.setdefault(layout(80, rows), []).append(rows)
    heights = sorted({h for alike in layouts.values() for h in (alike[0], alike[-1])} - {24})
    return [
        (width, height),
        (width, height - 1),
        (width - 1, height),
        (80, 24),
        (87, 21),
        *((80, h) for h in heights),
        (100, 30),
        (110, 30),
        (120, 40),
        (160, 50),
    ]


def on_screen(app: DvtuiApp, widget: Widget, screen: list[str] | None = None) -> list[str]:
    """The lines ``widget`` draws (each as it would be drawn at its width) that are not on the
    screen as drawn (``screen``, its lines, when already read), whole: empty when every one of
    them is seen."""
    lines = [line.strip() for line in str(widget.render()).split("\n") if line.strip()]
    screen = screen_lines(app) if screen is None else screen
    return [line for line in lines if not any(line in row for row in screen)]


async def check_sizes(pilot: Pilot[int], players: int, *, summary: bool = False, viewer: bool = False) -> None:
    """At each of :func:`sizes`: every scoreboard line (each player's name and score) and, with
    ``summary``, every line of the round's summary is on screen, or the screen says it is too
    small, exactly below the minimum."""
    app = pilot.app
    full = minimum_size(players, 1, viewer=True) if viewer else minimum_size(players)  # 1: the position bar
    assert full == readme_minimum(players)
    compact = compact_minimum_size(players)
    assert compact == readme_compact_minimum(players)
    more = [] if viewer else [compact, (compact[0], compact[1] - 1), (compact[0] - 1, compact[1]), (50, 30), (60, 24)]
    screen = app.screen
    assert isinstance(screen, ReplayScreen | TableScreen)
    for size in [*sizes(full, screen._layout), *more]:
        await resize(pilot, *size)
        drawn = screen_lines(app)
        text = "\n".join(drawn)
        need = full if viewer or size[0] >= full[0] else compact  # narrower, the live table plays compact
        if size[0] < need[0] or size[1] < need[1]:
            assert f"terminal too small (needs {need[0]}×{need[1]})" in text, size
            continue
        assert "too small" not in text, size
        scores = app.screen.query_one(Scoreboard)
        assert len(str(scores.render()).split("\n")) >= players and not on_screen(app, scores, drawn), (size, text)
        if summary:
            banner = app.screen.query_one(Banner)
            assert banner.summary and not on_screen(app, banner, drawn), (size, text)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.long
async def test_every_players_line_is_on_screen_at_every_size_or_it_says_too_small(players: int) -> None:
    """People at one keyboard (the banner says whose turn it is under the hand), placing, then at
    the round's summary; the scoreboard's lines and the summary's are each seen whole."""
    app = table_app(new_session(None, players=",".join(FIVE.split(",")[:players]), seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await check_sizes(pilot, players)
        await pilot.resize_terminal(80, 24)
        while True:
            state = await next_decision(pilot, app)
            screen = table(app)
            if state == RESOLVING:
                if isinstance(screen.flow.resolution.step.event, RoundEnded):
                    break
                await press(pilot, "space")
                continue
            card, column = choose(screen.session.game)
            await press(pilot, str(card), "abcdefg"[column], "enter")
        await check_sizes(pilot, players, summary=True)


@pytest.mark.parametrize("players", [3, 4, 5])
async def test_the_viewer_shows_every_players_line_at_every_size(players: int) -> None:
    replay = read_game(REPLAYS / f"game-{players}p.dvr", checkpoints=True)
    app = DvtuiApp(Watch(replay), AppOptions(pace=Pace(0.0, None)))
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        events = viewer.replay.events
        for kind in (CardPlaced, ColumnResolved, RoundEnded):
            viewer.go(next(k for k, e in enumerate(events) if isinstance(e, kind)))
            await check_sizes(pilot, players, viewer=True)


# -- colours and focus -----------------------------------------------------------------------------


async def test_without_colours_whose_turn_it_is_is_bold_and_reversed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("4", "c")
        await pilot.pause()
        screen = table(app)
        drawn = compositor(app.screen)
        title = screen_lines(app)[0]
        x = title.index("Ana to play")
        style = drawn.get_style_at(x, 0)
        assert style.bold and style.reverse
        hand = screen.query_one(HandBar)
        row = widget_text(app, hand)[0]
        style = drawn.get_style_at(hand.region.x + row.index("Ana"), hand.region.y)
        assert style.bold and style.reverse
        board = screen.query_one(Board)
        ghost_row = next(i for i, line in enumerate(widget_text(app, board)) if "+4" in line)
        x = widget_text(app, board)[ghost_row].index("+4")
        style = drawn.get_style_at(board.region.x + x, board.region.y + ghost_row)
        assert style.reverse and style.underline


def test_card_text_reads_on_16_colour_terminals_too() -> None:
    from rich.color import Color, ColorSystem

    from dvtui.app.theme import CARD_COLORS
    from dvtui.app.widgets.board import SELECTED_HEAD
    from dvtui.app.widgets.hand import SELECTED_CARD

    xterm = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ]  # xterm's default 16 colours

    def luminance(rgb: tuple[int, int, int]) -> float:
        def linear(c: int) -> float:
            s = c / 255
            return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

        r, g, b = rgb
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)

    def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    def basic(hex_color: str) -> tuple[int, int, int]:
        number = Color.parse(hex_color).downgrade(ColorSystem.STANDARD).number
        assert number is not None
        return xterm[number]

    def true(hex_color: str) -> tuple[int, int, int]:
        r, g, b = Color.parse(hex_color).get_truecolor()
        return r, g, b

    for category, (bg, fg) in CARD_COLORS.items():
        assert contrast(true(bg), true(fg)) >= 4.5, category
        assert contrast(basic(bg), basic(fg)) >= 4, category
    for light in (SELECTED_HEAD, SELECTED_CARD):  # the chosen column and card: dark on light
        assert contrast(basic(light), basic("#1a1a1a")) >= 7


async def test_the_focused_dropdown_of_the_set_up_screen_stands_out() -> None:
    app = DvtuiApp(Setup(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        selects = list(app.screen.query(Select))
        selects[0].focus()
        await pilot.pause()
        focused = selects[0].query_one(SelectCurrent)
        other = selects[1].query_one(SelectCurrent)
        assert focused.styles.background != other.styles.background
        label, other_label = (s.query_one("#label") for s in (focused, other))
        assert label.styles.color != other_label.styles.color  # its words, not only the box
        style = compositor(app.screen).get_style_at(label.region.x, label.region.y)
        assert style.bold and style.color != other_label.rich_style.color
        assert all(type(w).__name__ != "VerticalScroll" for w in app.screen.focus_chain)


# -- toasts and the time-travel footer ---------------------------------------------------------------


async def test_repeated_warnings_do_not_stack_up() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press(*["enter"] * 8)
        await pilot.pause()
        await pilot.pause()
        assert len(notifications(app)) == 1  # (a headless app mounts no toasts: its notifications)
        for k in range(6):
            app.notify(f"note {k}")
        await pilot.pause()
        await pilot.pause()
        assert len(notifications(app)) == MAX_TOASTS


@pytest.mark.parametrize("size", [(80, 24), (110, 30), (160, 50)])
async def test_a_notice_never_covers_the_scoreboard_or_the_hand(size: tuple[int, int]) -> None:
    app = table_app(new_session(None, players=FIVE, seed=1))
    async with app.run_test(size=size, notifications=True) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        app.notify("Pace: bots wait 0.5 s, and the resolution's columns follow the same steps", title="Pace")
        app.notify("Your 3 is already on the table this round.", severity="warning")
        await pilot.pause()
        await pilot.pause()
        screen = table(app)
        toasts = [toast.region for toast in screen.query(Toast)]
        assert len(toasts) == 2
        for widget in (screen.query_one(Scoreboard), screen.query_one(HandBar), screen.query_one(RoundBar)):
            assert not any(widget.region.overlaps(toast) for toast in toasts), (widget, toasts)
        assert not on_screen(app, screen.query_one(Scoreboard))


async def test_the_time_travel_footer_fits_80_columns() -> None:
    app = table_app(new_session(Path("travel.dvr")))
    async with app.run_test(size=(80, 24)) as pilot:
        await travel_after_a_move(pilot, app)
        keys = [key for key in app.screen.query(FooterKey) if key.region.width]
        palette = next(key for key in keys if "palette" in key.description)
        shown = [key for key in keys if key is not palette]
        assert {"event", "turn", "round", "play", "branch", "back", "help"} <= {key.description for key in shown}
        assert all(key.region.right <= palette.region.x for key in shown)
        await pilot.press("q")  # still quits, unlisted
        await pilot.pause()
        assert app.return_code == 0
