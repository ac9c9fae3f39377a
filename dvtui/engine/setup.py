"""Setting a game up (R1-R3): player counts and rounds, the seeded deal as ``game_created``, and the
check of a ``game_created`` from anywhere."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from itertools import chain

from .cards import (
    ALL_CARD_NAMES,
    BOX_SIZE,
    CATEGORY_OF,
    COLORS,
    COLUMN_HEIGHT,
    COLUMNS,
    DECK,
    GOODS,
    MONEY_100,
    MONEY_200,
    deal,
)
from .errors import BadSetup
from .events import FORMAT_VERSION, GameCreated, Seat

ROUNDS: dict[int, int] = {3: 6, 4: 4, 5: 5}
"""R3: rounds by player count, as printed."""

MIN_PLAYERS = 3
MAX_PLAYERS = 5
PLACEMENTS_PER_PLAYER = 5
"""R4.2: each player places 5 of 6 cards a round."""
SEED_RANGE = 1_000_000
"""A random seed is drawn below this: six digits are easy to read out and type again."""


def random_seed() -> int:
    """The seed of a new game nobody chose one for; recorded in ``game_created`` like any other,
    so the deal can be played again."""
    return secrets.randbelow(SEED_RANGE)


def rounds_for(players: int) -> int:
    """R3; refuses other player counts with the rule's own words."""
    if players not in ROUNDS:
        raise BadSetup.of("players", players=players)
    return ROUNDS[players]


def new_game(seats: Sequence[Seat], *, first_player: int = 0, seed: int = 0, rated: bool = False) -> GameCreated:
    """R2: a seeded deal for ``seats`` (clockwise), as the ``game_created`` event that records it
    (``rated``: a table server's rated game, kept as ``rated: true``; a casual one has no such key)."""
    rounds = rounds_for(len(seats))
    if not 0 <= first_player < len(seats):
        raise BadSetup.of("first_player", last=len(seats) - 1, first=first_player)
    grid, box = deal(seed)
    return GameCreated(
        format=FORMAT_VERSION,
        players=list(seats),
        first_player=first_player,
        rounds=rounds,
        grid=grid,
        box=box,
        seed=seed,
        rated=rated,
    )


def check_setup(created: GameCreated) -> None:
    """R1-R3 on a ``game_created`` from anywhere (a file may have been written by another tool).

    The money split is not assumed (R1.2): any 17 money cards of 100k and 200k are accepted.
    """
    if created.format != FORMAT_VERSION:
        raise BadSetup.of("format", format=created.format, ours=FORMAT_VERSION)
    n = len(created.players)
    rounds = rounds_for(n)
    if created.rounds != rounds:
        raise BadSetup.of("rounds", n=n, rounds=rounds, found=created.rounds)
    if not 0 <= created.first_player < n:
        raise BadSetup.of("first_player_field", last=n - 1, first=created.first_player)
    colors: set[str] = set()
    for i, seat in enumerate(created.players):
        if seat.kind not in ("human", "bot"):
            raise BadSetup.of("seat_kind", i=i, kind=seat.kind)
        if seat.kind == "bot" and not seat.bot:
            raise BadSetup.of("bot_without_level", i=i)
        if seat.color not in COLORS:
            raise BadSetup.of("color_unknown", i=i, colors=", ".join(COLORS), color=seat.color)
        if seat.color in colors:
            raise BadSetup.of("color_taken", i=i, color=seat.color)
        if not seat.name.strip():
            raise BadSetup.of("name_empty", i=i)
        colors.add(seat.color)
    grid = created.grid
    if list(map(len, grid)) != _GRID_SHAPE:
        raise BadSetup.of("grid_shape", columns=COLUMNS, height=COLUMN_HEIGHT)
    if len(created.box) != BOX_SIZE:
        raise BadSetup.of("box_size", size=BOX_SIZE, found=len(created.box))
    cards = list(chain.from_iterable(grid))  # C-level helpers: every file read is checked here
    cards += created.box
    money = cards.count(MONEY_100) + cards.count(MONEY_200)
    if money == len(DECK) - len(GOODS) and set(cards) - _MONEY == _GOODS_SET:
        return  # 66 cards, 17 of them money, so the 49 others are the 49 goods, once each
    unknown = [card for card in cards if card not in ALL_CARD_NAMES]
    if unknown:
        raise BadSetup.of("card_unknown", card=unknown[0])
    goods = [card for card in cards if card in CATEGORY_OF]
    if len(set(goods)) != len(goods):
        dup = next(card for card in goods if goods.count(card) > 1)
        raise BadSetup.of("card_twice", card=dup)
    # 66 cards, none unknown, no good twice: the only way left to be wrong is goods missing
    raise BadSetup.of("deal", goods=len(GOODS), money=len(DECK) - len(GOODS), held=len(goods), held_money=money)


def first_player_of_round(created: GameCreated, round_: int) -> int:
    """Invariant of R7: the first player of round k is (first_player + k - 1) mod players."""
    return (created.first_player + round_ - 1) % len(created.players)


_GOODS_SET = frozenset(GOODS)
_GRID_SHAPE = [COLUMN_HEIGHT] * COLUMNS
_MONEY = frozenset((MONEY_100, MONEY_200))
