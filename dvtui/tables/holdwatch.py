"""How often a server on a shared database asks whether it still holds the tables it plays.

A server holds each table it plays by an advisory lock on a session of its own. That session can
end while the server lives (an administrator's ``pg_terminate_backend``, a pooler, an
``idle_session_timeout``): every write asks first, so nothing is ever written unheld, but a table
nobody moves at would look held for as long as nobody moved. So the server also asks, for all its
tables in one question, every :data:`HOLD_CHECK` seconds: a hold lost is let go at once, the
table's people are told, and the table is held again (with what another server wrote meanwhile)
before anything more is written there.
"""

from __future__ import annotations

HOLD_CHECK = 2.0
"""Seconds between two questions (one query on the holder's connection, and only while it holds a table)."""

__all__ = ["HOLD_CHECK"]
