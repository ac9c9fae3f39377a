"""The tables as files in ``DIR/games`` (:class:`FileStore`): one server, nobody else writing there."""

from __future__ import annotations

import contextlib
import os
import re
import stat
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from ...engine import GameCreated
from ...play.session import PlaySession
from ...store import GameFileError, LoadedGame, SaveError, fsync_dir, read_game
from ...tables.stamps import last_stamp
from ...tables.wire import KEPT_GAME, TABLE_NAME
from ..chat import ChatLog, Talk
from .base import MAX_RECORD_BYTES, TableExists, TableRecord

_NAME = re.compile(TABLE_NAME)
_KEPT = re.compile(KEPT_GAME)
_KEPT_BESIDE = (".table.json", ".chat")
"""What a kept game has beside it (its table's record, its talk), removed with it."""
_record_decoder = msgspec.json.Decoder(TableRecord)
ARENAS_DIR = "arenas"
"""The tournaments' records, one ``NAME.json`` each, in this directory of the games directory."""
RATED_FILE = "rated.jsonl"
"""The rated games' ends, one record a line, in the games directory (no game's name ends so)."""


class FileStore:
    """Tables as files: ``games/NAME.dvr`` and ``games/NAME.table.json``; a game is moved aside
    (``NAME.<time>.dvr``) when its name is used for a new table once it is over, or when the
    table is put aside, and stays a readable game. One server plays a games directory (its lock
    says so): nobody else writes there, and the store holds nothing open between two calls."""

    def __init__(self, directory: Path) -> None:
        self.games = directory
        self._rated_read = (0, 0)
        """How many whole records of :data:`RATED_FILE` were last read, and the byte after them:
        the next read starts there (nobody else writes the file)."""

    def close(self) -> None:
        return None  # (every file is closed once a call returns; a table's game by :meth:`rest`)

    def path(self, name: str) -> Path:
        return self.games / f"{name}.dvr"

    def record_path(self, name: str) -> Path:
        return self.games / f"{name}.table.json"

    def names(self) -> list[str]:
        # a game put aside has a dot in its stem, which no table's name has
        return [path.stem for path in sorted(self.games.glob("*.dvr")) if _NAME.fullmatch(path.stem)]

    def create(self, name: str, created: GameCreated, record: TableRecord) -> tuple[PlaySession, list[bytes]]:
        path = self.path(name)
        if path.exists():
            try:
                over = read_game(path).game.over
            except (GameFileError, OSError) as e:
                raise TableExists(f"table {name}'s file cannot be read ({e}); choose another name") from None
            if not over:
                raise TableExists(f"table {name} is being played")
            self._move_aside(name)
        session = PlaySession.start(created, path)
        try:
            self.save_record(name, record)
        except BaseException:
            session.close()
            raise
        return session, self._lines(name)

    def reopen(self, name: str) -> tuple[PlaySession, list[bytes], TableRecord | None]:
        record = self._read_record(name)
        session = PlaySession.resume(read_game(self.path(name)))
        return session, self._lines(name), record

    def last_active(self, name: str) -> float:
        times = []
        for path in (self.path(name), self.record_path(name)):
            with contextlib.suppress(OSError):
                times.append(path.stat().st_mtime)
        return max(times, default=0.0)

    def game_written(self, name: str) -> float:
        try:
            return self.path(name).stat().st_mtime
        except OSError:
            return 0.0

    def archive(self, name: str) -> str:
        return self._move_aside(name).name

    def _read_record(self, name: str) -> TableRecord | None:
        """The table's record (None: there is none, or it cannot be read). What is not a regular
        file is not opened at all, and the open never blocks nor follows a link, so a named pipe
        put there cannot hang the server's start; SaveError says what is there instead (the table
        is then not reopened: without its record its seats would go to whoever joins first)."""
        path = self.record_path(name)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(mode):
            raise SaveError(f"{path.name} is not a regular file")
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # (swapped since the lstat)
                raise SaveError(f"{path.name} is not a regular file")
            return _record_decoder.decode(os.read(fd, MAX_RECORD_BYTES))
        except (OSError, msgspec.DecodeError):
            return None
        finally:
            os.close(fd)

    def _lines(self, name: str) -> list[bytes]:
        return self.path(name).read_bytes().splitlines(keepends=True)

    def save_record(self, name: str, record: TableRecord) -> None:
        final = self.record_path(name)
        tmp = final.with_name(final.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, msgspec.json.encode(record) + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, final)
        fsync_dir(self.games)

    def rated_path(self) -> Path:
        return self.games / RATED_FILE

    def keep_rated(self, game: str, data: bytes) -> None:
        """Appended to :data:`RATED_FILE` with fsync (one server writes here: a game's end is kept
        once, and one kept twice is counted once by the ratings anyway)."""
        fd = os.open(self.rated_path(), os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            size = os.fstat(fd).st_size
            torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"  # a crash's torn line: ended, never glued on
            os.write(fd, (b"\n" if torn else b"") + data + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(self.games)

    def rated_since(self, seen: int) -> tuple[list[bytes], int]:
        """Read from where the last read ended when it is asked to go on from there, else whole."""
        count, offset = self._rated_read if seen == self._rated_read[0] else (0, 0)
        try:
            with open(self.rated_path(), "rb") as kept:
                kept.seek(offset)
                data = kept.read()
        except FileNotFoundError:
            return [], 0
        end = data.rfind(b"\n") + 1  # (a torn last line, written by a crash, is no record)
        whole = data[:end].splitlines()
        self._rated_read = (count + len(whole), offset + end)
        return whole[seen - count :], count + len(whole)

    def arena_dir(self) -> Path:
        return self.games / ARENAS_DIR

    def keep_arena(self, name: str, data: bytes) -> None:
        """Written aside, then put in place of the one kept (a crash leaves one or the other whole)."""
        directory = self.arena_dir()
        directory.mkdir(mode=0o700, exist_ok=True)
        part, final = directory / f"{name}.part", directory / f"{name}.json"
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with open(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, final)
        fsync_dir(directory)

    def arenas(self) -> list[tuple[str, bytes]]:
        """Each ``arenas/NAME.json`` whose NAME is a tournament's (a table's) name."""
        found = []
        for path in sorted(self.arena_dir().glob("*.json")):
            if _NAME.fullmatch(path.stem):
                found.append((path.stem, path.read_bytes()))
        return found

    def rest(self, name: str, session: PlaySession) -> None:
        session.close()

    def kept(self) -> list[str]:
        return [path.stem for path in sorted(self.games.glob("*.dvr")) if _KEPT.fullmatch(path.stem)]

    def read_kept(self, kept: str) -> tuple[LoadedGame, float]:
        path = self.games / f"{kept}.dvr"
        loaded = read_game(path)
        return loaded, last_stamp(path.read_bytes()) or path.stat().st_mtime

    def game_bytes(self, aside: str) -> bytes:
        if not _KEPT.fullmatch(aside.removesuffix(".dvr")):  # never a path of its own
            raise FileNotFoundError(f"{aside}: not a kept game's name")
        return (self.games / aside).read_bytes()

    def lines_since(self, name: str, seq: int, game: int | None = None) -> list[bytes]:
        return self._lines(name)[seq:]

    def game_id(self, session: PlaySession) -> int | None:
        return None  # (one server: nobody else gives a name to another game under its tables)

    def record(self, name: str) -> TableRecord | None:
        return self._read_record(name)

    def replace_record(self, name: str, record: TableRecord, version: int, game: int | None = None) -> int:
        self.save_record(name, record)
        return 0  # (nobody else writes it: there is nothing to compare)

    def versioned_record(self, name: str, game: int | None = None) -> tuple[TableRecord | None, int]:
        return self._read_record(name), 0

    def talk(self) -> Talk:
        return ChatLog(self.games)

    def forget(self, kept: str) -> None:
        if _KEPT.fullmatch(kept) is None:  # never a table's own file
            raise ValueError(f"{kept!r} is not a kept game's name")
        os.unlink(self.games / f"{kept}.dvr")
        for suffix in _KEPT_BESIDE:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.games / f"{kept}{suffix}")
        fsync_dir(self.games)

    def kept_size(self, kept: str) -> int:
        size = 0
        for suffix in (".dvr", *_KEPT_BESIDE):
            with contextlib.suppress(FileNotFoundError):
                size += os.lstat(self.games / f"{kept}{suffix}").st_size
        return size

    def _move_aside(self, name: str) -> Path:
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%S")
        n = 1
        while True:
            aside = self.games / f"{name}.{stamp}{'' if n == 1 else f'-{n}'}.dvr"
            if not aside.exists():
                break
            n += 1
        os.rename(self.path(name), aside)
        with contextlib.suppress(FileNotFoundError):
            os.rename(self.record_path(name), aside.with_suffix(".table.json"))
        with contextlib.suppress(FileNotFoundError):  # its talk goes with it (dvtui/server/chat.py)
            os.rename(self.games / f"{name}.chat", aside.with_suffix(".chat"))
        fsync_dir(self.games)
        return aside
