"""How the PostgreSQL store fails, apart from the store itself: its chat and presence modules raise
and catch these too, and import them from here rather than from the store that imports them."""

from __future__ import annotations


class DatabaseError(OSError):
    """The database refused or could not be reached. An OSError, so that the server treats it as it
    treats a disk that fails: the table (or the request) stops with a clear line, the server goes on."""


class DatabaseLost(DatabaseError):
    """The connection to the database was lost (PostgreSQL restarted, the network cut): what was
    being done may or may not have been committed."""


class DatabaseConflict(DatabaseError):
    """The database refused a row another writer wrote first (a unique key): nothing of the
    transaction was kept, and what the other wrote is there to be read."""


__all__ = ["DatabaseConflict", "DatabaseError", "DatabaseLost"]
