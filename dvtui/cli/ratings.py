"""``dvtui ratings`` (the leaderboard) and ``dvtui profile`` (an account's rating, its history as a
chart, its places and its latest rated games), asked of the table server; ``--json`` prints what
the server answered, as it is. Every name the server sends is printed through ``printable``."""

from __future__ import annotations

import argparse
import asyncio
import sys

import msgspec

from ..i18n import _, ngettext
from ..printable import printable
from ..tables import Diverged, Dropped, Refused, Unreachable, server_place
from ..tables.protocol import MAX_PERSON_CHARS, MAX_TOP, VOUCHED_PREFIX, RatedGame, RatedLine
from ..tables.ratings import NoRatings, leaderboard, profile
from ..web.tab import vouched
from .errors import EXIT_BAD_FILE, EXIT_OK, UsageError

CHART_ROWS = 8
"""The chart's height in lines."""
CHART_GAMES = 60
"""The most games the chart shows (the latest), one column each."""
RECENT = 10
"""The latest rated games a profile lists (``--json`` has all the server sent)."""
MAX_ACCOUNT_ARG = len(VOUCHED_PREFIX) + MAX_PERSON_CHARS
"""The longest name ``dvtui profile`` takes (what the protocol carries)."""


def run_ratings(args: argparse.Namespace) -> int:
    """``dvtui ratings`` or ``dvtui profile``."""
    try:
        if args.command == "ratings":
            return _ratings(args)
        return _profile(args)
    except (Unreachable, Refused, Diverged, Dropped, NoRatings) as e:
        print(_("dvtui: error: {message}").format(message=printable(str(e))), file=sys.stderr)
        return EXIT_BAD_FILE


def _ratings(args: argparse.Namespace) -> int:
    top = 20 if args.top is None else args.top
    if not 1 <= top <= MAX_TOP:
        raise UsageError(_("--top {top}: give 1 to {most}").format(top=top, most=MAX_TOP))
    place = server_place(args.server)
    board = asyncio.run(leaderboard(place, top, user=vouched()))
    if args.json:
        print(_json({"accounts": board.accounts, "standings": board.standings}))
        return EXIT_OK
    if not board.standings:
        print(_("no rated games at {directory} yet").format(directory=printable(str(place.directory))))
        return EXIT_OK
    width = max(len(printable(line.account)) for line in board.standings)
    for line in board.standings:
        print(_standing(line, width))
    if any(line.provisional for line in board.standings):
        print(_("? provisional: too few rated games yet to say more than a first guess"))
    return EXIT_OK


def _standing(line: RatedLine, width: int) -> str:
    """One line of the leaderboard: rank, account, shown rating (``?``: provisional), games, rung."""
    games = ngettext("{count} game", "{count} games", line.games).format(count=line.games)
    said = _("{rank:>3}  {account}  {rating:>5}{mark}  {games}  {like}")
    return said.format(
        rank=line.rank, account=printable(line.account).ljust(width), rating=line.shown,
        mark="?" if line.provisional else " ", games=games.ljust(9), like=plays_like_words(line),
    )  # fmt: skip


def plays_like_words(line: RatedLine) -> str:
    """``plays like club +40`` (``−5`` below a rung; ``plays like strong`` on it)."""
    if line.by == 0:
        return _("plays like {level}").format(level=printable(line.like))
    by = f"+{line.by}" if line.by > 0 else f"\u2212{-line.by}"
    return _("plays like {level} {by}").format(level=printable(line.like), by=by)


def _account(text: str | None) -> str | None:
    """``ACCOUNT`` as typed, checked before any server is asked: a name, not anything else."""
    if text is None:
        return None
    name = text.strip()
    if not name or len(name) > MAX_ACCOUNT_ARG or not name.isprintable() or any(c.isspace() for c in name):
        said = _("{account}: not an account's name (or web:NAME, a person 'dvtui web' vouches for)")
        raise UsageError(said.format(account=repr(text)))
    return name


def _profile(args: argparse.Namespace) -> int:
    account = _account(args.account)
    place = server_place(args.server)
    found = asyncio.run(profile(place, account, user=vouched()))
    if args.json:
        print(_json({"standing": found.standing, "places": found.places, "history": found.history}))
        return EXIT_OK
    line = found.standing
    name = printable(line.account)
    if line.games == 0:
        print(_("{account} has no rated game yet (a newcomer's rating: {rating}, provisional)").format(
            account=name, rating=line.shown))  # fmt: skip
        return EXIT_OK
    rating = (_("{rating}, provisional") if line.provisional else "{rating}").format(rating=line.shown)
    games = ngettext("{count} rated game", "{count} rated games", line.games).format(count=line.games)
    said = _("{account}: rating {rating}, {like}; rank {rank}; {games}")
    print(said.format(account=name, rating=rating, like=plays_like_words(line), rank=line.rank, games=games))
    taken = [_("{place}: {count}").format(place=i + 1, count=n) for i, n in enumerate(found.places) if n]
    print(_("places (1: first): {places}").format(places=_(", ").join(taken)))
    print()
    for row in chart([line.before for line in found.history[:1]] + [g.after for g in found.history]):
        print(row)
    print()
    print(_("latest rated games:"))
    for game in reversed(found.history[-RECENT:]):
        print("  " + _game_line(game))
    return EXIT_OK


def _game_line(game: RatedGame) -> str:
    said = _("{ended}  table {table} game {number}: place {place} of {players}, {before} \u2192 {after}"
             "  (dvtui fetch {table} --game {number})")  # fmt: skip
    return said.format(
        ended=printable(game.ended.replace("T", " ").removesuffix("Z")), table=printable(game.table),
        number=game.number, place=game.place, players=game.players, before=game.before, after=game.after,
    )  # fmt: skip


def chart(ratings: list[int]) -> list[str]:
    """The shown rating before the first game and after each, as lines of text: a column a game
    (the latest :data:`CHART_GAMES`), a ``*`` at its height, the highest and lowest ratings written
    at the left; readable without colour (or as it is by a screen reader: the numbers are there)."""
    shown = ratings[-(CHART_GAMES + 1) :]
    if not shown:
        return []
    low, high = min(shown), max(shown)
    span = max(high - low, 1)
    rows = [[" "] * len(shown) for _row in range(CHART_ROWS)]
    for column, rating in enumerate(shown):
        level = round((rating - low) * (CHART_ROWS - 1) / span)
        rows[CHART_ROWS - 1 - level][column] = "*"
    width = max(len(str(high)), len(str(low)))
    lines = []
    for i, row in enumerate(rows):
        label = str(high) if i == 0 else str(low) if i == CHART_ROWS - 1 else ""
        lines.append(f"{label:>{width}} |{''.join(row)}")
    lines.append(" " * width + " +" + "-" * len(shown))
    count = len(shown) - 1
    lines.append(" " * (width + 2) + ngettext("the last {count} rated game", "the last {count} rated games",
                                              count).format(count=count))  # fmt: skip
    return lines


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


__all__ = ["chart", "plays_like_words", "run_ratings"]
