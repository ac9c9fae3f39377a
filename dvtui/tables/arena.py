"""Tournaments over the wire, the client's side: open one (``arena_new``), its standings
(``arena_show``), the list (``arena_list``), each one request on a connection of its own, and
waiting to be seated (:func:`wait_seat`: ``arena_join`` held open until ``matched``, or until the
tournament is over). A server whose welcome does not name ``arena`` has none (:class:`NoArena`)."""

from __future__ import annotations

from collections.abc import Callable

from ..i18n import _, ngettext, pgettext
from .clock import move_time_words
from .clubwire import (
    SEEK_MOVE_TIME,
    SEEK_SIZES,
    ArenaJoin,
    ArenaList,
    ArenaNew,
    Arenas,
    ArenaShow,
    ArenaStandings,
    ArenaSummary,
    Matched,
)
from .connection import Connection, Dropped, Refused, ask_once, lost
from .where import ServerPlace
from .wire import Error


class NoArena(Exception):
    """The server speaks no ``arena``: an older dvtui, which runs no tournaments."""

    def __init__(self, place: ServerPlace) -> None:
        said = _("the table server at {directory} runs no tournaments (an older dvtui serve)")
        super().__init__(said.format(directory=place.directory))


def _speaks_arena(conn: Connection) -> None:
    """Raise :class:`NoArena` unless ``conn``'s server speaks ``arena``."""
    if "arena" not in conn.welcome.features:
        raise NoArena(conn.place)


async def _open(place: ServerPlace, user: str | None, bot: str | None = None) -> Connection:
    conn = await Connection.open(place, user=user, bot=bot)
    try:
        _speaks_arena(conn)
    except NoArena:
        conn.close()
        raise
    return conn


async def new(
    place: ServerPlace, name: str, seconds: int, *, players: list[int] | None = None, rated: bool = False,
    move_time: int = SEEK_MOVE_TIME, user: str | None = None,
) -> ArenaStandings:  # fmt: skip
    """Open tournament ``name`` now, for ``seconds``."""
    message = ArenaNew(name=name, seconds=seconds, players=players or [*SEEK_SIZES], rated=rated, move_time=move_time)
    return await ask_once(place, message, ArenaStandings, user=user, speaks=_speaks_arena)


async def show(place: ServerPlace, name: str, *, user: str | None = None) -> ArenaStandings:
    """Tournament ``name``'s standings."""
    return await ask_once(place, ArenaShow(name=name), ArenaStandings, user=user, speaks=_speaks_arena)


async def follow(
    place: ServerPlace, name: str, told: Callable[[ArenaStandings], None], *, user: str | None = None
) -> ArenaStandings:
    """Follow tournament ``name``'s standings: ``told`` hears each, until it is over (the last)."""
    try:
        conn = await _open(place, user)
        try:
            await conn.send(ArenaShow(name=name, follow=True))
            while True:
                message = await conn.receive()
                if isinstance(message, Error):
                    raise Refused(message)
                if isinstance(message, ArenaStandings):
                    told(message)
                    if message.state == "over":
                        return message
        finally:
            conn.close()
    except Dropped as e:
        raise lost(place, e) from None


async def listing(place: ServerPlace, *, user: str | None = None) -> Arenas:
    """The tournaments, running first, then the latest over."""
    return await ask_once(place, ArenaList(), Arenas, user=user, speaks=_speaks_arena)


async def wait_seat(
    place: ServerPlace, name: str, *, user: str | None = None, bot: str | None = None,
    told: Callable[[ArenaStandings], None] = lambda standings: None,
) -> Matched | ArenaStandings:  # fmt: skip
    """Be free to be seated in tournament ``name`` and wait: the table one is seated at
    (``matched``), or the final standings once it is over. ``told`` hears each standings meanwhile."""
    try:
        conn = await _open(place, user, bot)
        try:
            await conn.send(ArenaJoin(name=name))
            while True:
                message = await conn.receive()
                if isinstance(message, Error):
                    raise Refused(message)
                if isinstance(message, Matched):
                    return message
                if isinstance(message, ArenaStandings):
                    if message.state == "over":
                        return message
                    told(message)
        finally:
            conn.close()
    except Dropped as e:
        raise lost(place, e) from None


def summary_line(arena: ArenaSummary) -> str:
    """A tournament of the list in words: its name, state, people and leader (``dvtui tournament
    list``'s line, and the start menu's)."""
    states = {"running": _("running"), "finishing": _("finishing"), "over": _("over")}
    leader = _(", led by {account}").format(account=arena.leader) if arena.leader else ""
    people = ngettext("{count} person", "{count} people", arena.participants).format(count=arena.participants)
    return _("{name}: {state}, {people}{leader}").format(name=arena.name, state=states[arena.state], people=people,
                                                         leader=leader)  # fmt: skip


def standings_lines(standings: ArenaStandings) -> list[str]:
    """A tournament in words: its state, its rules, then a line per participant."""
    sizes = "-".join(str(n) for n in sorted({standings.players[0], standings.players[-1]}))
    kind = pgettext("game", "rated") if standings.rated else pgettext("game", "casual")
    rules = _("{size} players, {kind}, {move_time} a move").format(
        size=sizes, kind=kind, move_time=move_time_words(standings.move_time)
    )
    if standings.state == "running":
        head = _("tournament {name} ({rules}): running, {minutes} min left").format(
            name=standings.name, rules=rules, minutes=f"{standings.ends_in / 60:.1f}"
        )
    elif standings.state == "finishing":
        playing = ngettext("{count} table still playing", "{count} tables still playing", standings.tables)
        head = _("tournament {name} ({rules}): time is up, {playing}").format(
            name=standings.name, rules=rules, playing=playing.format(count=standings.tables)
        )
    else:
        head = _("tournament {name} ({rules}): over, final standings").format(name=standings.name, rules=rules)
    lines = [head]
    if not standings.standings:
        lines.append(_("nobody has joined yet"))
    for line in standings.standings:
        games = ngettext("{count} game", "{count} games", line.games).format(count=line.games)
        playing = _(" (playing)") if line.playing else ""
        said = _("{rank}. {account}  {points} pts, {games}{playing}")
        lines.append(said.format(rank=f"{line.rank:>3}", account=line.account, points=line.points, games=games,
                                 playing=playing))  # fmt: skip
    return lines


__all__ = ["NoArena", "follow", "listing", "new", "show", "standings_lines", "summary_line", "wait_seat"]
