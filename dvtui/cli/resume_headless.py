"""``dvtui resume FILE --headless``: finish a game whose remaining seats are all bots, without a UI.

The bots are deterministic (a move depends only on the state and the bot's seed), so a game
finished here ends exactly as it would have had it never been interrupted: the game is played by a
:class:`~dvtui.play.session.PlaySession`, as on the table, which appends and fsyncs every decision
as it is made, and a kill at any moment loses nothing a later resume would not make again.

SIGHUP and SIGTERM stop the game between two decisions (both already durable), within a second
even when a bot is thinking (see :mod:`dvtui.signals`).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..bots import UnknownBot, parse_bot
from ..describe import amount
from ..i18n import _
from ..play.session import PlaySession
from ..printable import printable
from ..rulewords import rule_words
from ..signals import HangupGuard
from ..store import GameFileError, LoadedGame, SaveError, latest_unfinished, read_game
from ..store.lock import GameLock
from .errors import UsageError

EXIT_SIGNALLED = 128  # + the signal number, as a shell reports a process ended by a signal


def why_bots_cannot_finish(loaded: LoadedGame) -> str | None:
    """Why the bots cannot finish this game alone (a human seat still has to place a card), or
    None when they can. Derived events owed at the end need no one."""
    game = loaded.game.copy()
    if game.derived_pending:
        game.derive_all()
    if game.over:
        return None
    seats = game.created.players
    humans = [i for i, s in enumerate(seats) if s.kind != "bot"]
    if not humans:
        return None
    who = game.to_move if game.to_move in humans else humans[0]
    return _("{name} (seat {seat}) is a human player and still has to move").format(name=seats[who].name, seat=who + 1)


def _check_bots(loaded: LoadedGame) -> None:
    for i, seat in enumerate(loaded.game.created.players):
        if seat.kind == "bot":
            try:
                parse_bot(seat.bot or "")
            except UnknownBot as e:
                raise GameFileError(loaded.path, 1, f"game_created: players[{i}].bot: {rule_words(e)}") from None


def _clear_stale_lock(path: Path) -> None:
    """A process killed after the game's last line leaves its lock file behind (the lock itself
    died with it): take it and let it go, which removes the file. Busy or impossible: leave it."""
    with contextlib.suppress(SaveError):
        GameLock.acquire(path).release()


def _pick_file(args: argparse.Namespace) -> Path:
    if args.file is not None:
        return Path(args.file)
    saved = latest_unfinished()
    if saved is None:
        from ..store import data_dir

        raise SaveError(f"no unfinished game in {data_dir()}; name a FILE")
    return saved.path


def run_resume_headless(args: argparse.Namespace) -> int:
    if getattr(args, "list", False):
        raise UsageError(_("--list and --headless do not go together"))
    path = _pick_file(args)
    loaded = read_game(path)
    err = sys.stderr
    for notice in loaded.notices:
        print(_("dvtui: notice: {message}").format(message=printable(notice)), file=err)
    repair = loaded.torn is not None or bool(loaded.missing_tail)
    if loaded.game.over and not repair:
        _clear_stale_lock(path)
        print(_("{file}: the game is already over; nothing to play").format(file=printable(str(path))), file=err)
        return 0
    why = why_bots_cannot_finish(loaded)
    if why is not None:
        raise SaveError(
            _("{file}: cannot finish headless: {why}; play it with 'dvtui resume {file}'").format(file=path, why=why)
        )
    _check_bots(loaded)
    delay = max(0.0, float(getattr(args, "bot_delay", None) or 0.0))
    signalled: list[int] = []
    guard = HangupGuard(signalled.append)
    guard.install()
    try:
        session = PlaySession.resume(loaded)
        try:
            for notice in session.notices[len(loaded.notices) :]:  # the file's own are printed above
                print(_("dvtui: notice: {message}").format(message=printable(notice)), file=err)
            if not session.play_bots(lambda: signalled, pause=delay):
                signum = signalled[0]
                shown = printable(str(path))
                said = _("dvtui: stopped by signal {signal}; every move so far is saved in {file}; "
                         "'dvtui resume {file} --headless' finishes it")  # fmt: skip
                print(said.format(signal=signum, file=shown), file=err)
                return EXIT_SIGNALLED + signum
        finally:
            session.close()
    finally:
        guard.uninstall()
    game = session.game
    scores = _(", ").join(f"{s.name} {amount(v)}" for s, v in zip(game.created.players, game.scores(), strict=True))
    print(_("{file}: game over: {scores}").format(file=printable(str(path)), scores=scores))
    return 0
