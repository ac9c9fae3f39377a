"""``dvtui new`` and ``dvtui resume``: check the flags, open or create the game file, run the app.

Bad flags are refused before any screen opens (one line, exit 2, through ``UsageError``); files
that cannot be read or written become the CLI's one-line errors (exit 1).
"""

from __future__ import annotations

import argparse
import gc
import secrets
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import new_game
from ..seats import SeatError, parse_players
from ..store import GameWriter, LoadedGame, data_dir, latest_unfinished, list_games, new_save_path, read_game
from .config import MAX_BOT_DELAY, SetupDefaults, default_player_name, load_pace
from .describe import describe_result, join_names
from .session import PlaySession

if TYPE_CHECKING:  # Textual is imported only when an app really starts (flag errors stay fast)
    from .app import DvtuiApp

SEED_RANGE = 1_000_000
"""A random seed is drawn below this: six digits are easy to read out and type again."""


def _usage(message: str) -> Exception:
    from ..cli import UsageError

    return UsageError(message)


def pick_seed() -> int:
    """A seed for a game whose seed was not given; recorded in ``game_created``."""
    return secrets.randbelow(SEED_RANGE)


def _bot_delay(value: float | None) -> float | None:
    if value is None:
        return None
    if not 0 <= value <= MAX_BOT_DELAY:
        raise _usage(f"--bot-delay must be between 0 and {MAX_BOT_DELAY:g} seconds, not {value:g}")
    return value


def _output(text: str | None) -> Path | None:
    if text is None:
        return None
    path = Path(text).expanduser()
    if path.exists():
        raise _usage(f"{path} already exists; choose another file (or continue it: dvtui resume {path})")
    if not path.parent.is_dir():
        raise _usage(f"{path.parent}: no such directory")
    return path


def _run(app_args: dict[str, object], session: PlaySession | None) -> int:
    def build() -> DvtuiApp:
        from .app import DvtuiApp

        return DvtuiApp(session, handle_hangup=True, **app_args)  # type: ignore[arg-type]

    return _run_app(build)


def _run_app(build: Callable[[], DvtuiApp]) -> int:
    """Start the app ``build`` makes, run it, close its game, and say where the game is."""
    # Start-up makes many objects that live as long as the program (modules, styles): the
    # garbage collector would walk them again and again while Textual loads and the first screen
    # is built (a third of the start-up). So it waits, and then leaves them alone (frozen).
    gc.disable()
    try:
        app = build()
    finally:
        gc.freeze()
        gc.enable()
    try:
        app.run()
    finally:
        if app.session is not None:
            app.session.close()
    code = app.return_code or 0
    played = app.session
    if played is not None and played.path is not None and not app.hung_up:
        game = played.game
        try:
            if game.over:
                print(f"Game over. Watch it again: dvtui replay {played.path}")
            else:
                print(f"Game saved in {played.path}\nContinue it: dvtui resume {played.path}")
            if app.branched == played.path and game.created.parent:
                print(f"Branched from {game.created.parent} (left as it was)")
        except OSError:
            pass
    return code


def run_new(args: argparse.Namespace) -> int:
    """``dvtui new``: with ``--players`` straight to the table, else the set-up screen first."""
    seats = None
    if args.players:
        try:
            seats = parse_players(args.players)
        except SeatError as e:
            raise _usage(str(e)) from None
    first = args.first
    if first is not None:
        count = len(seats) if seats else 5
        if not 0 <= first < count:
            raise _usage(f"--first must be a seat from 0 to {count - 1}, not {first}")
    delay = _bot_delay(args.bot_delay)
    output = _output(args.output)
    pace = load_pace(delay)
    if seats is None:
        defaults = SetupDefaults(first=first or 0, seed=args.seed, default_name=default_player_name())
        return _run(
            {"setup": defaults, "pace": pace, "output": output, "seed_source": pick_seed,
             "save_path": new_save_path},
            None,
        )
    seed = args.seed if args.seed is not None else pick_seed()
    created = new_game(seats, first_player=first or 0, seed=seed)
    path = output if output is not None else new_save_path(created)
    session = PlaySession.start(created, path)
    return _run({"pace": pace}, session)


def unfinished_lines() -> tuple[list[str], int]:
    """``dvtui resume --list``: one line per unfinished game, newest first, and how many files
    could not be read."""
    games, bad = list_games()
    lines = []
    for saved in games:
        if saved.finished:
            continue
        game = saved.loaded.game
        names = ", ".join(s.name for s in game.created.players)
        when = datetime.fromtimestamp(saved.modified).strftime("%Y-%m-%d %H:%M")
        parent = game.created.parent
        branch = f" · branch of {Path(parent).name}" if parent else ""
        lines.append(f"{saved.path}\n    {names} · round {game.round} of {game.rounds} · last move {when}{branch}")
    return lines, len(bad)


def run_resume(args: argparse.Namespace) -> int:
    """``dvtui resume [FILE]`` (the latest unfinished game without FILE), or ``--list``."""
    if args.list:
        if args.file:
            raise _usage("--list takes no FILE")
        lines, bad = unfinished_lines()
        if lines:
            print("\n".join(lines))
        else:
            print(f"No unfinished game in {data_dir()}.")
        if bad:
            print(f"({bad} file{'s' if bad > 1 else ''} could not be read; see: dvtui verify {data_dir()})",
                  file=sys.stderr)
        return 0
    delay = _bot_delay(args.bot_delay)
    loaded: LoadedGame
    if args.file:
        loaded = read_game(Path(args.file).expanduser())
    else:
        saved = latest_unfinished()
        if saved is None:
            print(f"dvtui: no unfinished game in {data_dir()}; start one with: dvtui new", file=sys.stderr)
            return 1
        loaded = saved.loaded
    game = loaded.game
    if game.over:
        names = [s.name for s in game.created.players]
        scores = game.scores()
        best = max(scores)
        from ..engine import GameEnded

        result = describe_result(GameEnded(scores=scores, winners=[p for p in range(game.n) if scores[p] == best]),
                                 names)
        print(f"{loaded.path}: this game is finished ({result}; players {join_names(names)}).\n"
              f"Watch it again: dvtui replay {loaded.path}", file=sys.stderr)
        if loaded.torn is not None or loaded.missing_tail:  # what verify asks resume to do: repair its end
            writer = GameWriter.resume(loaded)
            writer.close()
            for notice in writer.notices:
                print(f"Repaired its end: {notice}", file=sys.stderr)
        return 1
    session = PlaySession.resume(loaded)
    return _run({"pace": load_pace(delay)}, session)


# -- dvtui replay (issue 4; added by the replay helper) -----------------------------------------


def run_replay(args: argparse.Namespace) -> int:
    """``dvtui replay FILE``: the replay viewer. The file is only read; a branch ("play from
    here", key b) is a new game file, played on in the same app like ``dvtui resume`` would."""
    loaded = read_game(Path(args.file).expanduser())

    def build() -> DvtuiApp:
        from .replay_app import ReplayApp

        return ReplayApp(loaded, handle_hangup=True)

    return _run_app(build)


__all__ = ["pick_seed", "run_new", "run_replay", "run_resume"]
