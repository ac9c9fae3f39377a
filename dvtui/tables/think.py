"""A bot's move in a worker process of the server's pool (a module of its own, light to import)."""

from __future__ import annotations

import os
import threading
import time

from ..bots import Placement, choose, parse_bot
from ..engine import Game


def watch_server(pid: int) -> None:
    """A worker's initializer: leave when the server process ``pid`` is gone. A server killed with
    -9 cannot shut its pool down, and its workers would otherwise wait for work forever."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # (a pid taken by another user's process: ours is gone)
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="dvtui-watch-server").start()


def think(game: Game, level: str, seed: int) -> Placement:
    """The (card, column) bot ``level`` places for the player to move in ``game``."""
    return choose(parse_bot(level), game, seed)
