"""``fold(events)``: the one way from a log to a state. Its errors say which event is at fault
(``index``, the event's position in the log: the store's line number less one), a game script's
derived events are put in place, and the checkpoints it keeps are states the log passes through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from dvtui.engine import (
    CHECKPOINT_EVERY,
    BadSetup,
    CardPlaced,
    ColumnResolved,
    DerivedMismatch,
    Event,
    Game,
    GameCreated,
    GameEnded,
    PlacementUndone,
    RoundEnded,
    RuleError,
    Seat,
    WrongPlayer,
    fold,
    new_game,
)
from dvtui.rulewords import rule_words

from ..support.said import raises_said

SEATS = [Seat(name=f"P{i}", kind="human", color=c) for i, c in enumerate(("red", "yellow", "green"))]


def full_log(seed: int = 5, undo_every: int = 0) -> list[Event]:
    """A whole 3-player game as a writer records it (an undo now and then when asked)."""
    game = Game(new_game(SEATS, seed=seed))
    log: list[Event] = [game.created]
    while not game.over:
        moves = game.legal_placements()
        log += game.place(moves[(len(log) * 7) % len(moves)])
        if undo_every and len(log) % undo_every == 0 and game.placements:
            log.append(game.undo())
            log += game.place(game.legal_placements()[0])
    return log


def state(game: Game) -> tuple[object, ...]:
    return (
        game.round,
        game.phase,
        game.to_move,
        game.columns,
        game.hands,
        game.totals,
        game.placements,
        game.goods,
        game.money,
        game.worth,
        game.round_scores,
    )


def first_index(log: list[Event], kind: type[Event]) -> int:
    return next(i for i, e in enumerate(log) if isinstance(e, kind))


def test_a_full_log_folds_to_the_game_and_is_its_own_canonical_form() -> None:
    log = full_log()
    folded = fold(log)
    assert folded.events is log and not folded.owed_tail and not folded.decisions_only
    assert folded.game.over and folded.checkpoints is None


def test_a_script_gets_its_derived_events_put_in_place() -> None:
    log = full_log()
    script = [e for e in log if not isinstance(e, (ColumnResolved, RoundEnded, GameEnded))]
    folded = fold(script)
    assert folded.decisions_only and folded.events == log
    assert state(folded.game) == state(fold(log).game)
    with raises_said(RuleError, "card_placed found where column_resolved is owed") as info:
        fold(script, script=False)  # a replay's log must be full: its moments are the log's indexes
    assert info.value.index == first_index(log, ColumnResolved)


def test_derived_events_owed_at_the_end_are_recomputed_and_appended() -> None:
    log = full_log()
    cut = first_index(log, ColumnResolved) + 2  # two columns of round 1 resolved, five owed
    folded = fold(log[:cut])
    assert [type(e) for e in folded.owed_tail] == [ColumnResolved] * 5 + [RoundEnded]
    assert folded.events == log[: cut + 6]
    assert not folded.game.derived_pending and folded.game.round == 2


@pytest.mark.parametrize(
    ("where", "tamper", "error", "message"),
    [
        (
            "first column",
            lambda e: msgspec.structs.replace(e, rotated=not e.rotated),
            DerivedMismatch,
            "column_resolved: field 'rotated' should be",
        ),
        (
            "round end",
            lambda e: msgspec.structs.replace(e, next_first_player=2),
            DerivedMismatch,
            "round_ended: field 'next_first_player' should be 1, found 2",
        ),
        (
            "round end",
            lambda e: CardPlaced(round=1, player=0, column=0, card=1),
            RuleError,
            "card_placed found where round_ended is owed (derived events come complete, in place)",
        ),
        (
            "placement",
            lambda e: msgspec.structs.replace(e, player=(e.player + 1) % 3),
            WrongPlayer,
            "card_placed: it is player",
        ),
        (
            "placement",
            lambda e: RoundEnded(round=1, next_first_player=1),
            RuleError,
            "round_ended is not owed here: a decision is expected",
        ),
        (
            "placement",
            lambda e: PlacementUndone(round=1, player=0, column=0, card=6),
            RuleError,
            "placement_undone: placement_undone must name the latest placement exactly",
        ),
        ("placement", None, RuleError, "game_created: game_created may only be the first event"),
    ],
)
def test_every_error_carries_the_index_of_the_event_at_fault(
    where: str, tamper: Callable[[Any], Event] | None, error: type[RuleError], message: str
) -> None:
    """The message says what is wrong with the event (its type first), as a file's reader shows it
    after the line number."""
    log = full_log()
    index = {
        "first column": first_index(log, ColumnResolved),
        "round end": first_index(log, RoundEnded),
        "placement": 7,
    }[where]
    bad = log[0] if tamper is None else tamper(log[index])  # None: a second deal
    with pytest.raises(error) as info:
        fold([*log[:index], bad, *log[index + 1 :]])
    assert rule_words(info.value).startswith(message)
    assert info.value.index == index


def test_a_bad_deal_and_a_log_without_one_are_event_0() -> None:
    created = new_game(SEATS, seed=1)
    with raises_said(BadSetup, r"^game_created: 3 players play 6 rounds") as info:
        fold([msgspec.structs.replace(created, rounds=4)])
    assert info.value.index == 0
    with raises_said(RuleError, r"^the first event must be game_created, not nothing$") as info:
        fold([])
    assert info.value.index == 0


def test_checkpoints_are_the_states_at_round_starts_and_within_a_bounded_distance() -> None:
    log = full_log(undo_every=9)  # undos make rounds longer than a turn count says
    folded = fold(log, checkpoints=True)
    assert folded.checkpoints is not None
    at = [k for k, _ in folded.checkpoints]
    round_starts = [k for k, e in enumerate(log) if isinstance(e, RoundEnded) and e.round < 6]
    assert at[0] == 0 and set(round_starts) <= set(at)
    for k, game in folded.checkpoints:
        again = Game(log[0])  # type: ignore[arg-type]
        for event in log[1 : k + 1]:
            again.apply(event)
        assert state(game) == state(again), k
        assert not game.derived_pending
    # and a long round: a placement and its undo, again and again
    created = log[0]
    assert isinstance(created, GameCreated)
    placed = CardPlaced(round=1, player=0, column=3, card=4)
    undone = PlacementUndone(round=1, player=0, column=3, card=4)
    loop: list[Event] = [created] + [placed, undone] * (2 * CHECKPOINT_EVERY)
    at = [k for k, _ in fold(loop, checkpoints=True).checkpoints or []]
    assert at == list(range(0, len(loop), CHECKPOINT_EVERY))


def test_extending_a_fold_is_folding_the_longer_log() -> None:
    log = full_log(undo_every=11)
    whole = fold(log, checkpoints=True)
    grown = fold(log[:1], checkpoints=True)
    for start in range(1, len(log), 5):
        grown.extend(log[start : start + 5])
    assert grown.events == log
    assert state(grown.game) == state(whole.game)
    assert [k for k, _ in grown.checkpoints or []] == [k for k, _ in whole.checkpoints or []]
    wrong = msgspec.structs.replace(log[1], card=6 if log[1].card != 6 else 5)  # type: ignore[attr-defined]
    started = fold(log[:1])
    with pytest.raises(RuleError) as info:
        started.extend([log[1], wrong])
    assert info.value.index == 2
