"""``dvtui new`` and ``dvtui resume``: check the flags, open or create the game file, run the app.

Bad flags are refused before any screen opens (one line, exit 2, through ``UsageError``); files
that cannot be read or written become the CLI's one-line errors (exit 1).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import shlex
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..app.config import MAX_BOT_DELAY, SetupDefaults, default_player_name, load_pace
from ..app.exit_state import HungUp, NoGameFile, NotSaved, Played
from ..app.options import AppOptions, ChooseSeat, Menu, Watch
from ..describe import describe_result, join_names, moment
from ..engine import Game, Seat, new_game, random_seed
from ..i18n import _, ngettext
from ..play.local import LocalSession
from ..printable import printable
from ..store import (
    GameWriter,
    LoadedGame,
    SaveError,
    data_dir,
    latest_unfinished,
    list_games,
    new_save_path,
    read_game,
    saves_dir,
)
from ..tables import ServerPlace, server_place
from ..web.errors import WebUsageError
from ..web.tab import is_spare, vouched, wait_for_tab
from .errors import UsageError
from .setup import checked_setup, first_player
from .terminal import has_terminal, served_to_browser

if TYPE_CHECKING:  # Textual is imported only when an app really starts (flag errors stay fast)
    from ..app.app import DvtuiApp
    from ..tables import RemoteSession  # (and a table's session only when one opens)


def checked_bot_delay(value: float | None) -> float | None:
    if value is None:
        return None
    if not 0 <= value <= MAX_BOT_DELAY:
        said = _("--bot-delay must be between 0 and {most} seconds, not {value}")
        raise UsageError(said.format(most=f"{MAX_BOT_DELAY:g}", value=f"{value:g}"))
    return value


def output_path(text: str | None) -> Path | None:
    """``-o FILE``: a new file in a directory that exists (refused before anything starts)."""
    if text is None:
        return None
    path = Path(text).expanduser()
    if path.exists():
        raise UsageError(_what_to_do_with(path))
    if not path.parent.is_dir():
        raise UsageError(_("{directory}: no such directory").format(directory=path.parent))
    return path


def _what_to_do_with(path: Path) -> str:
    """That ``path`` exists, and the command that works on it: resume an unfinished game, replay a
    finished one, nothing for a file that is not a game."""
    from ..store import GameFileError

    try:
        over = read_game(path).game.over
    except (GameFileError, OSError):
        return _("{file} already exists; choose another file").format(file=path)
    said = (
        _("{file} already exists; choose another file (or watch it again: dvtui replay {file})")
        if over
        else _("{file} already exists; choose another file (or continue it: dvtui resume {file})")
    )
    return said.format(file=path)


def require_terminal(without: str = "") -> None:
    """Refuse (one line, exit 2) to start the full-screen app without a terminal: it would write
    escape sequences into a file and wait for keys that never come. ``without``: what works
    without a screen for this very command (a command that exists already, with its file)."""
    if not has_terminal():
        said = _("the game needs a terminal (stdin and stdout are not one)")
        raise UsageError(_("{problem}; {remedy}").format(problem=said, remedy=without) if without else said)


def _without_screen_new(args: argparse.Namespace, seats: list[Seat]) -> str:
    """What plays ``dvtui new --players``'s game without a screen: a game of bots alone is a
    simulation that writes its file (there is no file to resume yet); a person needs a screen."""
    if any(seat.kind != "bot" for seat in seats):
        return ""
    said = _("a game of bots plays without one: dvtui sim --players {players} --games 1 --out DIR")
    return said.format(players=shlex.quote(args.players))


def _without_screen_file(loaded: LoadedGame) -> str:
    """What works on this file without a screen: its bots finish it alone, or it is read as text."""
    from .resume_headless import why_bots_cannot_finish

    path = shlex.quote(str(loaded.path))
    if why_bots_cannot_finish(loaded) is None:
        return _("its bots finish it without one: dvtui resume {file} --headless").format(file=path)
    return _("without one, read it: dvtui replay {file} --text").format(file=path)


def _run(options: AppOptions, session: LocalSession | None, without: str = "") -> int:
    def build() -> DvtuiApp:
        from ..app.app import DvtuiApp

        return DvtuiApp(session, replace(options, handle_hangup=True))

    try:
        return _run_app(build, without)
    except BaseException:
        if session is not None:  # an app that failed to start never closed it: release the game's lock
            session.close()
        raise


def _run_app(build: Callable[[], DvtuiApp], without: str = "", *, loop: asyncio.AbstractEventLoop | None = None) -> int:
    """Start the app ``build`` makes, run it (on ``loop``, when its game reads a table there), and
    say how it ended (where the game is); ``without``: what works instead without a terminal."""
    # Textual's import and the app's construction make many objects that live as long as the
    # program: the garbage collector waits until they are made instead of walking them again and
    # again meanwhile, and then leaves them out of its passes (the app's freeze_long_lived).
    require_terminal(without)
    gc.disable()
    try:
        app = build()
        app.freeze_long_lived()
    finally:
        gc.enable()
    match app.run(loop=loop):  # the app has closed its game by now
        case NotSaved(failure=failure, code=code):  # the game stopped at a save that failed: exit 1 as documented
            print(_("dvtui: error: {message}").format(message=failure), file=sys.stderr)
            return code or 1
        case Played(code=code) if served_to_browser():  # stdout is the tab's channel, and the tab is closed
            return code
        case Played(path=path, over=over, branched_from=parent, code=code):
            shown = printable(str(path))  # a file name is outside text: it never drives the terminal
            try:
                if over:
                    print(_("Game over. Watch it again: dvtui replay {file}").format(file=shown))
                else:
                    print(_("Game saved in {file}\nContinue it: dvtui resume {file}").format(file=shown))
                if parent:
                    print(_("Branched from {file} (left as it was)").format(file=printable(parent)))
            except OSError:
                pass
            return code
        case HungUp(code=code) | NoGameFile(code=code):
            return code
        case _:  # (Textual's type allows None; the app always says how it ended)
            return app.return_code or 0


def run_new(args: argparse.Namespace) -> int:
    """``dvtui new``: with ``--players`` straight to the table, else the set-up screen first."""
    seats = checked_setup(args)
    first = first_player(args)
    delay = checked_bot_delay(args.bot_delay)
    output = output_path(args.output)
    if output is None:
        saves_dir()  # refused before any screen opens, not after the set-up
    pace = load_pace(delay)
    if seats is None:
        defaults = SetupDefaults(first=first, seed=args.seed, default_name=default_player_name())
        options = AppOptions(setup=defaults, pace=pace, output=output, seed_source=random_seed, save_path=new_save_path)
        return _run(options, None)
    require_terminal(_without_screen_new(args, seats))  # before the file is made: a refused start leaves nothing
    seed = args.seed if args.seed is not None else random_seed()
    created = new_game(seats, first_player=first, seed=seed)
    path = output if output is not None else new_save_path(created)
    session = LocalSession.start(created, path)
    return _run(AppOptions(pace=pace), session)


def run_menu() -> int:
    """Plain ``dvtui`` in a terminal: the start menu (new game, resume the latest, replay a file),
    with the tables of the table server ``dvtui tables`` would list, when one answers."""

    def build() -> DvtuiApp:
        from ..app.app import DvtuiApp
        from ..app.screens.lobby import Lobby

        options = AppOptions(
            seed_source=random_seed, save_path=new_save_path, handle_hangup=True, in_browser=served_to_browser()
        )
        app = DvtuiApp(Menu(), options)
        if is_spare():  # started by dvtui web ahead of its browser tab: the start done but for the tab's part
            app.prepare_start()
            wait_for_tab()
            app.pace = load_pace()  # from the tab's person's settings, once their data dir is known
        app.setup_defaults = SetupDefaults(default_name=default_player_name())  # the tab's person, once known
        try:
            app.lobby = Lobby(server_place(), default_player_name(), user=vouched())
        except (SaveError, WebUsageError):  # no private directory for a personal server, a person no table
            app.lobby = None  # takes (DVTUI_PLAYER): no lobby, the menu as it is
        return app

    return _run_app(build)


def unfinished_lines() -> tuple[list[str], int]:
    """``dvtui resume --list``: one line per unfinished game, newest first, and how many files
    could not be read."""
    games, bad = list_games()
    lines = []
    for saved in games:
        if saved.finished:
            continue
        game = saved.loaded.game
        names = _(", ").join(s.name for s in game.created.players)
        when = moment(datetime.fromtimestamp(saved.modified))
        parent = game.created.parent
        said = _("{names} · round {round} of {rounds} · last move {when}").format(
            names=names, round=game.round, rounds=game.rounds, when=when
        )
        if parent:
            said = _("{game} · branch of {file}").format(game=said, file=Path(parent).name)
        lines.append(f"{printable(str(saved.path))}\n    {printable(said)}")
    return lines, len(bad)


def run_resume(args: argparse.Namespace) -> int:
    """``dvtui resume [FILE]`` (the latest unfinished game without FILE), or ``--list``."""
    if args.list:
        if args.file:
            raise UsageError(_("--list takes no FILE"))
        lines, bad = unfinished_lines()
        if lines:
            print("\n".join(lines))
        else:
            print(_("No unfinished game in {directory}.").format(directory=printable(str(data_dir()))))
        if bad:
            said = ngettext(
                "({count} file could not be read; see: dvtui verify {directory})",
                "({count} files could not be read; see: dvtui verify {directory})",
                bad,
            )
            print(said.format(count=bad, directory=printable(str(data_dir()))), file=sys.stderr)
        return 0
    delay = checked_bot_delay(args.bot_delay)
    loaded = game_to_resume(args.file)
    if loaded is None:
        return 1
    if loaded.game.over:
        return finished_refusal(loaded)
    session = LocalSession.resume(loaded)  # a game locked elsewhere says so, terminal or not
    if not has_terminal():
        session.close()
    return _run(AppOptions(pace=load_pace(delay)), session, _without_screen_file(loaded))


def game_to_resume(file: str | None) -> LoadedGame | None:
    """The game ``dvtui resume [FILE]`` continues: FILE's, else the latest unfinished one (None,
    said on standard error, when there is none)."""
    if file:
        return read_game(Path(file).expanduser())
    saved = latest_unfinished()
    if saved is None:
        said = _("dvtui: no unfinished game in {directory}; start one with: dvtui new")
        print(said.format(directory=printable(str(data_dir()))), file=sys.stderr)
        return None
    return saved.loaded


def finished_refusal(loaded: LoadedGame) -> int:
    """``dvtui resume`` of a finished game: say so and how to watch it (exit 1), after repairing
    a torn end as verify asks."""
    game = loaded.game
    outcome = game.outcome()
    assert outcome is not None  # the game is over
    names = [s.name for s in game.created.players]
    result = describe_result(outcome, names)
    path = printable(loaded.path)
    said = _("{file}: this game is finished ({result}; players {names}).\nWatch it again: dvtui replay {file}")
    print(said.format(file=path, result=printable(result), names=printable(join_names(names))), file=sys.stderr)
    if loaded.torn is not None or loaded.missing_tail:  # what verify asks resume to do: repair its end
        writer = GameWriter.resume(loaded)
        writer.close()
        for notice in writer.notices:
            print(_("Repaired its end: {notice}").format(notice=printable(notice)), file=sys.stderr)
    return 1


# -- dvtui replay --------------------------------------------------------------------------------


def run_replay(args: argparse.Namespace) -> int:
    """``dvtui replay FILE``: the replay viewer. The file is only read; a branch ("play from
    here", key b) is a new game file, played on in the same app like ``dvtui resume`` would."""
    loaded = read_game(Path(args.file).expanduser(), checkpoints=True)  # the timeline builds on this fold

    def build() -> DvtuiApp:
        from ..app.app import DvtuiApp

        return DvtuiApp(Watch(loaded), AppOptions(handle_hangup=True))

    without = _("without one, read it: dvtui replay {file} --text").format(file=shlex.quote(str(loaded.path)))
    return _run_app(build, without)


# -- dvtui join / watch / new --table on screen ----------------------------------------------------


def run_table(
    place: ServerPlace, table: str, seat: int | None, *, watch: bool = False, bell: bool = True,
    user: str | None = None,
) -> int:  # fmt: skip
    """The live table of a shared table for ``seat`` (None: the server's choice), or watching it;
    ``user``: the person this account vouches for there. Leaving keeps the seat: ``dvtui join``
    takes it back where the game is."""
    if not has_terminal():  # said before joining: a refused start takes no seat
        without = (
            _("'dvtui tables' says where its game is")
            if watch
            else _("a bot can play a seat without one: dvtui join {table} --as SEAT --bot LEVEL").format(table=table)
        )
        said = _("the table needs a terminal (stdin and stdout are not one); {remedy}")
        raise UsageError(said.format(remedy=without))
    if seat is None and not watch and served_to_browser():
        return _choose_seat(place, table, bell=bell)
    loop, session = open_on_a_loop(place, table, seat, watch=watch, user=user)

    built: list[DvtuiApp] = []

    def build() -> DvtuiApp:
        from ..app.app import DvtuiApp

        built.append(DvtuiApp(session, AppOptions(handle_hangup=True, bell=bell, in_browser=served_to_browser())))
        return built[-1]

    try:
        code = _run_app(build, loop=loop)
    finally:
        session.close()
        close_loop(loop)
    shown = printable(table)
    from ..tables import RemoteSession

    last = built[-1].session if built else None  # the table's next game, when the app followed a rematch
    game = last.game if isinstance(last, RemoteSession) and last.table_name == session.table_name else session.game
    with contextlib.suppress(OSError):  # (a terminal gone with its window: nobody to tell)
        say_left(shown, game, watch=watch)
    return code


def say_left(shown: str, game: Game, *, watch: bool) -> None:
    """The line a table's screen leaves behind: the game's result, or how to come back to it."""
    if game.over:
        outcome = game.outcome()
        assert outcome is not None  # the game is over
        names = [s.name for s in game.created.players]
        print(_("table {table}: {result}").format(table=shown, result=printable(describe_result(outcome, names))))
    elif watch:
        print(_("Stopped watching table {table}; again: dvtui watch {table}").format(table=shown))
    else:
        print(_("Left table {table} (your seat stays yours); come back: dvtui join {table}").format(table=shown))


def open_on_a_loop(
    place: ServerPlace, table: str, seat: int | None, *, watch: bool, user: str | None
) -> tuple[asyncio.AbstractEventLoop, RemoteSession]:
    """A session at a shared table, opened on a new loop that the front then runs on: its client
    reads the table there, with no thread of its own (the loop is closed if the table refuses)."""
    from ..tables import RemoteSession

    loop = asyncio.new_event_loop()
    try:
        return loop, loop.run_until_complete(RemoteSession.open(place, table, seat=seat, watch=watch, user=user))
    except BaseException:
        loop.close()
        raise


def close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """End what still runs on ``loop`` (a table's reader, a request being sent), then close it."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()


def _choose_seat(place: ServerPlace, table: str, *, bell: bool) -> int:
    """A browser tab at a table (``dvtui web --table``): nobody there types ``--as``, so the seat
    is chosen in the page, among the table's seats as they are (who is there, what is free), and
    the table follows in the same app. Nothing is printed after: stdout is the closed tab's. A
    spare (``dvtui web`` starts one ahead of the next tab) asks the table who is there only once
    its tab has opened."""

    def build() -> DvtuiApp:
        from ..app.app import DvtuiApp
        from ..app.screens.seats import SeatChoice

        if is_spare():  # started by dvtui web ahead of its browser tab: the imports are done
            wait_for_tab()
        choice = SeatChoice(place, table, default_player_name(), user=vouched())  # the tab's person, once known
        options = AppOptions(handle_hangup=True, bell=bell, in_browser=served_to_browser())
        return DvtuiApp(ChooseSeat(choice), options)

    return _run_app(build)


__all__ = [
    "checked_bot_delay",
    "checked_setup",
    "close_loop",
    "default_player_name",
    "finished_refusal",
    "first_player",
    "game_to_resume",
    "open_on_a_loop",
    "output_path",
    "run_menu",
    "run_new",
    "run_replay",
    "run_resume",
    "run_table",
    "say_left",
]
