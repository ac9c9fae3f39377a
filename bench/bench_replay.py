"""The replay viewer's three targets:

1. The state at any event of a 5-player game in under 2 ms: :meth:`dvtui.replay.Replay.state_at`
   (a checkpoint at each round start, then at most one round of events) at every moment of
   ``replays/game-5p.dvr``, against folding the prefix from the first event (what it avoids).
2. A scrub key press to the redrawn table under 50 ms at 160x50, with Pilot: from the key event
   handed to the app until the app has composed the first frame showing the new moment (Pilot's
   own idle waits are not counted). ←/→, Shift+←/→, PgUp/PgDn, Home/End, a round's number.
3. Opening a replay to a drawn table within 1.5x the start-up of a minimal Textual app, measured in
   the same run: each program in a 160x50 pseudo-terminal, from its start until its first screen
   holds a marker ("REPLAY" on the viewer's top bar, "Hello" for the minimal app).

With ``--maximal``, the same over the largest game file the reader accepts (32 MiB of a placement
and its undo, again and again, in round 1: half a million events): opening it, a jump anywhere
(End, Home, PgUp/PgDn, a click far away) to the redrawn table, ``q`` answered after a jump, the
state at sampled events, and the peak memory of the viewer.

    python bench/bench_replay.py [--repeat R] [--presses N] [--maximal]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from dvtui.engine import Event, Game, GameCreated  # noqa: E402
from dvtui.store import encode_line  # noqa: E402

COLS, ROWS = 160, 50
GAME = REPO / "replays" / "game-5p.dvr"
WAIT = 900
"""Seconds a key of the jump benchmark may take before it is given up on."""
SAMPLED = 2000
"""Moments timed per pass in a file longer than this (every one in a shorter file); ``--sample``."""


def report(name: str, samples: list[float], unit: str = "ms", scale: float = 1000) -> None:
    values = sorted(s * scale for s in samples)
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    print(
        f"  {name:<34}: median {statistics.median(values):7.3f} {unit}, p99 {p99:7.3f} {unit}, "
        f"max {values[-1]:7.3f} {unit} ({len(values)} samples)"
    )


def fold_prefix(events: Sequence[Event], k: int) -> Game:
    """The engine's plain fold of ``events[0..k]``, event by event from the deal: the reference
    :meth:`dvtui.replay.Replay.state_at` is timed against."""
    first = events[0]
    assert isinstance(first, GameCreated)
    game = Game(first)
    for event in events[1 : k + 1]:
        game.apply(event)
    return game


def undo_loop(path: Path, size: int) -> None:
    """A valid game file of at most ``size`` bytes that never leaves round 1: the deal of
    replays/game.dvr, then a placement by the player to move and its undo, again and again (with
    ``size`` the reader's bound, the most events a file can hold)."""
    from dvtui.store import read_game

    created = read_game(REPO / "replays" / "game.dvr").created
    first = encode_line(created, 0)
    game = Game(created)
    card, column = game.legal_placements()[0]
    move = b'"round":1,"player":%d,"column":%d,"card":%d}\n' % (game.to_move, column, card)
    pair = b'{"type":"card_placed",' + move + b'{"type":"placement_undone",' + move
    path.write_bytes(first + pair * ((size - len(first)) // len(pair)))


def state_at(repeat: int) -> None:
    from dvtui.replay import Replay
    from dvtui.store import read_game

    loaded = read_game(GAME, checkpoints=True)
    builds: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        if len(loaded.events) > SAMPLED:  # what opening a long file costs before the first frame
            loaded = read_game(GAME, checkpoints=True)
        replay = Replay.of(loaded)
        builds.append(time.perf_counter() - t)
    small = len(replay.events) <= SAMPLED
    moments = range(len(replay.events)) if small else random.Random(1).sample(range(len(replay.events)), SAMPLED)
    indexed: list[float] = []
    cpu: list[float] = []
    folded: list[float] = []
    for _ in range(repeat):
        for k in moments:
            t, c = time.perf_counter(), time.thread_time()
            replay.state_at(k)
            indexed.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
        for k in moments if small else ():  # from event 0 in a long file: seconds each
            t = time.perf_counter()
            fold_prefix(replay.events, k)
            folded.append(time.perf_counter() - t)
    which = "every event" if small else f"{SAMPLED} events drawn at random"
    print(
        f"state at an event, {GAME.name} ({replay.n} players, {len(replay.events)} events), "
        f"{which} x {repeat} (target: under 2 ms):"
    )
    report("read_game + index, built once" if not small else "index (checkpoints), built once", builds)
    report("state_at(k) from checkpoints", indexed)
    report("state_at(k), CPU time (no wait)", cpu)
    if folded:
        report("for reference: fold from event 0", folded)


async def scrub_latency(presses: int) -> None:
    from textual import events

    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.options import AppOptions, Watch
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.textual_private import driver
    from dvtui.store import read_game

    app = DvtuiApp(Watch(read_game(GAME, checkpoints=True)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    probe: dict[str, object] = {}
    display = app._display

    def timed_display(screen: object, renderable: object) -> None:
        """Every frame the app composes: the first one composed after the moment changed is the
        one that shows it."""
        done = probe.get("done")
        if renderable is not None and callable(done) and "took" not in probe and done():
            probe["took"] = time.perf_counter() - probe["start"]  # type: ignore[operator]
        display(screen, renderable)  # type: ignore[arg-type]

    app._display = timed_display  # type: ignore[method-assign]
    samples: dict[str, list[float]] = {}
    async with app.run_test(size=(COLS, ROWS)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        replay = screen.replay

        async def press(name: str, key: str, want: int) -> None:
            if want == screen.moment:
                return
            probe.clear()
            probe["done"] = lambda: screen.moment == want
            probe["start"] = time.perf_counter()
            char = key if len(key) == 1 else None
            driver(app).send_message(events.Key(key, char))
            while "took" not in probe:
                await asyncio.sleep(0)
                if time.perf_counter() - probe["start"] > 5:  # type: ignore[operator]
                    raise RuntimeError(f"no frame showed the effect of {key!r}")
            samples.setdefault(name, []).append(probe["took"])  # type: ignore[arg-type]
            probe.clear()
            await pilot.pause()

        for i in range(presses):
            k = screen.moment
            if k >= replay.last - 2:
                await press("Home / End", "home", 0)
                continue
            await press("→ (one event)", "right", k + 1)
            await press("← (one event)", "left", k)
            await press("→ (one event)", "right", k + 1)
            await press("Shift+→ (one turn)", "shift+right", replay.next_turn(screen.moment))
            if i % 3 == 0:
                await press("Shift+← (one turn)", "shift+left", replay.previous_turn(screen.moment))
            if i % 5 == 4:
                await press("PgDn (one round)", "pagedown", replay.next_round(screen.moment))
                await press("PgUp (one round)", "pageup", replay.previous_round(screen.moment))
                await press("End", "end", replay.last)
                round_ = i % replay.rounds + 1
                await press("a round's number", str(round_), replay.round_starts[round_ - 1])
    print(f"scrub key press to the redrawn table, Pilot at {COLS}x{ROWS}, {GAME.name} (target: under 50 ms):")
    everything: list[float] = []
    for name, values in samples.items():
        report(name, values)
        everything.extend(values)
    report("all of the above", everything)


async def _jump_run(samples: dict[str, list[float]], quits: list[float]) -> int:
    """One run of :func:`jump_latency`; returns the number of events."""
    from textual import events

    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.options import AppOptions, Watch
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.textual_private import driver
    from dvtui.app.widgets.timeline_bar import TimelineBar
    from dvtui.store import read_game

    app = DvtuiApp(Watch(read_game(GAME, checkpoints=True)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    probe: dict[str, object] = {}
    display = app._display

    def timed_display(screen: object, renderable: object) -> None:
        done = probe.get("done")
        if renderable is not None and callable(done) and "took" not in probe and done():
            probe["took"] = time.perf_counter() - probe["start"]  # type: ignore[operator]
        display(screen, renderable)  # type: ignore[operator]

    app._display = timed_display  # type: ignore[method-assign]
    async with app.run_test(size=(COLS, ROWS)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        replay = screen.replay

        async def press(name: str, key: str | None, want: int) -> None:
            probe.clear()
            probe["done"] = lambda: screen.moment == want
            probe["start"] = time.perf_counter()
            if key is None:  # a click on the bar, as the bar posts it
                screen.query_one(TimelineBar).post_message(TimelineBar.Jump(want))
            else:
                driver(app).send_message(events.Key(key, key if len(key) == 1 else None))
            while "took" not in probe:
                await asyncio.sleep(0)
                if time.perf_counter() - probe["start"] > WAIT:  # type: ignore[operator]
                    raise RuntimeError(f"no frame showed the effect of {key!r}")
            samples.setdefault(name, []).append(probe["took"])  # type: ignore[arg-type]
            probe.clear()
            await pilot.pause()

        last = replay.last
        await press("End", "end", last)
        await press("Home", "home", 0)
        await press("End", "end", last)
        await press("PgUp (round 1's start)", "pageup", replay.previous_round(last))
        await press("PgDn (the end: no round 2)", "pagedown", replay.next_round(0))
        await press("← (one event)", "left", last - 1)
        await press("a click mid-way on the bar", None, last // 2)
        await press("→ (one event)", "right", last // 2 + 1)
        await press("Home", "home", 0)
    return len(replay.events)


async def _end_and_quit(quits: list[float]) -> None:
    """A fresh viewer: End, then ``q`` while End's frame is drawn, to the app's exit."""
    from textual import events

    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.options import AppOptions, Watch
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.textual_private import driver
    from dvtui.store import read_game

    app = DvtuiApp(Watch(read_game(GAME, checkpoints=True)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(COLS, ROWS)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        start = time.perf_counter()
        driver(app).send_message(events.Key("end", None))
        while screen.moment != screen.replay.last:
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)  # as a person presses q: after End, its frame under way
        driver(app).send_message(events.Key("q", "q"))
        while app.is_running and time.perf_counter() - start < WAIT:
            await asyncio.sleep(0.001)
        quits.append(time.perf_counter() - start)


async def jump_latency(repeat: int) -> None:
    """In a long file: End then ``q`` in a fresh viewer, to its exit (a key queued behind a jump
    waits for its frame); then each jump key to the first frame showing its moment."""
    events = 0
    samples: dict[str, list[float]] = {}
    quits: list[float] = []
    for _ in range(repeat):
        await _end_and_quit(quits)
        events = await _jump_run(samples, quits)
    print(f"jumps in {GAME.name} ({events} events), Pilot at {COLS}x{ROWS}, {repeat} runs (target: under 0.5 s):")
    for name, values in samples.items():
        report(name, values)
    report("End then q, to the exit", quits)


def startup(repeat: int) -> None:
    from bench_app import MINIMAL_APP, pty_env, time_to_marker  # the live table's benchmark, same method

    with tempfile.TemporaryDirectory() as tmp:
        env = pty_env(tmp)
        minimal: list[float] = []
        viewer: list[float] = []
        table: list[float] = []
        before = GAME.read_bytes()
        for r in range(repeat + 1):  # the first round warms the disk cache and is not counted
            m = time_to_marker([sys.executable, "-c", MINIMAL_APP], b"Hello", env, b"\x11")
            v = time_to_marker([sys.executable, "-m", "dvtui", "replay", str(GAME)], b"REPLAY", env, b"q")
            t = time_to_marker(
                [
                    sys.executable,
                    "-m",
                    "dvtui",
                    "new",
                    "--players",
                    "Ana,bot:greedy,bot:greedy",
                    "--seed",
                    "3",
                    "-o",
                    str(Path(tmp) / f"new-{r}.dvr"),
                ],
                b"to play",
                env,
                b"q",
            )
            if r:
                minimal.append(m)
                viewer.append(v)
                table.append(t)
        assert GAME.read_bytes() == before
    mm, vm = statistics.median(minimal), statistics.median(viewer)
    print(f"start-up, {repeat} runs each, {COLS}x{ROWS} pty:")
    print(
        f"  minimal Textual app        : median {mm * 1000:6.0f} ms  (min {min(minimal) * 1000:.0f}, "
        f"max {max(minimal) * 1000:.0f})"
    )
    print(
        f"  dvtui replay -> drawn table: median {vm * 1000:6.0f} ms  (min {min(viewer) * 1000:.0f}, "
        f"max {max(viewer) * 1000:.0f})"
    )
    print(
        f"  ratio                      : {vm / mm:.2f}x  (target: within 1.5x; "
        f"best runs {min(viewer) / min(minimal):.2f}x)"
    )
    tm = statistics.median(table)
    print(f"  for reference, dvtui new   : median {tm * 1000:6.0f} ms, {tm / mm:.2f}x (the live table)")


VIEWER = """
import asyncio, sys
from dvtui.app.config import Pace
from dvtui.app.app import DvtuiApp
from dvtui.app.options import AppOptions, Watch
from dvtui.store import read_game

async def main() -> None:
    options = AppOptions(pace=Pace(bot_delay=0.0, step_delay=None))
    app = DvtuiApp(Watch(read_game(sys.argv[1], checkpoints=True)), options)
    async with app.run_test(size=(160, 50)) as pilot:
        for key in ("end", "home", "pageup", "end", "left"):
            await pilot.press(key)
            await pilot.pause()

asyncio.run(main())
print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
"""
"""A viewer in a process of its own: opened, End, Home, PgUp, End, ←; then its peak resident set
(VmHWM, which starts afresh at exec: ``getrusage`` would count what the benchmark held at fork)."""


def peak_memory() -> None:
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-c", VIEWER, str(GAME)], env=env, capture_output=True, text=True, check=True, timeout=WAIT
    )
    print(
        f"peak RSS of a viewer over {GAME.name} (opened, End, Home, PgUp, End, ←): "
        f"{int(run.stdout.split()[-1]) / 1024:.0f} MB"
    )


def main(argv: list[str] | None = None) -> None:
    global GAME, SAMPLED
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5, help="start-up runs, and passes over every event")
    ap.add_argument("--presses", type=int, default=30, help="rounds of scrub keys")
    ap.add_argument("--sample", type=int, default=SAMPLED, help="events timed per pass in a long file")
    ap.add_argument(
        "--maximal", action="store_true", help="the largest file the reader accepts instead of replays/game-5p.dvr"
    )
    args = ap.parse_args(argv)
    SAMPLED = args.sample
    with tempfile.TemporaryDirectory() as tmp:
        if args.maximal:
            from dvtui.store.reader import MAX_FILE_BYTES

            GAME = Path(tmp) / "maximal.dvr"
            undo_loop(GAME, MAX_FILE_BYTES)
        state_at(args.repeat)
        if args.maximal:
            asyncio.run(jump_latency(args.repeat))
        else:
            asyncio.run(scrub_latency(args.presses))
        startup(args.repeat)
        peak_memory()


if __name__ == "__main__":
    main()
