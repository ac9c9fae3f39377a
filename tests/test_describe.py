"""Events in words (dvtui.describe): the sentences of the log, the banner and the text export.
The module must stay free of Textual, so the text export can use it without a UI import."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

from dvtui.describe import (
    amount,
    card_name,
    column_label,
    describe_event,
    placement_outcome,
    resolution_parts,
    seat_tags,
    short_amount,
)
from dvtui.engine import (
    Award,
    CardPlaced,
    ColumnResolved,
    Game,
    GameEnded,
    PlacementUndone,
    RoundEnded,
)

from .support.processes import env

NAMES = ["Ana", "Ben", "Cy"]


def test_the_words_modules_do_not_import_textual() -> None:
    code = (
        "import dvtui.describe, dvtui.play.session, dvtui.replay.steps, dvtui.app.theme, sys, json\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), check=True)
    assert json.loads(out.stdout) == []


def test_placements_and_undos_read_as_sentences() -> None:
    assert describe_event(CardPlaced(round=1, player=0, column=2, card=5), NAMES) == "Ana placed 5 under column C"
    undo = PlacementUndone(round=1, player=1, column=6, card=2)
    assert describe_event(undo, NAMES) == "Ben took back 2 from column G"
    stood_in = CardPlaced(round=1, player=0, column=2, card=5, stand_in="greedy")
    assert describe_event(stood_in, NAMES) == "Ana placed 5 under column C (a greedy bot standing in)"


def test_an_exchange_says_what_is_taken_and_what_goes_back() -> None:
    event = ColumnResolved(
        round=1, column=2, totals=[0, 5, 0], cancelled=[], awards=[Award(1, "car-700", "car-400")], rotated=False
    )
    assert describe_event(event, NAMES) == "Column C: Ben takes car 700, returns car 400"


def test_ties_come_first_then_awards_then_whoever_found_the_column_empty() -> None:
    event = ColumnResolved(
        round=2, column=0, totals=[4, 4, 2], cancelled=[0, 1], awards=[Award(2, "money-200", None)], rotated=False
    )
    assert resolution_parts(event, NAMES) == ["Ana and Ben tie at 4: both cancelled", "Cy takes money 200"]
    ran_out = ColumnResolved(
        round=2, column=1, totals=[6, 3, 1], cancelled=[], awards=[Award(0, "house-100", None)], rotated=False
    )
    assert resolution_parts(ran_out, NAMES)[-1] == "Ben and Cy get nothing: the column ran out"


def test_untouched_columns_rounds_and_the_end() -> None:
    rotated = ColumnResolved(round=1, column=6, totals=[0, 0, 0], cancelled=[], awards=[], rotated=True)
    assert describe_event(rotated, NAMES) == "Column G: no card placed, the bottom card moves to the top"
    assert describe_event(RoundEnded(round=2, next_first_player=2), NAMES, 6) == (
        "Round 2 is over; Cy starts the next round"
    )
    assert describe_event(RoundEnded(round=6, next_first_player=0), NAMES, 6) == "Round 6, the last, is over"
    assert describe_event(GameEnded(scores=[3_400_000, 2_000_000, 1], winners=[0]), NAMES) == (
        "Game over: Ana wins with 3,400,000"
    )
    shared = GameEnded(scores=[2_000_000, 2_000_000, 1], winners=[0, 1])
    assert describe_event(shared, NAMES) == "Game over: Ana and Ben share the victory with 2,000,000 each"


def test_cards_amounts_columns_and_tags() -> None:
    assert card_name("holiday-300") == "holiday 300" and card_name("money-100") == "money 100"
    assert [column_label(c) for c in range(7)] == list("ABCDEFG")
    assert amount(3_400_000) == "3,400,000"
    assert [short_amount(v) for v in (0, 700_000, 1_000_000, 3_400_000, 2_350_000)] == [
        "0",
        "700k",
        "1M",
        "3.4M",
        "2.35M",
    ]
    assert seat_tags(["Ana", "Bot 1", "Bot 2"]) == ["Ana", "B1", "B2"]
    assert seat_tags(["Annabel", "Annette", "Bo"]) == ["A1", "A2", "Bo"]


def test_the_placement_preview_speaks_to_the_player(make_game: Callable[..., Game]) -> None:
    taken = ColumnResolved(
        round=1, column=0, totals=[5, 0, 0], cancelled=[], awards=[Award(0, "car-200", "car-100")], rotated=False
    )
    assert placement_outcome(taken, 0, NAMES) == "you would take car 200 and give back car 100"
    tie = ColumnResolved(round=1, column=0, totals=[5, 5, 0], cancelled=[0, 1], awards=[], rotated=False)
    assert placement_outcome(tie, 0, NAMES) == "you would tie with Ben at 5: cancelled"


def test_a_branch_says_what_it_is_a_branch_of() -> None:
    from dvtui.engine import GameCreated, Seat

    seats = [Seat(name=n, kind="human", color=c) for n, c in zip(NAMES, ("red", "yellow", "green"), strict=True)]
    created = GameCreated(
        format=1,
        players=seats,
        first_player=0,
        rounds=6,
        grid=[],
        box=[],
        parent="/home/ana/games/monday.dvr",
        parent_seq=31,
    )
    assert describe_event(created, NAMES) == "Branch of monday.dvr after its line 31: Ana, Ben and Cy"
