"""The app's two targets:

1. ``dvtui new`` to a drawn table, against the start-up of a minimal Textual app measured in the
   same run (target: within 1.5x). Each program runs in a pseudo-terminal of 160x50, and the time
   is from its start until its first screen holds a marker text ("to play" for the table, "Hello"
   for the minimal app); then it is told to quit.
2. A key press to its effect on screen at 160x50 (target: under 50 ms), with Pilot: the time from
   the key event being handed to the app until the app has composed the frame that shows it
   (Pilot's own idle waits are not counted). Card keys, column keys and arrows, then placements
   (which also save to disk and let the bots answer).

    python bench/bench_app.py [--repeat R] [--presses N] [--lang CODE]  (the table speaks CODE: en, fr)
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COLS, ROWS = 160, 50

MINIMAL_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Label

class Minimal(App):
    def compose(self) -> ComposeResult:
        yield Label("Hello")

Minimal().run()
"""


def time_to_marker(argv: list[str], marker: bytes, env: dict[str, str], quit_key: bytes) -> float:
    """Seconds from starting ``argv`` in a 160x50 pseudo-terminal until ``marker`` is on screen."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True
    )
    os.close(slave)
    seen = b""
    found: float | None = None
    deadline = start + 30
    try:
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if marker in seen:
                found = time.perf_counter() - start
                break
            if b"\x1b[6n" in chunk:  # a cursor position query: answer it as a terminal would
                os.write(master, b"\x1b[1;1R")
        os.write(master, quit_key)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    finally:
        os.close(master)
    if found is None:
        raise RuntimeError(f"{argv}: marker {marker!r} never appeared; output ends {seen[-300:]!r}")
    return found


TURN_MARKERS = {"en": b"to play", "fr": b"de jouer"}
"""What the table shows once it is someone's turn, in each language the bench speaks."""


def pty_env(data_dir: str) -> dict[str, str]:
    """The environment of a program timed in the pseudo-terminal: this checkout, a 160x50 xterm,
    saves in ``data_dir``."""
    return {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "TERM": "xterm-256color",
        "COLUMNS": str(COLS),
        "LINES": str(ROWS),
        "DVTUI_DATA_DIR": data_dir,
    }


def startup(repeat: int, lang: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = pty_env(tmp)
        minimal: list[float] = []
        table: list[float] = []
        for r in range(repeat + 1):  # the first round warms the disk cache and is not counted
            m = time_to_marker([sys.executable, "-c", MINIMAL_APP], b"Hello", env, b"\x11")
            out = Path(tmp) / f"bench-{r}.dvr"
            t = time_to_marker(
                [
                    sys.executable,
                    "-m",
                    "dvtui",
                    "--lang",
                    lang,
                    "new",
                    "--players",
                    "Ana,bot:greedy,bot:greedy",
                    "--seed",
                    "3",
                    "-o",
                    str(out),
                ],
                TURN_MARKERS.get(lang, b"to play"),
                env,
                b"q",
            )
            if r:
                minimal.append(m)
                table.append(t)
    mm, tm = statistics.median(minimal), statistics.median(table)
    print(f"start-up, {repeat} runs each, {COLS}x{ROWS} pty:")
    print(
        f"  minimal Textual app : median {mm * 1000:6.0f} ms  (min {min(minimal) * 1000:.0f}, "
        f"max {max(minimal) * 1000:.0f})"
    )
    print(
        f"  dvtui new -> table  : median {tm * 1000:6.0f} ms  (min {min(table) * 1000:.0f}, "
        f"max {max(table) * 1000:.0f})"
    )
    print(
        f"  ratio               : {tm / mm:.2f}x of the medians, {min(table) / min(minimal):.2f}x of the best "
        "runs  (target: within 1.5x)"
    )


async def key_latency(presses: int, lang: str) -> None:
    sys.path.insert(0, str(REPO))
    from textual import events

    from dvtui.i18n import set_language

    set_language(lang)
    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.options import AppOptions
    from dvtui.app.screens.table import TableScreen
    from dvtui.app.textual_private import driver
    from dvtui.engine import new_game
    from dvtui.play.local import LocalSession
    from dvtui.play.seats import parse_players

    with tempfile.TemporaryDirectory() as tmp:
        created = new_game(parse_players("Ana,bot:greedy,bot:greedy"), seed=3)
        session = LocalSession.start(created, Path(tmp) / "latency.dvr")
        app = DvtuiApp(session, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
        probe: dict[str, object] = {}
        display = app._display

        def timed_display(screen: object, renderable: object) -> None:
            """Every frame the app composes: the first one composed after the key's effect (the
            state change) is the one that shows it."""
            done = probe.get("done")
            if renderable is not None and callable(done) and "took" not in probe and done():
                probe["took"] = time.perf_counter() - probe["start"]  # type: ignore[operator]
            display(screen, renderable)  # type: ignore[arg-type]

        app._display = timed_display  # type: ignore[method-assign]
        async with app.run_test(size=(COLS, ROWS)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)

            async def press(key: str, done: Callable[[], bool]) -> float:
                probe.clear()
                probe["done"] = done
                probe["start"] = time.perf_counter()
                driver(app).send_message(events.Key(key, key if len(key) == 1 else None))
                while "took" not in probe:
                    await asyncio.sleep(0)
                    if time.perf_counter() - probe["start"] > 5:  # type: ignore[operator]
                        raise RuntimeError(f"no frame showed the effect of {key!r}")
                took = probe["took"]
                probe.clear()
                return took  # type: ignore[return-value]

            picks: list[float] = []
            moves: list[float] = []
            for i in range(presses):
                card = screen.session.game.hands[0][i % len(screen.session.game.hands[0])]
                picks.append(await press(str(card), lambda c=card: screen.flow.cursor.card == c))
                await pilot.pause()
                column = (i * 3) % 7
                key = "abcdefg"[column] if i % 2 else "right"
                want = column if i % 2 else (screen.flow.cursor.column + 1) % 7
                moves.append(await press(key, lambda w=want: screen.flow.cursor.column == w))
                await pilot.pause()
            places: list[float] = []
            for _ in range(8):  # a placement: saved, drawn (the bots' answers come after)
                while screen.flow.placer() is None or screen.flow.resolution is not None:
                    if screen.flow.resolution is not None:
                        screen.action_skip()
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                game = screen.session.game
                screen.flow.cursor.card = game.hands[0][0]
                count = len(screen.session.events)  # (the round's last placement empties the placements)
                places.append(await press("enter", lambda n=count: len(screen.session.events) > n))
                await pilot.pause()

    def report(name: str, samples: list[float]) -> None:
        ms = sorted(s * 1000 for s in samples)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        print(
            f"  {name:<28}: median {statistics.median(ms):5.1f} ms, p95 {p95:5.1f} ms, "
            f"max {ms[-1]:5.1f} ms ({len(ms)} presses)"
        )

    print(f"key press to effect on screen, Pilot at {COLS}x{ROWS} (target: under 50 ms):")
    report("card (1-6)", picks)
    report("column (a-g, right)", moves)
    report("place (Enter, saved)", places)
    report("all of the above", picks + moves + places)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--presses", type=int, default=30)
    ap.add_argument("--lang", default="en", help="the language the app speaks (default en)")
    args = ap.parse_args()
    print(f"language: {args.lang}")
    startup(args.repeat, args.lang)
    asyncio.run(key_latency(args.presses, args.lang))


if __name__ == "__main__":
    main()
