"""``dvtui seek``: Play now from the command line. It waits in the table server's pool, counting
down to the bots on its error stream (one line rewritten on a terminal; the first and the last
line otherwise), leaves it on ``q``, Esc or Ctrl+C, and once seated plays as ``dvtui join`` does:
the live table on this terminal, or a bot without a screen (``--bot``). Textual is not imported
here (the table's screen is, by ``dvtui join``'s own path, once seated)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import termios
import tty
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..printable import printable
from ..tables import Diverged, Dropped, Refused, ServerPlace, Unreachable, server_place
from ..tables.clock import parse_duration
from ..tables.clubwire import SEEK_MOST_WAIT, SEEK_MOVE_TIME, SEEK_SIZES, SEEK_WAIT, Matched, Seeking
from ..tables.seeking import NoSeeking, seek, status_line
from ..web.tab import vouched
from .errors import EXIT_OK, UsageError
from .tables import _bot, _fail, _move_time, _on_screen, _play
from .terminal import has_terminal, wants_plain

if TYPE_CHECKING:
    from ..bots import BotSpec

LEAVE_KEYS = frozenset({"q", "Q", "\x1b"})
"""The keys that leave the pool on a terminal (Ctrl+C does anywhere)."""


def sizes(text: str) -> list[int]:
    """``--players``: one table size (``4``) or a range (``3-5``), within 3 to 5."""
    low, dash, high = text.strip().partition("-")
    try:
        first, last = int(low), int(high if dash else low)
    except ValueError:
        first = last = 0
    if not SEEK_SIZES[0] <= first <= last <= SEEK_SIZES[-1]:
        said = _("--players {text}: a table size from 3 to 5 players (4), or a range of them (3-5)")
        raise UsageError(said.format(text=printable(text)))
    return list(range(first, last + 1))


def wait_seconds(text: str) -> int:
    """``--wait``: how long to wait for people before bots fill the free seats (1s to 10m)."""
    try:
        seconds = parse_duration(text)
    except ValueError:
        seconds = 0
    if not 1 <= seconds <= SEEK_MOST_WAIT:
        said = _("--wait {text}: a number and a unit, from 1s to 10m (30s, 2m)")
        raise UsageError(said.format(text=printable(text)))
    return seconds


def run(args: argparse.Namespace) -> int:
    wanted = sizes(args.players) if args.players is not None else [*SEEK_SIZES]
    move_time = _move_time(args.move_time) if args.move_time is not None else SEEK_MOVE_TIME
    wait = wait_seconds(args.wait) if args.wait is not None else SEEK_WAIT
    spec = _bot(args.bot) if args.bot is not None else None
    if spec is None and not wants_plain(args) and not has_terminal():  # said before seeking: nobody is seated
        said = _("the table needs a terminal (stdin and stdout are not one); a bot can play the seat without one: "
                 "dvtui seek --bot LEVEL")  # fmt: skip
        raise UsageError(said)
    user = vouched()
    place = server_place(args.server)
    try:
        matched, left = asyncio.run(_seek(place, wanted, args.rated, move_time, wait, user, spec))
    except NoSeeking as e:
        return _fail(str(e))
    except (Unreachable, Refused, Diverged, Dropped) as e:
        return _fail(str(e))
    if matched is None:
        print(_("you left the pool"), file=sys.stderr, flush=True)
        return EXIT_OK
    table = printable(matched.table)
    if left:  # seated as the pool was left: the seat is kept all the same
        said = _("you left the pool, but it had seated you at table {table} meanwhile: 'dvtui join {table}' sits there")
        print(said.format(table=table), file=sys.stderr, flush=True)
        return EXIT_OK
    bots = ngettext("{count} bot", "{count} bots", matched.bots).format(count=matched.bots)
    said = _("the pool seated you at table {table}, seat {seat} of {players} ({bots})")
    print(said.format(table=table, seat=matched.seat + 1, players=matched.players, bots=bots), flush=True)
    if spec is None:
        return _on_screen(place, matched.table, matched.seat, bell=not args.no_bell, plain=wants_plain(args))
    return _play(place, matched.table, matched.seat, spec)


async def _seek(place: ServerPlace, wanted: list[int], rated: bool, move_time: int, wait: int, user: str | None,
                spec: BotSpec | None) -> tuple[Matched | None, bool]:  # fmt: skip
    """Wait in the pool until seated (the table and seat), or until q, Esc or Ctrl+C (then
    whether the pool was left as it seated this person)."""
    loop = asyncio.get_running_loop()
    leave = asyncio.Event()
    shown = _Countdown()
    loop.add_signal_handler(signal.SIGINT, leave.set)
    try:
        with _leave_keys(loop, leave):
            matched = await seek(place, sizes=wanted, rated=rated, move_time=move_time, wait=wait, user=user,
                                 bot=None if spec is None else str(spec), told=shown.show, leave=leave)  # fmt: skip
    finally:
        loop.remove_signal_handler(signal.SIGINT)
        shown.end()
    return matched, leave.is_set()


class _Countdown:
    """The seeker's status on the error stream: one line rewritten on a terminal, else its first."""

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.shown = False

    def show(self, status: Seeking) -> None:
        line = _("{status} · q, Esc or Ctrl+C leaves").format(status=status_line(status))
        if self.terminal:
            print(f"\r\x1b[K{line}", end="", file=sys.stderr, flush=True)
        elif not self.shown:
            print(line, file=sys.stderr, flush=True)
        self.shown = True

    def end(self) -> None:
        if self.terminal and self.shown:
            print(file=sys.stderr, flush=True)


@contextlib.contextmanager
def _leave_keys(loop: asyncio.AbstractEventLoop, leave: asyncio.Event) -> Iterator[None]:
    """On a terminal, ``q`` or Esc sets ``leave`` (the terminal in cbreak mode meanwhile)."""
    fd = sys.stdin.fileno() if sys.stdin is not None else -1
    if fd < 0 or not os.isatty(fd):
        yield
        return
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)

    def key() -> None:
        with contextlib.suppress(OSError):
            if set(os.read(fd, 32).decode(errors="replace")) & LEAVE_KEYS:
                leave.set()

    loop.add_reader(fd, key)
    try:
        yield
    finally:
        loop.remove_reader(fd)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


__all__ = ["LEAVE_KEYS", "run", "sizes", "wait_seconds"]
