"""The server's rules for its tables as a whole: how many one may open, when a table is put aside,
whom a seat is kept for, and how the list of tables is cut into pages.

Each is a plain function of what the server knows, so the server calls them where a table is
opened, joined or listed, and its sweep calls :func:`put_aside_reason` for every table now and then.
"""

from __future__ import annotations

import pwd
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec

from ..engine import Game, Seat
from ..lookalike import skeleton
from ..tables.protocol import MAX_PAGE, Tables
from ..tables.tableinfo import ListedTable, SeatState
from ..tables.vetting import person_problem
from ..tables.wire import MAX_LINE_BYTES, VOUCHED_PREFIX, Owner, encode
from .openings import OPENS_AT_ONCE, OPENS_PER_HOUR
from .table import Refusal

TABLES_PER_OPENER = 20
"""Tables one account (or vouched person) may have listed at once, open or over."""
UNJOINED_SECONDS = 24 * 3600.0
"""A table where nobody has taken a seat is put aside once nobody has come for this long."""
IDLE_SECONDS = 7 * 24 * 3600.0
"""Any table (over or not) is put aside once nobody has been at it, and nothing was played, for this long."""
SWEEP_SECONDS = 60.0
"""How often the server looks for tables to put aside (and for kept games to remove)."""
KEEP_DAYS = 30.0
"""How long a game put aside is kept after its last line (``dvtui serve --keep-days``)."""
MAX_KEEP_DAYS = 36_500
"""The longest ``--keep-days`` (a hundred years: as good as for ever)."""


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The numbers above, as one server uses them (a test makes them small)."""

    per_opener: int = TABLES_PER_OPENER
    unjoined: float = UNJOINED_SECONDS
    idle: float = IDLE_SECONDS
    sweep: float = SWEEP_SECONDS
    keep_days: float = KEEP_DAYS
    opens_at_once: float = OPENS_AT_ONCE
    opens_per_hour: float = OPENS_PER_HOUR


def kept_for(seats: Sequence[Seat]) -> list[Owner | None]:
    """Whom each seat is kept for: a human seat named like an account of this host (case aside)
    is that account's, one named ``web:NAME`` is the vouched person NAME's; any other seat is
    anybody's (None). Decided when the table is opened and kept in its record, so an account made
    later takes no seat from whoever sits there."""
    return [owner_named(seat.name) if seat.kind == "human" else None for seat in seats]


def owner_named(name: str) -> Owner | None:
    """The owner ``name`` names: ``web:NAME`` the vouched person NAME, else the account of this host
    so named (case aside); None: nobody (no such account, or a person's name the table refuses)."""
    name = name.strip()
    if name[: len(VOUCHED_PREFIX)].casefold() == VOUCHED_PREFIX:
        person = name[len(VOUCHED_PREFIX) :]
        return person if person_problem(person) is None else None
    return _account(name)


def invited(seats: Sequence[Seat], invite: Sequence[str | None] | None) -> list[Owner | None]:
    """Whom each seat of a new table is kept for: its invitation (``open_table``'s ``invite``), else
    as its name decides. An invitation nobody answers to, or to a bot's seat, is refused."""
    kept = kept_for(seats)
    if invite is None:
        return kept
    if len(invite) != len(seats):
        raise Refusal("bad_setup", f"invite names {len(invite)} seats; the table has {len(seats)}")
    for i, (seat, name) in enumerate(zip(seats, invite, strict=True)):
        if name is None:
            continue
        if seat.kind != "human":
            raise Refusal("bad_setup", f"seat {i + 1} ({seat.name}) is a bot's: nobody is invited to it")
        owner = owner_named(name)
        if owner is None:
            raise Refusal("bad_setup", f"invite {name}: no such account here (a vouched person is web:NAME)")
        kept[i] = owner
    return kept


def lookalike_of(name: str) -> str | None:
    """The account of this host, or the ``web:NAME`` person, that seat name ``name`` reads as
    without naming them (``sec3аna`` with a Cyrillic ``а`` for ``sec3ana``); None: it reads as
    nobody else. A seat so named would show as that person in every line about the table."""
    if owner_named(name) is not None:
        return None
    read = skeleton(name.strip())
    if read == name.strip().casefold():
        return None  # plain already: it names nobody (no such account)
    if read.startswith(VOUCHED_PREFIX):
        return read if person_problem(read[len(VOUCHED_PREFIX) :]) is None else None
    return read if _account(read) is not None else None


def _account(name: str) -> int | None:
    for spelling in dict.fromkeys((name, name.lower())):
        try:
            return pwd.getpwnam(spelling).pw_uid
        except (KeyError, ValueError):  # ValueError: a name with a NUL
            continue
    return None


def put_aside_reason(*, present: bool, taken: bool, quiet_for: float, limits: TableLimits) -> str | None:
    """Why a table is put aside now (None: it stays listed). ``present``: somebody is at it or a
    bot is thinking there; ``taken``: somebody has ever taken one of its seats; ``quiet_for``:
    seconds since anybody was at it or anything was played there."""
    if present:
        return None
    if not taken and quiet_for >= limits.unjoined:
        return f"nobody took a seat in {quiet_for / 3600:.0f} h"
    if quiet_for >= limits.idle:
        return f"nobody came for {quiet_for / 86400:.0f} days"
    return None


def expired(last: float, *, now: float, limits: TableLimits) -> bool:
    """A kept game whose last line was written at ``last`` (seconds since the epoch) is removed now."""
    return now - last > limits.keep_days * 86400


def kept_info(
    kept: str, game: Game, last: float, users: Sequence[str | None] = (), kept_for: Sequence[str | None] = (),
    *, number: int = 1, move_time: int | None = None, opener: str | None = None,
) -> ListedTable:  # fmt: skip
    """A kept game as the list of tables shows it (``all``): its seats as its file names them,
    whose each was (``users``, its table's owners as shown; ``kept_for``, a free seat's
    invitation: so that ``--mine`` finds a person's kept games), where its game stopped, and
    ``kept``, the time of its last line; and the keys every table info has: ``game``, its number
    at its table (``number``), its table's ``move_time``, its ``opener`` (so that a seat kept for
    somebody reads as an invitation from whom it was), no waiting room and no clock running."""
    users = list(users) if len(users) == len(game.created.players) else [None] * len(game.created.players)
    kept_for = list(kept_for) if len(kept_for) == len(users) else [None] * len(users)
    seats = [
        SeatState(seat=i, name=p.name, kind=p.kind, state="bot" if p.kind == "bot" else "away", user=users[i],
                  kept_for=kept_for[i] if users[i] is None else None)
        for i, p in enumerate(game.created.players)
    ]  # fmt: skip
    stamp = datetime.fromtimestamp(last, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return ListedTable(
        table=kept, seats=seats, round=game.round, rounds=game.rounds,
        to_move=msgspec.UNSET if game.over else game.to_move, over=game.over, kept=stamp, game=number, waiting=False,
        move_time=move_time, move_left=None, opener=msgspec.UNSET if opener is None else opener,
        rated=game.created.rated,
    )  # fmt: skip


_OVERHEAD = len(encode(Tables(tables=[], more=True)))


def page(names: Sequence[str], info: Callable[[str], ListedTable], *, after: str | None, limit: int | None) -> bytes:
    """The ``tables`` line for the tables ``names`` (sorted) from the first after ``after``: at
    most ``limit`` of them, and as many as fit in one line of the protocol."""
    start = 0
    if after is not None:
        import bisect

        start = bisect.bisect_right(names, after)
    most = min(limit or MAX_PAGE, MAX_PAGE)
    chosen: list[ListedTable] = []
    size = _OVERHEAD
    for name in names[start : start + most]:
        table = info(name)
        grown = size + len(msgspec.json.encode(table)) + 1  # and its comma
        if grown > MAX_LINE_BYTES and chosen:
            break
        chosen.append(table)
        size = grown
    more = start + len(chosen) < len(names)
    return encode(Tables(tables=list(chosen), more=more))
