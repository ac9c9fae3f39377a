"""A table's rules over who is there: seats, owners, stand-ins, who may join, presence, whose bot moves.

A :class:`Table` holds its game's :class:`~dvtui.play.session.PlaySession`, its record (owners,
stand-ins, whom each free seat is kept for) and its *guests*: whatever stands for one person at
the table (the server's connections; plain values in tests). The rules read a guest's
:attr:`Guest.identity` only, so they are tested without a socket or an event loop, and the server
is left with the sockets, the files and the bots' processes. A rule that says no raises
:class:`Refusal`, which the server sends back as the ``error`` answering the message.

:func:`~dvtui.tables.seats.pick_seat` is the seat a join without one means, read from the seats as
the table shows them: the server decides with it, and the seat chooser offers the same seat first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import msgspec

from ..play.session import PlaySession
from ..printable import printable
from ..tables.protocol import Presence
from ..tables.seats import pick_seat
from ..tables.tableinfo import ListedTable, SeatState
from ..tables.wire import MAX_ERROR_CHARS, Error, ErrorCode, Owner
from .oneseat import second_seat
from .refusal import G, Guest, Refusal, Sat, owner_name
from .rematches import TableRematch
from .stores.base import MAX_RELEASED, Here, TableRecord
from .tableclock import TableClock

STAND_IN = "greedy"
"""The bot that plays a seat nobody has come to once the opener starts the table, a turn whose time
ran out, and a seat a co-player asks a stand-in for: the table's stand-in level, whoever asks."""


class Table(TableRematch[G], TableClock):
    """A table's game, record and guests, and the rules between them (see the module's docstring)."""

    def __init__(
        self, name: str, session: PlaySession, record: TableRecord, *, now: Callable[[], float] | None = None,
        left: float | None = None,
    ) -> None:  # fmt: skip
        """``now``: the monotonic clock the move clock runs on (given by tests); ``left``: the time
        left of the turn under way, for a table reopened (None: a whole move time from now)."""
        self.name = name
        self.session = session
        self.record = record
        self._begin_clock(now, left)
        self.seated: list[G | None] = [None] * session.game.n
        self.spectators: set[G] = set()
        self.elsewhere: dict[int, Here] = {}
        """The seats whose people are at the table through other servers on the same database (a
        bot client's level, a rematch accepted): connected, as the seats here are."""
        self.watching_elsewhere = 0
        """The spectators of the table through other servers."""
        self.failed: Error | None = None
        """Why the table takes no more decisions (a failed save, a full log); told to everyone."""
        self.away_since: dict[int, float] = {}
        """When (``now``) each seat nobody is connected to was left; a seat not in it has been
        empty since the table was loaded here (:attr:`loaded`): a restart gives everyone the grace."""
        self.loaded = self.now()
        self.accepted: list[int] = []
        """The seats that have proposed (the first) or accepted a rematch of the finished game, while
        they are at the table (empty: no rematch is proposed). Not kept: a restarted server forgets it."""

    # -- what it is ------------------------------------------------------------------------------

    def awaited(self) -> list[int]:
        """The human seats a waiting room waits for: never taken (no owner), and the table not
        started (empty once it has)."""
        if self.record.started:
            return []
        return [i for i, owner in enumerate(self.record.owners) if owner is None and not self.session.is_bot(i)]

    @property
    def waiting(self) -> bool:
        """No placement yet: some human seat was never taken and the opener has not started the table."""
        return bool(self.awaited())

    def why_waiting(self) -> str | None:
        """Why nobody may place now, in the words a refused placement gets (None: they may)."""
        awaited = self.awaited()
        if not awaited:
            return None
        seats = ", ".join(self.seat_words(i) for i in awaited)
        return (f"table {self.name} waits for {seats} to sit, or for its opener to start it "
                f"(dvtui tables start {self.name})")  # fmt: skip

    def seat_words(self, seat: int) -> str:
        """A seat as people read it, in messages and the log: numbered from 1, as ``--as`` takes
        it (the protocol's index is from 0), with its name."""
        return f"seat {seat + 1} ({self.session.names[seat]})"

    def not_a_human_seat(self, seat: int) -> str | None:
        """Why a person cannot sit at (or let a bot stand in for) ``seat``; None: they may."""
        n = self.session.game.n
        if seat >= n:
            return f"table {self.name} has no seat {seat + 1} (its seats are 1 to {n})"
        if self.session.is_bot(seat):
            return f"{self.seat_words(seat)} is a bot's seat of table {self.name}, not a person's"
        return None

    def connected(self, seat: int) -> bool:
        """Somebody is at ``seat`` now, through this server or another."""
        return self.seated[seat] is not None or seat in self.elsewhere

    def anyone_here(self) -> bool:
        """Somebody is at the table, seated or watching, through this server or another."""
        return bool(self.here() or self.elsewhere or self.watching_elsewhere)

    def here(self) -> list[G]:
        """Everyone at the table: the seated, then the spectators."""
        return [g for g in self.seated if g is not None] + list(self.spectators)

    def seat_states(self) -> list[SeatState]:
        out = []
        for i, seat in enumerate(self.session.game.created.players):
            owner = self.record.owners[i]
            guest, there = self.seated[i], self.elsewhere.get(i)
            if self.session.is_bot(i):
                state = "bot"
            elif self.connected(i):
                state = "connected"
            else:
                state = "free" if owner is None else "away"
            kept = self.record.kept_for[i] if state == "free" else None
            out.append(
                SeatState(
                    seat=i, name=seat.name, kind=seat.kind, state=state,  # type: ignore[arg-type]
                    user=None if owner is None else owner_name(owner),
                    stand_in=self.record.stand_ins[i] if state in ("free", "away") else None,
                    bot=guest.bot if guest is not None else there.bot if there is not None else None,
                    kept_for=None if kept is None else owner_name(kept), resigned=self.resigned(i),
                    stand_in_by=self._stand_in_by(i) if state in ("free", "away") else None,
                )
            )  # fmt: skip
        return out

    def _stand_in_by(self, seat: int) -> str | None:
        """Who asked for ``seat``'s stand-in, as the table shows them (None: nobody, or the table)."""
        by = self.record.stand_in_by
        asker = by[seat] if seat < len(by) and self.record.stand_ins[seat] is not None else None
        return None if asker is None else owner_name(asker)

    def presence(self) -> Presence:
        """Who is there, as the table tells everyone at it."""
        game = self.session.game
        to_move = None if game.over or self.waiting or self.failed is not None else game.to_move
        return Presence(
            table=self.name, seats=self.seat_states(), spectators=self.spectator_count(), waiting=self.waiting,
            move_time=self.record.move_time, move_left=self.move_left(), rematch=self.rematch_vote(),
            to_move=to_move, time_bank=self.record.time_bank, increment=self.record.increment, banks=self.banks(),
        )  # fmt: skip

    def spectator_count(self) -> int:
        return len(self.spectators) + self.watching_elsewhere

    def info(self) -> ListedTable:
        game = self.session.game
        return ListedTable(
            table=self.name, seats=self.seat_states(), round=game.round, rounds=game.rounds,
            to_move=msgspec.UNSET if game.over else game.to_move, over=game.over, spectators=self.spectator_count(),
            hints=self.record.hints, waiting=self.waiting, move_time=self.record.move_time, game=self.record.game,
            move_left=self.move_left(), time_bank=self.record.time_bank, increment=self.record.increment,
            opener=msgspec.UNSET if self.record.opener is None else owner_name(self.record.opener),
            rated=game.created.rated,
        )  # fmt: skip

    def stop(self, code: ErrorCode, message: str, seq: int) -> Error:
        """No more decisions here (``seq``: the line the table stopped at); the error says why."""
        self.failed = Error(code=code, message=printable(message)[:MAX_ERROR_CHARS], seq=seq)
        return self.failed

    # -- who sits where --------------------------------------------------------------------------

    def join(self, guest: G, seat: int | None) -> Sat[G]:
        """Seat ``guest`` at ``seat`` (None: the seat :meth:`pick` says), or raise :class:`Refusal`
        (nothing changed then). A seat taken is its guest's identity's for the whole game; the
        identity's other guest there, if any, is pushed off (:attr:`Sat.pushed`)."""
        if seat is None:
            seat = self.pick(guest)
        problem = self.not_a_human_seat(seat)
        if problem is not None:
            raise Refusal("no_seat", problem)
        owner = self.record.owners[seat]
        kept = self.record.kept_for[seat] if owner is None else None
        who = self.session.names[seat]  # by its name: people number seats from 1 (``--as 2``), the protocol from 0
        if owner is not None and owner != guest.identity:
            raise Refusal("seat_taken", f"{who}'s seat at table {self.name} belongs to {_whose(owner)}")
        if kept is not None and kept != guest.identity:
            raise Refusal("seat_taken", f"{who}'s seat at table {self.name} is kept for {_whose(kept)} (the table's "
                          f"opener may release it: dvtui tables release {self.name} --seat {seat + 1})")  # fmt: skip
        if self.resigned(seat):
            raise Refusal("no_seat", f"{who} resigned at table {self.name}: a bot plays the seat to the end")
        if owner is None and kept is None and guest.identity in self.record.released:
            raise Refusal("no_seat", f"the opener of table {self.name} released you from its seats for this "
                          "game: watch it, or ask them to hand you a seat")  # fmt: skip
        held = second_seat(self.record, guest.identity) if owner is None and kept is None else None
        if held is not None:  # (a seat kept or handed for them is theirs: the opener chose)
            raise Refusal("no_seat", f"you hold {self.seat_words(held)} at table {self.name} already: one free seat "
                          f"a person, unless its opener hands you another (dvtui tables release {self.name} "
                          f"--seat {seat + 1} --to {owner_name(guest.identity)})")  # fmt: skip
        self.leave(guest)
        record = self.record
        changed = record.owners[seat] is None or record.stand_ins[seat] is not None
        record.owners[seat] = guest.identity
        record.stand_ins[seat] = None  # its owner is back
        if seat < len(record.stand_in_by):
            record.stand_in_by[seat] = None
        pushed = self.seated[seat]
        self.seated[seat] = guest
        self.away_since.pop(seat, None)
        if not record.started and not self.awaited():  # every human seat taken once: the game begins
            record.started = changed = True
            self.turned()
        return Sat(seat, pushed, changed)

    def pick(self, guest: G) -> int:
        """The seat a join without one means (see :func:`pick_seat`); the table's opener, who
        holds no seat there yet, takes the first free seat kept for nobody. Anybody else is asked
        to name a seat: a seat taken is kept for the whole game, so nobody is given one by chance.
        One whose seat is still open on another connection is asked to say which seat: taking it
        over would push their other terminal off the table (a frozen session reconnecting must not
        end up in another person's chair)."""
        me = owner_name(guest.identity)
        seats = self.seat_states()
        picked = pick_seat(seats, me, guest.person)
        mine = [s.seat for s in seats if s.state == "connected" and s.user == me]
        if picked is not None and (not mine or seats[picked].state == "away"):
            return picked
        names = self.session.names
        free = [s.seat for s in seats if s.state == "free" and s.kept_for in (None, me)]
        if mine:
            also = f", or a free seat ({', '.join(names[s] for s in free)})" if free else ""
            raise Refusal("no_seat", f"your seat {names[mine[0]]} is open on another connection: name it to take it "
                          f"over here (dvtui join {self.name} --as {names[mine[0]]}){also}")  # fmt: skip
        if free and guest.identity == self.record.opener:
            return free[0]
        if free:
            raise Refusal("no_seat", f"say which seat you take at table {self.name} (dvtui join {self.name} --as "
                          f"SEAT): the free seats are {', '.join(names[s] for s in free)}")  # fmt: skip
        raise Refusal("no_seat", f"every human seat is taken or kept for somebody else; watch the table instead "
                      f"(dvtui watch {self.name})", reason="all_taken", fields={})  # fmt: skip

    def watch(self, guest: G, most: int) -> None:
        """``guest`` watches (at most ``most`` spectators a table, so a crowd of them costs the
        table's players nothing much); one seated here stands up to watch."""
        self.may_watch(guest, most)
        self.leave(guest)
        self.spectators.add(guest)

    def may_watch(self, guest: G, most: int) -> None:
        """Refuse ``guest`` as one more spectator past ``most``."""
        if guest not in self.spectators and len(self.spectators) >= most:
            raise Refusal("busy", f"table {self.name} has {most} spectators, as many as a table may")

    def leave(self, guest: G) -> int | None:
        """``guest`` is no longer at the table: its seat is away (returned), or one spectator fewer.
        Leaving withdraws one's acceptance of a rematch."""
        self.spectators.discard(guest)
        seat = self.seat_of(guest)
        if seat is not None:
            self.seated[seat] = None
            self.away_since[seat] = self.now()
            self._withdraw(seat)
        return seat

    def stand_in(self, guest: G, seat: int, level: str | None, *, grace: float = 0.0) -> str | None:
        """A seated ``guest`` lets a bot play ``seat`` while nobody is connected to it (``level``
        None: no bot any more). It is another person's seat, so the asker does not choose the bot:
        the :data:`STAND_IN` plays, as the clock's would (returned), and only once the seat's owner
        has been away ``grace`` seconds (a dropped connection or a restarted server is back
        sooner); a seat kept or invited for somebody who never came is theirs to play, not a bot's.
        The record notes who asked."""
        if guest not in self.seated:
            raise Refusal("not_seated", "only a player seated at the table may let a bot stand in")
        problem = self.not_a_human_seat(seat)
        if problem is not None:
            raise Refusal("no_seat", problem)
        name = self.session.names[seat]
        if self.connected(seat):
            raise Refusal("not_away", f"{name} is connected")
        if self.resigned(seat):
            raise Refusal("no_seat", f"{name} resigned: a bot plays the seat to the end")
        record = self.record
        if level is not None:
            kept = record.kept_for[seat]
            if record.owners[seat] is None and kept is not None:
                raise Refusal("no_seat", f"{name} is kept for {_whose(kept)}, who has not sat yet: "
                              "nobody else lets a bot play it")  # fmt: skip
            away = self.now() - self.away_since.get(seat, self.loaded)
            if record.owners[seat] is not None and away < grace:
                raise Refusal("not_away", f"{name} has been away {away:.0f} s: a bot may stand in once "
                              f"{grace:.0f} s have passed")  # fmt: skip
            level = STAND_IN
        record.stand_ins[seat] = level
        if len(record.stand_in_by) != len(record.owners):
            record.stand_in_by = [None] * len(record.owners)
        record.stand_in_by[seat] = None if level is None else guest.identity
        return level

    def resigned(self, seat: int) -> bool:
        """``seat``'s owner gave it up (a record from before resigning has no list: nobody did)."""
        return seat < len(self.record.resigned) and self.record.resigned[seat]

    def resign(self, by: Owner, level: str) -> tuple[int, G | None]:
        """The seat ``by`` owns here is given up: bot ``level`` plays it to the end, standing in (its
        placements say so), and nobody takes it back. Returns the seat and the guest who sat there
        (now a spectator)."""
        record = self.record
        if by not in record.owners:
            raise Refusal("not_seated", f"you hold no seat at table {self.name} to resign")
        seat = record.owners.index(by)
        if self.over:
            raise Refusal("game_over", f"the game at table {self.name} is over")
        if self.resigned(seat):
            raise Refusal("no_seat", f"{self.session.names[seat]} has resigned already")
        record.resigned = [self.resigned(i) or i == seat for i in range(self.session.game.n)]
        record.stand_ins[seat] = level
        held = self.seated[seat]
        self.seated[seat] = None
        if held is not None:
            self.spectators.add(held)
        return seat, held

    def may_close(self, by: Owner, *, operator: Owner) -> bool:
        """``by`` may end the table: its opener, or ``operator`` (the server's own account)."""
        return by in (self.record.opener, operator)

    def release(
        self, by: Owner, seat: int, *, operator: Owner, to: Owner | None = None, bot: str | None = None
    ) -> G | None:
        """The table's opener (or ``operator``, the server's own account) frees ``seat``: its
        owner, whom its name kept it for and its stand-in lose it, and its owner takes no seat of
        this game again (:attr:`TableRecord.released`), or a squatter would sit down again at
        once. ``to``: the seat is kept for that person now (handed to them, released or not);
        ``bot``: that bot plays it to the end and nobody takes it. Returns the guest who sat there
        (pushed off it)."""
        if by not in (self.record.opener, operator):
            opener = self.record.opener
            named = "nobody" if opener is None else owner_name(opener)
            raise Refusal("not_opener", f"only the opener of table {self.name} ({named}) may release its seats")
        if seat >= self.session.game.n or self.session.is_bot(seat):
            raise Refusal("no_seat", f"seat {seat + 1} is not a human seat of table {self.name}")
        if self.over:
            raise Refusal("game_over", f"the game at table {self.name} is over")
        record = self.record
        owner = record.owners[seat]
        if owner is not None and owner not in (by, to) and owner not in record.released:
            record.released = [*record.released, owner][-MAX_RELEASED:]
        if to is not None and to in record.released:
            record.released = [r for r in record.released if r != to]
        record.owners[seat] = record.stand_ins[seat] = None
        record.kept_for[seat] = to
        if len(record.stand_in_by) == len(record.owners):
            record.stand_in_by[seat] = None
        if bot is not None:  # the opener's bot, to the end (kept as a resignation is)
            record.resigned = [self.resigned(i) or i == seat for i in range(self.session.game.n)]
            record.stand_ins[seat] = bot
        elif self.resigned(seat):
            record.resigned[seat] = False  # free to play again
        held = self.seated[seat]
        self.seated[seat] = None
        self.away_since.pop(seat, None)
        return held

    def start(self, by: Owner, *, operator: Owner) -> bool:
        """The table's opener (or ``operator``) ends its waiting room: each human seat nobody has
        taken gets a :data:`STAND_IN` bot until its person comes. Returns whether the record changed
        (False: the table had started already)."""
        if by not in (self.record.opener, operator):
            opener = self.record.opener
            named = "nobody" if opener is None else owner_name(opener)
            raise Refusal("not_opener", f"only the opener of table {self.name} ({named}) may start it")
        return self._start_now()

    def _start_now(self) -> bool:
        awaited = self.awaited()
        if awaited:
            self.turned()  # the first turn has its whole time, whatever the waiting room took
        self.record.started = True
        for seat in awaited:
            self.record.stand_ins[seat] = STAND_IN
        return bool(awaited)

    def deal(self, session: PlaySession, record: TableRecord) -> None:
        """Play ``session`` (the rematch's game, :meth:`next_game`) with ``record`` (:meth:`next_record`)
        from now on: everybody stays where they sit, and its first turn has the whole move time."""
        self.session, self.record = session, record
        self.accepted = []
        self.failed = None
        self._deal_clock()

    # -- the move clock (the rest in :mod:`.tableclock`) ------------------------------------------

    def turn_begun(self, seat: int) -> int | None:
        """The person whose turn has begun on the clock, when not ``seat``: an undo by ``seat``
        would take that turn from them (None: no clock, or a bot's turn, or ``seat``'s own)."""
        game = self.session.game
        if self.clock is None or game.over or game.to_move == seat or self.bot_to_move() is not None:
            return None
        return None if self.session.is_bot(game.to_move) else game.to_move

    # -- whose bot moves -------------------------------------------------------------------------

    def account(self) -> Owner | None:
        """Whom the table's bot moves are charged to in the pool: a seated person first (the table
        is theirs to play), else someone watching; None when nobody is there."""
        for guest in self.seated:
            if guest is not None:
                return guest.identity
        return min((guest.identity for guest in self.spectators), key=str, default=None)

    def bot_to_move(self) -> BotTurn | None:
        """The seat to move if a bot plays it now. Nobody at the table, no bot moves: a table of
        bots nobody watches would take the workers from the tables people play at; it goes on
        when somebody joins or watches it."""
        game = self.session.game
        if game.over or self.failed is not None or self.account() is None or self.waiting:
            return None  # a waiting room: nobody moves, bots neither, before the start
        seat = game.to_move
        bot = self.session.bots[seat]
        if bot is not None:
            return BotTurn(seat, str(bot[0]), bot[1], standing_in=False)
        level = self.record.stand_ins[seat]
        if level is not None and not self.connected(seat):
            return BotTurn(seat, level, self.session.hint_seed(seat), standing_in=True)
        if self.overdue:  # the person's time ran out: the turn is played for them, the seat stays theirs
            return BotTurn(seat, STAND_IN, self.session.hint_seed(seat), standing_in=True)
        return None


class BotTurn(NamedTuple):
    """A bot's move to make: its seat, level and seed, and whether it stands in for the seat's
    absent owner (noted on the placement)."""

    seat: int
    level: str
    seed: int
    standing_in: bool


def _whose(owner: Owner) -> str:
    return owner_name(owner) if isinstance(owner, str) else f"user {owner_name(owner)}"


__all__ = ["STAND_IN", "BotTurn", "Guest", "Refusal", "Sat", "Table", "owner_name"]
