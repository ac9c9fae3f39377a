"""The connections that follow the list of tables (``follow_tables``), and what they are told.

A lobby left open used to ask for the whole list every few seconds: its cost grew with the tables
times the lobbies. A follower is sent the list once, then only what changes: the server calls
:meth:`Followers.changed` with a table's name wherever what ``tables`` says of it may have changed
(a table opened, someone arrived or left, a decision, a start, a close, a kept game added or
forgotten), and at most once a tick each follower gets one ``tables_changed`` with each changed
table once, in its latest state. Each table's info is made once per batch, its line once per
vocabulary, so a batch costs the changes, not the changes times the followers. What piles up
unread for a slow follower is bounded as anything sent to a connection is (it is dropped)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgspec

from ..tables.older import listed_for
from ..tables.protocol import TablesChanged
from ..tables.tableinfo import ListedTable
from ..tables.wire import MAX_LINE_BYTES, encode
from .limits import Coalesced

_OVERHEAD = len(encode(TablesChanged(tables=[], removed=[])))
"""A batch's bytes besides its tables and names."""


class Follower(Protocol):
    """What a follower is to this module: a connection that is sent lines and speaks a vocabulary."""

    features: frozenset[str]

    def send(self, data: bytes) -> None: ...


class Followers:
    """Who follows the list (each with or without the kept games), and the changes not yet told."""

    def __init__(self, info: Callable[[str, bool], ListedTable | None], tick: float) -> None:
        """``info(name, kept)``: the table or (``kept``) kept game ``name`` as listed, None when
        there is none (then it is told as removed)."""
        self._info = info
        self._following: dict[Follower, bool] = {}
        """Each follower, and whether it follows the kept games too."""
        self._changed: set[str] = set()
        self.soon = Coalesced(self._send, tick)

    def __contains__(self, conn: object) -> bool:
        return conn in self._following

    def __len__(self) -> int:
        return len(self._following)

    def follow(self, conn: Follower, *, kept: bool) -> None:
        """``conn`` follows the list from now on (what it followed before, it no longer does)."""
        self._following[conn] = kept

    def forget(self, conn: Follower) -> None:
        """``conn`` is gone: it follows nothing."""
        self._following.pop(conn, None)

    def changed(self, name: str) -> None:
        """What is listed of ``name`` (a table or a kept game) may have changed: followers are told soon."""
        if self._following:
            self._changed.add(name)
            self.soon()

    def _send(self) -> None:
        names, self._changed = sorted(self._changed), set()
        if not self._following:
            return
        infos = {kept: [(name, self._info(name, kept)) for name in names] for kept in {*self._following.values()}}
        lines: dict[tuple[bool, frozenset[str]], list[bytes]] = {}  # one batch per vocabulary, not per follower
        for conn, kept in list(self._following.items()):
            key = (kept, conn.features)
            batch = lines.get(key)
            if batch is None:
                batch = lines[key] = _batches(infos[kept], conn.features)
            for line in batch:
                conn.send(line)


def _batches(infos: list[tuple[str, ListedTable | None]], features: frozenset[str]) -> list[bytes]:
    """The ``tables_changed`` lines that tell ``infos`` (None: removed), each within a line's bound."""
    lines: list[bytes] = []
    tables: list[ListedTable] = []
    removed: list[str] = []
    size = _OVERHEAD
    for name, info in infos:
        listed = None if info is None else listed_for(info, features)
        grown = size + len(msgspec.json.encode(listed if listed is not None else name)) + 1
        if grown > MAX_LINE_BYTES and (tables or removed):
            lines.append(encode(TablesChanged(tables=list(tables), removed=removed)))
            tables, removed, grown = [], [], _OVERHEAD + grown - size
        if listed is None:
            removed.append(name)
        else:
            tables.append(listed)
        size = grown
    if tables or removed:
        lines.append(encode(TablesChanged(tables=list(tables), removed=removed)))
    return lines


__all__ = ["Follower", "Followers"]
