"""A new table at the server (:class:`NewTables`): an ``open_table`` checked (its name free, its
seats, the bots' levels the server allows, names that read as somebody else's, the opener's quota
and pace), its game dealt and saved in the store, and the live table made, listed and woken. The
pool's and the tournaments' tables are opened the same way, for the server's own account."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial

from ..engine import RuleError, SeatError, new_game, random_seed
from ..i18n import N_
from ..play.seats import parse_players
from ..printable import printable
from ..rulewords import english_words
from ..store import SaveError
from ..tables.protocol import OpenTable
from .followers import Followers
from .hall import Hall
from .live import LiveTable, RunsIO
from .operator import said
from .pool import MaxBudget
from .registry import TableLimits, invited, lookalike_of
from .seeks import Opener
from .stores.base import GameStore, TableExists, TableRecord
from .table import Refusal

MAX_TABLES = 10_000
"""The most tables one server holds."""


class NewTables:
    """The server's way of opening a table (see the module's docstring); ``wake``: a new table's
    first bot is started so (the server's own). A new table stands on what the hall's tables stand
    on (:attr:`.hall.Hall.backing`, as it is when the table is opened)."""

    def __init__(
        self, hall: Hall, store: GameStore, budget: MaxBudget, table_limits: TableLimits,
        followers: Followers, presence_tick: float, run_io: RunsIO, log: Callable[[str], None],
        wake: Callable[[LiveTable], None],
    ) -> None:  # fmt: skip
        self.hall = hall
        self.store = store
        self.budget = budget
        self.table_limits = table_limits
        self.followers = followers
        self.presence_tick = presence_tick
        self.run_io = run_io
        self.log = log
        self.wake = wake

    async def open(self, conn: Opener, message: OpenTable) -> LiveTable:
        """Open the table ``message`` asks for, ``conn``'s (a connection's, or the pool's), or refuse."""
        name = message.table
        before = self.hall.tables.get(name)
        if name in self.hall.opening or (before is not None and not before.over):
            raise Refusal("table_exists", f"table {name} is being played; choose another name")
        if len(self.hall.tables) >= MAX_TABLES:
            raise Refusal("bad_setup", f"the server holds {MAX_TABLES} tables already")
        if any("," in entry for entry in message.players):
            raise Refusal("bad_setup", "a seat is one name or bot:LEVEL (no commas)")
        try:
            seats = parse_players(",".join(message.players))
            first = message.first_player or 0
            seed = message.seed if message.seed is not None else random_seed()
            created = new_game(seats, first_player=first, seed=seed, rated=message.rated)
        except SeatError as e:
            raise Refusal("bad_setup", english_words(e)) from None
        except RuleError as e:
            raise Refusal.ruled("bad_setup", e) from None
        for i, seat in enumerate(seats):
            over = None if seat.bot is None else self.budget.problem(seat.bot)
            if over is not None:
                raise Refusal("bad_setup", f"{seat.name}: {over}")
            like = lookalike_of(seat.name) if seat.kind == "human" else None
            if like is not None:
                raise Refusal("bad_setup", f"seat {i + 1} ({printable(seat.name)}) reads as {like} without being "
                              "them: name the seat otherwise (or as they are named, to keep it for them)")  # fmt: skip
        self.hall.room_to_keep(conn.identity, conn.user, "open another table")
        wait = 0.0 if conn.identity == os.geteuid() else self.hall.openings.spend(conn.identity)
        if wait:
            raise Refusal("busy", f"{conn.user} has opened {self.table_limits.opens_at_once:g} tables lately, as "
                          f"many as one may in a row: the next one in {wait:.0f} s")  # fmt: skip
        n = len(seats)
        record = TableRecord(
            hints=message.hints, owners=[None] * n, stand_ins=[None] * n, opener=conn.identity,
            kept_for=invited(seats, message.invite), started=not message.wait, move_time=message.move_time,
            time_bank=None if message.move_time is None else message.time_bank,
            increment=0 if message.move_time is None else message.increment,
        )  # fmt: skip
        self.hall.opening.add(name)  # from here no other open_table takes the name
        try:
            await self.hall.room_for(conn.identity, conn.user, before)
            if before is not None:  # a finished game whose name is used again: its file is moved aside
                self.hall.retire(before)
            session, lines = await self.run_io(lambda: self.store.create(name, created, record))
        except (TableExists, SaveError, OSError) as e:
            if before is not None and self.hall.tables.setdefault(name, before) is before:  # nothing took its name
                before.listed = True
                before.presence_soon()  # (who is at it, told the store again)
            if isinstance(e, TableExists):
                raise Refusal("table_exists", str(e)) from None
            raise Refusal("server", f"cannot save the new table: {e}") from None
        finally:
            self.hall.opening.discard(name)
        self.hall.tables[name] = table = LiveTable(name, session, lines, record, self.hall.backing, self.presence_tick)
        table.record_version = 0  # (a new game's record, as the store made it)
        table.relisted = self.followers.changed
        self.followers.changed(name)
        if before is not None:  # the finished game it replaced was moved aside: a kept game now
            for kept in await self.run_io(self.store.kept):
                if kept.startswith(f"{name}.") and kept not in self.hall.kept:
                    self.hall.keep(kept, await self.run_io(partial(self.hall.read_kept, kept)))
        self.log(said(N_("{user} opened table {table}")).format(user=conn.user, table=name))
        self.wake(table)
        return table


__all__ = ["MAX_TABLES", "NewTables"]
