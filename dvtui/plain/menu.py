"""The start menu as lines (``dvtui --plain`` alone): a new game, the latest unfinished one, or a
replay, each chosen by a word or its number."""

from __future__ import annotations

from pathlib import Path

from ..engine import new_game, random_seed
from ..i18n import _
from ..play.session import PlaySession
from ..printable import printable
from ..replay import Replay
from ..store import GameFileError, latest_unfinished, new_save_path, read_game
from .console import Console
from .local import LocalPlay, ask_players
from .replay import PlainReplay

CHOICES: dict[str, str] = {
    "1": "new", "new": "new", "nouvelle": "new", "n": "new",
    "2": "resume", "resume": "resume", "reprendre": "resume",
    "3": "replay", "replay": "replay", "revoir": "replay",
    "4": "quit", "q": "quit", "quit": "quit", "quitter": "quit",
}  # fmt: skip


def plain_menu(console: Console, default_name: str) -> int:
    """Ask what to do until a game has been played or the person quits."""
    say = console.say
    say(_("Dolce Vita. Type 1 or new for a new game, 2 or resume for your latest unfinished game, "
          "3 or replay to follow a game file, 4 or quit to leave."))  # fmt: skip
    while True:
        line = console.ask()
        if line is None:
            return 0
        choice = CHOICES.get(line.strip().lower())
        if choice == "quit":
            return 0
        if choice == "new":
            seats = ask_players(console, default_name)
            if seats is None:
                return 0
            created = new_game(seats, first_player=0, seed=random_seed())
            return LocalPlay(PlaySession.start(created, new_save_path(created)), console).run()
        if choice == "resume":
            saved = latest_unfinished()
            if saved is None:
                say(_("No unfinished game. Type 1 for a new game, 3 for a replay or 4 to leave."))
                continue
            return LocalPlay(PlaySession.resume(saved.loaded), console).run(resumed=True)
        if choice == "replay":
            code = _replay(console)
            if code is not None:
                return code
            continue
        say(_("Type 1, 2, 3 or 4 (new, resume, replay, quit)."))


def _replay(console: Console) -> int | None:
    """Ask for a file and follow it; None when it cannot be read (said, and the menu goes on)."""
    console.say(_("Which file? Type its path."))
    line = console.ask()
    if line is None:
        return 0
    try:
        loaded = read_game(Path(line.strip()).expanduser(), checkpoints=True)
    except (GameFileError, OSError) as e:
        console.say(printable(str(e)), _("Type 1, 2, 3 or 4 (new, resume, replay, quit)."))
        return None
    return PlainReplay(Replay.of(loaded), console).run()


__all__ = ["plain_menu"]
