"""Positions for the tests: a legal deal around the cards a test chooses, a round played out around
the few placements that matter, states reached by random legal play, and the seats of bot games.

Tests of the rules need a grid whose decisive cards the test chooses, and a quick way to play whole
rounds around the few placements that matter. :func:`build_created` builds a legal 66-card deal
around the chosen cards (``check_setup`` accepts it) and :func:`play_round` plays the rest of a
round out of the way, so each test spells out only the part of the position it is about.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from hypothesis import strategies as st

from dvtui.engine import (
    BOX_SIZE,
    COLORS,
    COLUMN_HEIGHT,
    COLUMNS,
    DECK,
    FORMAT_VERSION,
    PLACEMENTS_PER_PLAYER,
    ROUNDS,
    Event,
    Game,
    GameCreated,
    Placement,
    Seat,
    new_game,
)

Plan = Mapping[int, Sequence[Placement]]
"""Per player, the placements a test insists on, in the order they are made."""


def make_seats(players: int) -> list[Seat]:
    """Human seats named after their colour, clockwise in COLORS order (red, yellow, green, ...)."""
    return [
        Seat(name=COLORS[i % len(COLORS)].title(), kind="human", color=COLORS[i % len(COLORS)]) for i in range(players)
    ]


def build_created(
    players: int = 4,
    columns: Mapping[int, Sequence[str]] | None = None,
    *,
    first_player: int = 0,
    box: Sequence[str] | None = None,
) -> GameCreated:
    """A legal ``game_created`` whose chosen columns start, bottom first, with the given cards.

    The cards the test did not choose come from the rest of ``DECK`` in its fixed order: they top
    up every column to 9 (columns left to right), and the last 3 go to the box unless ``box`` is
    given. Asking for more copies of a card than the deck holds is a mistake in the test and
    raises ``ValueError`` rather than building an illegal deal.
    """
    chosen = {c: list(cards) for c, cards in (columns or {}).items()}
    for c, cards in chosen.items():
        if not 0 <= c < COLUMNS or len(cards) > COLUMN_HEIGHT:
            raise ValueError(f"column {c}: at most {COLUMN_HEIGHT} cards in columns 0..{COLUMNS - 1}")
    pool = Counter(DECK)
    wanted = [card for cards in chosen.values() for card in cards] + list(box or [])
    for card in wanted:
        if pool[card] <= 0:
            raise ValueError(f"the deck has no more {card!r} to deal")
        pool[card] -= 1
    rest: list[str] = []
    for card in DECK:  # the deck's fixed order, minus what the test chose
        if pool[card] > 0:
            pool[card] -= 1
            rest.append(card)
    grid: list[list[str]] = []
    for c in range(COLUMNS):
        col = chosen.get(c, [])
        need = COLUMN_HEIGHT - len(col)
        grid.append(col + rest[:need])
        rest = rest[need:]
    if box is None:
        box_cards = rest
    else:
        box_cards = list(box)
        if rest:
            raise ValueError(f"box given but {len(rest)} cards are left over")
    assert len(box_cards) == BOX_SIZE
    return GameCreated(
        format=FORMAT_VERSION,
        players=make_seats(players),
        first_player=first_player,
        rounds=ROUNDS[players],
        grid=grid,
        box=box_cards,
    )


def build_game(
    players: int = 4,
    columns: Mapping[int, Sequence[str]] | None = None,
    *,
    first_player: int = 0,
    box: Sequence[str] | None = None,
) -> Game:
    """``Game(build_created(...))``: a fresh game on a hand-made grid."""
    return Game(build_created(players, columns, first_player=first_player, box=box))


def play_round(game: Game, plan: Plan | None = None, dump: int | Mapping[int, int] = 6) -> list[Event]:
    """Play the current round to its end and return every event it produced.

    At each turn the player to move makes their next planned placement; once a player's plan is
    used up they place their lowest card not still needed by their plan under ``dump`` (one
    column for everyone, or one per player), so each places exactly 5 cards (R4.2).
    """
    plan = plan or {}
    todo = {p: list(plan.get(p, ())) for p in range(game.n)}
    for p, steps in todo.items():
        cards = [card for card, _ in steps]
        if len(cards) > 5 or len(set(cards)) != len(cards) or not set(cards) <= set(game.hands[p]):
            raise ValueError(f"player {p}: a plan is at most 5 different cards from hand, not {cards}")
    events: list[Event] = []
    for _ in range(5 * game.n - len(game.placements)):
        p = game.to_move
        if todo[p]:
            placement = todo[p].pop(0)
        else:
            reserved = {c for c, _ in todo[p]}
            card = min(c for c in game.hands[p] if c not in reserved)
            placement = Placement(card, dump if isinstance(dump, int) else dump[p])
        events.extend(game.place(placement, player=p))
    return events


def random_state(players: int, deal: int, moves: int, walk: int) -> Game:
    """A state reached by ``moves`` random legal placements (rounds resolve on the way) from deal
    ``deal``, the placements drawn with seed ``walk``."""
    seats = [Seat(name=f"p{i}", kind="bot", color=COLORS[i], bot="random") for i in range(players)]
    game = Game(new_game(seats, first_player=deal % players, seed=deal))
    rng = random.Random(walk)
    for _ in range(moves):
        if game.over:
            break
        game.place(rng.choice(game.legal_placements()))
    return game


def before_the_last_placement(players: int, deal: int, walk: int) -> Game:
    """A random game one placement from its end (see :func:`random_state`): the last placement has
    no future, so a search judges each one exactly there."""
    return random_state(players, deal, PLACEMENTS_PER_PLAYER * players * ROUNDS[players] - 1, walk)


def playing_states(max_moves: int = 150) -> st.SearchStrategy[Game]:
    """Hypothesis' states of a game still being played: :func:`random_state` over 3 to 5 players,
    any deal, up to ``max_moves`` random placements in."""
    return st.builds(
        random_state, st.integers(3, 5), st.integers(0, 2**31), st.integers(0, max_moves), st.integers(0, 2**31)
    ).filter(lambda game: not game.over)


BOTS3 = [
    Seat(name="Bot 1", kind="bot", color="red", bot="greedy"),
    Seat(name="Bot 2", kind="bot", color="yellow", bot="random"),
    Seat(name="Bot 3", kind="bot", color="green", bot="greedy"),
]
BOTS4 = [
    Seat(name="Bot 1", kind="bot", color="red", bot="random"),
    Seat(name="Bot 2", kind="bot", color="yellow", bot="greedy"),
    Seat(name="Bot 3", kind="bot", color="green", bot="greedy"),
    Seat(name="Bot 4", kind="bot", color="blue", bot="random"),
]
WITH_HUMAN = [
    Seat(name="Ana", kind="human", color="red"),
    Seat(name="Bot 1", kind="bot", color="yellow", bot="greedy"),
    Seat(name="Bot 2", kind="bot", color="green", bot="greedy"),
]


def created(seats: list[Seat] = BOTS3, seed: int = 11, first: int = 0) -> GameCreated:
    """A new game's ``game_created`` for these seats, dealt with ``seed``."""
    return new_game(seats, first_player=first, seed=seed)
