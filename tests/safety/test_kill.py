"""kill -9 of a headless bot game at random moments: nothing acknowledged is lost, and the game,
resumed, ends byte-identical (apart from ``at``) to the same game never interrupted.

Each case starts ``python -m dvtui resume FILE --headless`` on a new bot-only game and kills it with
SIGKILL at a random moment: most at a random point of its progress (once the file holds a random
number of lines, then at once or after a random fraction of the time a decision takes, so kills
land in bot thinking, in the bots' pause and in ``fsync`` alike), some at a random time in its
first 0.4 s (start-up, before the file is even locked, and the first moves). Then the same command,
run again, finishes the game.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.store import read_game

from ..support.files import reference, start_game, strip_at
from ..support.positions import BOTS3
from ..support.processes import dvtui_cmd, env

KILLS = 40
"""Cases; ~0.35 s each on the CI machine (a Python start, a partial game, an in-process resume).
Forty land at every kind of moment, as runs that read each victim's ``/proc/PID/syscall`` when it
was killed showed (seeds 20261121, 4 and 5, on a loaded machine; the more load, the more kills in
start-up): 3 to 9 before its first move (some before the file is locked), 1 to 6 after its last
line, the rest in the game, in the bots' pause, thinking, or (1 to 3 of them: it lasts a fraction
of a millisecond) in ``fsync``, which leaves the file as a kill just after it does, since the
written bytes outlive the process. A hundred only repeated them."""
SEED = 20261121
PACE = 0.001
"""Seconds the bots wait between decisions (--bot-delay): without it a fast machine plays several
decisions between two looks at the file (every half millisecond), and a kill meant for mid-game
lands after its end. A millisecond keeps them apart; more only makes each case longer (a game is
140 lines: at 3 ms its pacing alone was 0.4 s, most of a case)."""


def _kill_at_random(path: Path, rng: random.Random, total_lines: int) -> int:
    """Run the headless game and SIGKILL it; returns the lines the file held when it died."""
    proc = subprocess.Popen(
        dvtui_cmd("resume", str(path), "--headless", "--bot-delay", str(PACE)),
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        draw = rng.random()
        if draw < 0.2:  # any moment, start-up included (a game over sooner has nothing to kill)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=rng.uniform(0.0, 0.4))
        else:
            target = rng.randrange(1, total_lines)
            size = -1
            while proc.poll() is None:
                # the file is read and counted only once it grew: most looks fall in the process's
                # start-up, and a size costs a fraction of reading the file
                if size != (size := os.stat(path).st_size) and path.read_bytes().count(b"\n") >= target:
                    break
                time.sleep(0.0005)
            if draw > 0.5:  # somewhere inside the next decision or two; else at once: in the fsync
                time.sleep(rng.uniform(0.0, 2 * PACE))  # that follows the write, or just after it
    finally:
        proc.kill()
        proc.wait(timeout=30)
    return path.read_bytes().count(b"\n")


@pytest.mark.long
def test_kill_minus_nine_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    full = reference(BOTS3, seed=5)
    want = strip_at(full)
    total = full.count(b"\n")
    died_at: Counter[str] = Counter()
    finished = torn = 0
    for case in range(KILLS):
        path = start_game(tmp_path / f"game-{case}.dvr", BOTS3, seed=5)
        lines = _kill_at_random(path, rng, total)
        before = path.read_bytes()
        # everything the killed process wrote is there: complete lines, a prefix of the game, then at
        # most a torn piece of the next write (Linux stops a write at a page boundary when a SIGKILL
        # is pending); that write was never acknowledged, and the resume below cuts it off
        whole = before[: before.rfind(b"\n") + 1]
        torn += whole != before
        assert want.startswith(strip_at(whole)), case
        where = "before its first move" if lines <= 1 else "after the game ended" if lines == total else "mid-game"
        died_at[where] += 1
        assert main(["resume", str(path), "--headless"]) == 0, case
        after = path.read_bytes()
        assert strip_at(after) == want, f"case {case}: killed at line {lines}, resumed game differs"
        assert after.startswith(whole), case  # resuming keeps every whole line, and only appends
        loaded = read_game(path)
        assert loaded.game.over and loaded.torn is None and not loaded.missing_tail, case
        finished += 1
        # no lock left; beside the games, only the copy of each torn file as it was (kept by the resume)
        left = set(os.listdir(tmp_path)) - {f"game-{i}.dvr" for i in range(case + 1)}
        assert {name.partition(".dvr.torn-")[0] for name in left} <= {f"game-{i}" for i in range(case + 1)}, left
        assert len(left) == torn, (case, left)
    print(
        f"\nkill -9 test: {KILLS} kills, {finished} resumed games identical to the uninterrupted one; "
        f"killed {dict(died_at)}; {torn} left a torn last line"
    )
    assert finished == KILLS
    assert died_at["mid-game"] >= KILLS // 2  # the kills did land inside games
