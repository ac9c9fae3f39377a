"""The log's sentences in French: the rules' own words (manche, colonne, égalité, the goods with
their articles, la carte argent), whole sentences from the catalogue, French plural forms."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dvtui import i18n
from dvtui.describe import (
    card_code,
    color_name,
    describe_event,
    gains_line,
    handover_line,
    hint_line,
    join_names,
    placement_outcome,
    resolution_parts,
)
from dvtui.engine import Award, CardPlaced, ColumnResolved, Placement, PlacementUndone, RoundEnded

NAMES = ["Ana", "Ben", "Cy"]


@pytest.fixture(autouse=True)
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language(i18n.ENGLISH)


def test_placements_and_undos() -> None:
    placed = CardPlaced(seq=1, round=1, player=0, card=5, column=2)
    assert describe_event(placed, NAMES) == "Ana a placé le 5 sous la colonne C"
    assert describe_event(PlacementUndone(seq=2, round=1, player=0, card=5, column=2), NAMES) == (
        "Ana a repris le 5 de la colonne C"
    )


def test_a_column_with_a_tie_an_exchange_and_one_left_empty_handed() -> None:
    event = ColumnResolved(round=1, column=0, totals=[4, 4, 7], cancelled=[0, 1],
                           awards=[Award(2, "car-700", "car-400")], rotated=False)  # fmt: skip
    assert describe_event(event, NAMES) == (
        "Colonne A : égalité à 4 entre Ana et Ben : ils reprennent leurs cartes ; "
        "Cy prend la voiture 700 et rend la voiture 400"
    )
    ran_out = ColumnResolved(round=1, column=1, totals=[6, 3, 1], cancelled=[],
                             awards=[Award(0, "money-200", None)], rotated=False)  # fmt: skip
    assert resolution_parts(ran_out, NAMES) == ["Ana prend la carte argent 200",
                                                "Ben et Cy ne reçoivent rien : la colonne est épuisée"]  # fmt: skip
    one_left = ColumnResolved(round=1, column=1, totals=[6, 3, 0], cancelled=[],
                              awards=[Award(0, "holiday-300", None)], rotated=False)  # fmt: skip
    assert resolution_parts(one_left, NAMES) == ["Ana prend les vacances 300",
                                                 "Ben ne reçoit rien : la colonne est épuisée"]  # fmt: skip


def test_rounds_end_and_the_preview_speaks_to_the_player() -> None:
    assert describe_event(RoundEnded(round=2, next_first_player=1), NAMES, rounds=6) == (
        "Fin de la manche 2 ; Ben commence la suivante"
    )
    last = describe_event(RoundEnded(round=6, next_first_player=1), NAMES, rounds=6)
    assert last == "Fin de la manche 6, la dernière"
    taken = ColumnResolved(round=1, column=0, totals=[5, 0, 0], cancelled=[],
                           awards=[Award(0, "boat-200", "boat-100")], rotated=False)  # fmt: skip
    assert placement_outcome(taken, 0, NAMES) == "vous prendriez le bateau 200 et rendriez le bateau 100"


def test_the_tables_lines() -> None:
    assert gains_line("Ana", 600_000, 1_200_000, ["jewel-300", "house-300"], ["jewel-200"]) == (
        "Ana +600\u202fk → 1,2\u202fM : BIJ 300, MAI 300 ; a rendu BIJ 200"
    )
    assert hint_line(Placement(6, 5), 600_000, 0.45) == "6 → F : +600\u202fk attendus, 45 % de chances de gagner"
    last = CardPlaced(seq=1, round=1, player=0, card=3, column=2)
    said = handover_line(NAMES, 1, last, 1, 0)
    assert said == "Ben, à vous — Ana a placé le 3 en C (Ana peut encore le reprendre : u)"
    assert handover_line(NAMES, 1, None, 2, None) == "Ben, à vous — la manche 2 commence"


def test_codes_colours_and_lists() -> None:
    assert [card_code(c) for c in ("house-100", "car-100", "boat-100", "horse-100", "jewel-100", "watch-100",
                                   "holiday-100", "money-100")] == ["MAI", "VOI", "BAT", "CHE", "BIJ", "MON", "VAC",
                                                                    "ARG"]  # fmt: skip
    assert [color_name(c) for c in ("red", "yellow", "green", "blue", "purple")] == [
        "rouge", "jaune", "vert", "bleu", "violet"]  # fmt: skip
    assert join_names(["Ana", "Ben", "Cy"]) == "Ana, Ben et Cy"
