"""``dvtui tournament``: the table server's tournaments (arenas) from the command line. ``new``
opens one, ``join`` takes part (each table it is seated at played as ``dvtui seek`` plays it: on
this terminal, or by a bot without a screen with ``--bot``; then free to be seated again, until
the tournament is over), ``show`` its standings, ``list`` the tournaments. Textual is not imported
here (the table's screen is, by ``dvtui join``'s own path, once seated)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

import msgspec

from ..i18n import _
from ..printable import printable
from ..tables import Diverged, Dropped, Refused, Unreachable, server_place
from ..tables.arena import NoArena, follow, listing, new, show, standings_lines, summary_line, wait_seat
from ..tables.clubwire import ARENA_LEAST_SECONDS, ARENA_MOST_SECONDS, SEEK_MOVE_TIME, SEEK_SIZES, ArenaStandings
from ..tables.wire import is_table_name
from ..web.tab import vouched
from .errors import EXIT_OK, UsageError
from .seek import sizes
from .tables import _bot, _fail, _move_time, _on_screen, _play
from .terminal import has_terminal, wants_plain


def seconds_of(text: str) -> int:
    """``--minutes M``: a number of minutes, fractions allowed (0.5 is 30 s), from 0.1 to 1440."""
    try:
        minutes = float(text)
    except ValueError:
        minutes = 0.0
    seconds = round(minutes * 60) if minutes == minutes and abs(minutes) < 1e9 else 0
    if not ARENA_LEAST_SECONDS <= seconds <= ARENA_MOST_SECONDS:
        said = _("--minutes {text}: how long the tournament runs, from 0.1 to 1440 minutes (fractions allowed)")
        raise UsageError(said.format(text=printable(text)))
    return seconds


def arena_name(text: str) -> str:
    """``NAME``: a tournament's name follows a table's rule."""
    if not is_table_name(text):
        rule = _("a tournament's name is 1 to 32 letters (a-z, A-Z), digits (0-9), '-' or '_', starting with a letter "
                 "or digit")  # fmt: skip
        raise UsageError(_("tournament {name}: {rule}").format(name=printable(repr(text)), rule=rule))
    return text


def run(args: argparse.Namespace) -> int:
    """``dvtui tournament ACTION``."""
    try:
        if args.action == "new":
            return _new(args)
        if args.action == "join":
            return _join(args)
        if args.action == "show":
            return _show(args)
        return _list(args)
    except (Unreachable, Refused, Diverged, Dropped, NoArena) as e:
        return _fail(str(e))


def _print(standings: ArenaStandings) -> None:
    print("\n".join(printable(line) for line in standings_lines(standings)), flush=True)


def _new(args: argparse.Namespace) -> int:
    name = arena_name(args.name)
    seconds = seconds_of(args.minutes)
    wanted = sizes(args.players) if args.players is not None else [*SEEK_SIZES]
    move_time = _move_time(args.move_time) if args.move_time is not None else SEEK_MOVE_TIME
    place = server_place(args.server)
    standings = asyncio.run(new(place, name, seconds, players=wanted, rated=args.rated, move_time=move_time,
                                user=vouched()))  # fmt: skip
    _print(standings)
    print(_("join it with: dvtui tournament join {name}").format(name=printable(name)), flush=True)
    return EXIT_OK


def _show(args: argparse.Namespace) -> int:
    """The standings; ``--follow``: each time they change, until it is over (Ctrl+C stops)."""
    place, name = server_place(args.server), arena_name(args.name)

    def shown(standings: ArenaStandings) -> None:
        if args.json:
            print(msgspec.json.encode(standings).decode(), flush=True)
        else:
            _print(standings)

    if not args.follow:
        shown(asyncio.run(show(place, name, user=vouched())))
        return EXIT_OK
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(follow(place, name, shown, user=vouched()))
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    place = server_place(args.server)
    found = asyncio.run(listing(place, user=vouched()))
    if not found.arenas:
        print(_("no tournaments at {directory}").format(directory=printable(str(place.directory))))
    for arena in found.arenas:
        line = summary_line(arena)
        print(printable(line))
    return EXIT_OK


def _join(args: argparse.Namespace) -> int:
    name = arena_name(args.name)
    spec = _bot(args.bot) if args.bot is not None else None
    if spec is None and not wants_plain(args) and not has_terminal():
        said = _("the table needs a terminal (stdin and stdout are not one); a bot can play the seats without one: "
                 "dvtui tournament join NAME --bot LEVEL")  # fmt: skip
        raise UsageError(said)
    place = server_place(args.server)
    user = vouched()
    shown = printable(name)

    def told(standings: ArenaStandings) -> None:
        print(printable(standings_lines(standings)[0]), file=sys.stderr, flush=True)

    while True:
        try:
            got = asyncio.run(wait_seat(place, name, user=user, bot=None if spec is None else str(spec), told=told))
        except KeyboardInterrupt:
            print(_("you left tournament {name} (your points stay)").format(name=shown), file=sys.stderr)
            return EXIT_OK
        if isinstance(got, ArenaStandings):
            _print(got)
            return EXIT_OK
        said = _("tournament {name} seated you at table {table}, seat {seat} of {players}")
        print(said.format(name=shown, table=printable(got.table), seat=got.seat + 1, players=got.players), flush=True)
        if spec is None:
            code = _on_screen(place, got.table, got.seat, bell=not args.no_bell, plain=wants_plain(args))
        else:
            code = _play(place, got.table, got.seat, spec)
        if code != EXIT_OK:
            return code


__all__ = ["arena_name", "run", "seconds_of"]
