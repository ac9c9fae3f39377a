"""Who watches which tables, per account (:class:`Watching`): a crowd of spectators is bounded per
account, so watching many tables costs the tables' players nothing much."""

from __future__ import annotations

from collections.abc import Callable

from ..tables.wire import Owner
from .live import Conn
from .table import Refusal


class Watching:
    """The connections watching a table, per budget key (``key``: the gateway's; None: those
    bounded only in all); ``most``: the tables one account may watch at once."""

    def __init__(self, key: Callable[[Conn], Owner | None], most: int) -> None:
        self.key = key
        self.most = most
        self.watchers: dict[Owner | None, set[Conn]] = {}

    def may_watch_more(self, conn: Conn) -> None:
        """Refuse ``conn`` a table more to watch past its account's bound."""
        key = self.key(conn)
        if key is None:
            return
        watchers = self.watchers.get(key, set())
        if len(watchers) - (conn in watchers) >= self.most:  # (conn leaves its table)
            raise Refusal("busy", f"{conn.user} watches {self.most} tables already, as many as one may")

    def add(self, conn: Conn) -> None:
        """``conn`` watches a table now."""
        self.watchers.setdefault(self.key(conn), set()).add(conn)

    def discard(self, conn: Conn) -> None:
        """``conn`` watches no table now (it sits, left, or its table was closed)."""
        key = self.key(conn)
        watchers = self.watchers.get(key)
        if watchers is not None:
            watchers.discard(conn)
            if not watchers:
                del self.watchers[key]


__all__ = ["Watching"]
