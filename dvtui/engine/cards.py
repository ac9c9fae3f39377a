"""Cards of Dolce Vita (R1) and the seeded deal (R2).

Cards are the replay format's own strings (``car-400``, ``money-100``) everywhere in the engine, so
an event never needs translating on its way to or from a file; everything the rules need to know
about a card is looked up in tables built once at import.
"""

from __future__ import annotations

import struct
from _random import Random as _MersenneTwister
from operator import itemgetter as _pick

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

    The shuffle is a stable sort of the deck by 32-bit keys from ``random.Random(seed).randbytes``
    (read little-endian): the Mersenne Twister's output for an integer seed is the same on every
    CPython since 3.9, which is what makes "same seed, same file" hold across machines.

    It runs in C, several times cheaper than ``Random.shuffle``'s Python loop (``dvtui sim`` deals
    thousands of games a second): each card becomes one float whose mantissa is its key then its
    place in the deck, so sorting the floats (CPython's fastest sort) is the stable sort by key,
    and the low byte of each sorted float says which card it is.
    """
    keys = _MersenneTwister(seed).getrandbits(_KEY_BITS).to_bytes(_KEY_BYTES, "little")  # = Random(seed).randbytes
    words = _FLOAT_TEMPLATE[:]
    words[1::8] = keys[0::4]  # key byte i (little-endian) into mantissa byte 1 + i, above the index
    words[2::8] = keys[1::4]
    words[3::8] = keys[2::4]
    words[4::8] = keys[3::4]
    order = _DOUBLES.pack(*sorted(_DOUBLES.unpack(words)))[::8]  # each sorted float's low byte
    cards = list(_pick(*order)(DECK))
    return list(map(cards.__getitem__, _COLUMN_SLICES)), cards[COLUMNS * COLUMN_HEIGHT :]


_FLOAT_TEMPLATE = bytearray(
    b"".join(struct.pack("<d", 1.0 + i / 2**52) for i in range(len(DECK)))  # 1 <= x < 2, mantissa = index
)
"""One little-endian double per card: sign 0, exponent of 1.0, mantissa bits 0-7 the card's index
in DECK and bits 8-39 (filled by deal) its sort key, so the floats order as (key, index)."""
assert len(DECK) < 256
_KEY_BYTES = 4 * len(DECK)
_KEY_BITS = 8 * _KEY_BYTES
"""``random.Random``'s C base class is the same generator: seeded the same way, ``getrandbits``
the same bits (``randbytes(n)`` is ``getrandbits(8 * n).to_bytes(n, "little")``), without the
Python-level wrappers, which cost a deal 0.7 µs (tests pin the deal to ``Random(seed).randbytes``)."""
_DOUBLES = struct.Struct(f"<{len(DECK)}d")
"""The template's floats, read and written little-endian whatever the machine's byte order."""
_COLUMN_SLICES = tuple(slice(c * COLUMN_HEIGHT, (c + 1) * COLUMN_HEIGHT) for c in range(COLUMNS))
