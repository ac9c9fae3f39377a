"""What stayed English on French screens, now said in French: card tiles on big terminals name
the good, the scoreboard writes money with the cards' own code (``ARG``), bot levels have French
names on screen (their ids stay as they are in files and on the command line), default bot names
follow the language of whoever sets the game up, and set-up, seat and undo messages are French."""

from __future__ import annotations

import pytest

from dvtui.app.widgets.faces import card_tile
from dvtui.app.widgets.scoreboard import holdings, seat_labels
from dvtui.describe import bot_level_name
from dvtui.engine import Game, Placement, Seat, SeatError, check_seats, new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession

from ..support.said import raises_said


@pytest.fixture(autouse=True)
def in_french(french: None) -> None:
    """Every test here speaks French."""


def test_a_big_card_tile_names_its_good_in_french() -> None:
    tile = card_tile("boat-700", 12, 3)
    assert tile[0].plain.strip() == "bateau" and tile[-2].plain.strip() == "700"


def test_money_on_the_scoreboard_is_written_with_the_cards_code() -> None:
    game = Game(new_game(parse_players("bot:greedy,bot:greedy,bot:greedy"), seed=3))
    shown = holdings(game, 0, 60)[0].plain
    assert "ARG" in shown and "$" not in shown


def test_bot_levels_are_named_in_french_on_screen_and_their_ids_stay() -> None:
    assert [bot_level_name(level) for level in ("random", "greedy", "strong", "master")] == [
        "hasard", "glouton", "fort", "maître"]  # fmt: skip
    assert bot_level_name("strong@0.5s") == "fort@0.5s"
    seats = parse_players("Ana,bot:greedy,bot:strong@0.5s")
    assert [(s.name, s.bot) for s in seats] == [("Ana", None), ("Robot 1", "greedy"), ("Robot 2", "strong@0.5s")]
    assert seat_labels(seats, 30)[1] == "Robot 1 (glouton)"


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("Ana,,bot:greedy", "entrée vide dans la liste des joueurs 'Ana,,bot:greedy'"),
        ("Ana,Bob", "Dolce Vita se joue de 3 à 5 joueurs (R3), pas 2"),
        ("Ana,bot:foo,Bob", "place 2\u00a0: niveau de robot inconnu 'foo' (niveaux\u00a0: casual, club, expert, "
                            "greedy, master, novice, random, strong)"),
        ("Ana,ana,Bob", "place 2\u00a0: deux places s’appellent 'ana'\u202f; chaque place a besoin de son propre nom"),
        ("Ana,bot:strong@0,Bob", "place 2\u00a0: le budget d’un robot doit être supérieur à 0\u00a0: 'strong@0'"),
    ],
)  # fmt: skip
def test_set_up_errors_in_french(players: str, said: str) -> None:
    with pytest.raises(SeatError) as refused:
        parse_players(players)
    assert str(refused.value) == said


def test_the_set_up_screens_check_says_it_in_french() -> None:
    with raises_said(SeatError, "le nom est vide"):
        check_seats([Seat(name="", kind="human", color="red"), Seat(name="B", kind="human", color="yellow"),
                     Seat(name="C", kind="human", color="green")])  # fmt: skip


def test_hot_seat_undo_refusals_in_french() -> None:
    session = PlaySession.start(new_game(parse_players("Ana,Bea,Cid"), seed=5), None)
    assert session.why_no_undo() == "Ana n’a rien à reprendre dans cette manche."
    session.place(Placement(3, 2), player=0)
    session.place(Placement(4, 3), player=1)
    session.undo(1)
    assert session.why_no_undo() == "Bea n’a rien à reprendre\u202f; le coup joué par Ana ne peut plus être annulé."


async def test_textuals_footer_word_for_an_open_list_is_french(saves: object) -> None:
    from textual.widgets import Select

    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace, SetupDefaults
    from dvtui.app.options import AppOptions, Setup
    from dvtui.app.screens.setup import SetupScreen
    from dvtui.app.textual_private import FooterKey

    from ..support.pilot import until

    app = DvtuiApp(Setup(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, "the set-up screen", lambda: isinstance(app.screen, SetupScreen))
        app.screen.query_one("#first", Select).focus()
        await pilot.press("enter")
        await until(pilot, "the list open", lambda: app.screen.query_one("#first", Select).expanded)
        words = [key.description for key in app.screen.query(FooterKey)]
        assert "Fermer la liste" in words and "Dismiss menu" not in words, words
