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
    bot_level_name,
    card_name,
    color_name,
    column_label,
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
from ..i18n import _, ngettext
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
        out.append(_("Note: {notice}").format(notice=notice))
    if decisions_only:
        out.append(_("Note: a game script (decisions only); every column result below is worked out by the rules"))
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
        if seat.kind == "bot":
            said = _("{name} ({color}, bot {level})").format(name=seat.name, color=color_name(seat.color),
                                                            level=bot_level_name(seat.bot or ""))  # fmt: skip
        else:
            said = _("{name} ({color}, human)").format(name=seat.name, color=color_name(seat.color))
        seats.append(said)
    title = "Dolce Vita" + (f" · {label}" if label else "")
    comma = _(", ")
    lines = [title, *_wrap(_("Players, clockwise: {players}").format(players=comma.join(seats)), "  ", comma)]
    facts = [ngettext("{count} round", "{count} rounds", created.rounds).format(count=created.rounds),
             _("{name} starts").format(name=created.players[created.first_player].name)]  # fmt: skip
    if created.seed is not None:
        facts.append(_("deal seed {seed}").format(seed=created.seed))
    lines.append(" · ".join(facts))
    if created.parent is not None:
        if created.parent_seq is not None:
            lines.append(_("Branched from {file} after its event {line}").format(file=created.parent,
                                                                                line=created.parent_seq))  # fmt: skip
        else:
            lines.append(_("Branched from {file}").format(file=created.parent))
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
                _("{name} placed {card} under column {column}, then took it back").format(
                    name=names[event.player], card=event.card, column=column_label(event.column))
            )  # fmt: skip
    first = standing[0].player if standing else (created.first_player + round_ - 1) % n
    lines = [_("ROUND {round} of {rounds} · {name} starts").format(round=round_, rounds=created.rounds,
                                                                   name=names[first])]  # fmt: skip
    if standing:
        lines.extend(_placement_grid(standing, names, first))
    for text in taken_back:
        lines.append(f"{INDENT}({text})")
    resolved = [e for e in events if isinstance(e, ColumnResolved)]
    if resolved:
        lines.append(INDENT + _("Columns:"))
        for event in resolved:
            lines.extend(_wrap(f"{INDENT}{INDENT}{_column_line(event, names)}", " " * 7, _("; ")))
    ended = next((e for e in events if isinstance(e, RoundEnded)), None)
    if ended is not None:
        scores = after.round_scores[ended.round - 1]
        lines.extend(_wrap(INDENT + _("Scores: {scores}").format(scores=_scores(names, scores)), INDENT * 2, " · "))
    return lines


def _scores(names: Sequence[str], scores: Sequence[int]) -> str:
    """``Bot 1: 1,700,000 · Bot 2: 1,500,000``."""
    return " · ".join(_("{name}: {amount}").format(name=names[p], amount=amount(s)) for p, s in enumerate(scores))


def _wrap(line: str, indent: str, sep: str) -> list[str]:
    """A long line cut after a ``sep`` (between two awards, two players), so that no phrase is
    split and the text stays readable in a narrow chat window; a phrase too long alone is cut
    between words."""
    if len(line) <= WIDTH:
        return [line]
    pieces = line.split(sep)
    lines: list[str] = []
    current = pieces[0]
    tail = len(sep.rstrip())  # what a cut line ends with (" ;" in French): it must fit as well
    for i, piece in enumerate(pieces[1:], 2):
        if len(current) + len(sep) + len(piece) + (tail if i < len(pieces) else 0) <= WIDTH:
            current += sep + piece
        else:
            lines.append(current + sep.rstrip())
            current = indent + piece
    lines.append(current)
    out: list[str] = []
    tail_of_a_cut = False  # the last line ends a phrase that was cut between words
    for text in lines:
        if tail_of_a_cut and len(out[-1]) + 1 + len(text) - len(indent) <= WIDTH:
            out[-1] += " " + text[len(indent) :]  # the next phrase joins the cut one's end, never left alone
            continue
        cut = textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        out.extend(cut if len(text) > WIDTH else [text])
        tail_of_a_cut = len(text) > WIDTH and len(cut) > 1
    return out


def _placement_grid(standing: list[CardPlaced], names: list[str], first: int) -> list[str]:
    """``turn  Ben    Cy     Ana`` then one row per turn: ``1  5 → C  2 → A  6 → G``."""
    n = len(names)
    order = [(first + i) % n for i in range(n)]
    width = max(5, *(len(names[p]) for p in order))
    turn = _("turn")
    head = f"{INDENT}{INDENT}{turn:>4}  " + "  ".join(names[p].ljust(width) for p in order)
    lines = [INDENT + _("Placements (card → column), in playing order:"), head.rstrip()]
    for first_turn in range(0, len(standing), n):
        cells = [f"{e.card} → {column_label(e.column)}".ljust(width) for e in standing[first_turn : first_turn + n]]
        lines.append(f"{INDENT}{INDENT}{first_turn // n + 1:>{len(turn)}}  " + "  ".join(cells).rstrip())
    return lines


def _column_line(event: ColumnResolved, names: list[str]) -> str:
    totals = [_("{name}: {amount}").format(name=names[p], amount=t) for p, t in enumerate(event.totals) if t]
    placed = f"({_(', ').join(totals)}) " if totals else ""  # "Bot 1: 3", never "Bot 1 3"
    return f"{column_label(event.column)}  {placed}" + _("; ").join(resolution_parts(event, names))


def _ending(game: Game, names: list[str]) -> list[str]:
    if not game.over:
        who = names[game.to_move]
        return [
            ngettext("The game stops here: round {round} of {rounds}, {name} to play ({made} of {placements} "
                     "placements made this round).",
                     "The game stops here: round {round} of {rounds}, {name} to play ({made} of {placements} "
                     "placements made this round).", len(game.placements)).format(
                round=game.round, rounds=game.rounds, name=who, made=len(game.placements),
                placements=game.round_length),
            _("Scores so far: {scores}").format(scores=_scores(names, game.scores())),
        ]  # fmt: skip
    outcome = game.outcome()
    assert outcome is not None  # the game is over
    scores = outcome.scores
    lines = [_("RESULT  {result}").format(result=describe_result(outcome, names))]
    order = sorted(range(game.n), key=lambda p: (-scores[p], p))
    width = max(len(name) for name in names)
    rank, last = 0, None
    for i, p in enumerate(order, 1):
        if scores[p] != last:
            rank, last = i, scores[p]
        head = f"{INDENT}{rank}. {names[p].ljust(width)}  {amount(scores[p]):>9}  "
        lines.extend(_wrap(head + _holdings(game, p), " " * len(head), _("; ")))
    return lines


def _holdings(game: Game, p: int) -> str:
    goods = [card_name(g) for g in game.goods[p] if g is not None]
    money = sorted(game.money[p], key=lambda c: -VALUE_OF[c])
    held = _(", ").join(goods) if goods else _("no goods")
    if not money:
        return held
    total = sum(VALUE_OF[c] for c in money)
    cash = ngettext("money {amount} in {count} card", "money {amount} in {count} cards", len(money))
    return _("{goods}; {money}").format(goods=held, money=cash.format(amount=amount(total), count=len(money)))


__all__ = ["export_text"]
