"""Reading a ``.dvr`` file: decode, check ``seq``, fold through the engine, recover a torn tail.

Follows LevelDB's log reader: a torn record at the end of the file is the writer dying mid-write
and is recovered (and reported); damage anywhere else is an error naming the line, never guessed
around. The fold is the engine's (:func:`dvtui.engine.fold`): derived events are recomputed and
compared field by field, so a file can never make the game say something the rules do not, and the
event index its errors carry is the line number less one.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ..engine import (
    DERIVED_TYPES,
    SEED_LIMIT,
    AnyEvent,
    Event,
    Game,
    GameCreated,
    RuleError,
    SeatError,
    check_seats,
    fold,
)
from ..i18n import N_, _, ngettext
from ..rulewords import rule_words
from .codec import line_decoder
from .decode_words import malformed_words, validation_words
from .errors import GameFileError

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Far above any real game (a 5-player game is ~30 KiB); a bound so a hostile file cannot exhaust
memory. Undo makes logs unbounded in principle, so this is generous."""
MAX_LINE_BYTES = 64 * 1024
"""The longest real line is ``game_created`` at ~3 KiB."""


@dataclass(slots=True)
class TornTail:
    """The incomplete end of a file a writer died writing: ``offset`` is where it starts."""

    line: int  # 1-based line number of the torn line
    offset: int  # byte offset of the first byte not recovered
    size: int  # how many bytes were not recovered
    reason: str

    def notice(self, path: str) -> str:
        said = ngettext(
            "{file} line {line}: torn last line ({size} bytes, {reason}) — recovered the {count} complete line "
            "before it",
            "{file} line {line}: torn last line ({size} bytes, {reason}) — recovered the {count} complete lines "
            "before it",
            self.line - 1,
        )
        return said.format(file=path, line=self.line, size=self.size, reason=_(self.reason), count=self.line - 1)


@dataclass(slots=True)
class LoadedGame:
    """A file read and checked: its canonical events, the final state, and what was recovered."""

    path: str
    events: list[Event]
    """The complete canonical log: the file's events, with derived events recomputed where a game
    script leaves them out or a cut file lost them at its end. ``seq`` cleared."""
    game: Game
    file_lines: int
    """Complete lines in the file (the next line a writer appends gets this ``seq``)."""
    good_bytes: int
    """Length of the complete lines; a torn tail starts here."""
    decisions_only: bool
    """The file is a game script: it holds no derived event."""
    torn: TornTail | None = None
    missing_tail: list[Event] = field(default_factory=list)
    """Derived events owed at the end of a full log but absent from the file (cut between lines):
    recomputed; a writer resuming the file appends them first."""
    notices: list[str] = field(default_factory=list)
    file_bytes: int | None = None
    """The size of the file as read (None when not read from a file); a writer resuming it checks
    that nothing was appended in between."""
    checkpoints: list[tuple[int, Game]] | None = None
    """Read with ``checkpoints=True``: the fold's copies of the state along :attr:`events`
    (:attr:`dvtui.engine.Folded.checkpoints`)."""

    @property
    def created(self) -> GameCreated:
        return self.game.created

    @property
    def is_script(self) -> bool:
        """A game script: the file leaves out derived events owed before its last decision.

        Holding no derived event is not enough: a log cut before its first round was resolved (a
        new game, or a crash in the one write of a round's last placement and its consequences)
        holds none either, and is a full log to be continued as one.
        """
        if not self.decisions_only:
            return False
        last = max((i for i, ev in enumerate(self.events) if not isinstance(ev, DERIVED_TYPES)), default=0)
        return any(isinstance(ev, DERIVED_TYPES) for ev in self.events[:last])


def read_bytes(path: Path | str) -> bytes:
    """The file's bytes, with a clear error for what is not a readable regular file.

    Never blocks and never touches what is not a regular file: the kind is checked before opening
    (a device or a named pipe is not opened at all) and again on the open file, and the file is
    opened non-blocking, so swapping the file for a FIFO in between cannot hang the reader.
    """
    p = path  # made a Path only to explain an error: verify reads thousands of files
    try:
        st = os.stat(p)
    except OSError as e:
        raise GameFileError(p, None, _open_error(p, e)) from None
    _check_kind(p, st.st_mode, st.st_size)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise GameFileError(p, None, _open_error(p, e)) from None
    try:
        st = os.fstat(fd)
        _check_kind(p, st.st_mode, st.st_size)
        chunks: list[bytes] = []
        size = 0
        want = st.st_size + 1  # the whole file in one read (then one more that finds the end)
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(want, MAX_FILE_BYTES + 1 - size))
            if not chunk:  # only an empty read is the end: some file systems return less early
                break
            chunks.append(chunk)
            size += len(chunk)
            want = 1 << 20
    except OSError as e:
        raise GameFileError(p, None, _("cannot read: {error}").format(error=e.strerror or e)) from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise GameFileError(
            p, None, _("is larger than {most} bytes; a game file is never that large").format(most=MAX_FILE_BYTES)
        )
    return b"".join(chunks)


def _open_error(p: Path | str, e: OSError) -> str:
    if e.errno == errno.ELOOP:
        return _("is a symbolic link loop, not a game file")
    if e.errno == errno.ENOENT:
        return _("no such file (a symbolic link to nothing)") if Path(p).is_symlink() else _("no such file")
    if e.errno == errno.ENAMETOOLONG:
        return _("file name too long")
    return _("cannot read: {error}").format(error=e.strerror or e)


def _check_kind(p: Path | str, mode: int, size: int) -> None:
    if stat.S_ISREG(mode):
        if size > MAX_FILE_BYTES:
            raise GameFileError(
                p, None, _("is {size} bytes; a game file is at most {most}").format(size=size, most=MAX_FILE_BYTES)
            )
        return
    if stat.S_ISDIR(mode):
        what = _("is a directory, not a game file")
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        what = _("is a device, not a game file")
    elif stat.S_ISFIFO(mode):
        what = _("is a named pipe, not a game file")
    elif stat.S_ISSOCK(mode):
        what = _("is a socket, not a game file")
    else:
        what = _("is not a regular file, not a game file")
    raise GameFileError(p, None, what)


def read_game(path: Path | str, *, checkpoints: bool = False) -> LoadedGame:
    """Read and check a game file; raises :class:`GameFileError` naming the line at fault.

    ``checkpoints``: keep the fold's copies of the state along the way (:attr:`LoadedGame.checkpoints`),
    for a replay timeline built on this very fold (:meth:`dvtui.replay.Replay.of`)."""
    return parse_game(read_bytes(path), str(path), checkpoints=checkpoints)


def parse_game(data: bytes, path: str = "<input>", *, checkpoints: bool = False) -> LoadedGame:
    """Check ``data`` as a whole game file (see the module doc); never modifies anything.

    Every way a file can be wrong ends in :class:`GameFileError`; time and memory are linear in
    the size, which is bounded by :data:`MAX_FILE_BYTES` (and lines by :data:`MAX_LINE_BYTES`).
    """
    if not data:
        raise GameFileError(path, None, _(_("is empty, not a game")))
    if len(data) > MAX_FILE_BYTES:
        raise GameFileError(
            path, None, _("is {size} bytes; a game file is at most {most}").format(size=len(data), most=MAX_FILE_BYTES)
        )
    lines = data.split(b"\n")
    torn: TornTail | None = None
    tail = lines.pop()  # after the last "\n": b"" for a complete file
    good_bytes = len(data) - len(tail)
    if tail:
        torn = TornTail(len(lines) + 1, good_bytes, len(tail), N_("no end of line"))
    bad_utf8 = _first_bad_utf8(data, good_bytes)
    if bad_utf8 is not None:
        index, column = bad_utf8
        if index == len(lines) - 1 and torn is None:
            # the last line does not parse: a torn tail (format spec), not an error
            good_bytes -= len(lines[index]) + 1
            torn = TornTail(index + 1, good_bytes, len(lines[index]) + 1, N_("not valid UTF-8"))
            lines.pop()
        else:
            raise GameFileError(path, index + 1, _("not valid UTF-8 (byte {byte} of the line)").format(byte=column + 1))
    events: list[AnyEvent] = []
    decode = line_decoder.decode
    try:  # fast path: every line decodes; anything odd is re-read line by line below
        if max(map(len, lines), default=0) > MAX_LINE_BYTES:
            raise ValueError
        events = list(map(decode, lines))  # one value per line, exactly; no Python loop per line
    except (ValueError, RecursionError, msgspec.DecodeError):
        events = []
        for i, raw in enumerate(lines):
            try:
                events.append(_decode_line(raw, i, path))
            except GameFileError:
                if i == len(lines) - 1 and torn is None and _is_unparsable(raw):
                    # a last line that does not parse is a torn tail too (format spec)
                    good_bytes -= len(raw) + 1
                    torn = TornTail(i + 1, good_bytes, len(raw) + 1, N_("does not parse"))
                    break
                raise
    if not events:
        if torn is not None:
            raise GameFileError(path, torn.line, _("the only line is incomplete: nothing to recover"))
        raise GameFileError(path, None, _("is empty, not a game"))
    loaded = _fold_file(events, path, checkpoints)
    loaded.good_bytes = good_bytes
    loaded.file_bytes = len(data)
    if torn is not None:
        loaded.torn = torn
        loaded.notices.insert(0, torn.notice(path))
    return loaded


_UTF8_CHUNK = 1 << 20


def _first_bad_utf8(data: bytes, end: int) -> tuple[int, int] | None:
    """(0-based line, 0-based byte in it) of the first invalid UTF-8 in ``data[:end]``, or None.

    JSON text is UTF-8 (RFC 8259); msgspec checks the strings it keeps but not the ones it skips
    (unknown keys), so the whole file is checked here, a megabyte at a time (cut at line ends so
    no character is split).
    """
    if data.isascii():  # nearly every game file (no accented names): no decoding needed
        return None
    start = 0
    while start < end:
        stop = end if end - start <= _UTF8_CHUNK else data.rfind(b"\n", start, start + _UTF8_CHUNK) + 1
        if stop <= start:  # one line longer than a chunk: the line-length check rejects it later
            stop = min(end, data.find(b"\n", start + _UTF8_CHUNK) + 1 or end)
        try:
            data[start:stop].decode("utf-8")
        except UnicodeDecodeError as e:
            at = start + e.start
            index = data.count(b"\n", 0, at)
            line_start = data.rfind(b"\n", 0, at) + 1
            return index, at - line_start
        start = stop
    return None


def _decode_line(raw: bytes, index: int, path: str) -> AnyEvent:
    line = index + 1
    if len(raw) > MAX_LINE_BYTES:
        said = _("line is {size} bytes long; at most {most}").format(size=len(raw), most=MAX_LINE_BYTES)
        raise GameFileError(path, line, said)
    if not raw.strip():
        raise GameFileError(path, line, _("empty line (one event per line)"))
    try:
        return line_decoder.decode(raw)
    except RecursionError:
        raise GameFileError(path, line, _("nested too deeply (an event is at most 4 levels deep)")) from None
    except msgspec.ValidationError as e:
        raise GameFileError(path, line, _explain(raw, str(e))) from None
    except msgspec.DecodeError as e:
        raise GameFileError(path, line, _("not valid JSON ({why})").format(why=_why_not_json(str(e)))) from None


def _is_unparsable(raw: bytes) -> bool:
    """True for a line that is not JSON at all (what a crash mid-write leaves), False for JSON
    that is merely not a valid event (that is damage, reported as such)."""
    try:
        msgspec.json.decode(raw)
    except (msgspec.ValidationError, RecursionError):
        return False  # syntactically JSON, just out of msgspec's range or too deep
    except (msgspec.DecodeError, UnicodeDecodeError):
        return True
    return False


def _explain(raw: bytes, message: str) -> str:
    """msgspec's validation message, prefixed with the event type when there is one."""
    try:
        obj = msgspec.json.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        if message.startswith("Expected `object`"):  # not JSON at all, though it starts with a value
            return _("not valid JSON (one event, one object, per line)")  # ('"""doc' starts with "")
        return validation_words(message)
    if not isinstance(obj, dict):
        return _("not a JSON object (one event, one object, per line)")
    kind = obj.get("type")
    if kind is None:
        return _('no "type" field')
    if "at `$.type`" in message:
        if isinstance(kind, str):
            return _("unknown event type {kind} (format 1)").format(kind=repr(kind))
        return validation_words(message)
    return _("{event}: {problem}").format(event=kind, problem=validation_words(message))


def _why_not_json(message: str) -> str:
    """msgspec's reason, inside "not valid JSON (...)": without its own "JSON is malformed: "
    (said already), and lower case after the parenthesis."""
    return malformed_words(message)


MAX_COLOR_CHARS = 100
"""A colour longer than this is not one (the engine then names the colours it knows)."""


def check_created(created: GameCreated, path: str) -> None:
    """What the engine's rules of play do not bound in ``game_created``: the seats (names a
    terminal will show, bot levels and budgets: :func:`dvtui.engine.check_seats`, the rules every
    new game passes too), every other string a terminal will show (``kind``, ``color``,
    ``parent``: no control characters that would drive it) and numbers beyond 64 bits. Once per
    file, not per event; cards are checked as they are decoded. ``parent`` is a path, so it has no
    length bound of its own beyond the line's. A table client checks the ``game_created`` a server
    sends with it too: a server is held to what a file may hold."""
    players = created.players[:16]  # more seats is refused by the engine (R3)
    try:
        check_seats(players)
    except SeatError as e:
        where = f"players[{e.seat}].{e.field or 'name'}" if e.seat is not None else "players"
        raise GameFileError(path, 1, f"game_created: {where}: {rule_words(e)}") from None
    for i, seat in enumerate(players):
        if len(seat.color) > MAX_COLOR_CHARS or not seat.color.isprintable():
            raise GameFileError(path, 1, f"game_created: players[{i}].color is not a colour")
        if not seat.kind.isprintable():  # the very rule dvtui.printable escapes by
            raise GameFileError(path, 1, f"game_created: players[{i}].kind holds a control character")
    if created.parent is not None and not created.parent.isprintable():
        raise GameFileError(path, 1, "game_created: parent holds a control character")
    for name in ("seed", "parent_seq"):
        value = getattr(created, name)
        if value is not None and not -SEED_LIMIT <= value < SEED_LIMIT:
            raise GameFileError(path, 1, f"game_created: {name} is out of range (at most 64 bits)")


def _fold_file(events: list[AnyEvent], path: str, checkpoints: bool) -> LoadedGame:
    """Check what is the file's own (``seq``, what ``game_created`` puts on a terminal), then fold
    the events through the engine (:func:`dvtui.engine.fold`: every decision checked, every
    derived event recomputed), its errors placed at their line."""
    first = events[0]
    if not isinstance(first, GameCreated):
        raise GameFileError(path, 1, f"the first event must be game_created, not {first.__struct_config__.tag}")
    check_created(first, path)
    if first.seq is not None:
        if first.seq != 0:
            raise GameFileError(path, 1, f"seq is {first.seq}, expected 0")
        first.seq = None
    n = len(events)
    # seq first, for the whole file; the fold stops at the first wrong one (limit), so damage
    # before it is what is reported, as when the file is read line by line
    limit = n
    for i in range(1, n):
        ev = events[i]
        seq = ev.seq
        if seq is not None:
            if seq != i:
                limit = i
                break
            ev.seq = None
    try:
        folded = fold(events if limit == n else events[:limit], checkpoints=checkpoints)
    except RuleError as e:
        assert e.index is not None  # the fold places every error it raises
        raise GameFileError(path, e.index + 1, rule_words(e)) from None
    if limit < n:
        raise GameFileError(path, limit + 1, f"seq is {events[limit].seq}, expected {limit}")
    tail = folded.owed_tail
    lines = n  # before the tail joins: for a full log, the canonical list is this very list
    loaded = LoadedGame(path, folded.events, folded.game, lines, 0, folded.decisions_only)
    loaded.checkpoints = folded.checkpoints
    if tail and not folded.decisions_only:
        loaded.missing_tail = tail
        loaded.notices.append(
            _("{file} line {line}: the file ends before the round's derived events; {count} recomputed").format(
                file=path, line=lines, count=len(tail))
        )  # fmt: skip
    return loaded
