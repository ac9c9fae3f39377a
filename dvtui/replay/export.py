"""``dvtui replay FILE --text``: a game as plain text, round by round, to paste in a chat or an issue.

Each round: who starts, the placements turn by turn (a grid with one column per player in the
order they play), any placement taken back, what every column gave (the same sentences as the
live table's log, from :mod:`dvtui.describe`), and the scores. Then the result and everyone's
holdings. Plain ASCII-friendly text, no colour, lines short enough for a chat window.

Every line is made printable (:func:`dvtui.printable.printable`) as it is joined: the file's name
and the notices quote paths, and whatever a line quotes, it never drives the terminal it is
printed to.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..describe import (
    amount,
    card_name,
    column_label,
    column_name,
    describe_result,
    resolution_parts,
)
from ..engine import (
    VALUE_OF,
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    PlacementUndone,
    RoundEnded,
)
from ..printable import printable

INDENT = "  "
WIDTH = 100
"""Longer lines are wrapped (a column's result with three awards and exchanges runs past it)."""


def export_text(
    events: Sequence[Event],
    *,
    label: str = "",
    notices: Sequence[str] = (),
    decisions_only: bool = False,
) -> str:
    """The whole game in ``events`` (a canonical log) as text ending in a newline.

    ``label`` names the game (its file); ``notices`` are what the reader recovered (a torn
    tail), printed first so nobody mistakes a cut file for a whole game.
    """
    created = events[0]
    assert isinstance(created, GameCreated)
    names = [seat.name for seat in created.players]
    out: list[str] = []
    out.extend(_header(created, label))
    for notice in notices:
        out.append(f"Note: {notice}")
    if decisions_only:
        out.append("Note: a game script (decisions only); every column result below is worked out by the rules")
    game = Game(created)
    round_events: list[Event] = []
    for event in events[1:]:
        before_round = game.round
        game.apply(event)
        round_events.append(event)
        if isinstance(event, RoundEnded):
            out.append("")
            out.extend(_round(created, before_round, round_events, game, names))
            round_events = []
    if round_events and not isinstance(round_events[-1], GameEnded):
        out.append("")
        out.extend(_round(created, game.round, round_events, game, names))
    out.append("")
    out.extend(_ending(game, names))
    return "\n".join(map(printable, out)) + "\n"


def _header(created: GameCreated, label: str) -> list[str]:
    seats = []
    for seat in created.players:
        kind = f"bot {seat.bot}" if seat.kind == "bot" else "human"
        seats.append(f"{seat.name} ({seat.color}, {kind})")
    title = "Dolce Vita" + (f" · {label}" if label else "")
    lines = [title, *_wrap(f"Players, clockwise: {', '.join(seats)}", "  ", ", ")]
    facts = [f"{created.rounds} rounds", f"{created.players[created.first_player].name} starts"]
    if created.seed is not None:
        facts.append(f"deal seed {created.seed}")
    lines.append(" · ".join(facts))
    if created.parent is not None:
        at = f" after its event {created.parent_seq}" if created.parent_seq is not None else ""
        lines.append(f"Branched from {created.parent}{at}")
    return lines


def _round(created: GameCreated, round_: int, events: list[Event], after: Game, names: list[str]) -> list[str]:
    """One round: placements (standing ones in a grid, taken-back ones below), columns, scores."""
    n = len(names)
    standing: list[CardPlaced] = []
    taken_back: list[str] = []
    for event in events:
        if isinstance(event, CardPlaced):
            standing.append(event)
        elif isinstance(event, PlacementUndone):
            standing.pop()
            taken_back.append(
                f"{names[event.player]} placed {event.card} under {column_name(event.column)}, then took it back"
            )
    first = standing[0].player if standing else (created.first_player + round_ - 1) % n
    lines = [f"ROUND {round_} of {created.rounds} · {names[first]} starts"]
    if standing:
        lines.extend(_placement_grid(standing, names, first))
    for text in taken_back:
        lines.append(f"{INDENT}({text})")
    resolved = [e for e in events if isinstance(e, ColumnResolved)]
    if resolved:
        lines.append(f"{INDENT}Columns:")
        for event in resolved:
            lines.extend(_wrap(f"{INDENT}{INDENT}{_column_line(event, names)}", " " * 7))
    ended = next((e for e in events if isinstance(e, RoundEnded)), None)
    if ended is not None:
        scores = after.round_scores[ended.round - 1]
        lines.append(f"{INDENT}Scores: " + " · ".join(f"{names[p]}: {amount(s)}" for p, s in enumerate(scores)))
    return lines


def _wrap(line: str, indent: str, sep: str = "; ") -> list[str]:
    """A long line cut after a ``sep`` (between two awards, two players), so that no phrase is
    split and the text stays readable in a narrow chat window; a phrase too long alone is cut
    between words."""
    if len(line) <= WIDTH:
        return [line]
    pieces = line.split(sep)
    lines: list[str] = []
    current = pieces[0]
    for piece in pieces[1:]:
        if len(current) + len(sep) + len(piece) <= WIDTH:
            current += sep + piece
        else:
            lines.append(current + sep.rstrip())
            current = indent + piece
    lines.append(current)
    out: list[str] = []
    for text in lines:
        out.extend(textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False) if len(text) > WIDTH else [text])
    return out


def _placement_grid(standing: list[CardPlaced], names: list[str], first: int) -> list[str]:
    """``turn  Ben    Cy     Ana`` then one row per turn: ``1  5 → C  2 → A  6 → G``."""
    n = len(names)
    order = [(first + i) % n for i in range(n)]
    width = max(5, *(len(names[p]) for p in order))
    head = f"{INDENT}{INDENT}turn  " + "  ".join(names[p].ljust(width) for p in order)
    lines = [f"{INDENT}Placements (card → column), in playing order:", head.rstrip()]
    for turn in range(0, len(standing), n):
        cells = [f"{e.card} → {column_label(e.column)}".ljust(width) for e in standing[turn : turn + n]]
        lines.append(f"{INDENT}{INDENT}{turn // n + 1:>4}  " + "  ".join(cells).rstrip())
    return lines


def _column_line(event: ColumnResolved, names: list[str]) -> str:
    totals = [f"{names[p]}: {t}" for p, t in enumerate(event.totals) if t]  # "Bot 1: 3", never "Bot 1 3"
    placed = f"({', '.join(totals)}) " if totals else ""
    return f"{column_label(event.column)}  {placed}" + "; ".join(resolution_parts(event, names))


def _ending(game: Game, names: list[str]) -> list[str]:
    if not game.over:
        who = names[game.to_move]
        return [
            f"The game stops here: round {game.round} of {game.rounds}, {who} to play "
            f"({len(game.placements)} of {game.round_length} placements made this round).",
            "Scores so far: " + " · ".join(f"{names[p]}: {amount(s)}" for p, s in enumerate(game.scores())),
        ]
    outcome = game.outcome()
    assert outcome is not None  # the game is over
    scores = outcome.scores
    lines = [f"RESULT  {describe_result(outcome, names)}"]
    order = sorted(range(game.n), key=lambda p: (-scores[p], p))
    width = max(len(name) for name in names)
    rank, last = 0, None
    for i, p in enumerate(order, 1):
        if scores[p] != last:
            rank, last = i, scores[p]
        head = f"{INDENT}{rank}. {names[p].ljust(width)}  {amount(scores[p]):>9}  "
        lines.extend(_wrap(head + _holdings(game, p), " " * len(head)))
    return lines


def _holdings(game: Game, p: int) -> str:
    goods = [card_name(g) for g in game.goods[p] if g is not None]
    money = sorted(game.money[p], key=lambda c: -VALUE_OF[c])
    parts = [", ".join(goods) if goods else "no goods"]
    if money:
        total = sum(VALUE_OF[c] for c in money)
        parts.append(f"money {amount(total)} in {len(money)} card{'s' if len(money) > 1 else ''}")
    return "; ".join(parts)


__all__ = ["export_text"]
