"""``--plain`` (also ``DVTUI_PLAIN=1`` and ``"plain": true`` in the settings): ``new``,
``resume``, ``replay``, ``join``, ``watch`` and the start menu as lines of text, for a screen
reader, a braille display or a terminal that only shows lines (``docs/PLAIN.md``).

The plain mode needs no terminal: it reads lines from stdin and writes lines to stdout, so it is
never refused for want of one, and it never imports Textual.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..engine import new_game, random_seed
from ..plain import Console, LocalPlay, PlainReplay, PlainTable, ask_players, plain_menu
from ..printable import printable
from ..replay import Replay
from ..store import new_save_path, read_game, saves_dir
from ..tables import ServerPlace
from .play import close_loop, open_on_a_loop, say_left


def run(args: argparse.Namespace) -> int:
    """The plain form of the start menu, ``new``, ``resume`` or ``replay``."""
    if args.command == "new":
        return run_new(args)
    if args.command == "resume":
        if args.list or args.headless:  # already lines: the command as it is
            from .play import run_resume

            return run_resume(args)
        return run_resume_plain(args)
    if args.command == "replay":
        return run_replay(args)
    return run_menu()


def run_new(args: argparse.Namespace) -> int:
    """``dvtui new --plain``: the seats from ``--players``, else asked as a line."""
    from .play import checked_setup, default_player_name, first_player, output_path

    seats = checked_setup(args)
    output = output_path(args.output)
    if output is None:
        saves_dir()  # refused before anything is asked
    if args.bot_delay is not None:
        from .play import checked_bot_delay

        checked_bot_delay(args.bot_delay)
    console = Console()
    if seats is None:
        seats = ask_players(console, default_player_name())
        if seats is None:
            return 0
    seed = args.seed if args.seed is not None else random_seed()
    created = new_game(seats, first_player=first_player(args), seed=seed)
    path = output if output is not None else new_save_path(created)
    from ..play.session import PlaySession

    return LocalPlay(PlaySession.start(created, path), console).run()


def run_resume_plain(args: argparse.Namespace) -> int:
    """``dvtui resume [FILE] --plain``: what ``dvtui resume`` checks, then the game as lines."""
    from ..play.session import PlaySession
    from .play import finished_refusal, game_to_resume

    loaded = game_to_resume(args.file)  # (none: said as dvtui resume says it)
    if loaded is None:
        return 1
    if loaded.game.over:
        return finished_refusal(loaded)
    return LocalPlay(PlaySession.resume(loaded), Console()).run(resumed=True)


def run_replay(args: argparse.Namespace) -> int:
    """``dvtui replay FILE --plain``."""
    loaded = read_game(Path(args.file).expanduser(), checkpoints=True)
    return PlainReplay(Replay.of(loaded), Console()).run()


def run_table(place: ServerPlace, table: str, seat: int | None, *, watch: bool = False, bell: bool = True,
              user: str | None = None) -> int:  # fmt: skip
    """A seat at a shared table (``seat`` None: the server's choice), or watching it, as lines;
    leaving keeps the seat, as it does on screen."""
    loop, session = open_on_a_loop(place, table, seat, watch=watch, user=user)
    try:
        code = loop.run_until_complete(PlainTable(session, Console(), bell=bell).run())
    finally:
        session.close()
        close_loop(loop)
    say_left(printable(table), session.game, watch=watch)
    return code


def run_menu() -> int:
    """``dvtui --plain`` alone: the start menu as lines."""
    from .play import default_player_name

    return plain_menu(Console(), default_player_name())


__all__ = ["run", "run_menu", "run_new", "run_replay", "run_resume_plain", "run_table"]
