"""Outside text made safe to print: the one function every line and every widget of dvtui that
shows a name, a path, a lock record or a file's notice goes through.

Text from a file, a lock record, a path or the command line may hold characters that drive the
terminal instead of being shown: C0 controls (``\\x1b`` starts screen clears, OSC 52 clipboard
writes and OSC 8 links; ``\\r`` and ``\\b`` draw over a line to fake another), DEL, C1 controls
(``\\x9b`` is a one-byte CSI on some terminals), bidi overrides and isolates (U+202A-202E,
U+2066-2069, U+200E/200F, U+061C: a file name that reads backwards), line and paragraph
separators (U+2028/2029, U+0085) and the other invisible format characters. Each of those is
shown escaped, visibly (``\\x1b``, ``\\u202e``), and everything else is kept as it is.

The rule is Python's own :meth:`str.isprintable` (every character of Unicode's categories Other
and Separator is escaped, except the ASCII space), which the reader also applies when it refuses
a control character in a game file's text: what a file may hold prints as itself. Three spaces are
kept as well, the no-break ones (:data:`NO_BREAK_SPACES`): they drive nothing, and French text
needs them (``4 500 000``, ``gagné !``), dvtui's own lines included, which pass through here with
the names they hold.
Textual-free, so the headless commands use it too.
"""

from __future__ import annotations

NO_BREAK_SPACES = frozenset("\u00a0\u2007\u202f")
"""The no-break space, the figure space and the narrow no-break space: shown as they are."""


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (one line, nothing that drives a
    terminal). Printable text, nearly all of it, is returned as it is, after one C-speed check.

    A file name that is not valid UTF-8 arrives with lone surrogates (``surrogateescape``): they
    are escaped too (``\\udcff``), so printing it never fails either.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in NO_BREAK_SPACES else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


__all__ = ["NO_BREAK_SPACES", "printable"]
