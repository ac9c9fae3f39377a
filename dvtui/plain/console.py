"""Lines out, lines in: the plain mode's only contact with the terminal.

Every line written is complete on its own and ends with a newline; nothing drives the terminal
(no escape sequence, no colour, no cursor movement). The one control character ever written is
the bell (BEL, ``\\a``) on a player's turn at a shared table: it introduces no sequence, and a
terminal or a screen reader sounds it or ignores it. Input is read a line at a time, which works
the same under a screen reader, through a pipe and over SSH.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterable
from typing import TextIO

from ..describe import AMOUNT_SPACE

_UNSAFE = frozenset(("Cc", "Cf", "Zl", "Zp"))
"""Unicode's control, format and separator categories: what could drive a terminal or reorder a
line. The text said here is dvtui's own and names already made printable; this is the last guard."""

BELL = "\a"


def plain_text(line: str) -> str:
    """``line`` as the plain mode writes it: an amount's thousands apart with a no-break space (the
    braille blank the screens use reads as a braille cell on a braille display), and any control
    or format character shown escaped."""
    line = line.replace(AMOUNT_SPACE, "\xa0")
    if all(unicodedata.category(ch) not in _UNSAFE for ch in line):
        return line
    return "".join(f"\\x{ord(ch):02x}" if unicodedata.category(ch) in _UNSAFE and ord(ch) < 0x100
                   else f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _UNSAFE else ch
                   for ch in line)  # fmt: skip


class Console:
    """Where the lines go and come from (the process's stdout and stdin unless a test says)."""

    def __init__(self, out: TextIO | None = None, into: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.into = into if into is not None else sys.stdin

    def say(self, *lines: str) -> None:
        """Write each line (a line holding newlines is several lines)."""
        self.say_all(lines)

    def say_all(self, lines: Iterable[str]) -> None:
        text = "".join(plain_text(part) + "\n" for line in lines for part in line.split("\n"))
        self.out.write(text)
        self.out.flush()

    def ring(self) -> None:
        """The bell, just before the line that says why (the turn's prompt follows at once)."""
        self.out.write(BELL)
        self.out.flush()

    def ask(self) -> str | None:
        """The next line typed, without its newline; None at the end of input (the person
        closed it: Ctrl-D, or the pipe ended)."""
        line = self.into.readline()
        if not line:
            return None
        return line.rstrip("\r\n")


__all__ = ["BELL", "Console", "plain_text"]
