"""The rules' refusals and a log's broken events are said in the language chosen (the verify and
replay errors people read), with the same facts as in English."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import msgspec
import pytest

import dvtui.engine
from dvtui import i18n
from dvtui.engine import BadSetup, DerivedMismatch, Game, Placement, RuleError, Seat, WrongPlayer, fold, new_game
from dvtui.rulewords import RULE_WORDS, english_words, rule_words

from ..support.said import raises_said

SEATS = [Seat(name=f"P{i}", kind="human", color=c) for i, c in enumerate(("red", "yellow", "green"))]


@pytest.fixture
def french() -> None:
    i18n.set_language("fr")


@pytest.mark.usefixtures("french")
def test_a_refused_placement_in_french() -> None:
    game = Game(new_game(SEATS, seed=1))
    with raises_said(WrongPlayer, r"^c’est au joueur 0 de jouer, pas au joueur 2 \(R4\.1\)$"):
        game.place(Placement(card=1, column=0), player=2)


@pytest.mark.usefixtures("french")
def test_a_broken_log_in_french() -> None:
    created = new_game(SEATS, seed=1)
    with raises_said(RuleError, r"^le premier événement doit être game_created, pas rien$"):
        fold([])
    with raises_said(BadSetup, r"3 joueurs jouent 6 manches \(R3\), pas 4$"):
        fold([msgspec.structs.replace(created, rounds=4)])


def test_english_unchanged() -> None:
    i18n.set_language("en")
    with raises_said(RuleError, r"^the first event must be game_created, not nothing$"):
        fold([])


def test_the_engine_makes_no_words_a_refusal_is_a_code_and_its_values() -> None:
    """The same refusal is the same error whatever language the process speaks: the words are made
    where it is shown (``rule_words``), in the reader's language."""
    game = Game(new_game(SEATS, seed=1))
    raised: list[RuleError] = []
    for lang in ("fr", "en"):
        i18n.set_language(lang)
        with pytest.raises(WrongPlayer) as info:
            game.place(Placement(card=1, column=0), player=2)
        raised.append(info.value)
    fr, en = raised
    assert (fr.code, fr.fields, str(fr)) == (en.code, en.fields, str(en))
    assert (en.code, en.fields) == ("not_your_turn", {"to_move": 0, "player": 2})
    assert rule_words(en) == "it is player 0's turn, not player 2's (R4.1)"
    i18n.set_language("fr")
    assert rule_words(en) == "c’est au joueur 0 de jouer, pas au joueur 2 (R4.1)"
    assert english_words(en) == "it is player 0's turn, not player 2's (R4.1)"  # (the wire's words)


def test_every_code_the_engine_raises_has_its_sentence() -> None:
    """A code raised without a sentence would reach a reader as the code itself."""
    engine = Path(dvtui.engine.__file__).parent
    raised = set()
    for source in engine.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        raised |= set(re.findall(r'\.of\(\s*"(\w+)"', text)) | set(re.findall(r'code="(\w+)"', text))
    assert raised, "no code found: the engine raises its errors some other way now"
    assert sorted(raised - set(RULE_WORDS)) == []


def test_a_log_error_keeps_its_event_and_a_code_that_does_not_fit_says_the_code() -> None:
    with pytest.raises(RuleError) as info:
        fold([new_game(SEATS, seed=1), new_game(SEATS, seed=1)])
    assert (info.value.code, info.value.index, info.value.context) == ("created_again", 1, "game_created: ")
    assert rule_words(info.value) == "game_created: game_created may only be the first event"
    misfit = RuleError.of("not_your_turn", seat=1)  # (a field missing: no sentence can be made)
    assert rule_words(misfit) == "not_your_turn seat=1"
    own = RuleError("words made above the engine", code="not_your_turn")
    assert rule_words(own) == "words made above the engine"


def test_an_error_crosses_a_process_with_its_code_and_values() -> None:
    """A process pool hands an error back pickled: it keeps what its sentence is made from."""
    game = Game(new_game(SEATS, seed=1))
    with pytest.raises(WrongPlayer) as info:
        game.place(Placement(card=1, column=0), player=2)
    back = pickle.loads(pickle.dumps(info.value))
    assert (type(back), back.code, back.fields, back.worded) == (WrongPlayer, "not_your_turn", info.value.fields, False)
    assert rule_words(back) == "it is player 0's turn, not player 2's (R4.1)"
    mismatch = pickle.loads(pickle.dumps(DerivedMismatch("round_ended", "seq", 3, 4, index=9)))
    assert (mismatch.field, mismatch.index) == ("seq", 9)
    assert rule_words(mismatch) == "round_ended: field 'seq' should be 3, found 4"
