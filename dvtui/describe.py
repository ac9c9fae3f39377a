"""Cards, amounts and events in words: the table's log, the resolution banner, the replay viewer
and the text export all speak through this module.

It imports the engine and nothing else (no Textual, no Rich), so ``dvtui replay --text`` can print
the very sentences the live table shows, without paying for a UI import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    "house": "HSE",
    "car": "CAR",
    "boat": "BOA",
    "horse": "HRS",
    "jewel": "JWL",
    "watch": "WCH",
    "holiday": "HOL",
}
"""Three letters per category: what a card shows when there is no room for its name, so that the
category never depends on colour alone."""
MONEY_CODE = "$$$"


def column_label(column: int) -> str:
    """``0`` -> ``"A"``: the one place that names columns for people."""
    return COLUMN_LABELS[column]


def column_name(column: int) -> str:
    return f"column {column_label(column)}"


def card_value_label(card: str) -> str:
    """A card's value as printed on it, in thousands: ``"700"``."""
    return str(VALUE_OF[card] // 1000)


def card_category(card: str) -> str:
    """``"car"`` for ``car-700``, ``"money"`` for money cards."""
    index = CATEGORY_OF.get(card)
    return "money" if index is None else CATEGORIES[index]


def card_name(card: str) -> str:
    """``car-700`` -> ``"car 700"``; ``money-200`` -> ``"money 200"`` (as in the log)."""
    return f"{card_category(card)} {card_value_label(card)}"


def card_code(card: str) -> str:
    """``car-700`` -> ``"CAR"``; money -> ``"$$$"``: the short, colour-free category mark."""
    return CATEGORY_CODES.get(card_category(card), MONEY_CODE)


def amount(value: int) -> str:
    """A score in full: ``3400000`` -> ``"3,400,000"``."""
    return f"{value:,}"


def short_amount(value: int) -> str:
    """A score in a few characters: ``3400000`` -> ``"3.4M"``, ``700000`` -> ``"700k"``."""
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
    return ", ".join(names[:-1]) + " and " + names[-1]


def award_phrase(name: str, card: str, returned: str | None) -> str:
    """``"Ben takes car 700, returns car 400"`` (R6.1's exchange spelled out)."""
    text = f"{name} takes {card_name(card)}"
    if returned is not None:
        text += f", returns {card_name(returned)}"
    return text


def resolution_parts(event: ColumnResolved, names: Sequence[str]) -> list[str]:
    """The sentences of one column's resolution, in the order they happen: ties first (R5.2),
    then each award (R5.3) with its exchange (R6.1), then whoever found the column empty (R5.4)."""
    parts: list[str] = []
    if event.rotated:
        return ["no card placed, the bottom card moves to the top"]
    if not any(event.totals):
        return ["empty, no card placed"]
    if event.cancelled:
        who = join_names([names[p] for p in event.cancelled])
        totals = sorted({event.totals[p] for p in event.cancelled}, reverse=True)
        at = join_names([str(t) for t in totals])
        if len(event.cancelled) == 2:
            parts.append(f"{who} tie at {at}: both cancelled")
        else:
            parts.append(f"{who} tie at {at}: all cancelled")
    for award in event.awards:
        parts.append(award_phrase(names[award.player], award.card, award.returned))
    awarded = {a.player for a in event.awards}
    left = [
        p
        for p, total in sorted(enumerate(event.totals), key=lambda pt: -pt[1])
        if total and p not in awarded and p not in event.cancelled
    ]
    if left:
        parts.append(f"{join_names([names[p] for p in left])} {'get' if len(left) > 1 else 'gets'} nothing: "
                     "the column ran out")
    return parts


def describe_event(event: Event, names: Sequence[str], rounds: int | None = None) -> str:
    """One event as one sentence, e.g. ``"Ana placed 5 under column C"``; ``rounds``, the game's
    number of rounds, lets the last round's end not announce a next round."""
    if isinstance(event, CardPlaced):
        placed = f"{names[event.player]} placed {event.card} under {column_name(event.column)}"
        return placed if event.stand_in is None else f"{placed} (a {event.stand_in} bot standing in)"
    if isinstance(event, PlacementUndone):
        return f"{names[event.player]} took back {event.card} from {column_name(event.column)}"
    if isinstance(event, ColumnResolved):
        return f"Column {column_label(event.column)}: " + "; ".join(resolution_parts(event, names))
    if isinstance(event, RoundEnded):
        if rounds is not None and event.round >= rounds:
            return f"Round {event.round}, the last, is over"
        return f"Round {event.round} is over; {names[event.next_first_player]} starts the next round"
    if isinstance(event, GameEnded):
        return describe_result(event, names)
    if isinstance(event, GameCreated):
        seats = join_names([s.name for s in event.players])
        if event.parent:  # a branch ("play from here"): say of what
            return f"Branch of {PurePath(event.parent).name} after its line {event.parent_seq}: {seats}"
        return (
            f"New game: {seats}; {event.players[event.first_player].name} starts; "
            f"{event.rounds} rounds"
        )
    return type(event).__name__


def describe_result(event: GameEnded | Outcome, names: Sequence[str]) -> str:
    """``"Ana wins with 3,400,000"`` or ``"Ana and Ben share the victory with 3,400,000 each"``:
    a ``game_ended`` event, or the outcome of a finished game (:meth:`dvtui.engine.Game.outcome`)."""
    best = event.scores[event.winners[0]] if event.winners else 0
    if len(event.winners) == 1:
        return f"Game over: {names[event.winners[0]]} wins with {amount(best)}"
    return (
        f"Game over: {join_names([names[p] for p in event.winners])} share the victory "
        f"with {amount(best)} each"
    )


def placement_outcome(event: ColumnResolved, player: int, names: Sequence[str]) -> str:
    """What one column gives ``player``, in the second person, for the placement preview."""
    for award in event.awards:
        if award.player == player:
            text = f"you would take {card_name(award.card)}"
            if award.returned is not None:
                text += f" and give back {card_name(award.returned)}"
            return text
    if player in event.cancelled:
        rivals = [names[p] for p in event.cancelled if p != player and event.totals[p] == event.totals[player]]
        return f"you would tie with {join_names(rivals)} at {event.totals[player]}: cancelled"
    return "you would get nothing here (the column runs out)"


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
    text = f"{name} {signed_amount(change)} → {short_amount(total)}: "
    text += ", ".join(card_short(c) for c in taken) if taken else "nothing"
    if returned:
        text += "; returned " + ", ".join(card_short(c) for c in returned)
    return text


def hint_line(placement: Placement, gain: int, win: float) -> str:
    """The strong bot's advice, short enough for the 43 cells beside the hand at 80 columns: the
    move as that line writes a chosen one (``6 → F``), the rise of the player's score the bot
    expects by the end of this round, and the player's chance to win with it."""
    expected = short_amount(max(0, gain))
    card, column = placement
    return f"{card} → {column_label(column)}: expect +{expected} this round, {round(win * 100)}% to win"


def handover_line(names: Sequence[str], player: int, last: CardPlaced | None, round_: int,
                  undoable: int | None) -> str:
    """What the table says when one person hands the keyboard to the next: ``"Bea, your turn —
    Ana placed 3 under C (Ana can still take it back: u)"``. ``last``: the latest placement of
    this round by another person; ``undoable``: who ``u`` would serve now."""
    text = f"{names[player]}, your turn — "
    if last is None:
        return text + (f"round {round_} begins" if round_ > 1 else "the game begins")
    text += f"{names[last.player]} placed {last.card} under {column_label(last.column)}"
    if undoable is not None and undoable != player:
        text += f" ({names[undoable]} can still take it back: u)"
    return text
