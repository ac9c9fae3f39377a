"""How much room the kept games take, per opener and in all, and when an opener may keep no more.

Every table put aside with a decision in it (closed, idle, or played before a rematch) becomes a
kept game for ``keep_days``: the pace of openings slows a loop of open/decide/close down, but a
month of it still filled the disk. So the server counts each kept game's bytes against the
account (or vouched person) that opened its table, and at a cap refuses that opener's new tables
and rematches (``bad_setup``, as the quota of tables listed). It never removes a kept game to make
room: a kept game is the record of everyone who sat at it, and one person's opening must not take
another's game away.
Room comes back as kept games reach ``keep_days``; the server's operator may remove some sooner.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from ..store import SaveError

if TYPE_CHECKING:
    from .stores.base import GameStore

KEPT_BYTES_PER_OPENER = 64 * 1024 * 1024
"""Bytes of kept games one opener may have. A whole game with its record and some chat is ~40 KiB:
this is some 1,600 games, more than fifty a day for the 30 days they are kept, which no person
plays; while an account that opens as fast as it may (one a minute), plays each game out and
chats as fast as it may would keep over a gigabyte in those 30 days."""
KEPT_BYTES_TOTAL = 1024 * 1024 * 1024
"""Bytes of kept games of the whole server (sixteen openers at their cap)."""


class KeptSize(NamedTuple):
    """A kept game as the cap counts it: whose table it was (None: nobody's, the server's own or
    unknown: counted in all only) and its bytes (game, record and chat)."""

    opener: Hashable | None
    size: int


class KeptRoom:
    """The kept games' sizes by name, summed per opener and in all."""

    def __init__(self, per_opener: int = KEPT_BYTES_PER_OPENER, total: int = KEPT_BYTES_TOTAL) -> None:
        self.per_opener = per_opener
        self.total_cap = total
        self._games: dict[str, KeptSize] = {}
        self._of: dict[Hashable, tuple[int, int]] = {}
        self.total = 0
        """Bytes of all the kept games counted."""

    def add(self, kept: str, size: KeptSize) -> None:
        """Count kept game ``kept`` (again: its previous count is replaced)."""
        self.remove(kept)
        self._games[kept] = size
        self.total += size.size
        if size.opener is not None:
            games, used = self._of.get(size.opener, (0, 0))
            self._of[size.opener] = (games + 1, used + size.size)

    def remove(self, kept: str) -> None:
        """Kept game ``kept`` counts no more (it was removed)."""
        size = self._games.pop(kept, None)
        if size is None:
            return
        self.total -= size.size
        if size.opener is not None:
            games, used = self._of[size.opener]
            if games <= 1:
                del self._of[size.opener]
            else:
                self._of[size.opener] = (games - 1, used - size.size)

    def of(self, opener: Hashable) -> tuple[int, int]:
        """``opener``'s kept games: how many, and their bytes."""
        return self._of.get(opener, (0, 0))

    def __len__(self) -> int:
        return len(self._games)

    def names(self) -> frozenset[str]:
        """The kept games counted."""
        return frozenset(self._games)

    def apply(self, gone: Iterable[str], new: dict[str, KeptSize]) -> None:
        """What :func:`recount` found: ``gone`` removed, ``new`` kept, through other servers."""
        for kept in gone:
            self.remove(kept)
        for kept, size in new.items():
            self.add(kept, size)

    def full(self, opener: Hashable, who: str) -> str | None:
        """Why ``opener`` (named ``who``) may keep no more (None: it may): the cap reached, named as
        ``--limit`` names it, with what the bytes are."""
        games, used = self.of(opener)
        if used >= self.per_opener:
            return (f"the {games} kept games of tables {who} opened take {_size(used)}, as much as one "
                    f"opener may keep here (kept-bytes-per-opener={self.per_opener})")  # fmt: skip
        if self.total >= self.total_cap:
            return (f"the {len(self)} kept games at this server take {_size(self.total)}, as much as it "
                    f"keeps (kept-bytes-total={self.total_cap})")  # fmt: skip
        return None


def recount(store: GameStore, known: frozenset[str]) -> tuple[set[str], dict[str, KeptSize]]:
    """The kept games of a shared store that the ``known`` ones (a server's count) miss: those gone
    and those new, each new one with its size and opener. Several servers share a database, and
    each keeps games the others do not see; a server's sweep counts theirs so, a few queries per
    kept game made meanwhile (never a sum over all their lines). Blocks: called off the loop."""
    kept = set(store.kept())
    new: dict[str, KeptSize] = {}
    for name in kept - known:
        try:
            record = store.record(name)
            new[name] = KeptSize(None if record is None else record.opener, store.kept_size(name))
        except (SaveError, OSError):
            continue  # (removed meanwhile: the next sweep sees it gone)
    return set(known - kept), new


def _size(size: int) -> str:
    """``size`` bytes in KiB or MiB, one decimal."""
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1024 * 1024):.1f} MiB"


__all__ = ["KEPT_BYTES_PER_OPENER", "KEPT_BYTES_TOTAL", "KeptRoom", "KeptSize", "recount"]
