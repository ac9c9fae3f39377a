"""The plain mode's reading of a typed line and its lines about the game, without a process."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui import i18n
from dvtui.bots import advise
from dvtui.describe import AMOUNT_SPACE
from dvtui.engine import Game, Outcome, Placement, new_game
from dvtui.plain.commands import Command, Place, Wrong, read
from dvtui.plain.console import Console, plain_text
from dvtui.plain.local import LocalPlay
from dvtui.plain.table import handed
from dvtui.plain.words import board_lines, column_line, hint_words, standings_lines
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession


@pytest.fixture
def game() -> Game:
    return Game(new_game(parse_players("Ana,Ben,bot:greedy"), first_player=0, seed=42))


@pytest.fixture
def french() -> Iterator[None]:
    i18n.set_language("fr")
    try:
        yield
    finally:
        i18n.set_language(i18n.ENGLISH)


@pytest.mark.parametrize("line", ["3 c", "3c", "c 3", "  3   C  ", "3, c"])
def test_a_card_and_a_column_in_any_order_is_a_placement(game: Game, line: str) -> None:
    assert read(line, game, 0) == Place(Placement(3, 2))


def test_a_column_may_be_named_by_a_good_lying_in_it_in_either_language(game: Game) -> None:
    # seed 42's column C holds boat 700 (second from the bottom) and jewel 500
    assert "boat-700" in game.columns[2] and "jewel-500" in game.columns[2]
    assert read("4 boat 700", game, 0) == Place(Placement(4, 2))
    assert read("4 bateau 700", game, 0) == Place(Placement(4, 2))
    assert read("4 bijou 500000", game, 0) == Place(Placement(4, 2))
    assert isinstance(read("4 boat 700 d", game, 0), Wrong)  # the good and the letter disagree
    assert isinstance(read("4 boat", game, 0), Wrong)  # a good needs its value


@pytest.mark.parametrize(
    ("line", "name"),
    [("board", "board"), ("bd", "board"), ("plateau", "board"), ("main", "hand"), ("h", "hand"),
     ("gains", "awards"), ("aide", "help"), ("?", "help"), ("q", "quit"), ("annuler", "undo"),
     ("conseil", "hint"), ("derniers", "last"), ("manche 2", "round"), ("suivant", "next"), ("sit", "sit"),
     ("si", "sit"), ("reprendre", "sit"), ("rp", "sit")],
)  # fmt: skip
def test_every_command_has_a_short_form_and_a_french_word(game: Game, line: str, name: str) -> None:
    said = read(line, game, 0)
    assert isinstance(said, Command) and said.name == name


def test_a_letter_alone_reads_its_column_and_an_empty_line_is_nothing(game: Game) -> None:
    assert read("e", game, 0) == Command("column", "e")
    assert read("   ", game, 0) is None


def test_a_wrong_line_is_answered_with_what_is_expected(game: Game) -> None:
    for line in ("zz", "9 c", "3 h", "3", "3 c c"):
        said = read(line, game, 0)
        assert isinstance(said, Wrong), line
        assert said.said.startswith("Type a card you hold (1, 2, 3, 4, 5, 6) and a column from a to g"), line
    game.place(Placement(3, 0))
    game.place(Placement(1, 0))
    game.place(Placement(1, 0))
    held = read("3 a", game, 0)
    assert isinstance(held, Wrong) and held.said.startswith("You do not hold a 3.")
    unknown = read("dance", None, None)  # nobody is asked to place: only commands
    assert isinstance(unknown, Wrong) and unknown.said == "Unknown command dance; type help for the commands."


def test_a_column_is_read_top_to_bottom_with_the_cards_under_it(game: Game) -> None:
    game.place(Placement(3, 2))
    game.place(Placement(1, 2))
    game.place(Placement(2, 2))
    game.place(Placement(4, 2))
    line = column_line(game, ["Ana", "Ben", "Bot 1"], 2)
    assert line == (
        "Column C, top to bottom: holiday 400, house 500, money 200, house 600, horse 100, house 700, jewel 500, "
        "boat 700, holiday 600. Under it: Ana 3 + 4 = 7; Ben 1; Bot 1 2."
    )
    assert len(board_lines(game, ["Ana", "Ben", "Bot 1"])) == 7


def test_the_standings_share_a_place_on_a_tie() -> None:
    lines = standings_lines(Outcome.of([900_000, 1_200_000, 900_000]), ["Ana", "Ben", "Cy"])
    assert lines == ["Place 1: Ben, 1,200,000.", "Place 2: Ana, 900,000.", "Place 2: Cy, 900,000."]


def test_french_amounts_are_apart_with_no_break_spaces_not_the_braille_blank(french: None) -> None:
    line = standings_lines(Outcome.of([1_200_000, 900_000, 0]), ["Ana", "Ben", "Cy"])[0]
    assert AMOUNT_SPACE in line  # what describe writes, for the full screen
    assert plain_text(line).endswith("1\xa0200\xa0000.")
    assert AMOUNT_SPACE not in plain_text(line)


def test_nothing_that_drives_a_terminal_is_written() -> None:
    out = io.StringIO()
    Console(out=out, into=io.StringIO()).say("Ana\x1b[2J says: \u202ehi\x07", "two\nlines")
    assert out.getvalue() == "Ana\\x1b[2J says: \\u202ehi\\x07\ntwo\nlines\n"


def test_the_plain_hint_is_the_judgements_advice_as_the_screens_hint_and_the_analysis_give_it(
    tmp_path: Path,
) -> None:
    """Advice never contradicts the analysis: the plain mode's hint is :func:`dvtui.bots.advise`'s
    (the judgement both the screen's hint and the analysis make), not a bot's own search."""
    created = new_game(parse_players("Ana,bot:greedy,bot:greedy"), first_player=0, seed=959726)
    session = PlaySession.start(created, tmp_path / "h.dvr")
    said = LocalPlay(session, Console(io.StringIO()))._hint(0)
    advice = advise(session.game.copy(), session.hint_seed(0))
    card, column = advice.placement
    assert said == hint_words(advice) and f"Hint: {card} under column {'ABCDEFG'[column]};" in said


def test_a_line_typed_once_the_table_has_ended_is_dropped_without_a_traceback() -> None:
    """The thread reading what is typed hands each line to the run's loop; once the run is over
    its loop is closed, and a line typed then is dropped (the thread stops) instead of raising in
    the thread, which printed a traceback to the person."""
    loop = asyncio.new_event_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    assert handed(loop, lines, "1a")
    loop.run_until_complete(asyncio.sleep(0))
    assert lines.get_nowait() == "1a"
    loop.close()
    assert not handed(loop, lines, "2b")
