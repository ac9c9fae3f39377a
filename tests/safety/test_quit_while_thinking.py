"""Quitting while a bot thinks: the process leaves at once, not when the search would have ended.

The bot searches in a thread, which cannot be killed, and Python waits for it at exit; so the
search looks at a stop flag. The real program runs in a private tmux server (a real terminal);
"within 5 seconds" is not a speed claim but the bound of a wait for something that must happen (the
bot's own budget here is 10 seconds, which an unstoppable search would use up). Needs ``tmux``.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dvtui.store import lock_path, read_game

from ..support.processes import REPO, dvtui_cmd, env

pytestmark = pytest.mark.tmux

EXIT_WAIT = 5.0
"""How long the program may take to leave after ``q`` (a bot stopped mid-search leaves at once)."""
START_WAIT = 60.0
"""Starting the app on a shared machine: a failure only if it never happens."""


def _wait(what: str, check: Callable[[], bool], limit: float, explain: Callable[[], str] = lambda: "") -> float:
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > limit:
            raise AssertionError(f"no {what} within {limit} s\n{explain()}")
        time.sleep(0.05)
    return time.perf_counter() - start


def test_q_while_a_strong_bot_thinks_ends_the_process_at_once(tmp_path: Path) -> None:
    game = tmp_path / "game.dvr"
    status = tmp_path / "status"
    sock = str(tmp_path / "tmux.sock")
    variables = env(tmp_path / "data")
    command = " ".join(
        shlex.quote(part)
        for part in dvtui_cmd(
            "new",
            "--players",
            "bot:strong@10s,bot:greedy,bot:greedy",
            "--seed",
            "3",
            "--bot-delay",
            "0",
            "-o",
            str(game),
        )
    )
    script = f"cd {shlex.quote(str(REPO))} && {command}; echo $? > {shlex.quote(str(status))}"
    tmux = ["tmux", "-S", sock]
    subprocess.run([*tmux, "new-session", "-d", "-x", "80", "-y", "24", "sh", "-c", script], env=variables, check=True)
    try:

        def screen() -> str:
            out = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True, check=False)
            return out.stdout

        _wait("bot thinking on the screen", lambda: "thinking" in screen(), START_WAIT, screen)
        time.sleep(1.0)  # well into the search (a quit before it starts has nothing to stop)
        subprocess.run([*tmux, "send-keys", "q"], check=True)
        took = _wait("exit after q", status.exists, EXIT_WAIT, screen)
        print(f"\nq while strong@10s thinks: the process left after {took:.2f} s")
        _wait("exit status", lambda: status.read_text().strip() != "", EXIT_WAIT)
        assert status.read_text().strip() == "0"
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)
    assert not lock_path(game).exists()
    loaded = read_game(game)  # the game is as it was left: nothing placed, nothing torn
    assert loaded.torn is None and len(loaded.events) == 1
