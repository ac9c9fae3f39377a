"""Cards of Dolce Vita (R1) and the seeded deal (R2).

Cards are the replay format's own strings (``car-400``, ``money-100``) everywhere in the engine, so
an event never needs translating on its way to or from a file; everything the rules need to know
about a card is looked up in tables built once at import.
"""

from __future__ import annotations

import struct
from random import Random

CATEGORIES: tuple[str, ...] = ("house", "car", "boat", "horse", "jewel", "watch", "holiday")
"""R1.1: the seven categories, in the order used everywhere (columns of the scoreboard, tests)."""

GOOD_VALUES: tuple[int, ...] = (100, 200, 300, 400, 500, 600, 700)
"""Values in thousands, as written in card names."""

MONEY_100 = "money-100"
MONEY_200 = "money-200"
MONEY_SPLIT: tuple[tuple[str, int], ...] = ((MONEY_100, 9), (MONEY_200, 8))
"""R1.2: the rules do not give the split of the 17 money cards; dvtui deals 9 × 100k and 8 × 200k."""

GOODS: tuple[str, ...] = tuple(f"{c}-{v}" for c in CATEGORIES for v in GOOD_VALUES)
DECK: tuple[str, ...] = GOODS + tuple(card for card, count in MONEY_SPLIT for _ in range(count))
"""The 66 cards of a dvtui deal, in a fixed order so that a seed always gives the same deal."""

COLUMNS = 7
COLUMN_HEIGHT = 9
BOX_SIZE = 3
NUMBER_CARDS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
"""R1.3: the five colours of number cards, in seat order by default."""

CATEGORY_OF: dict[str, int] = {f"{c}-{v}": i for i, c in enumerate(CATEGORIES) for v in GOOD_VALUES}
"""Card name -> category index, for goods only: ``card in CATEGORY_OF`` is "is a good"."""

VALUE_OF: dict[str, int] = {f"{c}-{v}": v * 1000 for c in CATEGORIES for v in GOOD_VALUES}
VALUE_OF[MONEY_100] = 100_000
VALUE_OF[MONEY_200] = 200_000
"""Card name -> value in full units (R8 scores are sums of these)."""

ALL_CARD_NAMES: frozenset[str] = frozenset(VALUE_OF)


def is_good(card: str) -> bool:
    return card in CATEGORY_OF


def is_money(card: str) -> bool:
    return card in (MONEY_100, MONEY_200)


def category(card: str) -> str | None:
    """The card's category name, or None for money."""
    index = CATEGORY_OF.get(card)
    return None if index is None else CATEGORIES[index]


def value(card: str) -> int:
    return VALUE_OF[card]


def deal(seed: int) -> tuple[list[list[str]], list[str]]:
    """R2.1: shuffle the 66 cards with ``seed``; 7 columns of 9 (bottom first) and 3 to the box.

    The shuffle is a stable sort of the deck by 32-bit keys, ``Random(seed).randbytes`` read
    little-endian: the Mersenne Twister's output for an integer seed is the same on every CPython
    since 3.9, which is what makes "same seed, same file" hold across machines.
    """
    keys = list(_KEYS.unpack(Random(seed).randbytes(_KEYS.size)))  # (a list's __getitem__ is the quicker key)
    cards = [DECK[i] for i in sorted(_DECK_INDEXES, key=keys.__getitem__)]
    return [cards[s] for s in _COLUMN_SLICES], cards[COLUMNS * COLUMN_HEIGHT :]


_KEYS = struct.Struct(f"<{len(DECK)}I")
"""One 32-bit little-endian key per card of DECK, whatever the machine's byte order."""
_DECK_INDEXES = range(len(DECK))
_COLUMN_SLICES = tuple(slice(c * COLUMN_HEIGHT, (c + 1) * COLUMN_HEIGHT) for c in range(COLUMNS))
