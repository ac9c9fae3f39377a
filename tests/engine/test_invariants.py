"""The invariants of RULES.md, checked at every event of random games, and the fold round trips.

Random 3-, 4- and 5-player games (random seed, first player and legal moves, with occasional
undos) are played live; every event is folded one at a time into a second game that checks the
invariants after each, and the final state is compared with ``fold`` of the full log and of
the decisions alone.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import hypothesis
import msgspec
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dvtui.engine import (
    CATEGORY_OF,
    DECK,
    VALUE_OF,
    Award,
    CardPlaced,
    ColumnResolved,
    DerivedMismatch,
    Event,
    Game,
    GameCreated,
    GameEnded,
    NothingToUndo,
    Phase,
    Placement,
    PlacementUndone,
    RoundEnded,
    RuleError,
    Seat,
    fold,
    is_money,
    new_game,
)

from ..support.said import raises_said

COLOURS = ["red", "yellow", "green", "blue", "purple"]
MAX_UNDOS = 12


def seats(n: int) -> list[Seat]:
    return [Seat(name=f"P{i}", kind="human", color=COLOURS[i]) for i in range(n)]


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a game's state is made of, as plain values."""
    return (
        game.round,
        game.first_player,
        game.to_move,
        game.phase,
        [col[:] for col in game.columns],
        [h[:] for h in game.hands],
        [t[:] for t in game.totals],
        [(e.round, e.player, e.column, e.card) for e in game.placements],
        [g[:] for g in game.goods],
        [m[:] for m in game.money],
        game.scores(),
        [h[:] for h in game.round_scores],
    )


class InvariantChecker:
    """Folds events one at a time and checks RULES.md's invariants after every one."""

    def __init__(self, created: GameCreated) -> None:
        self.game = Game(created)
        self.n = len(created.players)
        self.first = created.first_player
        self.box = list(created.box)
        self.projection: list[ColumnResolved] = []
        self.check(created)

    def feed(self, event: Event) -> None:
        self.game.apply(event)
        self.check(event)

    def check(self, event: Event) -> None:
        g, n = self.game, self.n
        # 66 cards conserved: grid + owned + box
        cards = [card for col in g.columns for card in col] + self.box
        for p in range(n):
            cards += g.owned_cards(p)
        assert len(cards) == 66
        assert Counter(cards) == Counter(DECK)
        for p in range(n):
            # no player owns two goods of one category: slot k only ever holds a good of category k
            for k, good in enumerate(g.goods[p]):
                assert good is None or CATEGORY_OF[good] == k
            assert all(is_money(card) for card in g.money[p])
            assert g.worth[p] == sum(VALUE_OF[card] for card in g.owned_cards(p))
        # the first player of round k is (first_player + k - 1) mod n
        if g.phase in (Phase.PLACEMENT, Phase.RESOLVING, Phase.ROUND_ENDING):
            assert g.first_player == (self.first + g.round - 1) % n
        # placements go clockwise from the round's first player; hands and totals agree with them
        for i, placed in enumerate(g.placements):
            assert placed.player == (g.first_player + i) % n
            assert placed.round == g.round
        for p in range(n):
            mine = [e.card for e in g.placements if e.player == p]
            assert sorted(g.hands[p] + mine) == [1, 2, 3, 4, 5, 6]
            for c in range(7):
                unresolved = g.phase == Phase.PLACEMENT or (g.phase == Phase.RESOLVING and c >= g.next_column)
                placed_here = sum(e.card for e in g.placements if e.player == p and e.column == c)
                assert g.totals[c][p] == (placed_here if unresolved else 0)
        if g.phase == Phase.PLACEMENT:
            assert g.to_move == (g.first_player + len(g.placements)) % n
            if not g.placements:  # the start of a round (or a round undone back to its start)
                assert g.hands == [[1, 2, 3, 4, 5, 6]] * n
        if isinstance(event, CardPlaced) and g.phase == Phase.RESOLVING:
            # the round's last placement: each player placed exactly 5 and holds 1
            assert Counter(e.player for e in g.placements) == dict.fromkeys(range(n), 5)
            assert [len(h) for h in g.hands] == [1] * n
            before = snapshot(g)
            self.projection, _ = g.projected()
            assert snapshot(g) == before  # projected() leaves the game alone
        if isinstance(event, ColumnResolved):
            # projected() at the round's last placement said exactly what happened
            assert event == self.projection[event.column]
            participants = {p for p in range(n) if event.totals[p]}
            takers = [a.player for a in event.awards]
            assert len(set(takers)) == len(takers)
            assert set(takers) <= participants - set(event.cancelled)
            assert set(event.cancelled) <= participants
            assert event.rotated == (not participants and bool(g.columns[event.column]))
        if isinstance(event, RoundEnded):
            assert event.next_first_player == (self.first + event.round) % n
            assert g.hands == [[1, 2, 3, 4, 5, 6]] * n  # 6 in hand at the start of every round
            assert g.placements == []
            assert g.totals == [[0] * n for _ in range(7)]
            assert len(g.round_scores) == event.round
        if isinstance(event, GameEnded):
            assert g.phase == Phase.OVER
            assert event.scores == g.scores()
            assert event.winners == [p for p in range(n) if event.scores[p] == max(event.scores)]


@pytest.mark.parametrize("n", [3, 4, 5])
@settings(
    max_examples=35,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    # no "explain" phase: on a failure it replays hundreds of whole games before reporting
    phases=[
        hypothesis.Phase.explicit,
        hypothesis.Phase.reuse,
        hypothesis.Phase.generate,
        hypothesis.Phase.target,
        hypothesis.Phase.shrink,
    ],
)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_keep_every_invariant(n: int, seed: int, data: st.DataObject) -> None:
    first = data.draw(st.integers(0, n - 1), label="first_player")
    created = new_game(seats(n), first_player=first, seed=seed)
    game = Game(created)
    checker = InvariantChecker(created)
    log: list[Event] = [created]
    copy_at = data.draw(st.integers(0, 5 * n * game.rounds - 1), label="copy_at")
    frozen: tuple[Game, tuple[Any, ...]] | None = None
    undos = 0
    decisions = 0
    while not game.over:
        if decisions == copy_at and frozen is None:
            twin = game.copy()
            assert snapshot(twin) == snapshot(game)
            frozen = (twin, snapshot(twin))
            # a copy that moves on leaves the original where it was
            other = game.copy()
            before = snapshot(game)
            other.place(other.legal_placements()[-1])
            assert snapshot(game) == before
        events: list[Event]
        if game.placements and undos < MAX_UNDOS and data.draw(st.integers(0, 9), label="undo?") == 0:
            undos += 1
            last = game.placements[-1].player
            someone_else = (last + 1) % n
            before = snapshot(game)
            with pytest.raises(NothingToUndo):
                game.undo(player=someone_else)
            assert snapshot(game) == before
            mine = data.draw(st.booleans(), label="undo own")
            undone = game.undo(player=last if mine else None)
            assert undone.player == last
            assert game.to_move == last
            events = [undone]
        else:
            events = game.place(data.draw(st.sampled_from(game.legal_placements()), label="placement"))
            decisions += 1
        for ev in events:
            checker.feed(ev)
        assert snapshot(checker.game) == snapshot(game)
        log.extend(events)
    event(f"undos: {min(undos, 3)}{'+' if undos > 3 else ''}")
    assert isinstance(log[-1], GameEnded)
    assert sum(isinstance(e, RoundEnded) for e in log) == game.rounds
    assert sum(isinstance(e, CardPlaced) for e in log) - undos == 5 * n * game.rounds
    final = snapshot(game)
    # state = fold(events): the full log, and the decisions alone, give the live game's state
    assert snapshot(fold(log).game) == final
    decisions_only = [e for e in log if isinstance(e, (GameCreated, CardPlaced, PlacementUndone))]
    assert snapshot(fold(decisions_only).game) == final
    # a copy taken earlier did not move with the game
    assert frozen is not None
    twin, twin_snapshot = frozen
    assert snapshot(twin) == twin_snapshot


def first_round_log() -> list[Event]:
    created = new_game(seats(3), seed=2024)
    game = Game(created)
    log: list[Event] = [created]
    while game.round == 1:
        log += game.place(game.legal_placements()[len(log) % 11])
    return log


def test_fold_of_a_prefix_is_the_state_at_that_point() -> None:
    created = new_game(seats(4), seed=77, first_player=2)
    game = Game(created)
    log: list[Event] = [created]
    states = [snapshot(game)]
    while not game.over:
        events = game.place(game.legal_placements()[(len(log) * 5) % len(game.legal_placements())])
        log += events
        states.append(snapshot(game))
        if len(log) % 7 == 0 and game.placements:
            log.append(game.undo())
            states.append(snapshot(game))
    assert sum(isinstance(e, PlacementUndone) for e in log) >= 5
    # states[i] is the state after the i-th batch; rebuild the batch boundaries from the log
    boundaries = [1]
    i = 1
    while i < len(log):
        i += 1
        while i < len(log) and isinstance(log[i], (ColumnResolved, RoundEnded, GameEnded)):
            i += 1
        boundaries.append(i)
    assert len(boundaries) == len(states)
    for end, expected in zip(boundaries, states, strict=True):
        assert snapshot(fold(log[:end]).game) == expected


def test_a_tampered_award_is_a_derived_mismatch_naming_the_field() -> None:
    log = first_round_log()
    index, event = next((i, e) for i, e in enumerate(log) if isinstance(e, ColumnResolved) and e.awards)
    assert isinstance(event, ColumnResolved)
    wrong_card = "money-200" if event.awards[0].card != "money-200" else "money-100"
    tampered = msgspec.structs.replace(
        event, awards=[Award(event.awards[0].player, wrong_card, event.awards[0].returned), *event.awards[1:]]
    )
    with raises_said(DerivedMismatch, r"column_resolved: field 'awards\[0\]\.card' should be") as info:
        fold([*log[:index], tampered, *log[index + 1 :]])
    assert info.value.field == "awards[0].card"


@pytest.mark.parametrize(
    ("field", "value"),
    [("totals", [99, 0, 0]), ("cancelled", [0, 1]), ("rotated", None), ("round", 2)],
)
def test_a_tampered_column_resolved_names_its_field(field: str, value: object) -> None:
    log = first_round_log()
    index = next(i for i, e in enumerate(log) if isinstance(e, ColumnResolved))
    event = log[index]
    assert isinstance(event, ColumnResolved)
    if field == "rotated":
        value = not event.rotated
    tampered = msgspec.structs.replace(event, **{field: value})
    with pytest.raises(DerivedMismatch) as info:
        fold([*log[:index], tampered, *log[index + 1 :]])
    assert info.value.field == field


def test_a_tampered_round_ended_is_refused() -> None:
    log = first_round_log()
    index = next(i for i, e in enumerate(log) if isinstance(e, RoundEnded))
    event = log[index]
    assert isinstance(event, RoundEnded)
    tampered = msgspec.structs.replace(event, next_first_player=(event.next_first_player + 1) % 3)
    with raises_said(DerivedMismatch, "round_ended: field 'next_first_player'"):
        fold([*log[:index], tampered, *log[index + 1 :]])


def test_an_undo_must_name_the_latest_placement() -> None:
    created = new_game(seats(3), seed=1)
    game = Game(created)
    placed = game.place(Placement(5, 2))[0]
    assert isinstance(placed, CardPlaced)
    wrong = PlacementUndone(round=1, player=0, column=3, card=5)
    with raises_said(RuleError, "placement_undone must name the latest placement exactly") as info:
        fold([created, placed, wrong])
    assert info.value.index == 2
    right = PlacementUndone(round=1, player=0, column=2, card=5)
    assert snapshot(fold([created, placed, right]).game) == snapshot(Game(created))


def test_a_log_must_start_with_game_created() -> None:
    created = new_game(seats(3), seed=1)
    with raises_said(RuleError, "the first event must be game_created, not card_placed") as info:
        fold([CardPlaced(round=1, player=0, column=0, card=1)])
    assert info.value.index == 0
    with raises_said(RuleError, "game_created: game_created may only be the first event") as info:
        fold([created, created])
    assert info.value.index == 1


def test_a_placement_of_the_wrong_round_is_refused() -> None:
    created = new_game(seats(3), seed=1)
    with raises_said(RuleError, "card_placed says round 2, but round 1 is being played") as info:
        fold([created, CardPlaced(round=2, player=0, column=0, card=1)])
    assert info.value.index == 1


def test_a_derived_event_where_a_decision_is_owed_is_refused() -> None:
    created = new_game(seats(3), seed=1)
    with raises_said(RuleError, "round_ended is not owed here") as info:
        fold([created, RoundEnded(round=1, next_first_player=1)])
    assert info.value.index == 1
