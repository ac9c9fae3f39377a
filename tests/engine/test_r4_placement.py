"""R4: placement order, what may be placed where, the typed errors, and undo; and ``Game.play``,
the loop that lets movers (bots) place under exactly the rules of ``place`` (``dvtui sim`` and every
bot seat go through it, so it must give the same events, in the same units, and refuse the same
illegal choices the same way)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dvtui.bots import bot_fn, bot_seeds, parse_bot
from dvtui.engine import (
    COLORS,
    CardNotInHand,
    CardPlaced,
    ColumnOutOfRange,
    ColumnResolved,
    Event,
    Game,
    GameOver,
    Mover,
    NothingToUndo,
    NotPlacementPhase,
    Phase,
    Placement,
    PlacementUndone,
    RoundEnded,
    RuleError,
    Seat,
    WrongPlayer,
    new_game,
)

from ..support.said import raises_said

MakeGame = Callable[..., Game]
Play = Callable[..., list[Event]]

MONEY_COLUMN = ["money-100"] * 5 + ["money-200"] * 4


def state(game: Game) -> tuple[object, ...]:
    """Everything a refused decision must leave untouched."""
    return (
        game.round,
        game.to_move,
        game.phase,
        [h[:] for h in game.hands],
        [t[:] for t in game.totals],
        list(game.placements),
        [c[:] for c in game.columns],
    )


def emptied_column_game(make_game: MakeGame, play: Play) -> Game:
    """5 players empty column 0 (9 money cards) in two rounds: 5 awards, then 4."""
    game = make_game(5, {0: MONEY_COLUMN})
    everyone = {p: [Placement(6 - p, 0)] for p in range(5)}
    play(game, everyone, dump=6)
    play(game, everyone, dump=6)
    assert game.columns[0] == []
    assert game.round == 3
    return game


@pytest.mark.parametrize(("players", "first"), [(3, 0), (3, 2), (4, 2), (5, 4)])
def test_r4_1_turns_go_clockwise_from_the_first_player(
    players: int, first: int, make_game: MakeGame, play: Play
) -> None:
    game = make_game(players, first_player=first)
    order = []
    for _ in range(5 * players - 1):
        order.append(game.to_move)
        game.place(Placement(game.hands[game.to_move][0], 3))
    assert order == [(first + i) % players for i in range(5 * players - 1)]
    events = play(game)  # the round's last placement
    assert [e.player for e in events if isinstance(e, CardPlaced)] == [(first - 1) % players]
    # next round: clockwise again, from the next seat (R7)
    round2 = play(game, dump=1)
    assert [e.player for e in round2 if isinstance(e, CardPlaced)] == [
        (first + 1 + i) % players for i in range(5 * players)
    ]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r4_2_placement_ends_when_everyone_holds_one_card(players: int, make_game: MakeGame) -> None:
    game = make_game(players)
    for _ in range(5 * players - 1):
        events = game.place(Placement(max(game.hands[game.to_move]), 2))
        assert len(events) == 1 and isinstance(events[0], CardPlaced)
    last = game.to_move
    assert [len(h) for h in game.hands] == [2 if p == last else 1 for p in range(players)]
    assert game.hands[last] == [1, 2]
    assert game.round == 1
    events = game.place(Placement(2, 2))
    assert [type(e) for e in events] == [CardPlaced] + [ColumnResolved] * 7 + [RoundEnded]
    assert [e.column for e in events if isinstance(e, ColumnResolved)] == list(range(7))
    # every player placed 6 + 5 + 4 + 3 + 2 = 20 under column 2
    col2 = events[3]
    assert isinstance(col2, ColumnResolved)
    assert col2.totals == [20] * players


def test_r4_3_any_card_under_any_column(make_game: MakeGame) -> None:
    game = make_game(4)
    assert sorted(game.legal_placements()) == [(card, col) for card in range(1, 7) for col in range(7)]
    game.place(Placement(4, 6))
    assert sorted(game.legal_placements()) == [(card, col) for card in range(1, 7) for col in range(7)]
    game.place(Placement(1, 0))
    game.place(Placement(1, 0))
    assert game.totals[6] == [4, 0, 0, 0]
    assert game.totals[0] == [0, 1, 1, 0]
    assert game.hands[:3] == [[1, 2, 3, 5, 6], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]]


def test_a_placement_is_one_value_card_then_column_taken_whole(make_game: MakeGame) -> None:
    """``Placement(card, column)`` is the decision from the engine up: ``place`` takes it whole, the
    legal ones are placements, and the event says that card under that column."""
    game = make_game(3)
    assert all(type(p) is Placement for p in game.legal_placements())
    assert game.legal_placements()[:2] == [Placement(card=1, column=0), Placement(card=1, column=1)]
    (event,) = game.place(Placement(card=5, column=2))
    assert event == CardPlaced(round=1, player=0, column=2, card=5)
    assert game.totals[2] == [5, 0, 0] and 5 not in game.hands[0]


def test_a_stand_in_is_noted_on_the_card_placed_the_engine_makes(make_game: MakeGame) -> None:
    """The bot level placing for an absent human is part of the decision handed in, so the engine's
    own ``card_placed`` carries it (nobody edits an event after the engine made it)."""
    game = make_game(3)
    (noted,) = game.place(Placement(6, 3), stand_in="greedy")
    (plain,) = game.place(Placement(6, 3))
    assert isinstance(noted, CardPlaced) and noted.stand_in == "greedy"
    assert isinstance(plain, CardPlaced) and plain.stand_in is None
    assert noted == CardPlaced(round=1, player=0, column=3, card=6, stand_in="greedy")


def test_events_are_built_with_keywords_only() -> None:
    """No positional call can swap an event's ints (a column for a card, say): every event refuses one."""
    for kind, args in (
        (CardPlaced, (1, 0, 3, 6)),
        (PlacementUndone, (1, 0, 3, 6)),
        (ColumnResolved, (1, 0, [0, 0, 0], [], [], False)),
        (RoundEnded, (1, 2)),
    ):
        with pytest.raises(TypeError):
            kind(*args)


def test_r4_3_a_card_may_go_under_an_empty_column(make_game: MakeGame, play: Play) -> None:
    game = emptied_column_game(make_game, play)
    assert game.to_move == 2
    assert (5, 0) in game.legal_placements()
    placed = game.place(Placement(5, 0))
    assert placed == [CardPlaced(round=3, player=2, column=0, card=5)]
    assert game.totals[0] == [0, 0, 5, 0, 0]
    events = play(game, dump=6)
    col0 = next(e for e in events if isinstance(e, ColumnResolved) and e.column == 0)
    assert col0 == ColumnResolved(round=3, column=0, totals=[0, 0, 5, 0, 0], cancelled=[], awards=[], rotated=False)
    assert game.columns[0] == []


def test_r4_3_several_cards_of_one_player_under_one_column(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {4: ["car-600", "boat-200"]})
    five = [Placement(card, 4) for card in (1, 3, 5, 6, 2)]  # all but one of player 1's cards
    events = play(game, {1: five, 2: [Placement(6, 4), Placement(5, 4)]}, dump=0)
    col4 = next(e for e in events if isinstance(e, ColumnResolved) and e.column == 4)
    assert col4.totals == [0, 17, 11]
    assert [(a.player, a.card) for a in col4.awards] == [(1, "car-600"), (2, "boat-200")]
    assert game.goods[1][1] == "car-600"
    assert game.goods[2][2] == "boat-200"


def test_wrong_player_is_refused_with_whose_turn_it_is(make_game: MakeGame) -> None:
    game = make_game(4, first_player=1)
    before = state(game)
    with raises_said(WrongPlayer, r"^it is player 1's turn, not player 3's \(R4\.1\)$"):
        game.place(Placement(4, 0), player=3)
    assert state(game) == before
    game.place(Placement(4, 0), player=1)
    with raises_said(WrongPlayer, "it is player 2's turn, not player 1's"):
        game.place(Placement(3, 0), player=1)


def test_card_not_in_hand_says_it_was_placed_already(make_game: MakeGame) -> None:
    game = make_game(3)
    game.place(Placement(3, 5))
    game.place(Placement(3, 5))
    game.place(Placement(3, 5))
    before = state(game)
    with raises_said(CardNotInHand, r"^player 0 has already placed their 3 this round$"):
        game.place(Placement(3, 1))
    assert state(game) == before


@pytest.mark.parametrize("card", [0, 7, -1, 10])
def test_card_not_in_hand_for_a_non_number(card: int, make_game: MakeGame) -> None:
    game = make_game(3)
    with raises_said(CardNotInHand, rf"^number cards are 1 to 6, not {card}$"):
        game.place(Placement(card, 1))
    assert game.placements == []


@pytest.mark.parametrize("column", [-1, 7, 8, 100])
def test_column_out_of_range(column: int, make_game: MakeGame) -> None:
    game = make_game(5)
    before = state(game)
    with raises_said(ColumnOutOfRange, rf"^column must be 0 to 6, not {column}$"):
        game.place(Placement(2, column))
    assert state(game) == before


def test_errors_are_rule_errors(make_game: MakeGame) -> None:
    from dvtui.engine import RuleError

    game = make_game(3)
    for bad in (
        lambda: game.place(Placement(9, 0)),
        lambda: game.place(Placement(1, 9)),
        lambda: game.place(Placement(1, 0), player=2),
    ):
        with pytest.raises(RuleError):
            bad()


def test_no_placement_once_the_game_is_over(make_game: MakeGame, play: Play) -> None:
    game = make_game(4)
    for _ in range(4):
        play(game)
    assert game.over
    assert game.legal_placements() == []
    with raises_said(GameOver, r"^the game is over \(R8\): no more placements$"):
        game.place(Placement(1, 0))
    with raises_said(GameOver, r"the game is over \(R8\): nothing to undo"):
        game.undo()
    with pytest.raises(NotPlacementPhase):
        game.derive_next()


def test_undo_takes_back_the_latest_placement_only(make_game: MakeGame) -> None:
    game = make_game(4, first_player=3)
    game.place(Placement(5, 2))  # player 3
    game.place(Placement(1, 4))  # player 0
    game.place(Placement(6, 4))  # player 1
    undone = game.undo()
    assert undone == PlacementUndone(round=1, player=1, column=4, card=6)
    assert game.to_move == 1
    assert game.hands[1] == [1, 2, 3, 4, 5, 6]
    assert game.totals[4] == [1, 0, 0, 0]
    assert [(e.player, e.column, e.card) for e in game.placements] == [(3, 2, 5), (0, 4, 1)]
    # the turn returned to player 1, who may now place something else
    game.place(Placement(2, 0), player=1)
    assert game.to_move == 2
    assert game.totals[0] == [0, 2, 0, 0]


def test_undo_goes_back_one_placement_at_a_time(make_game: MakeGame) -> None:
    game = make_game(3)
    game.place(Placement(4, 1))
    game.place(Placement(5, 2))
    assert game.undo() == PlacementUndone(round=1, player=1, column=2, card=5)
    assert game.undo() == PlacementUndone(round=1, player=0, column=1, card=4)
    assert game.to_move == 0
    assert game.hands == [[1, 2, 3, 4, 5, 6]] * 3
    assert game.totals == [[0, 0, 0]] * 7
    with raises_said(NothingToUndo, "no placement of this round to take back"):
        game.undo()


def test_undo_keeps_the_hand_sorted(make_game: MakeGame) -> None:
    game = make_game(3)
    game.place(Placement(3, 0))
    game.place(Placement(6, 0))
    game.place(Placement(1, 0))
    game.place(Placement(5, 0))  # player 0 again: hand [1, 2, 4, 6]
    game.undo()
    assert game.hands[0] == [1, 2, 4, 5, 6]


def test_undo_never_crosses_a_resolution(make_game: MakeGame, play: Play) -> None:
    game = make_game(3)
    play(game, {0: [Placement(6, 0)]})
    before = state(game)
    with raises_said(NothingToUndo, r"undo never crosses a resolution"):
        game.undo()
    assert state(game) == before
    assert game.round == 2


def test_undo_of_the_round_closing_placement_is_impossible(make_game: MakeGame) -> None:
    game = make_game(3)
    for _ in range(14):
        game.place(Placement(game.hands[game.to_move][-1], 0))
    game.place(Placement(game.hands[game.to_move][0], 1))  # the 15th placement resolves the round
    assert game.round == 2
    with pytest.raises(NothingToUndo):
        game.undo(player=2)


def test_undo_for_a_player_refuses_someone_elses_placement(make_game: MakeGame) -> None:
    game = make_game(4)
    game.place(Placement(2, 3))  # player 0
    game.place(Placement(6, 3))  # player 1
    before = state(game)
    with raises_said(NothingToUndo, r"^the latest placement is player 1's, not player 0's$"):
        game.undo(player=0)
    assert state(game) == before
    assert game.undo(player=1) == PlacementUndone(round=1, player=1, column=3, card=6)
    assert game.undo(player=0) == PlacementUndone(round=1, player=0, column=3, card=2)
    assert game.phase == Phase.PLACEMENT
    assert game.to_move == 0


def test_undo_then_place_again_finishes_the_round_normally(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {0: ["watch-300"]})
    for _ in range(5):  # each tries a placement, takes it back, and places elsewhere
        tried = Placement(1, 0) if game.to_move == 0 else Placement(game.hands[game.to_move][0], 5)
        game.place(tried)
        game.undo()
        game.place(Placement(game.hands[game.to_move][-1], 6))
    events = play(game, {0: [Placement(1, 0)]}, dump=5)
    col0 = next(e for e in events if isinstance(e, ColumnResolved) and e.column == 0)
    assert col0.totals == [1, 0, 0]
    assert [a.card for a in col0.awards] == ["watch-300"]
    assert sum(isinstance(e, CardPlaced) for e in events) == 10


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), bad=st.integers(0, 200))
def test_r4_a_run_of_placements_is_the_same_as_applying_each(players: int, seed: int, bad: int) -> None:
    """Game.apply_placements (the reader's fold of a run of card_placed events) leaves the game
    exactly where apply() on each would, and stops, applying nothing more, at the first placement
    that is not plainly legal (wrong player, round, column or card) for apply() to explain."""
    from dvtui.engine import Seat, new_game
    from dvtui.play.autoplay import play_out

    seats = [Seat(name=f"B{i}", kind="bot", bot="random", color=c) for i, c in enumerate(COLORS[:players])]
    created = new_game(seats, seed=seed)
    events = play_out(Game(created))
    k = bad % len(events)
    broken = list(events)
    if isinstance(broken[k], CardPlaced):  # make one placement illegal in one of four ways
        ev = broken[k]
        way = bad % 4
        broken[k] = CardPlaced(
            round=ev.round + (way == 0),
            player=(ev.player + (way == 1)) % players,
            column=7 if way == 2 else ev.column,
            card=9 if way == 3 else ev.card,
        )
    one_by_one = Game(created)
    runs = Game(created)
    i = 0
    while i < len(broken):
        ev = broken[i]
        j = runs.apply_placements(broken, i, len(broken)) if not runs.phase else i
        for e in broken[i : max(j, i)]:
            one_by_one.apply(e)
        if j > i:
            i = j
            continue
        try:
            one_by_one.apply(ev)
        except RuleError:
            assert i == k  # only the broken placement stops a run and is refused
            with pytest.raises(RuleError):
                runs.apply(ev)
            break
        runs.apply(ev)
        i += 1
    a, b = one_by_one, runs
    assert (a.columns, a.goods, a.money, a.hands, a.totals, a.round, a.phase, a.to_move) == (
        b.columns,
        b.goods,
        b.money,
        b.hands,
        b.totals,
        b.round,
        b.phase,
        b.to_move,
    )
    assert a.placements == b.placements


# -- Game.play ------------------------------------------------------------------------------------


def bots(players: int, levels: list[str], seed: int) -> list[tuple[Mover, int] | None]:
    seeds = bot_seeds(seed, players)
    return [(bot_fn(parse_bot(levels[p % len(levels)])), seeds[p]) for p in range(players)]


def created(players: int, seed: int, first: int = 0) -> object:
    seats = [Seat(name=f"B{i}", kind="bot", bot="random", color=c) for i, c in enumerate(COLORS[:players])]
    return new_game(seats, first_player=first % players, seed=seed)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 2**40),
    levels=st.sampled_from([["random"], ["greedy", "random"]]),
)
def test_play_gives_what_place_gives_card_by_card(players: int, seed: int, levels: list[str]) -> None:
    """The same decisions through place() one by one: the same units of events and the same end."""
    movers = bots(players, levels, seed)
    made = created(players, seed, seed)
    looped = Game(made)  # type: ignore[arg-type]
    units: list[list[Event]] = []
    looped.play(movers, units.append)
    by_hand = Game(made)  # type: ignore[arg-type]
    expected: list[list[Event]] = []
    while not by_hand.over:
        mover = movers[by_hand.to_move]
        assert mover is not None
        expected.append(by_hand.place(mover[0](by_hand, mover[1])))
    assert units == expected
    assert looped.over
    assert (looped.worth, looped.goods, looped.money, looped.columns, looped.round_scores) == (
        by_hand.worth,
        by_hand.goods,
        by_hand.money,
        by_hand.columns,
        by_hand.round_scores,
    )
    without_sink = Game(made)  # type: ignore[arg-type]  # resolves its rounds without building events
    without_sink.play(movers)
    assert whole(without_sink) == whole(looped)


def whole(game: Game) -> tuple[object, ...]:
    """Everything a game holds but its events."""
    return (
        game.phase,
        game.round,
        game.first_player,
        game.to_move,
        game.next_column,
        game.worth,
        game.goods,
        game.money,
        game.columns,
        game.hands,
        game.totals,
        game.round_scores,
    )


def test_play_stops_where_a_seat_has_no_mover() -> None:
    """A human seat (None): the loop hands over with that seat to move, in any round."""
    movers = bots(3, ["random"], 7)
    movers[1] = None
    game = Game(created(3, 7))  # type: ignore[arg-type]
    game.play(movers)
    assert (game.round, game.to_move, len(game.placements)) == (1, 1, 1)
    game.place(Placement(game.hands[1][0], 0))
    game.play(movers)
    assert (game.to_move, len(game.placements)) == (1, 4)


def test_play_without_a_sink_shows_its_movers_the_placements_a_watched_game_records() -> None:
    """A game nobody watches records each placement as the rules do: every mover reads the same
    ``placements`` as in a game whose events go to a sink, in every round."""

    def seen_by(sink: Callable[[list[Event]], object] | None) -> list[list[CardPlaced]]:
        seen: list[list[CardPlaced]] = []
        movers = bots(4, ["random"], 9)

        def mover(game: Game, seed: int) -> Placement:
            seen.append(list(game.placements))
            choose = movers[game.to_move]
            assert choose is not None
            return choose[0](game, seed)

        Game(created(4, 9)).play([(mover, m[1]) for m in movers if m is not None], sink)  # type: ignore[arg-type]
        return seen

    watched = seen_by(lambda events: None)
    assert len(watched) == 4 * 5 * 4 and watched[-1]
    assert seen_by(None) == watched


def test_play_without_a_sink_hands_back_placements_of_the_games_own() -> None:
    """Handed back mid-round (a person's turn, or a refused choice), a game nobody watched holds
    ``card_placed`` events no other game shares: changing one (a store numbers the events it
    writes) changes no other game's."""
    movers = bots(3, ["random"], 7)
    movers[2] = None
    first, second = Game(created(3, 7)), Game(created(3, 7))  # type: ignore[arg-type]
    first.play(movers)
    second.play(movers)
    assert first.placements == second.placements and len(first.placements) == 2
    first.placements[0].seq = 1
    assert second.placements[0].seq is None
    refused = Game(created(3, 7))  # type: ignore[arg-type]
    with pytest.raises(ColumnOutOfRange):
        refused.play([(lambda g, s: (6, 9) if g.placements else (g.hands[g.to_move][0], 0), 0)] * 3)  # type: ignore[list-item, return-value]
    (placed,) = refused.placements
    placed.seq = 2
    again = Game(created(3, 7))  # type: ignore[arg-type]
    with pytest.raises(ColumnOutOfRange):
        again.play([(lambda g, s: (6, 9) if g.placements else (g.hands[g.to_move][0], 0), 0)] * 3)  # type: ignore[list-item, return-value]
    assert again.placements[0].seq is None and again.placements[0] is not placed


def test_play_first_delivers_derived_events_owed() -> None:
    """A game whose round is placed but not resolved (a file cut after a round's last placement):
    the owed resolution comes first, as one unit, then the game goes on as it would have."""
    movers = bots(3, ["random"], 3)
    made = created(3, 3)
    whole = Game(made)  # type: ignore[arg-type]
    units: list[list[Event]] = []
    whole.play(movers, units.append)
    placed = [unit[0] for unit in units[:15]]
    cut = Game(made)  # type: ignore[arg-type]
    assert cut.apply_placements(placed, 0, 15) == 15 and cut.derived_pending
    got: list[list[Event]] = []
    cut.play(movers, got.append)
    assert got == [units[14][1:], *units[15:]]
    assert (cut.worth, cut.round_scores) == (whole.worth, whole.round_scores)


@pytest.mark.parametrize(
    ("choice", "error"),
    [((6, 7), ColumnOutOfRange), ((6, -1), ColumnOutOfRange), ((9, 0), CardNotInHand), ((0, 0), CardNotInHand)],
)
@pytest.mark.parametrize("after", [0, 4, 15])
def test_play_refuses_an_illegal_choice_and_changes_nothing(choice: tuple[int, int], error: type, after: int) -> None:
    """The typed error place() raises, with the state left as it was, on the first move, a later
    one, or the first of round 2 (card (number, column) choices as bots return them)."""
    count = 0

    def mover(game: Game, seed: int) -> tuple[int, int]:
        nonlocal count
        count += 1
        return choice if count > after else (game.hands[game.to_move][0], 0)

    game = Game(created(3, 11))  # type: ignore[arg-type]
    reference = Game(created(3, 11))  # type: ignore[arg-type]
    for _ in range(after):
        reference.place(Placement(reference.hands[reference.to_move][0], 0))
    with pytest.raises(error):
        game.play([(mover, 0)] * 3)
    assert state(game) == state(reference)
    assert game.worth == reference.worth


def test_play_leaves_the_next_player_to_move_when_the_sink_fails() -> None:
    """A sink that cannot take a decision (a full disk): the card is placed and the turn has
    passed, as after place(), so the game cannot let the same player place twice in a row."""

    class Full(Exception):
        pass

    seen: list[int] = []
    game = Game(created(3, 5))  # type: ignore[arg-type]

    def sink(events: list[Event]) -> None:
        seen.append(game.to_move)
        if len(game.placements) == 2:
            raise Full

    with pytest.raises(Full):
        game.play(bots(3, ["random"], 5), sink)
    assert seen == [1, 2] and game.to_move == 2
    with pytest.raises(WrongPlayer):
        game.place(Placement(game.hands[1][0], 0), player=1)


@pytest.mark.parametrize("column", [2.5, "c", None])
def test_play_and_place_refuse_a_column_that_is_not_one_with_a_rule_error(column: object) -> None:
    for way in ("play", "place"):
        game = Game(created(3, 5))  # type: ignore[arg-type]
        before = state(game)
        with pytest.raises(RuleError):
            if way == "play":
                game.play([(lambda g, s: (3, column), 0)] * 3)  # type: ignore[list-item, return-value]
            else:
                game.place(Placement(3, column))  # type: ignore[arg-type]
        assert state(game) == before


def test_play_keeps_the_rules_ints_whatever_equal_values_a_mover_names_a_placement_with() -> None:
    """A mover's ``(3.0, True)`` is the placement (3, 1): the totals and the placements standing
    hold the rules' own ints, not the mover's floats and bools, as a file would."""
    game = Game(created(3, 5))  # type: ignore[arg-type]
    mover = (lambda g, s: (float(g.hands[g.to_move][-1 - g.to_move]), True), 0)
    game.play([mover, mover, None])  # type: ignore[list-item]
    assert game.totals[1] == [6, 5, 0] and {type(t) for column in game.totals for t in column} == {int}
    assert [(type(e.card), type(e.column)) for e in game.placements] == [(int, int)] * 2


@pytest.mark.parametrize("choice", [[3, 0], [3, 9]])
def test_play_refuses_a_choice_that_is_no_placement_with_a_rule_error(choice: object) -> None:
    """A list is not a placement (a mover returns one): refused as an illegal one is, not a raw TypeError."""
    game = Game(created(3, 5))  # type: ignore[arg-type]
    before = state(game)
    with pytest.raises(RuleError):
        game.play([(lambda g, s: choice, 0)] * 3)  # type: ignore[list-item, return-value]
    assert state(game) == before


@pytest.mark.parametrize("player", [1.0, True])
def test_place_records_the_seat_as_an_int_whatever_equal_value_names_it(player: object) -> None:
    game = Game(created(3, 5, first=1))  # type: ignore[arg-type]
    (event,) = game.place(Placement(3, 0), player=player)  # type: ignore[arg-type]
    assert type(event.player) is int and event.player == 1  # type: ignore[attr-defined]
