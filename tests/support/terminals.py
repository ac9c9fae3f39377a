"""Terminals for the tests: a private tmux server whose sessions each run one dvtui command, read
as a person sees them (``capture-pane``) and typed into as a person types (``send-keys``)."""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from .processes import REPO, dvtui_cmd, env
from .servers import SLOW, wait_for


class Terminals:
    """A private tmux server; each session one terminal running one dvtui command."""

    def __init__(self, where: Path) -> None:
        self.tmux = ["tmux", "-S", str(where / "tmux.sock"), "-f", "/dev/null"]  # no user's tmux.conf
        self.env = env(where / "data")
        self.started = False
        self.where = where

    def run(self, name: str, *args: str) -> None:
        command = " ".join(shlex.quote(part) for part in dvtui_cmd(*args))
        script = f"cd {shlex.quote(str(REPO))} && exec {command}"  # the pane's process is dvtui itself
        # A pane whose program ended stays, to read what it said last: set with the server's first
        # session, in the same call, before that session's program can end.
        first = [] if self.started else [";", "set-option", "-g", "remain-on-exit", "on"]
        self._tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "sh", "-c", script, *first)
        self.started = True
        # What the pane's program writes is copied to a file too: its size says when the screen may
        # have changed (see :meth:`wait`).
        self._tmux("pipe-pane", "-t", name, f"cat >> {shlex.quote(str(self._output(name)))}")

    def _output(self, name: str) -> Path:
        return self.where / f"tmux-{name}.out"

    def screen(self, name: str) -> str:
        out = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True,
                             check=False)  # fmt: skip
        return out.stdout

    def keys(self, name: str, *keys: str) -> None:
        self._tmux("send-keys", "-t", name, *keys)

    def pid(self, name: str) -> int:
        out = subprocess.run([*self.tmux, "display-message", "-p", "-t", name, "#{pane_pid}"], capture_output=True,
                             text=True, check=True)  # fmt: skip
        return int(out.stdout)

    def dead(self, name: str) -> bool:
        out = subprocess.run([*self.tmux, "display-message", "-p", "-t", name, "#{pane_dead}"], capture_output=True,
                             text=True, check=False)  # fmt: skip
        return out.stdout.strip() == "1"

    def wait(self, name: str, what: str, check: Callable[[str], bool]) -> None:
        """Until ``check`` holds for ``name``'s screen. The screen is read (a tmux process each time)
        as soon as its program has written something new, looked for every hundredth of a second,
        and every :data:`SLOW` seconds whatever it wrote: a player's next turn is seen when it is
        drawn, not up to a tenth of a second later, 90 times a game."""
        output = self._output(name)
        seen = -1
        due = 0.0

        def shown() -> bool:
            nonlocal seen, due
            size = output.stat().st_size if output.exists() else -1
            now = time.monotonic()
            if size == seen and now < due:
                return False
            seen, due = size, now + SLOW
            return check(self.screen(name))

        wait_for(what, shown, lambda: f"{name}'s screen:\n{self.screen(name)}", 0.01)

    def _tmux(self, *args: str) -> None:
        subprocess.run([*self.tmux, *args], env=self.env, check=True, capture_output=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)
