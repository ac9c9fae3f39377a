"""The ratings in words, as ``dvtui ratings``, ``dvtui profile`` and the start menu's ratings show
them: the leaderboard's lines, a profile's lines with its history as a chart of text. Plain text
(no markup, no colour): every name the server sent goes through ``printable``."""

from __future__ import annotations

from ..i18n import _, ngettext
from ..printable import printable
from .clubwire import Leaderboard, PlayerProfile, RatedGame, RatedLine

CHART_ROWS = 8
"""The chart's height in lines."""
CHART_GAMES = 60
"""The most games the chart shows (the latest), one column each."""
RECENT = 10
"""The latest rated games a profile lists (``--json`` has all the server sent)."""


def leaderboard_lines(board: Leaderboard) -> list[str]:
    """The leaderboard, a line an account, then what ``?`` means if a rating is marked with it."""
    if not board.standings:
        return []
    width = max(len(printable(line.account)) for line in board.standings)
    lines = [standing_line(line, width) for line in board.standings]
    if any(line.provisional for line in board.standings):
        lines.append(_("? provisional: too few rated games yet to say more than a first guess"))
    return lines


def standing_line(line: RatedLine, width: int) -> str:
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


def profile_lines(found: PlayerProfile) -> list[str]:
    """An account's rating, rank and games; its places; its history as a chart; its latest games."""
    line = found.standing
    name = printable(line.account)
    if line.games == 0:
        said = _("{account} has no rated game yet (a newcomer's rating: {rating}, provisional)")
        return [said.format(account=name, rating=line.shown)]
    rating = (_("{rating}, provisional") if line.provisional else "{rating}").format(rating=line.shown)
    games = ngettext("{count} rated game", "{count} rated games", line.games).format(count=line.games)
    said = _("{account}: rating {rating}, {like}; rank {rank}; {games}")
    lines = [said.format(account=name, rating=rating, like=plays_like_words(line), rank=line.rank, games=games)]
    taken = [_("{place}: {count}").format(place=i + 1, count=n) for i, n in enumerate(found.places) if n]
    lines.append(_("places (1: first): {places}").format(places=_(", ").join(taken)))
    lines.append("")
    lines.extend(chart([game.before for game in found.history[:1]] + [game.after for game in found.history]))
    lines.append("")
    lines.append(_("latest rated games:"))
    lines.extend("  " + game_line(game) for game in reversed(found.history[-RECENT:]))
    return lines


def game_line(game: RatedGame) -> str:
    """A rated game of a profile: when, where (and how to fetch it), the place, the rating it made."""
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


__all__ = ["chart", "game_line", "leaderboard_lines", "plays_like_words", "profile_lines", "standing_line"]
