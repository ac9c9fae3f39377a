"""Terminals for the tests: a private tmux server whose sessions each run one dvtui command, read
as a person sees them (``capture-pane``) and typed into as a person types (``send-keys``)."""

from __future__ import annotations

import shlex
import subprocess
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

    def run(self, name: str, *args: str) -> None:
        command = " ".join(shlex.quote(part) for part in dvtui_cmd(*args))
        script = f"cd {shlex.quote(str(REPO))} && exec {command}"  # the pane's process is dvtui itself
        # A pane whose program ended stays, to read what it said last: set with the server's first
        # session, in the same call, before that session's program can end.
        first = [] if self.started else [";", "set-option", "-g", "remain-on-exit", "on"]
        self._tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "sh", "-c", script, *first)
        self.started = True

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
        wait_for(what, lambda: check(self.screen(name)), lambda: f"{name}'s screen:\n{self.screen(name)}", SLOW)

    def _tmux(self, *args: str) -> None:
        subprocess.run([*self.tmux, *args], env=self.env, check=True, capture_output=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)
