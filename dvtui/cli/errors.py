"""What every command reports with: the exit codes and the usage error. A leaf (it imports nothing
of dvtui), so each command can raise ``UsageError`` without importing the dispatcher."""

from __future__ import annotations

EXIT_OK = 0
EXIT_BAD_FILE = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad command-line input: one line, exit 2."""
