"""The club's messages: the pool that seats strangers (``seek``), the ratings (``ratings``,
``profile``) and the tournaments (``arena_*``), requests and answers, with their bounds.

Features of their own (``seek``, ``ratings``, ``arena``: :data:`~.protocol.FEATURES`): a client
that did not name one is never sent its messages. They stand on :mod:`.wire` as a table's
messages do, and :mod:`.protocol` gathers both into the unions its decoders read.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .clock import MAX_MOVE_TIME, MIN_MOVE_TIME
from .wire import Invitee, Message, TableName

SEEK_SIZES = (3, 4, 5)
"""The table sizes a ``seek`` may ask for (Dolce Vita is for 3 to 5 players)."""
SEEK_WAIT = 60
"""Seconds a seeker waits for people before bots fill the free seats, unless the seek says."""
SEEK_MOST_WAIT = 600
"""The longest wait a seek may ask for (ten minutes): past it, a pool would be a waiting room."""
SEEK_MOVE_TIME = 60
"""The move time of a table the pool opens when the seek names none: strangers may walk away, and a
clock lets a bot play an absent person's turn so that the others are never kept waiting."""

ARENA_LEAST_SECONDS = 6
"""The shortest tournament (a tenth of a minute): short enough for a test, long enough to seat once."""
ARENA_MOST_SECONDS = 24 * 3600
"""The longest tournament (a day): an arena is an event, not a standing room."""

MAX_TOP = 1000
"""The most lines of the leaderboard one ``ratings`` request is answered with."""
MAX_RECENT = 500
"""The most rated games one ``profile`` answer lists (an account's latest)."""


TableSizes = Annotated[
    list[Annotated[int, msgspec.Meta(ge=SEEK_SIZES[0], le=SEEK_SIZES[-1])]],
    msgspec.Meta(min_length=1, max_length=3),
]
"""The table sizes a seek or a tournament's tables accept: one to three of 3, 4 and 5."""
MoveTime = Annotated[int, msgspec.Meta(ge=MIN_MOVE_TIME, le=MAX_MOVE_TIME)]
"""A move's time in seconds at a table the pool or a tournament opens."""


class AskRatings(Message, tag="ratings"):
    """Feature ``ratings``: the leaderboard's first ``top`` lines; answered by ``leaderboard``."""

    top: Annotated[int, msgspec.Meta(ge=1, le=MAX_TOP)] = 20


class AskProfile(Message, tag="profile"):
    """Feature ``ratings``: an account's rating and its rated games (None: the asker's own);
    answered by ``player_profile``."""

    account: Invitee | None = None


class Seek(Message, tag="seek"):
    """Feature ``seek``: join the pool that seats strangers together ("Play now"). ``players``: the
    table sizes one accepts; ``rated``: a rated game or a casual one (they never mix); ``move_time``:
    the table's move clock (seekers of other move times are never seated together); ``wait``: the
    seconds one waits for people before bots fill the free seats. Answered by ``seeking``, again
    each second while one waits, then ``matched``."""

    players: TableSizes = msgspec.field(default_factory=lambda: [*SEEK_SIZES])
    rated: bool = False
    move_time: MoveTime = SEEK_MOVE_TIME
    wait: Annotated[int, msgspec.Meta(ge=1, le=SEEK_MOST_WAIT)] = SEEK_WAIT


class LeavePool(Message, tag="leave_pool"):
    """Feature ``seek``: leave the pool (a connection that ends leaves it too). Answered by ``pool_left``."""


class ArenaNew(Message, tag="arena_new"):
    """Feature ``arena``: open tournament ``name`` now, for ``seconds``; its tables of ``players``
    (sizes), ``rated`` or casual, ``move_time`` a move. Answered by ``arena``."""

    name: TableName
    seconds: Annotated[int, msgspec.Meta(ge=ARENA_LEAST_SECONDS, le=ARENA_MOST_SECONDS)]
    players: TableSizes = msgspec.field(default_factory=lambda: [*SEEK_SIZES])
    rated: bool = False
    move_time: MoveTime = SEEK_MOVE_TIME


class ArenaJoin(Message, tag="arena_join"):
    """Feature ``arena``: take part in tournament ``name``, free to be seated now: answered by
    ``arena`` (its standings), then ``matched`` (with ``arena``) once seated, and ``arena`` each time
    the standings change while one waits. One comes back with ``arena_join`` once one's game ends."""

    name: TableName


class ArenaShow(Message, tag="arena_show"):
    """Feature ``arena``: tournament ``name``'s standings, running or over. Answered by ``arena``;
    ``follow``: then again each time they change, until it is over (the connection is not idle
    meanwhile)."""

    name: TableName
    follow: bool = False


class ArenaList(Message, tag="arena_list"):
    """Feature ``arena``: the tournaments, running first, then the latest over. Answered by ``arenas``."""


class Seeking(Message, tag="seeking"):
    """Feature ``seek``: one is in the pool, as it stands: ``wait_left``, the seconds before bots fill
    the free seats; ``pool``, how many people seek a game of the same kind (rated or not, the same
    move time); ``window``, how far from one's rating others may be now (it widens each second)."""

    players: list[int]
    rated: bool
    move_time: int
    wait_left: float
    pool: int
    window: int


class Matched(Message, tag="matched"):
    """Feature ``seek``: the pool seated one at a new table: ``seat`` is kept for one there (``join``
    it); ``players`` its size, ``bots`` how many of its seats bots play. One is out of the pool."""

    table: str
    seat: int
    players: int
    bots: int = 0
    rated: bool = False
    arena: str | None = None
    """Feature ``arena``: the tournament that seated one (None: the pool)."""


class PoolLeft(Message, tag="pool_left"):
    """Feature ``seek``: answers ``leave_pool``; ``seeking`` false: one was not in the pool (matched already)."""

    seeking: bool = True


class RatedLine(msgspec.Struct, kw_only=True):
    """An account's line of the leaderboard (docs/RATINGS.md): its ``rank`` (0: it has no rated
    game), the ``shown`` rating, ``provisional``, the ladder's rung it plays like and by how much
    (``like``, ``by``: ``club``, 40), its rated ``games``, and the model's ``mu`` and ``sigma``."""

    rank: int
    account: str
    shown: int
    provisional: bool
    like: str
    by: int
    games: int
    mu: float
    sigma: float


class Leaderboard(Message, tag="leaderboard"):
    """The answer to ``ratings``: the first lines of the leaderboard, best first, and how many
    accounts it has in all."""

    standings: list[RatedLine]
    accounts: int = 0


class RatedGame(msgspec.Struct, kw_only=True):
    """One rated game of a profile: its id, its ``table`` and ``number`` there (``fetch_game``, while
    the table keeps it), when it ended (UTC, ISO 8601), the account's place among ``players``, and
    its shown rating before and after."""

    game: str
    table: str
    number: int
    ended: str
    place: int
    players: int
    before: int
    after: int


class PlayerProfile(Message, tag="player_profile"):
    """The answer to ``profile``: the account's line (``rank`` 0 without a rated game), how many
    rated games it finished first, second ... fifth (``places``), and its latest rated games, oldest
    first (at most :data:`MAX_RECENT`; ``standing.games`` counts them all)."""

    standing: RatedLine
    places: list[int]
    history: list[RatedGame]


class ArenaLine(msgspec.Struct, kw_only=True):
    """A participant's line of a tournament's standings: ``rank`` (equal points share one),
    ``account``, ``points``, ``games`` finished there, and ``playing``: at one of its tables now."""

    rank: int
    account: str
    points: int
    games: int
    playing: bool = False


class ArenaStandings(Message, tag="arena"):
    """Feature ``arena``: a tournament as it stands: ``state`` ``running`` (``ends_in`` seconds
    left) or ``over`` (``finishing``: time is up, its last games still counting); its rules
    (``players``, ``rated``, ``move_time``), ``tables`` of it being played, and its standings."""

    name: str
    state: Literal["running", "finishing", "over"]
    ends_in: float
    players: list[int]
    rated: bool
    move_time: int
    tables: int
    standings: list[ArenaLine]
    ended: str | None = None
    """When it ended (UTC, ISO 8601), once over."""


class ArenaSummary(msgspec.Struct, kw_only=True):
    """One tournament of ``arenas``: its name, state, participants, and who leads (None: no points yet)."""

    name: str
    state: Literal["running", "finishing", "over"]
    participants: int
    leader: str | None = None
    ended: str | None = None


class Arenas(Message, tag="arenas"):
    """Feature ``arena``: the answer to ``arena_list``."""

    arenas: list[ArenaSummary]
