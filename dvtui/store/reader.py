"""Reading a ``.dvr`` file: decode, check ``seq``, re-fold through the engine, recover a torn tail.

Follows LevelDB's log reader: a torn record at the end of the file is the writer dying mid-write
and is recovered (and reported); damage anywhere else is an error naming the line, never guessed
around. Derived events are recomputed by the engine and compared field by field, so a file can
never make the game say something the rules do not.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ..engine import (
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    RoundEnded,
    RuleError,
)
from ..engine.events import AnyEvent
from ..engine.game import OVER, PLACEMENT
from .codec import line_decoder
from .errors import GameFileError

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Far above any real game (a 5-player game is ~30 KiB); a bound so a hostile file cannot exhaust
memory. Undo makes logs unbounded in principle, so this is generous."""
MAX_LINE_BYTES = 64 * 1024
"""The longest real line is ``game_created`` at ~3 KiB."""

_DERIVED_TYPES = frozenset((ColumnResolved, RoundEnded, GameEnded))


@dataclass(slots=True)
class TornTail:
    """The incomplete end of a file a writer died writing: ``offset`` is where it starts."""

    line: int  # 1-based line number of the torn line
    offset: int  # byte offset of the first byte not recovered
    size: int  # how many bytes were not recovered
    reason: str

    def notice(self, path: str) -> str:
        return (
            f"{path} line {self.line}: torn last line ({self.size} bytes, {self.reason}) "
            f"— recovered the {self.line - 1} complete lines before it"
        )


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

    @property
    def created(self) -> GameCreated:
        return self.game.created


def read_bytes(path: Path | str) -> bytes:
    """The file's bytes, with a clear error for what is not a readable regular file."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise GameFileError(p, None, "no such file") from None
    except OSError as e:
        raise GameFileError(p, None, f"cannot read: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise GameFileError(p, None, "is a directory, not a game file")
    if not stat.S_ISREG(st.st_mode):
        raise GameFileError(p, None, "is not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise GameFileError(p, None, f"is {st.st_size} bytes; a game file is at most {MAX_FILE_BYTES}")
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise GameFileError(p, None, f"cannot read: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise GameFileError(p, None, f"is larger than {MAX_FILE_BYTES} bytes")
    return data


def read_game(path: Path | str) -> LoadedGame:
    """Read and check a game file; raises :class:`GameFileError` naming the line at fault."""
    return parse_game(read_bytes(path), str(path))


def parse_game(data: bytes, path: str = "<input>") -> LoadedGame:
    if not data:
        raise GameFileError(path, None, "is empty, not a game")
    lines = data.split(b"\n")
    torn: TornTail | None = None
    tail = lines.pop()  # after the last "\n": b"" for a complete file
    good_bytes = len(data) - len(tail)
    if tail:
        torn = TornTail(len(lines) + 1, good_bytes, len(tail), "no end of line")
    events: list[AnyEvent] = []
    decode = line_decoder.decode
    try:  # fast path: every line decodes; anything odd is re-read line by line below
        if max(map(len, lines), default=0) > MAX_LINE_BYTES:
            raise ValueError
        events = [decode(raw) for raw in lines]
    except (ValueError, msgspec.DecodeError, msgspec.ValidationError):
        events = []
        for i, raw in enumerate(lines):
            try:
                events.append(_decode_line(raw, i, path))
            except GameFileError:
                if i == len(lines) - 1 and torn is None and _is_unparsable(raw):
                    # a last line that does not parse is a torn tail too (format spec)
                    good_bytes -= len(raw) + 1
                    torn = TornTail(i + 1, good_bytes, len(raw) + 1, "does not parse")
                    break
                raise
    if not events:
        if torn is not None:
            raise GameFileError(path, torn.line, "the only line is incomplete: nothing to recover")
        raise GameFileError(path, None, "is empty, not a game")
    loaded = fold_file(events, path)
    loaded.good_bytes = good_bytes
    if torn is not None:
        loaded.torn = torn
        loaded.notices.insert(0, torn.notice(path))
    return loaded


def _decode_line(raw: bytes, index: int, path: str) -> AnyEvent:
    line = index + 1
    if len(raw) > MAX_LINE_BYTES:
        raise GameFileError(path, line, f"line is {len(raw)} bytes long; at most {MAX_LINE_BYTES}")
    if not raw.strip():
        raise GameFileError(path, line, "empty line (one event per line)")
    try:
        return line_decoder.decode(raw)
    except msgspec.ValidationError as e:
        raise GameFileError(path, line, _explain(raw, str(e))) from None
    except msgspec.DecodeError as e:
        raise GameFileError(path, line, f"not valid JSON ({_lower_first(str(e))})") from None


def _is_unparsable(raw: bytes) -> bool:
    try:
        msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return True
    return False


def _explain(raw: bytes, message: str) -> str:
    """msgspec's validation message, prefixed with the event type when there is one."""
    try:
        obj = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return message
    if not isinstance(obj, dict):
        return "not a JSON object (one event, one object, per line)"
    kind = obj.get("type")
    if kind is None:
        return 'no "type" field'
    if "at `$.type`" in message:
        return f"unknown event type {kind!r} (format 1)" if isinstance(kind, str) else message
    return f"{kind}: {message}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def fold_file(events: list[AnyEvent], path: str = "<input>") -> LoadedGame:
    """Check ``seq`` and replay the events through the engine, recomputing every derived event."""
    first = events[0]
    if not isinstance(first, GameCreated):
        raise GameFileError(path, 1, f"the first event must be game_created, not {first.__struct_config__.tag}")
    decisions_only = True
    for i, ev in enumerate(events):
        if decisions_only and type(ev) in _DERIVED_TYPES:
            decisions_only = False
        if ev.seq is not None:
            if ev.seq != i:
                raise GameFileError(path, i + 1, f"seq is {ev.seq}, expected {i}")
            ev.seq = None
    try:
        game = Game(first)
    except RuleError as e:
        raise GameFileError(path, 1, f"game_created: {e}") from None
    canonical: list[Event] = [first]
    apply = game.apply
    for i in range(1, len(events)):
        ev = events[i]
        if game.phase != PLACEMENT and game.phase != OVER and type(ev) not in _DERIVED_TYPES:
            if not decisions_only:
                owed = game.copy().derive_next().__struct_config__.tag
                raise GameFileError(
                    path,
                    i + 1,
                    f"{ev.__struct_config__.tag} found where {owed} is owed "
                    "(derived events come complete, in place)",
                )
            canonical.extend(game.derive_all())
        try:
            apply(ev)
        except RuleError as e:
            raise GameFileError(path, i + 1, f"{ev.__struct_config__.tag}: {e}") from None
        canonical.append(ev)
    loaded = LoadedGame(path, canonical, game, len(events), 0, decisions_only)
    if game.derived_pending:
        tail = game.derive_all()
        canonical.extend(tail)
        if not decisions_only:
            loaded.missing_tail = tail
            loaded.notices.append(
                f"{path} line {len(events)}: the file ends before the round's derived events; "
                f"{len(tail)} recomputed"
            )
    return loaded
