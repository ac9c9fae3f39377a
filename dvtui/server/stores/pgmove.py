"""Moving a server's games between its files and PostgreSQL (``dvtui serve --store ... --import
DIR`` / ``--export DIR``), for an operator who grows out of one host, or comes back to one.

Both ways copy: what is moved from stays as it was, so a move that stops half-way is simply made
again (a game already there is left alone and said so). Neither runs beside a server of the
directory: the file server's lock (``DIR/serve.lock``) is taken for the whole move.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ...store import GameFileError, SaveError, fsync_dir, write_whole
from ...store.reader import read_bytes
from ...tables.wire import KEPT_GAME, TABLE_NAME
from .. import AlreadyServed
from .pg import PgStore

_GAME = re.compile(f"(?:{TABLE_NAME[2:-2]}|{KEPT_GAME[2:-2]})")
"""The name of a table's game or of a kept game (a file's stem): nothing else in a games directory moves."""


@dataclass
class Moved:
    """What a move did, game by game."""

    moved: list[str] = field(default_factory=list)
    there: list[str] = field(default_factory=list)
    """Games the other side has already (left as they are)."""
    unreadable: list[str] = field(default_factory=list)
    """Games that do not read as games (``NAME: why``), not moved."""


@contextlib.contextmanager
def _unserved(directory: Path) -> Iterator[None]:
    import filelock

    lock = filelock.FileLock(directory / "serve.lock", timeout=0, mode=0o600)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise AlreadyServed(f"{directory}: a 'dvtui serve' serves this directory: stop it first") from None
    try:
        yield
    finally:
        lock.release()


def import_files(store: PgStore, directory: Path, say: Callable[[str], None]) -> Moved:
    """Copy the games of server directory ``directory`` (``directory/games``), each with its table's
    record, into ``store``."""
    games = directory / "games"
    if not games.is_dir():
        raise SaveError(f"{directory}: no games directory in it (is it a server's directory?)")
    done = Moved()
    with _unserved(directory):
        for path in sorted(games.glob("*.dvr")):
            name = path.stem
            if not _GAME.fullmatch(name):
                continue
            try:
                data = read_bytes(path)
                record_path = games / f"{name}.table.json"
                record = record_path.read_bytes().strip() if record_path.is_file() else None
                added = store.import_game(name, data, record, path.stat().st_mtime)
            except GameFileError as e:
                done.unreadable.append(f"{name}: {e}")
                say(f"{name}: not imported: {e}")
                continue
            (done.moved if added else done.there).append(name)
    return done


def export_files(store: PgStore, directory: Path, say: Callable[[str], None]) -> Moved:
    """Write every game of ``store`` (and its table's record) into ``directory/games``, as the
    file store keeps them; a file already there is left alone."""
    games = directory / "games"
    games.mkdir(mode=0o700, parents=True, exist_ok=True)
    done = Moved()
    with _unserved(directory):
        for name in [*store.names(), *store.kept()]:
            path = games / f"{name}.dvr"
            if path.exists():
                done.there.append(name)
                say(f"{name}: not exported: {path} exists")
                continue
            _write_new(path, b"".join(store.lines(name)))
            record = store.record_bytes(name)
            if record is not None:
                _write_new(games / f"{name}.table.json", record + b"\n")
            done.moved.append(name)
        fsync_dir(games)
    return done


def _write_new(path: Path, data: bytes) -> None:
    """A new file (never over one), durable before the next is written."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        write_whole(fd, data)
    finally:
        os.close(fd)
