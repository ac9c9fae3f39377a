"""Hangup: SIGHUP and SIGTERM make dvtui leave promptly and cleanly; nothing is
pending, since every event is durable before the next is asked for.

No timed assertions: the "within a second" is the guard's watchdog (``grace`` = 0.8 s), which these
tests show ends a process that does not leave by itself; the measured times are printed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dvtui.signals import DEFAULT_GRACE, HangupGuard
from dvtui.store import lock_path, read_game

from ..support.files import reference, start_game, strip_at
from ..support.positions import BOTS3
from ..support.processes import dvtui, dvtui_cmd, env


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_headless_game_stops_between_moves_and_resumes(tmp_path: Path, sig: signal.Signals) -> None:
    path = start_game(tmp_path / "game.dvr", BOTS3, seed=5)
    proc = subprocess.Popen(
        dvtui_cmd("resume", str(path), "--headless", "--bot-delay", "0.05"),
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while path.read_bytes().count(b"\n") < 10:
        assert proc.poll() is None
        time.sleep(0.005)
    sent = time.perf_counter()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    took = time.perf_counter() - sent
    print(f"\n{sig.name} to a headless game: exit {proc.returncode} after {took:.3f} s")
    assert proc.returncode == 128 + sig
    assert f"stopped by signal {int(sig)}; every move so far is saved" in err
    loaded = read_game(path)
    assert loaded.torn is None and not loaded.missing_tail and not loaded.game.over
    assert not lock_path(path).exists()  # it left cleanly: lock released
    assert dvtui("resume", str(path), "--headless").returncode == 0
    assert strip_at(path.read_bytes()) == strip_at(reference(BOTS3, seed=5))


STUCK = textwrap.dedent(
    """
    import sys, time
    from dvtui.signals import HangupGuard
    guard = HangupGuard(lambda signum: None)  # asked to stop, this program never does
    guard.install()
    print("ready", flush=True)
    while True:
        time.sleep(0.01)
    """
)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_watchdog_ends_a_process_that_does_not_leave(sig: signal.Signals) -> None:
    proc = subprocess.Popen([sys.executable, "-c", STUCK], env=env(), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    sent = time.perf_counter()
    proc.send_signal(sig)
    proc.wait(timeout=30)
    took = time.perf_counter() - sent
    print(f"\nwatchdog after {sig.name}: exit {proc.returncode} after {took:.3f} s (grace {DEFAULT_GRACE} s)")
    assert proc.returncode == 128 + sig


def test_second_signal_ends_at_once() -> None:
    script = STUCK.replace("HangupGuard(lambda signum: None)", "HangupGuard(lambda signum: None, grace=60)")
    proc = subprocess.Popen([sys.executable, "-c", script], env=env(), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.05)
    proc.send_signal(signal.SIGHUP)
    proc.wait(timeout=30)  # a 60 s watchdog: only the second signal can end it this soon
    assert proc.returncode == 128 + signal.SIGHUP


def test_callback_runs_on_the_event_loop() -> None:
    """How the Textual app uses it: the callback (``app.exit``) is run by the loop, not in the
    signal handler."""
    seen: list[tuple[int, bool]] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        done = asyncio.Event()

        def on_signal(signum: int) -> None:
            seen.append((signum, asyncio.get_running_loop() is loop))
            done.set()

        guard = HangupGuard(on_signal, grace=60)
        assert guard.install()
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.wait_for(done.wait(), 10)
            assert guard.received == signal.SIGTERM
        finally:
            guard.disarm()
            guard.uninstall()

    previous = signal.getsignal(signal.SIGTERM)
    asyncio.run(main())
    assert seen == [(signal.SIGTERM, True)]
    assert signal.getsignal(signal.SIGTERM) == previous


def test_without_a_callback_the_signal_unwinds_with_system_exit() -> None:
    guard = HangupGuard(grace=60)
    guard.install()
    try:
        with pytest.raises(SystemExit) as leaving:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)  # the handler runs at the next bytecode; this is never reached in full
        assert leaving.value.code == 128 + signal.SIGTERM
    finally:
        guard.disarm()
        guard.uninstall()


def test_install_outside_the_main_thread_changes_nothing() -> None:
    import threading

    results: list[bool] = []
    guard = HangupGuard()
    t = threading.Thread(target=lambda: results.append(guard.install()))
    t.start()
    t.join()
    assert results == [False]


HUNG_UP = textwrap.dedent(
    """
    import os, time
    from dvtui.signals import HangupGuard
    done = []
    def on_signal(signum):
        for _ in range(200):  # what a UI does on its way out; EIO on a hung-up terminal
            os.write(1, b"restoring the screen " * 10)
        done.append(signum)
    HangupGuard(on_signal, grace=30).install()
    os.write(1, b"ready\\n")
    while not done:
        time.sleep(0.01)
    os._exit(7)
    """
)


def test_sighup_from_a_terminal_that_hung_up_detaches_output() -> None:
    """The real hangup: the terminal's other end closes (as sshd does when the link drops). The
    program is told, and its last writes go nowhere instead of failing with EIO."""
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()

    def controlling_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [sys.executable, "-c", HUNG_UP],
        env=env(),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        preexec_fn=controlling_terminal,  # setsid + TIOCSCTTY; nothing else runs in this test
    )
    os.close(slave)
    seen = b""
    while b"ready" not in seen:
        chunk = os.read(master, 1024)
        assert chunk, "the child ended before it was ready"
        seen += chunk
    os.close(master)  # the terminal hangs up: the kernel sends SIGHUP to the session
    assert proc.wait(timeout=30) == 7  # the handler's writes did not fail
