"""Cards, amounts and events in words: the table's log, the resolution banner, the replay viewer
and the text export all speak through this module.

It imports the engine and nothing else (no Textual, no Rich), so ``dvtui replay --text`` can print
the very sentences the live table shows, without paying for a UI import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import PurePath

from .engine import (
    CATEGORIES,
    CATEGORY_OF,
    VALUE_OF,
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    Outcome,
    Phase,
    Placement,
    PlacementUndone,
    RoundEnded,
)
from .i18n import ENGLISH, N_, PSEUDO, _, language, ngettext, pgettext


def after_last_round(game: Game) -> bool:
    """The last round has ended. The engine has then already passed the first seat on and dealt
    the number cards back (R7) for a round that never comes: the screen shows the round that was
    played (its first player, hands played out) instead."""
    return game.phase in (Phase.GAME_ENDING, Phase.OVER)


def round_first_player(game: Game) -> int:
    """Who started the round the table shows (the last one, once it has ended)."""
    return (game.first_player - 1) % game.n if after_last_round(game) else game.first_player


COLUMN_LABELS = "ABCDEFG"
"""Columns are lettered on screen so the letter is also the key that chooses them (a-g), and a
column never looks like a number card (1-6)."""

CATEGORY_CODES: dict[str, str] = {
    "house": N_("HSE"),
    "car": N_("CAR"),
    "boat": N_("BOA"),
    "horse": N_("HRS"),
    "jewel": N_("JWL"),
    "watch": N_("WCH"),
    "holiday": N_("HOL"),
}
"""Three letters per category: what a card shows when there is no room for its name, so that the
category never depends on colour alone. In English; :func:`category_code` says them in the
language spoken now."""
MONEY_CODE = N_("$$$")

COLOR_NAMES: dict[str, str] = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
}
"""The seats' colours (:data:`dvtui.engine.COLORS`, the names files keep) in English."""


def color_name(color: str) -> str:
    """``"red"`` -> ``"red"`` (``"rouge"`` in French): a seat's colour as people read it."""
    return _(COLOR_NAMES[color]) if color in COLOR_NAMES else color


CARD_NAMES: dict[str, str] = {
    "house": N_("house {value}"),
    "car": N_("car {value}"),
    "boat": N_("boat {value}"),
    "horse": N_("horse {value}"),
    "jewel": N_("jewel {value}"),
    "watch": N_("watch {value}"),
    "holiday": N_("holiday {value}"),
    "money": N_("money {value}"),
}
"""A card as a sentence names it, one message per category: a language with articles and genders
says ``la voiture 700``, ``le bateau 400`` (the catalogue's, never assembled here)."""

AMOUNT_SPACE = "\u202f"
"""What separates the thousands of an amount in a language that writes them apart (``3 400 000``):
the narrow no-break space, as French typography writes it. It is real text: copied into a
spreadsheet or read aloud it is a space. The app's screens never cut a line there (their wrapping
counts the no-break spaces as part of a word: ``dvtui.app.textual_private.keep_no_break_spaces``),
nor does ``replay --text`` (Python's ``textwrap`` breaks at ASCII whitespace only)."""


def bot_level_names() -> dict[str, str]:
    """The bot levels (:data:`dvtui.engine.BOT_LEVELS`, the ids files and the command line keep) as
    a screen names them: the same words in English, the language's own elsewhere (``glouton``).
    A context of their own: ``random`` the level is not ``random`` the seed."""
    return {
        "random": pgettext("bot level", "random"),
        "greedy": pgettext("bot level", "greedy"),
        "strong": pgettext("bot level", "strong"),
        "novice": pgettext("bot level", "novice"),
        "casual": pgettext("bot level", "casual"),
        "club": pgettext("bot level", "club"),
        "expert": pgettext("bot level", "expert"),
        "master": pgettext("bot level", "master"),
    }


def bot_level_name(spec: str) -> str:
    """``"greedy"`` -> ``"greedy"`` (``"glouton"`` in French); a budget stays as written
    (``"strong@0.5s"`` -> ``"fort@0.5s"``); a level this version lacks is shown as it is."""
    level, at, budget = spec.partition("@")
    return bot_level_names().get(level, level) + at + budget


def default_bot_name(number: int) -> str:
    """The name a bot gets when nobody names it, counted from 1: ``"Bot 1"`` (``"Robot 1"`` in
    French), in the language of the person who sets the game up; the file keeps it as given."""
    return _("Bot {number}").format(number=number)


def column_label(column: int) -> str:
    """``0`` -> ``"A"``: the one place that names columns for people."""
    return COLUMN_LABELS[column]


def column_name(column: int) -> str:
    """``0`` -> ``"column A"``."""
    return _("column {column}").format(column=column_label(column))


def card_value_label(card: str) -> str:
    """A card's value as printed on it, in thousands: ``"700"``."""
    return str(VALUE_OF[card] // 1000)


def card_category(card: str) -> str:
    """``"car"`` for ``car-700``, ``"money"`` for money cards."""
    index = CATEGORY_OF.get(card)
    return "money" if index is None else CATEGORIES[index]


def card_name(card: str) -> str:
    """``car-700`` -> ``"car 700"``; ``money-200`` -> ``"money 200"`` (as in the log; in French
    ``"la voiture 700"``, ``"la carte argent 200"``)."""
    return _(CARD_NAMES[card_category(card)]).format(value=card_value_label(card))


def category_code(category: str) -> str:
    """``"car"`` -> ``"CAR"`` (``"VOI"`` in French), ``"money"`` -> ``"$$$"`` (``"ARG"``): a
    category's three letters in the language spoken now."""
    return _(CATEGORY_CODES.get(category, MONEY_CODE))


def card_code(card: str) -> str:
    """``car-700`` -> ``"CAR"``; money -> ``"$$$"``: the short, colour-free category mark."""
    return category_code(card_category(card))


def _number_locale() -> str | None:
    """The Babel locale whose way of writing numbers the language spoken now uses; None for
    English, whose amounts dvtui writes itself (``3,400,000``, ``3.4M``: the replays' texts and the
    tests pin them). The pseudo-locale writes them as French does, the longer way."""
    code = language()
    if code == ENGLISH:
        return None
    return "fr" if code == PSEUDO else code


def _apart(text: str) -> str:
    """Babel's spaces inside a number (U+202F, U+00A0) as :data:`AMOUNT_SPACE`, one kind of space
    for every amount."""
    return text.replace("\u202f", AMOUNT_SPACE).replace("\xa0", AMOUNT_SPACE)


def amount(value: int) -> str:
    """A score in full: ``3400000`` -> ``"3,400,000"`` (``"3 400 000"`` in French)."""
    where = _number_locale()
    if where is None:
        return f"{value:,}"
    from babel.numbers import format_decimal  # (only a language other than English pays for Babel)

    return _apart(format_decimal(value, locale=where))


def decimal(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals as the language writes it: ``2.35`` (``2,35``)."""
    where = _number_locale()
    if where is None:
        return f"{value:,.{digits}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return _apart(format_decimal(value, format=pattern, locale=where))


def percent(value: float, digits: int = 1) -> str:
    """A share with ``digits`` decimals: ``0.333`` -> ``"33.3%"`` (``"33,3 %"``)."""
    where = _number_locale()
    if where is None:
        return f"{value:.{digits}%}"
    from babel import Locale
    from babel.numbers import format_percent

    decimals = "0." + "0" * digits if digits else "0"
    pattern = Locale.parse(where).percent_formats[None].pattern.replace("0", decimals, 1)  # the locale's
    return _apart(format_percent(value, format=pattern, locale=where))


DATE_PATTERNS = {"fr": "d MMM y, HH 'h' mm"}
"""How a language writes a date and time to the minute in running text, in Unicode's (CLDR)
pattern letters; a language not named here gets its locale's medium date and short time."""


def moment(when: datetime) -> str:
    """A date and time to the minute as the language writes them: ``2026-12-06 21:50`` in English
    (as it always was), ``6 déc. 2026, 21 h 50`` in French."""
    where = _number_locale()
    if where is None:
        return when.strftime("%Y-%m-%d %H:%M")
    from babel.dates import format_date, format_datetime, format_time

    if where in DATE_PATTERNS:
        return _apart(format_datetime(when, DATE_PATTERNS[where], locale=where))
    return _apart(f"{format_date(when, 'medium', locale=where)} {format_time(when, 'short', locale=where)}")


def short_amount(value: int) -> str:
    """A score in a few characters: ``3400000`` -> ``"3.4M"``, ``700000`` -> ``"700k"`` (in
    French ``"3,4 M"``, ``"700 k"``)."""
    where = _number_locale()
    if where is not None:
        from babel.numbers import format_compact_decimal

        return _apart(format_compact_decimal(value, format_type="short", locale=where, fraction_digits=2))
    if value >= 1_000_000:
        text = f"{value / 1_000_000:.2f}".rstrip("0").rstrip(".")
        return f"{text}M"
    if value >= 1000:
        return f"{value // 1000}k"
    return str(value)


def seat_tags(names: Sequence[str]) -> list[str]:
    """A short, unique tag per seat (at most 3 characters) for cramped places:
    ``["Ana", "Bot 1", "Bot 2"]`` -> ``["Ana", "B1", "B2"]``."""
    tags: list[str] = []
    for name in names:
        words = name.split()
        tag = (words[0][:1] + words[-1])[:3] if len(words) > 1 and words[-1].isdigit() else name.strip()[:3]
        tags.append(tag)
    clashing = {tag for tag in tags if tags.count(tag) > 1 or not tag}
    return [f"{(names[i].strip() or 'P')[:1]}{i + 1}" if tag in clashing else tag for i, tag in enumerate(tags)]


def join_names(names: Sequence[str]) -> str:
    """``["Ana", "Ben", "Cy"]`` -> ``"Ana, Ben and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def award_phrase(name: str, card: str, returned: str | None) -> str:
    """``"Ben takes car 700, returns car 400"`` (R6.1's exchange spelled out)."""
    if returned is None:
        return _("{name} takes {card}").format(name=name, card=card_name(card))
    return _("{name} takes {card}, returns {returned}").format(name=name, card=card_name(card),
                                                                returned=card_name(returned))  # fmt: skip


def resolution_parts(event: ColumnResolved, names: Sequence[str]) -> list[str]:
    """The sentences of one column's resolution, in the order they happen: ties first (R5.2),
    then each award (R5.3) with its exchange (R6.1), then whoever found the column empty (R5.4)."""
    parts: list[str] = []
    if event.rotated:
        return [_("no card placed, the bottom card moves to the top")]
    if not any(event.totals):
        return [_("empty, no card placed")]
    if event.cancelled:
        who = join_names([names[p] for p in event.cancelled])
        totals = sorted({event.totals[p] for p in event.cancelled}, reverse=True)
        at = join_names([str(t) for t in totals])
        if len(event.cancelled) == 2:
            parts.append(_("{names} tie at {totals}: both cancelled").format(names=who, totals=at))
        else:
            parts.append(_("{names} tie at {totals}: all cancelled").format(names=who, totals=at))
    for award in event.awards:
        parts.append(award_phrase(names[award.player], award.card, award.returned))
    awarded = {a.player for a in event.awards}
    left = [
        p
        for p, total in sorted(enumerate(event.totals), key=lambda pt: -pt[1])
        if total and p not in awarded and p not in event.cancelled
    ]
    if left:
        said = ngettext(
            "{names} gets nothing: the column ran out", "{names} get nothing: the column ran out", len(left)
        )
        parts.append(said.format(names=join_names([names[p] for p in left])))
    return parts


def describe_event(event: Event, names: Sequence[str], rounds: int | None = None) -> str:
    """One event as one sentence, e.g. ``"Ana placed 5 under column C"``; ``rounds``, the game's
    number of rounds, lets the last round's end not announce a next round."""
    if isinstance(event, CardPlaced):
        who, column = names[event.player], column_label(event.column)
        if event.stand_in is None:
            return _("{name} placed {card} under column {column}").format(name=who, card=event.card, column=column)
        return _("{name} placed {card} under column {column} (a {level} bot standing in)").format(
            name=who, card=event.card, column=column, level=bot_level_name(event.stand_in)
        )
    if isinstance(event, PlacementUndone):
        return _("{name} took back {card} from column {column}").format(
            name=names[event.player], card=event.card, column=column_label(event.column)
        )
    if isinstance(event, ColumnResolved):
        parts = _("; ").join(resolution_parts(event, names))
        return _("Column {column}: {results}").format(column=column_label(event.column), results=parts)
    if isinstance(event, RoundEnded):
        if rounds is not None and event.round >= rounds:
            return _("Round {round}, the last, is over").format(round=event.round)
        return _("Round {round} is over; {name} starts the next round").format(
            round=event.round, name=names[event.next_first_player]
        )
    if isinstance(event, GameEnded):
        return describe_result(event, names)
    if isinstance(event, GameCreated):
        seats = join_names([s.name for s in event.players])
        if event.parent:  # a branch ("play from here"): say of what
            return _("Branch of {file} after its line {line}: {players}").format(
                file=PurePath(event.parent).name, line=event.parent_seq, players=seats
            )
        said = ngettext(
            "New game: {players}; {first} starts; {count} round",
            "New game: {players}; {first} starts; {count} rounds",
            event.rounds,
        )
        return said.format(players=seats, first=event.players[event.first_player].name, count=event.rounds)
    return type(event).__name__


def describe_result(event: GameEnded | Outcome, names: Sequence[str]) -> str:
    """``"Ana wins with 3,400,000"`` or ``"Ana and Ben share the victory with 3,400,000 each"``:
    a ``game_ended`` event, or the outcome of a finished game (:meth:`dvtui.engine.Game.outcome`)."""
    best = event.scores[event.winners[0]] if event.winners else 0
    if len(event.winners) == 1:
        return _("Game over: {name} wins with {amount}").format(name=names[event.winners[0]], amount=amount(best))
    return _("Game over: {names} share the victory with {amount} each").format(
        names=join_names([names[p] for p in event.winners]), amount=amount(best)
    )


def placement_outcome(event: ColumnResolved, player: int, names: Sequence[str]) -> str:
    """What one column gives ``player``, in the second person, for the placement preview."""
    for award in event.awards:
        if award.player == player:
            if award.returned is None:
                return _("you would take {card}").format(card=card_name(award.card))
            return _("you would take {card} and give back {returned}").format(
                card=card_name(award.card), returned=card_name(award.returned)
            )
    if player in event.cancelled:
        rivals = [names[p] for p in event.cancelled if p != player and event.totals[p] == event.totals[player]]
        return _("you would tie with {names} at {total}: cancelled").format(
            names=join_names(rivals), total=event.totals[player]
        )
    return _("you would get nothing here (the column runs out)")


def card_short(card: str) -> str:
    """``jewel-300`` -> ``"JWL 300"``: a card as the board shows it."""
    return f"{card_code(card)} {card_value_label(card)}"


def signed_amount(value: int) -> str:
    """A change of score: ``"+600k"``, ``"−300k"`` (a forced exchange can cost), ``"+0"``."""
    return f"{'−' if value < 0 else '+'}{short_amount(abs(value))}"


def round_gains(results: Iterable[ColumnResolved], players: int) -> list[tuple[list[str], list[str]]]:
    """Per player, the cards taken this round and the goods given back by exchanges (R6.1), in
    the order the columns gave them."""
    gains: list[tuple[list[str], list[str]]] = [([], []) for _ in range(players)]
    for event in results:
        for award in event.awards:
            taken, returned = gains[award.player]
            taken.append(award.card)
            if award.returned is not None:
                returned.append(award.returned)
    return gains


def gains_line(name: str, change: int, total: int, taken: Sequence[str], returned: Sequence[str]) -> str:
    """One player's round, the change of score and the new score first (the line may wrap):
    ``"Ana +600k → 1.2M: JWL 300, HSE 300; returned JWL 200"``."""
    cards = _(", ").join(card_short(c) for c in taken) if taken else _("nothing")
    if not returned:
        return _("{name} {change} → {total}: {cards}").format(
            name=name, change=signed_amount(change), total=short_amount(total), cards=cards
        )
    return _("{name} {change} → {total}: {cards}; returned {returned}").format(
        name=name,
        change=signed_amount(change),
        total=short_amount(total),
        cards=cards,
        returned=_(", ").join(card_short(c) for c in returned),
    )


def hint_line(placement: Placement, gain: int, win: float) -> str:
    """The strong bot's advice, short enough for the 43 cells beside the hand at 80 columns: the
    move as that line writes a chosen one (``6 → F``), the rise of the player's score the bot
    expects by the end of this round, and the player's chance to win with it."""
    expected = short_amount(max(0, gain))
    card, column = placement
    return _("{card} → {column}: expect +{gain} this round, {chance}% to win").format(
        card=card, column=column_label(column), gain=expected, chance=round(win * 100)
    )


def handover_line(names: Sequence[str], player: int, last: CardPlaced | None, round_: int, undoable: int | None) -> str:
    """What the table says when one person hands the keyboard to the next: ``"Bea, your turn —
    Ana placed 3 under C (Ana can still take it back: u)"``. ``last``: the latest placement of
    this round by another person; ``undoable``: who ``u`` would serve now."""
    if last is None:
        if round_ > 1:
            return _("{name}, your turn — round {round} begins").format(name=names[player], round=round_)
        return _("{name}, your turn — the game begins").format(name=names[player])
    if undoable is not None and undoable != player:
        return _(
            "{name}, your turn — {other} placed {card} under {column} ({undoer} can still take it back: u)"
        ).format(
            name=names[player],
            other=names[last.player],
            card=last.card,
            column=column_label(last.column),
            undoer=names[undoable],
        )
    return _("{name}, your turn — {other} placed {card} under {column}").format(
        name=names[player], other=names[last.player], card=last.card, column=column_label(last.column)
    )
