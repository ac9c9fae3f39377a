"""``dvtui tables``, ``dvtui join``, ``watch``, ``say``, ``fetch``, ``close``, ``resign`` and ``dvtui new
--table NAME``: a table server's client from the command line. Each is a short process that asks a
server over its socket (and starts a personal one as a process of its own), so it imports neither
the server (``dvtui serve``'s, :mod:`.table_server`) nor Textual (the live table's screen does, once it opens)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..describe import bot_level_name
from ..i18n import _
from ..printable import printable
from ..rulewords import rule_words
from ..store import GameFileError, parse_game
from ..tables import (
    Diverged,
    Dropped,
    Refused,
    ServerPlace,
    TableInfo,
    Unreachable,
    close_table,
    earlier_game_lines,
    game_lines,
    invited_by,
    is_my_turn,
    kept_game_lines,
    list_tables,
    my_tables,
    open_table,
    played_with,
    release_seat,
    resign,
    say,
    server_account,
    server_place,
    set_clock,
    start_table,
    table_info,
)
from ..tables.clock import move_time_words, parse_duration
from ..tables.protocol import MAX_CHAT_CHARS
from ..tables.ratings import NoRatings
from ..tables.wire import is_kept_name
from ..web.tab import vouched
from .errors import EXIT_BAD_FILE, EXIT_OK, UsageError
from .table_lines import table_line
from .terminal import wants_plain

if TYPE_CHECKING:
    from ..bots import BotSpec
    from ..engine import Game, Seat


def run(args: argparse.Namespace) -> int:
    if args.command in ("join", "watch", "new", "say", "close", "resign"):
        vouched()  # a person the table cannot take stops the command before any table is opened
    try:
        if args.command == "tables":
            if args.action == "release":
                return _release(args)
            if args.action == "start":
                return _start(args)
            if args.action == "clock":
                return _clock(args)
            if args.action == "get":  # the older spelling of ``dvtui fetch``
                return _fetch(args)
            if args.mine:
                return _mine(server_place(args.server), kept=args.all)
            return _tables(server_place(args.server), kept=args.all)
        if args.command == "join":
            return _join(args)
        if args.command == "fetch":
            return _fetch(args)
        if args.command == "watch":
            return _on_screen(server_place(args.server), args.table, None, watch=True, plain=wants_plain(args))
        if args.command == "say":
            return _say(args)
        if args.command == "resign":
            asyncio.run(resign(server_place(args.server), args.table, user=vouched()))
            said = _("table {table}: you resigned; a bot plays your seat to the end")
            print(said.format(table=printable(args.table)))
            return EXIT_OK
        if args.command == "close":
            kept_game = asyncio.run(close_table(server_place(args.server), args.table, user=vouched()))
            said = (_("table {table} is closed: its game is kept, unfinished, and its name is free") if kept_game else
                    _("table {table} is closed: nobody had made a decision there, so its game is not kept; its name "
                      "is free"))  # fmt: skip
            print(said.format(table=printable(args.table)))
            return EXIT_OK
        return _new_table(args)
    except (Unreachable, Refused, Diverged, Dropped, NoRatings) as e:
        return _fail(str(e))


def _fail(message: str) -> int:
    print(_("dvtui: error: {message}").format(message=printable(message)), file=sys.stderr)
    return EXIT_BAD_FILE


# -- dvtui tables -------------------------------------------------------------------------------


def _tables(place: ServerPlace, *, kept: bool = False) -> int:
    infos = asyncio.run(list_tables(place, kept=kept))
    if not infos:
        print(_("no tables at {directory}").format(directory=printable(str(place.directory))))
    for info in infos:
        print(table_line(info))
    return EXIT_OK


def _mine(place: ServerPlace, *, kept: bool = False) -> int:
    """``dvtui tables --mine``: the tables with a seat of this person's, the ones where it is their
    turn first (each such line starts ``your turn``); with ``--all`` (``kept``), then the games of
    theirs kept after their tables."""
    me, infos = asyncio.run(my_tables(place, user=vouched(), kept=kept))
    if not infos:
        said = _("no tables of yours ({user}) at {directory}")
        print(said.format(user=printable(me), directory=printable(str(place.directory))))
    known = played_with(infos, me, server_account(place))
    for info in infos:
        inviter = invited_by(info, me, known)
        if inviter is not None:  # a seat kept for one by a stranger: whose invitation, never "your turn"
            print(_("invited by {user}: ").format(user=printable(inviter)) + table_line(info))
        else:
            print((_("your turn: ") if is_my_turn(info, me, known) else "") + table_line(info))
    return EXIT_OK


def _table(place: ServerPlace, name: str) -> TableInfo:
    """The table ``name`` as the server lists it; refused (exit 2) when there is none, before
    anything else is said about it (what works at a table does nothing without one)."""
    info = asyncio.run(table_info(place, name))
    if info is None:
        raise UsageError(_("no table {table} (see 'dvtui tables')").format(table=name))
    return info


def _release(args: argparse.Namespace) -> int:
    """``dvtui tables release NAME --seat SEAT``: the table's opener frees a seat."""
    place = server_place(args.server)
    info = _table(place, args.table)
    seat = seat_index(args.seat, [s.name for s in info.seats], flag="--seat")
    bot = None if args.bot is None else str(_bot(args.bot))
    asyncio.run(release_seat(place, args.table, seat, user=vouched(), to=args.to, bot=bot))
    if args.to is not None:
        said = _("table {table}: seat {seat} ({name}) is kept for {user}, who alone may take it")
    elif bot is not None:
        said = _("table {table}: a {level} bot plays seat {seat} ({name}) to the end of the game")
    else:
        said = _("table {table}: seat {seat} ({name}) is free for anyone else; whoever held it takes no seat "
                 "of this game again")  # fmt: skip
    print(said.format(table=printable(args.table), seat=seat + 1, name=printable(info.seats[seat].name),
                      user=printable(args.to or ""), level=bot))  # fmt: skip
    return EXIT_OK


def _clock(args: argparse.Namespace) -> int:
    """``dvtui tables clock NAME --move-time DURATION [--time-bank DURATION] [--increment DURATION]``:
    the table's opener sets or shortens its move time (and lowers its bank)."""
    seconds = _move_time(args.move_time)
    time_bank, increment = _time_bank(args, seconds)
    bank = time_bank if args.time_bank else None  # (None: as it is)
    added = increment if args.increment else None
    place = server_place(args.server)  # after the flags: a refused flag starts no server
    _table(place, args.table)
    asyncio.run(set_clock(place, args.table, seconds, user=vouched(), time_bank=bank, increment=added))
    table = printable(args.table)
    print(_("table {table}: each turn may last {time}; then a bot plays it").format(
        table=table, time=move_time_words(seconds)))  # fmt: skip
    if bank is not None:
        said = _("table {table}: each seat's time bank is {time} at most")
        print(said.format(table=table, time=move_time_words(bank)))
    if added is not None:
        said = _("table {table}: each placement made in time adds {time} to its seat's bank")
        print(said.format(table=table, time=move_time_words(added)))
    return EXIT_OK


def _start(args: argparse.Namespace) -> int:
    """``dvtui tables start NAME``: the table's opener ends its waiting room."""
    place = server_place(args.server)
    _table(place, args.table)
    asyncio.run(start_table(place, args.table, user=vouched()))
    print(
        _("table {table} has started: a bot stands in for each seat nobody has taken yet").format(
            table=printable(args.table)
        )
    )
    return EXIT_OK


def _say(args: argparse.Namespace) -> int:
    """``dvtui say NAME TEXT``: one line to everyone at the table, and a line saying it was said
    (the table answered: a person typing it in a shell knows it reached the table)."""
    text = args.text.strip()
    if not text or len(text) > MAX_CHAT_CHARS:
        raise UsageError(_("say 1 to {most} characters (not only spaces)").format(most=MAX_CHAT_CHARS))
    asyncio.run(say(server_place(args.server), args.table, text, user=vouched()))
    print(_("table {table}: said to everyone there").format(table=printable(args.table)))
    return EXIT_OK


def _fetch(args: argparse.Namespace) -> int:
    """``dvtui fetch NAME [-o FILE]`` (or ``dvtui tables get NAME``): the table's game as a file of
    one's own, checked as any game file is before it is written (never over a file that exists)."""
    place = server_place(args.server)
    out = Path(args.output) if args.output is not None else Path(f"{args.table}.dvr")
    if out.exists():
        raise UsageError(_("{file} exists: choose another file with -o FILE").format(file=out))
    number: int | None = getattr(args, "game", None)
    if is_kept_name(args.table):  # a closed table's game (or one before a rematch), for who sat at it
        if number is not None:
            raise UsageError(_("{name} is a kept game: it is one game, without --game").format(name=args.table))
        asked = kept_game_lines(place, args.table, user=vouched())
    elif number is None:
        asked = game_lines(place, args.table)
    else:
        asked = earlier_game_lines(place, args.table, number)
    data = asyncio.run(asked)
    try:
        loaded = parse_game(data, f"table {args.table}")
    except GameFileError as e:
        return _fail(_("the table server sent a game that does not read back: {error}").format(error=e))
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    game = loaded.game
    where = _("over") if game.over else _("round {round} of {rounds}").format(round=game.round, rounds=game.rounds)
    table, file = printable(args.table), printable(str(out))
    if number is None:
        print(_("table {table}: its game ({state}) is saved in {file}").format(table=table, state=where, file=file))
    else:
        print(
            _("table {table}: its game {number} ({state}) is saved in {file}").format(
                table=table, number=number, state=where, file=file
            )
        )
    return EXIT_OK


# -- dvtui join / new --table -------------------------------------------------------------------


def seat_index(text: str, names: Sequence[str], *, flag: str = "--as") -> int:
    """``--as``: a seat's name (case aside), else its number counted from 1."""
    folded = [n.casefold() for n in names]
    if text.casefold() in folded:
        return folded.index(text.casefold())
    if text.isdigit() and 1 <= int(text) <= len(names):
        return int(text) - 1
    said = _("{flag} {text!r}: no such seat (the seats are {names}, or 1 to {count})")
    raise UsageError(said.format(flag=flag, text=text, names=_(", ").join(names), count=len(names)))


def _join(args: argparse.Namespace) -> int:
    place = server_place(args.server)
    spec = _bot(args.bot) if args.bot is not None else None
    seat = None
    if args.as_seat is not None:
        info = _table(place, args.table)
        seat = seat_index(args.as_seat, [s.name for s in info.seats])
        if info.seats[seat].kind != "human":
            said = _("--as {seat}: {name} is a bot's seat")
            raise UsageError(said.format(seat=args.as_seat, name=info.seats[seat].name))
    try:
        if spec is None:
            return _on_screen(place, args.table, seat, bell=not args.no_bell, plain=wants_plain(args))
        return _play(place, args.table, seat, spec)
    except Refused as e:
        if e.error.reason != "all_taken":
            raise
        said = _(
            "every human seat of table {table} is taken or kept for somebody else: watch it with 'dvtui watch {table}'"
        )
        return _fail(said.format(table=args.table))


def _new_table(args: argparse.Namespace) -> int:
    if not args.players:
        raise UsageError(_('--table needs --players (e.g. --players "Ana,Bob,bot:strong")'))
    from .setup import checked_setup, first_player  # (the bots, to read --players' bot:LEVEL)

    seats = checked_setup(args)
    assert seats is not None
    if args.output is not None:
        raise UsageError(_("a table's game is kept by the server: -o does not go with --table"))
    seat = None
    if args.as_seat is not None:
        seat = seat_index(args.as_seat, [s.name for s in seats])
        if seats[seat].kind != "human":
            raise UsageError(_("--as {seat}: {name} is a bot's seat").format(seat=args.as_seat, name=seats[seat].name))
    spec = _bot(args.bot) if args.bot is not None else None
    move_time = _move_time(args.move_time) if args.move_time is not None else None
    time_bank, increment = _time_bank(args, move_time)
    entries = [e.strip() for e in args.players.split(",")]
    invite = _invitations(args.invite, seats) if args.invite else None
    place = server_place(args.server)  # after the flags: a refused flag starts no server
    opening = open_table(
        place, args.table, entries, first_player=first_player(args), seed=args.seed, hints=not args.no_hints,
        user=vouched(), wait=not args.start_now, move_time=move_time, invite=invite, time_bank=time_bank,
        increment=increment, rated=args.rated,
    )  # fmt: skip
    asyncio.run(opening)
    if spec is None:
        from .terminal import has_terminal

        plain = wants_plain(args)
        if not has_terminal() and not plain:  # a script opens a table for others: it says how to sit at it
            print(_("table {table} is open: take a seat with 'dvtui join {table}'").format(table=args.table))
            return EXIT_OK
        return _on_screen(place, args.table, seat, bell=not args.no_bell, plain=plain)
    return _play(place, args.table, seat, spec)


def _invitations(given: Sequence[str], seats: Sequence[Seat]) -> list[str | None]:
    """``--invite SEAT=USER``s: per seat, the account (or ``web:NAME``) it is kept for, or None."""
    invite: list[str | None] = [None] * len(seats)
    for text in given:
        where, sep, user = text.partition("=")
        if not sep or not user.strip():
            said = _("--invite {text!r}: give SEAT=USER, e.g. --invite 2=alice or --invite Bob=web:bob")
            raise UsageError(said.format(text=text))
        i = seat_index(where.strip(), [s.name for s in seats], flag="--invite")
        if seats[i].kind != "human":
            said = _("--invite {text!r}: {name} is a bot's seat")
            raise UsageError(said.format(text=text, name=seats[i].name))
        invite[i] = user.strip()
    return invite


def _on_screen(place: ServerPlace, table: str, seat: int | None, *, watch: bool = False, bell: bool = True,
               plain: bool = False) -> int:  # fmt: skip
    """The live table on this terminal (the app is imported only now), or its lines (``plain``).
    Without a terminal, the table is looked up first: the advice to go on without a screen is for
    a table that exists."""
    if plain:
        from .plain import run_table

        return run_table(place, table, seat, watch=watch, bell=bell, user=None if watch else vouched())
    from .terminal import has_terminal

    if not has_terminal():
        _table(place, table)
    from .play import run_table

    # a spectator owns nothing: it watches as the account, which needs no trust
    return run_table(place, table, seat, watch=watch, bell=bell, user=None if watch else vouched())


def _move_time(text: str) -> int:
    """``--move-time DURATION``: seconds."""
    try:
        return parse_duration(text)
    except ValueError as e:
        raise UsageError(_("--move-time {text}: {error}").format(text=printable(text), error=e)) from None


def _time_bank(args: argparse.Namespace, move_time: int | None) -> tuple[int | None, int]:
    """``--time-bank`` and ``--increment`` as seconds (None, 0: none given): a bank is spent after
    a turn's move time, so either goes with ``--move-time`` only."""
    given = [(flag, text) for flag, text in (("--time-bank", args.time_bank), ("--increment", args.increment)) if text]
    if given and move_time is None:
        raise UsageError(_("{flag} goes with --move-time DURATION").format(flag=given[0][0]))
    seconds = {}
    for flag, text in given:
        try:
            seconds[flag] = parse_duration(text)
        except ValueError as e:
            raise UsageError(_("{flag} {text}: {error}").format(flag=flag, text=printable(text), error=e)) from None
    if not given:
        return None, 0
    return seconds.get("--time-bank", 0), seconds.get("--increment", 0)


def _bot(text: str) -> BotSpec:
    """``--bot LEVEL``, checked before any table is asked (the bots are imported only now: a command
    without a bot does not load their search)."""
    from ..bots import parse_bot
    from ..engine import SeatError

    try:
        return parse_bot(text)
    except SeatError as e:
        raise UsageError(f"--bot: {rule_words(e)}") from None


def _play(place: ServerPlace, table: str, seat: int | None, spec: BotSpec) -> int:
    """A bot plays a seat, without a screen: a line once it sits there, one with the result."""
    from ..describe import describe_result
    from ..engine import GameEnded
    from ..tables import TableClient
    from ..tables.headless import play_seat

    shown = printable(table)

    def say(line: str) -> None:
        print(f"dvtui: table {shown}: {line}", file=sys.stderr, flush=True)

    def seated(game: Game, index: int) -> None:
        name = printable(game.created.players[index].name)
        print(
            _(
                "table {table}: a {level} bot plays {name} (seat {seat}) until the game ends; Ctrl+C stops it "
                "(the seat stays yours)"
            ).format(table=shown, level=bot_level_name(str(spec)), name=name, seat=index + 1),
            flush=True,
        )

    async def main() -> str:
        client = TableClient(place, table, seat=seat, user=vouched(), bot=str(spec))
        await client.connect()
        game = await play_seat(client, spec, say, seated)
        ended = client.events[-1]
        assert isinstance(ended, GameEnded)
        return describe_result(ended, [s.name for s in game.created.players])

    print(f"table {shown}: {printable(asyncio.run(main()))}", flush=True)
    return EXIT_OK
