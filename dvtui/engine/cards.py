"""Cards of Dolce Vita (R1) and the seeded deal (R2).

Cards are the replay format's own strings (``car-400``, ``money-100``) everywhere in the engine, so
an event never needs translating on its way to or from a file; everything the rules need to know
about a card is looked up in tables built once at import.
"""

from __future__ import annotations

import struct
import threading
from operator import itemgetter
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

CATEGORY_OF: dict[str, int] = {card: i // len(GOOD_VALUES) for i, card in enumerate(GOODS)}
"""Card name -> category index, for goods only: ``card in CATEGORY_OF`` is "is a good". Keyed by
GOODS' own strings, as VALUE_OF is: a dealt card is then the very key a look-up finds (an identity
test), not an equal string compared byte by byte."""

VALUE_OF: dict[str, int] = {card: GOOD_VALUES[i % len(GOOD_VALUES)] * 1000 for i, card in enumerate(GOODS)}
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

    Sorting the (key, deck index) pairs is that stable sort, and done as floats it is a C loop:
    each pair is written into the bytes of the double ``2**52 + key * 65536 + index`` (an integer,
    so exact, and one that orders as its pair), the doubles are sorted, and the lowest byte of each
    sorted double is the index of the next card. Sorting 66 Python ints by a key costs four times
    as many instructions, and a deal per game is a tenth of a simulated game.

    The keys go into the doubles in one strided copy of four bytes each, as they are (no byte
    order: a view of the doubles' bytes from byte 2 on, every other four-byte word of it).

    The generator is the thread's own, seeded again for each deal (what ``Random(seed)`` does,
    without making and freeing a generator and its 2.5 KB of state a game), and the keys are
    ``getrandbits`` as bytes, which is all ``randbytes`` does.
    """
    try:
        generator = _LOCAL.generator
    except AttributeError:
        generator = _LOCAL.generator = Random()
    generator.seed(seed)
    keys = generator.getrandbits(32 * len(DECK)).to_bytes(4 * len(DECK), "little")
    words = bytearray(_WORDS)
    memoryview(words)[2:-2].cast("I")[::2] = memoryview(keys).cast("I")  # key i -> bytes 2-5 of double i
    order = _DOUBLES.pack(*sorted(_DOUBLES.unpack(words)))[::8]
    cards = list(itemgetter(*order)(DECK))
    *grid, box = _COLUMNS_AND_BOX(cards)
    return grid, box


_LOCAL = threading.local()
"""Each thread's generator for :func:`deal` (two threads dealing at once must not share one)."""
_DOUBLES = struct.Struct(f"<{len(DECK)}d")
"""One little-endian IEEE double per card of DECK (struct's ``<`` format is IEEE on every machine)."""
_WORDS = bytes(b for i in range(len(DECK)) for b in (i, 0, 0, 0, 0, 0, 0x30, 0x43))
"""Each card's double before its key is written in: exponent 0x433 (bytes 6-7: 2**52, so the 52
bits below are an integer), its deck index in byte 0, the key's four bytes (2-5) still zero."""
_COLUMNS_AND_BOX = itemgetter(
    *(slice(c * COLUMN_HEIGHT, (c + 1) * COLUMN_HEIGHT) for c in range(COLUMNS)), slice(COLUMNS * COLUMN_HEIGHT, None)
)
"""The dealt cards -> each column's 9, bottom first, then the box's 3 (slices taken in one C call)."""
