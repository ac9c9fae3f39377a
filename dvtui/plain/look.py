"""The commands that only read the game out (board, a column, hands, scores, awards, the last
events, help): the same answers for a game of this machine, a shared table and a replay."""

from __future__ import annotations

from collections.abc import Sequence

from ..describe import COLUMN_LABELS
from ..engine import Event, Game, GameCreated
from ..i18n import _
from .commands import GOOD_WORDS, Command, column_of_good, good_named
from .words import awards_lines, board_lines, cards_held, column_line, event_lines, scores_lines

LAST_EVENTS = 6
"""How many events ``last`` reads again."""

LOOKS = frozenset(("board", "column", "hand", "scores", "awards", "last", "help"))


def help_lines(kind: str) -> list[str]:
    """What may be typed; ``kind``: ``play`` (a game of this machine), ``table`` (a shared table),
    ``watch`` (watching one) or ``replay``."""
    lines = [_("Commands (the short form, then the French word, work as well):")]
    if kind in ("play", "table"):
        lines.append(_("A card and a column places it: 3 c, or 3 boat 500 for the column where boat 500 lies."))
    if kind == "replay":
        lines += [
            _("next, n, or an empty line: the next event (suivant, su)."),
            _("back, bk: one event back (retour, re)."),
            _("round N, r N: go to the start of round N (manche N)."),
        ]
    lines += [
        _("board, bd: every column, top to bottom, and the cards under it (plateau, pl)."),
        _("column c, or the letter alone: one column (colonne c)."),
        _("hand, h: the cards you hold; when you watch, everyone's (main, m)."),
        _("scores, s: each player's score, goods and money (score)."),
        _("awards, aw: what each column would give if the round ended now (gains, ga)."),
        _("last, l: the last events again (derniers, der)."),
    ]
    if kind in ("play", "table"):
        lines.append(_("hint, hi: the strong bot's advice (conseil, co)."))
        lines.append(_("undo, u: take back your last placement (annuler, an)."))
    if kind in ("table", "watch"):
        lines.append(_("who, w: who is at the table (qui, qu)."))
    if kind == "watch":
        lines.append(
            _("sit, si: after a rematch, take back the seat you resigned; sit NAME: that seat (reprendre, rp).")
        )
        lines.append(_("say TEXT: say a line to everyone at the table (dire)."))
    lines.append(_("help, ?: this list (aide, ai). quit, q: leave (quitter); a game is saved as it goes."))
    return lines


def hands_lines(game: Game, names: Sequence[str], player: int | None) -> list[str]:
    """``player``'s hand, or everyone's (every placement is public, so every hand is known: R4.4)."""
    if player is not None:
        return [_("You hold {cards}.").format(cards=cards_held(game.hands[player]))]
    return [_("{name} holds {cards}.").format(name=names[p], cards=cards_held(game.hands[p])) for p in range(game.n)]


def last_lines(events: Sequence[Event], game: Game, names: Sequence[str]) -> list[str]:
    """The last few events, oldest first."""
    recent = [e for e in events if not isinstance(e, GameCreated)][-LAST_EVENTS:]
    if not recent:
        return [_("Nothing has happened yet.")]
    return [line for event in recent for line in event_lines(event, game, names)]


def look(command: Command, game: Game, names: Sequence[str], events: Sequence[Event], player: int | None,
         kind: str) -> list[str]:  # fmt: skip
    """The answer to a command of :data:`LOOKS`."""
    match command.name:
        case "board":
            return board_lines(game, names)
        case "column":
            return _column(command.rest, game, names)
        case "hand":
            return hands_lines(game, names, player)
        case "scores":
            return scores_lines(game, names)
        case "awards":
            return awards_lines(game, names)
        case "last":
            return last_lines(events, game, names)
    return help_lines(kind)


def _column(rest: str, game: Game, names: Sequence[str]) -> list[str]:
    letter = rest.strip().lower()
    if len(letter) == 1 and letter in COLUMN_LABELS.lower():
        return [column_line(game, names, COLUMN_LABELS.lower().index(letter))]
    words = letter.split()
    if len(words) == 2 and words[0] in GOOD_WORDS and words[1].isdigit():
        found = column_of_good(game, good_named(words[0], words[1]))
        if found is not None:
            return [column_line(game, names, found)]
    return [_("Which column? Type column and a letter from a to g, such as column c.")]


__all__ = ["LAST_EVENTS", "LOOKS", "hands_lines", "help_lines", "last_lines", "look"]
