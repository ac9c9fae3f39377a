"""The rules' refusals in words: what the engine's errors (``RuleError``, ``SeatError``) say, made
where they are shown.

The engine makes no words: it raises a typed error (:class:`~dvtui.engine.CodedError`) with a
``code`` and the values its sentence names (``fields``). A screen, the plain mode, the command line
and the file reader say it here, in the language their reader chose; the table server says it in
English (:func:`english_words`) beside the code and fields it sends, so the wire is the same
whatever language the server runs in.

It imports the engine and the words (:mod:`dvtui.i18n`) and nothing else, so every layer that shows
an error may use it, the file reader included.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .engine import CodedError
from .i18n import N_, _

RULE_WORDS: dict[str, str] = {
    # a decision (R4-R8)
    "game_over": N_("the game is over (R8): no more placements"),
    "resolving": N_("the round is being resolved: its derived events come first"),
    "not_your_turn": N_("it is player {to_move}'s turn, not player {player}'s (R4.1)"),
    "column_range": N_("column must be 0 to {last}, not {column!r}"),
    "card_placed": N_("player {player} has already placed their {card} this round"),
    "card_range": N_("number cards are 1 to 6, not {card}"),
    "undo_over": N_("the game is over (R8): nothing to undo"),
    "undo_none": N_("no placement of this round to take back (undo never crosses a resolution)"),
    "undo_not_theirs": N_("the latest placement is player {last}'s, not player {player}'s"),
    "nothing_owed": N_("no derived event is owed now"),
    # a log
    "not_owed": N_("{event} is not owed here: a decision is expected"),
    "misplaced": N_("{event} found where {owed} is owed (derived events come complete, in place)"),
    "first_event": N_("the first event must be game_created, not {what}"),
    "created_again": N_("game_created may only be the first event"),
    "not_an_event": N_("not an event of this game: {event!r}"),
    "undo_round": N_("placement_undone says round {said}, but round {round} is being played"),
    "undo_not_latest": N_(
        "placement_undone must name the latest placement exactly: player {player}, column {column}, card {card}"
    ),
    "placed_round": N_("card_placed says round {said}, but round {round} is being played"),
    "not_applied": N_("card_placed could not be applied: {event!r}"),
    "derived_mismatch": N_("{event}: field {field!r} should be {expected}, found {found}"),
    # a set-up (R1-R3)
    "players": N_("Dolce Vita is for 3 to 5 players (R3), not {players}"),
    "first_player": N_("first player must be a seat from 0 to {last}, not {first}"),
    "format": N_("format {format} is not supported (this is format {ours})"),
    "rounds": N_("{n} players play {rounds} rounds (R3), not {found}"),
    "first_player_field": N_("first_player must be a seat from 0 to {last}, not {first}"),
    "seat_kind": N_('players[{i}].kind must be "human" or "bot", not {kind!r}'),
    "bot_without_level": N_('players[{i}] is a bot without a level ("bot" field)'),
    "color_unknown": N_("players[{i}].color must be one of {colors}, not {color!r}"),
    "color_taken": N_("players[{i}].color {color!r} is already taken (R2.3)"),
    "name_empty": N_("players[{i}].name is empty"),
    "grid_shape": N_("grid must be {columns} columns of {height} cards (R2.1)"),
    "box_size": N_("box must hold {size} cards (R2.1), not {found}"),
    "card_unknown": N_("unknown card {card!r}"),
    "card_twice": N_("card {card!r} is dealt twice (R1.1: one card per category and value)"),
    # a seat
    "unknown_bot": N_("unknown bot level {level} (levels: {levels})"),
    "budget_form": N_(
        "{level}'s budget is a number of iterations ({level}@5000) or of seconds ({level}@0.5s), not {budget}"
    ),
    "no_budget": N_("bot level {level} takes no budget (only {only} does): {text}"),
    "budget_zero": N_("a bot's budget must be more than 0: {text}"),
    "budget_max": N_(
        "a bot's budget is at most {iterations} iterations ({level}@{iterations}) or {seconds} seconds "
        "({level}@{seconds}s), not {text}"
    ),
    "no_name": N_("the name is empty"),
    "name_long": N_("the name {name} is {length} characters; at most {most}"),
    "name_control": N_("the name {name} holds a control character (a tab, a line break, an escape)"),
    "name_bot": N_(
        "the name {name} is how a bot is written (bot:LEVEL); a person needs a name that does not start with 'bot:'"
    ),
    "names_twice": N_("two seats are called {name}; each seat needs its own name"),
    "deal": N_(
        "the deal must hold all {goods} goods and {money} money cards (R1), it holds {held} goods and "
        "{held_money} money cards"
    ),
}
"""Each code the engine raises: its sentence (English, marked for translation), filled from the
error's fields. A field is a value, never words: seats count from 0, as in a file."""


def rule_words(error: CodedError) -> str:
    """``error`` in the language spoken now (an error raised with its own words: those)."""
    return _said(error, _)


def english_words(error: CodedError) -> str:
    """``error`` in English, whatever language the process speaks: what the table server sends as an
    error's ``message``, for a client that does not know the code."""
    return _said(error, str)


def words_for(code: str, fields: Mapping[str, object], translate: Callable[[str], str] = _) -> str | None:
    """The sentence of rule error ``code`` made from ``fields`` (by default in the language spoken
    now), or None: a code this version does not know, or fields that do not fit its sentence (a
    client reading a newer server's code)."""
    sentence = RULE_WORDS.get(code)
    if sentence is None:
        return None
    shown = dict(fields)
    if code == "derived_mismatch":
        shown["expected"] = _json(shown.get("expected"))
        shown["found"] = _json(shown.get("found"))
    elif code == "first_event" and shown.get("what") is None:
        shown["what"] = translate(N_("nothing"))
    try:
        return translate(sentence).format(**shown)
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def _said(error: CodedError, translate: Callable[[str], str]) -> str:
    if error.worded:
        return str(error)  # words made above the engine, for its reader
    said = words_for(error.code, error.fields, translate)
    return str(error) if said is None else error.context + said


def _json(value: object) -> str:
    """A field's value as a log writes it (``null``, ``true``, ``"text"``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)
