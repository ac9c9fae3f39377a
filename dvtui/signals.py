"""Leaving within a second on SIGHUP (the terminal or SSH session is gone) and SIGTERM.

nethack's lesson: a hangup must never cost a game. Here nothing is pending when it comes, since
every decision is fsynced before the next is asked for, so the only duty is to go, promptly and
without spinning on a dead terminal. :class:`HangupGuard` asks the program to stop (a callback:
``app.exit`` for the Textual app, a flag for the headless loop) and arms a watchdog that ends the
process with ``os._exit(128 + signum)`` if it is not gone after ``grace`` seconds (a bot thinking,
a write to a terminal that will never drain). Ending that way is as safe as kill -9, which the
store is built for; the game's lock dies with the process.

No Textual here: the headless commands use it too; nor asyncio, which they need not load either (a
tenth of a headless resume's start): a loop can be running only where it was imported.

Wiring it into a Textual app (in the App subclass)::

    def on_mount(self) -> None:
        self._hangup = HangupGuard(lambda signum: self.exit(return_code=128 + signum))
        self._hangup.install()

    def on_unmount(self) -> None:
        self._hangup.uninstall()

The callback is run on the event loop (``call_soon_threadsafe``), not inside the signal handler.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from types import FrameType

DEFAULT_GRACE = 0.8
"""Seconds between the signal and the forced exit: the program is gone within a second."""

HANGUP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGHUP, signal.SIGTERM)

_Handler = Callable[[int, FrameType | None], object] | int | None


class HangupGuard:
    """Handlers for SIGHUP and SIGTERM: ask to stop, and make sure of it after ``grace`` seconds.

    ``on_signal(signum)`` asks the program to stop; it runs on the running asyncio loop of the main
    thread when there is one, else right in the handler (between two Python statements of the
    main thread). Without ``on_signal`` the handler raises ``SystemExit(128 + signum)``, which
    unwinds ``finally`` blocks (so a :class:`~dvtui.store.GameWriter` is closed).

    On SIGHUP the terminal is usually gone: standard output and error, when they were terminals
    that have hung up, are pointed at ``/dev/null`` so the way out (a UI restoring the screen, a
    last message) neither fails on EIO nor blocks. A second signal ends the process at once.
    """

    def __init__(
        self,
        on_signal: Callable[[int], object] | None = None,
        *,
        grace: float = DEFAULT_GRACE,
        signals: Iterable[int] = HANGUP_SIGNALS,
    ) -> None:
        self.on_signal = on_signal
        self.grace = grace
        self.signals = tuple(signals)
        self.received: int | None = None
        """The first signal received, if any."""
        self._previous: dict[int, _Handler] = {}
        self._watchdog: threading.Timer | None = None
        self._ttys: tuple[int, ...] = ()

    def install(self) -> bool:
        """Put the handlers in place (main thread only: returns False elsewhere, changing nothing)."""
        if threading.current_thread() is not threading.main_thread():
            return False
        self._ttys = _terminal_fds()
        for sig in self.signals:
            self._previous[sig] = signal.signal(sig, self._handle)
        return True

    def uninstall(self) -> None:
        """Put the previous handlers back. A watchdog already armed by a signal stays armed: the
        process is on its way out and must get there."""
        if threading.current_thread() is not threading.main_thread():
            return
        for sig, previous in self._previous.items():
            with contextlib.suppress(ValueError, TypeError, OSError):
                signal.signal(sig, previous if previous is not None else signal.SIG_DFL)
        self._previous.clear()

    def disarm(self) -> None:
        """Cancel a watchdog armed by a signal: for a program that chose to carry on after all
        (and for tests, which must not be ended by it)."""
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        self.received = None

    def __enter__(self) -> HangupGuard:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            os._exit(128 + signum)  # asked twice: go now (every event is already durable)
        self.received = signum
        if signum == signal.SIGHUP:
            _detach_dead_terminal(self._ttys)
        self._watchdog = threading.Timer(self.grace, os._exit, (128 + signum,))
        self._watchdog.daemon = True
        self._watchdog.start()
        if self.on_signal is None:
            raise SystemExit(128 + signum)
        asyncio = sys.modules.get("asyncio")
        try:
            loop = asyncio.get_running_loop() if asyncio is not None else None
        except RuntimeError:
            loop = None
        if loop is not None:
            loop.call_soon_threadsafe(self.on_signal, signum)
        else:
            self.on_signal(signum)


def _terminal_fds() -> tuple[int, ...]:
    """Which of standard output and error are terminals (checked at install time)."""
    out: list[int] = []
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            if os.isatty(fd):
                out.append(fd)
    return tuple(out)


def _detach_dead_terminal(fds: tuple[int, ...]) -> None:
    """Point the given terminal fds at /dev/null if their terminal has hung up.

    A hung-up terminal fails every terminal request (so ``isatty`` turns false) and every write
    with EIO. One that still answers (a hand-sent SIGHUP) is left alone, for the program to restore
    as it leaves.
    """
    dead = [fd for fd in fds if not os.isatty(fd)]
    if not dead:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        for fd in dead:
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
    finally:
        os.close(null)
