"""What a sighted player sees at a glance, as lines of words: the board column by column, one
column, a hand, the scores, the awards the round would give now, the round's totals and the
standings. Each line is complete on its own (a screen reader or a braille display reads it alone).

The sentences of the events are :mod:`dvtui.describe`'s (the log's own); what a column would award
is the engine's projection (:meth:`dvtui.engine.Game.projected`), never worked out here. Names are
outside text: every one goes through :func:`~dvtui.printable.printable`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots import Suggestion
from ..describe import (
    amount,
    card_name,
    column_label,
    describe_event,
    join_names,
    percent,
    resolution_parts,
)
from ..engine import COLUMNS, Event, Game, GameEnded, Outcome, RoundEnded
from ..i18n import _, ngettext
from ..printable import printable


def safe_names(names: Sequence[str]) -> list[str]:
    """The seats' names as they may be printed (a name is outside text)."""
    return [printable(name) for name in names]


def cards_held(hand: Sequence[int]) -> str:
    """``[1, 2, 5]`` -> ``"1, 2 and 5"``."""
    return join_names([str(card) for card in sorted(hand)])


def turn_prompt(game: Game, names: Sequence[str], player: int) -> str:
    """The one short line that asks ``player`` for a placement: whose turn, the round, what they
    hold and what they may type."""
    example = f"{min(game.hands[player])} {column_label(0).lower()}"
    said = _("{name}, your turn, round {round} of {rounds}: you hold {cards}. Type a card and a column, "
             "such as {example}, or help.")  # fmt: skip
    return said.format(name=names[player], round=game.round, rounds=game.rounds,
                       cards=cards_held(game.hands[player]), example=example)  # fmt: skip


def column_line(game: Game, names: Sequence[str], column: int) -> str:
    """One column read top to bottom (the bottom card is the one a winner takes first), then whose
    number cards lie under it this round."""
    cards = game.columns[column]
    label = column_label(column)
    if cards:
        listed = _(", ").join(card_name(card) for card in reversed(cards))
        goods = _("Column {column}, top to bottom: {cards}.").format(column=label, cards=listed)
    else:
        goods = _("Column {column} is empty.").format(column=label)
    return f"{goods} {under_column(game, names, column)}"


def under_column(game: Game, names: Sequence[str], column: int) -> str:
    """Whose number cards lie under ``column`` this round, each player's cards and total."""
    placed: list[list[int]] = [[] for _ in range(game.n)]
    for event in game.placements:
        if event.column == column:
            placed[event.player].append(event.card)
    parts = []
    for player, cards in enumerate(placed):
        if not cards:
            continue
        if len(cards) == 1:
            parts.append(_("{name} {card}").format(name=names[player], card=cards[0]))
        else:
            shown = " + ".join(str(card) for card in cards)
            parts.append(_("{name} {cards} = {total}").format(name=names[player], cards=shown, total=sum(cards)))
    if not parts:
        return _("No card under it.")
    return _("Under it: {placed}.").format(placed=_("; ").join(parts))


def board_lines(game: Game, names: Sequence[str]) -> list[str]:
    """Every column, left to right, one line each."""
    return [column_line(game, names, column) for column in range(COLUMNS)]


def holdings_line(game: Game, names: Sequence[str], player: int) -> str:
    """One player's score, goods and money."""
    goods = [card for card in game.goods[player] if card is not None]
    money = game.money[player]
    owned = _(", ").join(card_name(card) for card in goods) if goods else _("no goods")
    if money:
        cash = _(", ").join(card_name(card) for card in sorted(money))
        return _("{name}: {score} in all; goods: {goods}; money: {money}.").format(
            name=names[player], score=amount(game.score(player)), goods=owned, money=cash
        )
    return _("{name}: {score} in all; goods: {goods}; no money.").format(
        name=names[player], score=amount(game.score(player)), goods=owned
    )


def scores_lines(game: Game, names: Sequence[str]) -> list[str]:
    return [holdings_line(game, names, player) for player in range(game.n)]


def awards_lines(game: Game, names: Sequence[str]) -> list[str]:
    """What each column would give if the round ended now (the engine's projection)."""
    if game.over:
        return [_("The game is over: no column gives anything more.")]
    resolved, _after = game.projected()
    lines = [_("If the round ended now:")]
    for event in resolved:
        parts = _("; ").join(resolution_parts(event, names))
        lines.append(_("Column {column}: {results}").format(column=column_label(event.column), results=parts))
    return lines


def round_totals(game: Game, names: Sequence[str], round_: int) -> list[str]:
    """After round ``round_``: each player's gain in it and their score since."""
    scores = game.round_scores[round_ - 1]
    before = game.round_scores[round_ - 2] if round_ > 1 else [0] * game.n
    lines = []
    for player, score in enumerate(scores):
        change = score - before[player]
        lines.append(_("{name}: {change} this round, {total} in all.").format(
            name=names[player], change=amount(change), total=amount(score)))  # fmt: skip
    return lines


def standings_lines(outcome: Outcome, names: Sequence[str]) -> list[str]:
    """The final standings, best first (players who tie share a place)."""
    order = sorted(range(len(names)), key=lambda p: -outcome.scores[p])
    lines = []
    for player in order:
        place = 1 + sum(1 for p in order if outcome.scores[p] > outcome.scores[player])
        lines.append(_("Place {place}: {name}, {score}.").format(
            place=place, name=names[player], score=amount(outcome.scores[player])))  # fmt: skip
    return lines


def event_lines(event: Event, game: Game, names: Sequence[str]) -> list[str]:
    """One event as the log says it, and what follows from it at once: a round's end adds each
    player's totals, the game's end its standings. ``game``: a state at or after the event."""
    lines = [describe_event(event, names, game.rounds)]
    if isinstance(event, RoundEnded) and len(game.round_scores) >= event.round:
        lines.extend(round_totals(game, names, event.round))
    if isinstance(event, GameEnded):
        lines.extend(standings_lines(Outcome.of(event.scores), names))
    return lines


def hint_words(suggestion: Suggestion) -> str:
    """The strong bot's advice in a sentence: the placement, the rise of the player's score it
    expects by the end of this round, and the player's chance to win with it."""
    card, column = suggestion.placement
    said = _("Hint: {card} under column {column}; the strong bot expects about {gain} more this round and gives "
             "you {chance} to win.")  # fmt: skip
    gain = round(max(0, suggestion.gain), -4)  # an expectation: to the nearest ten thousand
    return said.format(card=card, column=column_label(column), gain=amount(gain), chance=percent(suggestion.win, 0))


def placed_count(game: Game) -> str:
    """How far the round is: ``"4 of 15 cards placed"``."""
    said = ngettext("{count} of {total} card placed this round", "{count} of {total} cards placed this round",
                    len(game.placements))  # fmt: skip
    return said.format(count=len(game.placements), total=game.round_length)


__all__ = [
    "awards_lines",
    "board_lines",
    "cards_held",
    "column_line",
    "event_lines",
    "hint_words",
    "holdings_line",
    "placed_count",
    "round_totals",
    "safe_names",
    "scores_lines",
    "standings_lines",
    "turn_prompt",
]
