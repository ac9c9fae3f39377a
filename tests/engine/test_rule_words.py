"""The rules' refusals and a log's broken events are said in the language chosen (the verify and
replay errors people read), with the same facts as in English."""

from __future__ import annotations

import msgspec
import pytest

from dvtui import i18n
from dvtui.engine import BadSetup, Game, Placement, RuleError, Seat, WrongPlayer, fold, new_game

SEATS = [Seat(name=f"P{i}", kind="human", color=c) for i, c in enumerate(("red", "yellow", "green"))]


@pytest.fixture
def french() -> None:
    i18n.set_language("fr")


@pytest.mark.usefixtures("french")
def test_a_refused_placement_in_french() -> None:
    game = Game(new_game(SEATS, seed=1))
    with pytest.raises(WrongPlayer, match=r"^c’est au joueur 0 de jouer, pas au joueur 2 \(R4\.1\)$"):
        game.place(Placement(card=1, column=0), player=2)


@pytest.mark.usefixtures("french")
def test_a_broken_log_in_french() -> None:
    created = new_game(SEATS, seed=1)
    with pytest.raises(RuleError, match=r"^le premier événement doit être game_created, pas rien$"):
        fold([])
    with pytest.raises(BadSetup, match=r"3 joueurs jouent 6 manches \(R3\), pas 4$"):
        fold([msgspec.structs.replace(created, rounds=4)])


def test_english_unchanged() -> None:
    i18n.set_language("en")
    with pytest.raises(RuleError, match=r"^the first event must be game_created, not nothing$"):
        fold([])
