"""A typed line read as a command or a placement.

Every command has a word in English and in French and a short form, and both languages' words are
understood whichever language dvtui speaks (a player who learnt one set keeps it). A column's
letter alone (``c``) reads that column; a placement is a card and a column (``3 c``, ``3c``,
``c 3``), and the column may also be named by a good lying in it (``3 boat 500``, ``3 bateau
500``). A line that is none of these is answered with what is expected: :class:`Wrong`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..describe import COLUMN_LABELS
from ..engine import CATEGORIES, NUMBER_CARDS, Game, Placement
from ..i18n import _
from ..printable import printable

WORDS: dict[str, tuple[str, ...]] = {
    "board": ("board", "bd", "plateau", "pl"),
    "column": ("column", "col", "colonne"),
    "hand": ("hand", "h", "main", "m"),
    "scores": ("scores", "s", "score"),
    "awards": ("awards", "aw", "gains", "ga"),
    "last": ("last", "l", "derniers", "der"),
    "hint": ("hint", "hi", "conseil", "co"),
    "undo": ("undo", "u", "annuler", "an"),
    "help": ("help", "?", "aide", "ai"),
    "quit": ("quit", "q", "quitter", "exit"),
    "next": ("next", "n", "suivant", "su"),
    "back": ("back", "bk", "retour", "re"),
    "round": ("round", "r", "manche", "ma"),
    "say": ("say", "dire", "di"),
    "who": ("who", "w", "qui", "qu"),
    "sit": ("sit", "si", "reprendre", "rp"),
}
"""Each command and the words that name it: English, its short form, French, its short form.
No word is a column's letter (a-g), so a letter alone always means a column."""

ALIASES: dict[str, str] = {word: name for name, words in WORDS.items() for word in words}

GOOD_WORDS: dict[str, str] = {
    **{category: category for category in CATEGORIES},
    "maison": "house",
    "voiture": "car",
    "bateau": "boat",
    "cheval": "horse",
    "bijou": "jewel",
    "montre": "watch",
    "vacances": "holiday",
}
"""A good's category in English or French (the leaflet's words), to the engine's name."""

_TOKEN = re.compile(r"[^\W\d_]+|\d+|\?")


@dataclass(frozen=True, slots=True)
class Command:
    """A command word and what followed it (``column c``: ``"c"``; empty when nothing did)."""

    name: str
    rest: str = ""


@dataclass(frozen=True, slots=True)
class Place:
    placement: Placement


@dataclass(frozen=True, slots=True)
class Wrong:
    """A line that says nothing dvtui understands: ``said`` is what it expected instead."""

    said: str


Read = Command | Place | Wrong


def read(line: str, game: Game | None, player: int | None) -> Read | None:
    """``line`` as typed; None for an empty line. ``game`` and ``player``: the state and the seat
    a placement would be for (None when no placement is asked now)."""
    text = line.strip().lower()
    if not text:
        return None
    first, _space, rest = text.partition(" ")
    if first in ALIASES:
        return Command(ALIASES[first], rest.strip())
    tokens = _TOKEN.findall(text)
    if len(tokens) == 1 and tokens[0] in COLUMN_LABELS.lower():
        return Command("column", tokens[0])
    if game is None or player is None:
        return Wrong(_("Unknown command {word}; type help for the commands.").format(word=printable(first[:30])))
    return _placement(tokens, game, player)


def expected(game: Game, player: int) -> str:
    """What a placement line looks like, with the cards ``player`` holds."""
    cards = ", ".join(str(card) for card in sorted(game.hands[player]))
    return _("Type a card you hold ({cards}) and a column from a to g, such as {example}; or help.").format(
        cards=cards, example=f"{min(game.hands[player])} c"
    )


def _placement(tokens: list[str], game: Game, player: int) -> Read:
    card: int | None = None
    column: int | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in GOOD_WORDS:
            value = tokens[i + 1] if i + 1 < len(tokens) and tokens[i + 1].isdigit() else None
            if value is None:
                return Wrong(_("Name a good with its value, such as boat 500.") + " " + expected(game, player))
            found = column_of_good(game, good_named(token, value))
            if found is None:
                return Wrong(_("No column holds that good now.") + " " + expected(game, player))
            if column is not None and column != found:
                return Wrong(_("That good is not in the column you named.") + " " + expected(game, player))
            column = found
            i += 2
            continue
        if token.isdigit() and card is None and int(token) in NUMBER_CARDS:
            card = int(token)
        elif len(token) == 1 and token in COLUMN_LABELS.lower() and column is None:
            column = COLUMN_LABELS.lower().index(token)
        else:
            return Wrong(expected(game, player))
        i += 1
    if card is None or column is None:
        return Wrong(expected(game, player))
    if card not in game.hands[player]:
        return Wrong(_("You do not hold a {card}.").format(card=card) + " " + expected(game, player))
    return Place(Placement(card, column))


def good_named(word: str, value: str) -> str:
    """The card a good's word and value name: ``("bateau", "500")`` and ``("boat", "500000")``
    both name ``boat-500`` (which may lie in no column: :func:`column_of_good` says)."""
    number = int(value[:9])
    return f"{GOOD_WORDS.get(word, word)}-{number // 1000 if number >= 1000 else number}"


def column_of_good(game: Game, card: str) -> int | None:
    """The column ``card`` lies in now, if any."""
    return next((column for column, cards in enumerate(game.columns) if card in cards), None)


__all__ = ["ALIASES", "WORDS", "Command", "Place", "Read", "Wrong", "column_of_good", "expected", "good_named", "read"]
