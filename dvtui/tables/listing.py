"""Whose the listed tables are, and their order: one's own first (where it is one's turn first),
then the others' unfinished tables, then their finished ones. Pure functions over the server's
:class:`~.tableinfo.TableInfo` list, for the lobby, ``dvtui tables`` and the menu's history.
"""

from __future__ import annotations

import pwd
from collections.abc import Collection

from .tableinfo import SeatState, TableInfo
from .where import ServerPlace


def server_account(place: ServerPlace) -> tuple[str, ...]:
    """The account that runs the server at ``place`` (its directory's owner), as a seat's ``user``
    names it: whoever runs the server is no stranger to the people it serves, so its invitations
    are tables of theirs (empty: the directory cannot be looked at, or its owner has no name)."""
    try:
        return (pwd.getpwuid(place.directory.stat().st_uid).pw_name,)
    except (OSError, KeyError):
        return ()


def lobby_order(infos: list[TableInfo], me: str, trusted: Collection[str] = ()) -> list[TableInfo]:
    """``me``'s tables first as :func:`mine_first` orders them, then the others' unfinished
    tables, then their finished ones; by name within each."""
    mine = mine_first(infos, me, trusted)
    listed = {info.table for info in mine}
    others = sorted((info for info in infos if info.table not in listed), key=lambda info: (info.over, info.table))
    return mine + others


def mine_first(infos: list[TableInfo], me: str, trusted: Collection[str] = ()) -> list[TableInfo]:
    """The tables where ``me`` has a seat: those where it is their turn first, then the unfinished
    others, then the finished ones, then the invitations of people ``me`` has not played with
    (:func:`invited_by`); by name within each."""
    known = played_with(infos, me, trusted)
    mine = [info for info in infos if has_seat(info, me)]
    return sorted(mine, key=lambda info: (_standing(info, me, known), info.table))


def played_with(infos: list[TableInfo], me: str, trusted: Collection[str] = ()) -> frozenset[str]:
    """``me`` and the people ``me`` plays with: who opened a table where ``me`` holds a seat, and
    those holding a seat there when somebody else opened it; and ``trusted`` (the server's own
    account, :func:`server_account`). At a table ``me`` opened, whoever took a free seat is not
    counted: anybody may take a seat kept for nobody, and a squatter there must not make their own
    tables look like ``me``'s (a person ``me`` asked along comes through their own tables' opener)."""
    known = {me, *trusted}
    for info in infos:
        if any(seat.user == me for seat in info.seats):
            known.update([info.opener] if info.opener is not None else [])
            if info.opener != me:
                known.update(seat.user for seat in info.seats if seat.user is not None)
    return frozenset(known)


def invited_by(info: TableInfo, me: str, known: Collection[str] = ()) -> str | None:
    """Who invited ``me`` to the table, when all ``me`` has there is a free seat kept for them by
    an opener not in ``known`` (nor ``me``): anybody may name a seat after anybody, so such a
    table is an invitation, never "your turn" (``"?"``: the server did not say who opened it).
    None: ``me`` holds a seat there, opened it, or knows its opener."""
    if any(seat.user == me for seat in info.seats) or not has_seat(info, me):
        return None
    if info.opener is not None and (info.opener == me or info.opener in known):
        return None
    return info.opener or "?"


def is_my_turn(info: TableInfo, me: str, known: Collection[str] = ()) -> bool:
    """Whether the placement the table awaits is from a seat of ``me``'s (never at a game kept
    after its table: nobody plays it any more, nor at an invitation of a stranger's, :func:`invited_by`)."""
    if info.over or info.to_move is None or info.kept is not None or invited_by(info, me, known) is not None:
        return False
    mover = next((seat for seat in info.seats if seat.seat == info.to_move), None)
    return mover is not None and _is_mine(mover, me)


def has_seat(info: TableInfo, me: str) -> bool:
    """Whether ``me`` has a seat at the table (taken, or a free one kept for them)."""
    return any(_is_mine(seat, me) for seat in info.seats)


def _is_mine(seat: SeatState, me: str) -> bool:
    return seat.user == me or (seat.user is None and seat.kept_for == me)


def _standing(info: TableInfo, me: str, known: Collection[str] = ()) -> int:
    if invited_by(info, me, known) is not None:
        return 4
    return 0 if is_my_turn(info, me, known) else 3 if info.kept is not None else 2 if info.over else 1
