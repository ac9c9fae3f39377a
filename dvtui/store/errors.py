"""Errors of the store, worded for the one-line ``dvtui: error: FILE line N: ...`` message."""

from __future__ import annotations

from pathlib import Path


class GameFileError(Exception):
    """A file that is not a consistent game; ``line`` is 1-based (None: the file as a whole)."""

    def __init__(self, path: Path | str | None, line: int | None, message: str) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.message = message
        where = self.path or "<input>"
        if line is not None:
            where += f" line {line}"
        super().__init__(f"{where}: {message}")


class SaveError(Exception):
    """A save that could not be made durable (disk full, read-only file system, ...)."""
