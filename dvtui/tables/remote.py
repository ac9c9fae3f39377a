"""A seat (or a spectator) at a table server, behind the face the screens play any game through.

:class:`RemoteSession` runs its :class:`TableClient` on the loop it is opened on (the app's): a
task reads the server's messages as they come, and the client folds each line into its game, once.
When a decision's lines are all here (a round's last placement is followed by its resolution, an
undo's taking back of the bots' answers by its person's own placement), the session tells the
screen :class:`~dvtui.play.face.Decided`, whoever decided: this side's own placement comes back that
way too, as everyone else's does. ``place`` and ``undo`` only send the decision, for the position
this side has (its ``seq``: the server refuses a decision about a position that is gone), and
return at once; the table's answer is news like any other.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import AsyncIterator, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots import BotSpec
from ..engine import CardPlaced, Event, Game, NothingToUndo, Placement, PlacementUndone, RuleError
from ..i18n import _
from ..play.face import (
    Abilities,
    Decided,
    News,
    Presence,
    Redealt,
    Refused,
    RematchVote,
    Spoken,
    TableNews,
    TableSide,
    Tell,
)
from ..play.session import PlaySession, Standing
from ..store import LoadedGame, SaveFailed, encode_line, parse_game
from .client import TableClient, Update
from .connection import Backoff, Diverged, Unreachable, refusal_words
from .connection import Refused as TableRefused
from .protocol import MAX_CHAT_CHARS, Place, Said, Undo
from .undos import undo_refusal
from .where import ServerPlace
from .wire import STOPPING, Error

TAKEN_OVER = "taken over elsewhere"
"""Why a seat's client stops when another connection of its owner takes the seat."""

OPEN_WAIT = 120.0
"""Seconds to wait for a table's lines when joining (a server being started counts)."""

DECISIONS = frozenset({"place", "undo"})
"""The requests a decision is handed in with: an error answering one of them (its ``re``) is that
decision's refusal."""


class TableStopped(RuleError):
    """The table takes no more decisions (the server could not save, the log is full)."""


@dataclass(frozen=True, slots=True)
class _Handed:
    """A decision sent and not yet answered: ``seq``, the position it was made on; ``placed``: a
    placement's (card, column), None for an undo."""

    seq: int
    placed: Placement | None


class RemoteSession:
    """A seat (``seat``) or a spectator (``seat`` None) at a table, as a
    :class:`~dvtui.play.face.GameSession`. Made by :meth:`open`, on the loop it is played on."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self._tell: Tell = _nobody
        self._settled: PlaySession | None = None
        self._handed: _Handed | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._status = "connected"
        self._failed: BaseException | None = None
        self.stopped: Error | None = None
        """The error after which the table takes no more decisions, once one came."""
        self._early: list[Spoken] = []
        """Lines said before a screen attached (the recent ones a join brings): told on attaching."""
        self._redealing = False
        """The table dealt its next game: its lines are coming, for the session that will play it."""
        self._handed_over = False
        """The next game's session reads the table now (:class:`~dvtui.play.face.Redealt`)."""

    # -- opening and closing ---------------------------------------------------------------------

    @classmethod
    async def open(
        cls, place: ServerPlace, table: str, *, seat: int | None = None, watch: bool = False,
        backoff: Backoff | None = None, user: str | None = None,
    ) -> RemoteSession:  # fmt: skip
        """Join (or watch) ``table`` (for ``user``, a person this account vouches for: see
        :class:`TableClient`); returns once its lines so far and who is there are here, with the
        client reading on in a task of the running loop. Raises Refused (no such table, a seat that
        is another's ...), Unreachable or Diverged."""
        client = TableClient(place, table, seat=seat, watch=watch, backoff=backoff, user=user)
        await client.connect()
        session = cls(client)
        updates = client.updates()
        try:
            await asyncio.wait_for(session._until_ready(updates), OPEN_WAIT)
        except TimeoutError:
            await client.close()
            raise Unreachable(f"table {table}: the server sent no game") from None
        except BaseException:
            await client.close()
            raise
        session._task = asyncio.get_running_loop().create_task(session._read(updates), name=f"table {table}")
        return session

    async def _until_ready(self, updates: AsyncIterator[Update]) -> None:
        """Read until the game's lines and who is there have come (the server sends the table's
        presence after a join's lines)."""
        client = self.client
        async for update in updates:
            if update.error is not None:
                self._take_error(update.error)
            if update.said is not None:
                self._early.append(_spoken(update.said))
            if update.presence and client.game is not None and not client.game.derived_pending:
                self._settled = PlaySession(client.game.copy(), None, None, list(client.events))
                return
        raise Unreachable(f"table {client.table}: the connection closed before the game came")

    async def _read(self, updates: AsyncIterator[Update]) -> None:
        session = self  # the session of the game being played: the next one's after a rematch
        try:
            async for update in updates:
                session = session._take(update)
        except (TableRefused, Unreachable, Diverged) as e:
            session._failed = e
            session._status = "lost"
            session._answer(Refused(f"the table is gone: {e}"))
            session._tell(TableNews())

    def close(self) -> None:
        """Leave the table (the seat stays one's own: ``dvtui join`` takes it back). A session
        whose table dealt its next game has handed the table to that game's session: nothing to do."""
        if self._handed_over:
            return
        if self._task is not None:
            self._task.cancel()
        handed = self._handed
        unanswered: Place | Undo | None = None
        if handed is not None:
            placed = handed.placed
            unanswered = (
                Undo(seq=handed.seq) if placed is None else Place(seq=handed.seq, card=placed[0], column=placed[1])
            )
        self.client.leave(unanswered)

    def attach(self, tell: Tell) -> None:
        self._tell = tell
        early, self._early = self._early, []
        for spoken in early:
            tell(spoken)

    @property
    def _view(self) -> PlaySession:
        """The game at the last decision whose lines are all here (``game`` and ``events``), with
        the session's rules (whose turn, what undo may take) read over it."""
        assert self._settled is not None, "RemoteSession.open waits for the game"
        return self._settled

    # -- what comes --------------------------------------------------------------------------------

    def _take(self, update: Update) -> RemoteSession:
        """Take ``update`` in; returns the session that takes the next one (the next game's, once
        the table has dealt it and its lines and presence are here)."""
        if update.dealt is not None:
            self._redealing = True
            self._handed = None  # (a game over takes no decision)
        if self._redealing:
            return self._redealt() if update.presence else self
        if update.status is not None:
            self._status = update.status
            if update.status == "connected" and self._handed is not None:
                self._send_handed()  # lost with the connection, maybe: the seq makes it count once
            self._tell(TableNews())
        if update.events:
            self._take_lines()
        if update.presence:
            self._tell(TableNews())
        if update.error is not None:
            self._take_error(update.error)
        if update.said is not None:
            self._tell(_spoken(update.said))
        return self

    def _redealt(self) -> RemoteSession:
        """The next game's session, once its lines are all here; told to the screen (which adopts it)."""
        client = self.client
        if client.game is None or client.game.derived_pending:
            return self
        successor = RemoteSession(client)
        successor._settled = PlaySession(client.game.copy(), None, None, list(client.events))
        successor._task, self._task = self._task, None
        self._handed_over = True
        self._tell(Redealt(successor))
        return successor

    def _take_lines(self) -> None:
        """Tell each decision whose lines are all here (the client has folded them)."""
        client = self.client
        game = client.game
        view = self._view
        settled = len(view.events)
        if game is None or game.derived_pending or len(client.events) <= settled:
            return  # a round's resolution on its way, or lines sent again after a rejoin from the start
        last = client.events[-1]
        if isinstance(last, PlacementUndone) and view.is_bot(last.player):
            return  # an undo takes back the bots' answers first: its person's own line is on its way
        events = client.events[settled:]
        move = view.take(events)
        handed = self._handed
        if handed is not None and self._answers(handed, events):
            self._handed = None
        elif handed is not None and settled >= handed.seq:
            self._handed = None  # another decision was made on that position first
            self._tell(Refused(_("another move came first: look again and decide")))
        self._tell(Decided(move))

    def _answers(self, handed: _Handed, events: Sequence[Event]) -> bool:
        seat = self.seat
        if handed.placed is None:  # an undo is done once this seat's own placement is taken back (its last line)
            return isinstance(events[-1], PlacementUndone) and events[-1].player == seat
        first = events[0]
        placed = handed.placed
        return isinstance(first, CardPlaced) and (first.player, first.card, first.column) == (seat, *placed)

    def _take_error(self, error: Error) -> None:
        """A refusal of the decision handed in, the table stopping, or a notice (a refused stand-in)."""
        if error.code in STOPPING:
            self.stopped = error
        if self._handed is not None and (error.re in DECISIONS or error.code in STOPPING):
            self._answer(Refused(refusal_words(error)))
        elif error.re not in DECISIONS:  # (else a late answer to a decision already told: nothing to say)
            self._tell(TableNews(notice=refusal_words(error)))

    def _answer(self, news: News) -> None:
        """Tell the decision waiting for its answer (if one is) that ``news`` is it."""
        if self._handed is not None:
            self._handed = None
            self._tell(news)

    # -- the table's face ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self._view.game

    @property
    def events(self) -> Sequence[Event]:
        return self._view.events

    @property
    def path(self) -> Path | None:
        return None  # the server keeps the file

    @property
    def notices(self) -> Sequence[str]:
        return []

    @property
    def names(self) -> list[str]:
        return self._view.names

    @property
    def bots(self) -> Sequence[tuple[BotSpec, int] | None]:
        return [None] * self.game.n  # the server's bots think on the server

    @property
    def humans(self) -> list[int]:
        return self._view.humans

    @property
    def saving(self) -> bool:
        return True

    @property
    def save_failure(self) -> SaveFailed | None:
        return None

    @property
    def deciding(self) -> bool:
        return self._handed is not None

    @property
    def abilities(self) -> Abilities:
        return Abilities(
            () if self.seat is None else (self.seat,),
            table=self.table_name,
            branch="lines",
            rematch=self._why_no_rematch_here(),
            hints=None if self.hints else "Hints are off at this table.",
            stand_ins=self.seat is not None,
            chat=MAX_CHAT_CHARS,
            leave_to_branch=self.seat is not None,
            table_rematch=self.seat is not None and "rematch" in self.client.features,
            close=self.client.may_close,
            resign=self.seat is not None,
        )

    def _why_no_rematch_here(self) -> str:
        if self.seat is None:
            return "You are watching: a rematch is for the players to ask (they all follow it here)."
        if "rematch" not in self.client.features:
            return "This table server deals no rematch: open a new table (dvtui new --table NAME --players ...)."
        return "The table deals the rematch: r on the end screen proposes it to everyone there."

    @property
    def table(self) -> TableSide:
        """This side's requests to the table and who is there: this session's own."""
        return self

    @property
    def table_name(self) -> str:
        return self.client.table

    @property
    def seat(self) -> int | None:
        return self.client.seat

    @property
    def hints(self) -> bool:
        return self.client.hints

    @property
    def table_file(self) -> str:
        """The table's game as the server names it (its file there: a branch's ``parent``; this
        side never opens it, and may not be allowed to)."""
        return self.client.label

    def as_file(self) -> LoadedGame:
        """The game as this side has it (every line of the decisions told so far), written and
        read as the table's file is: what a branch ("play from here") is made from. Raises
        ``GameFileError`` (never for lines the table sent)."""
        data = b"".join(encode_line(event, seq) for seq, event in enumerate(self.events))
        return parse_game(data, self.table_file, checkpoints=True)

    @property
    def status(self) -> str:
        """``connected``, ``reconnecting``, or ``lost`` (the client gave up)."""
        return self._status

    @property
    def failure(self) -> BaseException | None:
        """Why the client stopped, once it has (a seat taken over elsewhere, no server any more)."""
        return self._failed

    def left_why(self) -> str | None:
        """Why this side is no longer at the table, in a few words (None: it is there)."""
        failure = self._failed
        if failure is None:
            return None
        if isinstance(failure, TableRefused) and failure.code == "taken_over":
            return TAKEN_OVER
        return str(failure)

    def rejoin(self) -> str:
        """The command that brings this side back. A seat taken over elsewhere is named: a plain
        join is refused while it is open there."""
        if self.seat is None:
            return f"dvtui watch {self.table_name}"
        if self.left_why() == TAKEN_OVER:
            return f"dvtui join {self.table_name} --as {shlex.quote(self.names[self.seat])}"
        return f"dvtui join {self.table_name}"

    def presence(self) -> Presence:
        client = self.client
        vote = client.rematch_vote
        rematch = None if vote is None else RematchVote(vote.by, vote.accepted, vote.awaited)
        return Presence(self.table_name, self.seat, list(client.seats), client.spectators, self._status,
                        self.left_why(), self.rejoin(), client.waiting, client.move_left, rematch,
                        None if self.stopped is None else self.stopped.message, client.banks)  # fmt: skip

    def is_bot(self, player: int) -> bool:
        return self._view.is_bot(player)

    def human_to_move(self) -> int | None:
        """This seat, when its placement is awaited: the only one this side decides for (none once
        the client has stopped: a seat taken over elsewhere is decided for there; nor once the table
        has: closed, it takes no decision)."""
        human = self._view.human_to_move()
        if self.client.waiting:  # a waiting room: nobody places before the start
            return None
        here = self._failed is None and self.stopped is None  # (a stopped table takes no decision)
        return human if human is not None and human == self.seat and here else None

    def hint_seed(self, player: int) -> int:
        return self._view.hint_seed(player)

    def standing_placements(self) -> list[Standing]:
        return self._view.standing_placements()

    def undo_player(self) -> int | None:
        player = self._view.undo_player()
        if player is None or player != self.seat or self._failed is not None or self.stopped is not None:
            return None
        if self._undo_refusal(player) is not None:
            return None
        return player

    def _undo_refusal(self, seat: int) -> str | None:
        """The table's bound on undos (the server's rule, read from the same lines), or None."""
        return undo_refusal(self.events, seat, self.names[seat])

    def why_no_undo(self) -> str:
        if self.seat is None:
            return _("You are watching: nothing to take back.")
        if self._failed is not None:
            return _("You have left the table: {why}.").format(why=self.left_why())
        if self.stopped is not None:
            return f"{refusal_words(self.stopped)}."
        player = self._view.undo_player()
        if player is not None and player != self.seat:
            return _("{name} placed last: only they can take it back.").format(name=self.names[player])
        refusal = self._undo_refusal(self.seat)
        if player is not None and refusal is not None:
            return f"{refusal}."
        return self._view.why_no_undo()

    # -- decisions -----------------------------------------------------------------------------------

    def _my_seat(self, player: int | None) -> int:
        seat = self.seat
        if seat is None:
            raise RuleError("you are watching this table: you cannot play")
        if player is not None and player != seat:
            raise RuleError(f"{self.names[player]}'s seat is not yours")
        if self._failed is not None:
            raise RuleError(f"you have left the table: {self.left_why()}")
        if self.stopped is not None:
            raise TableStopped(self.stopped.message)
        if self._handed is not None:
            raise RuleError("your last decision is on its way to the table")
        return seat

    def place(self, placement: Placement, player: int | None = None) -> None:
        """Send the placement for the position this side has (the rules are checked here first:
        a RuleError says what is wrong); the table's answer comes as news."""
        seat = self._my_seat(player)
        self.game.copy().place(placement, player=seat)
        self._handed = _Handed(len(self.events), placement)
        self._send_handed()

    def undo(self, player: int) -> None:
        """Take back this seat's latest placement (and the bots' since), by the table's rule,
        checked here first (NothingToUndo says why not)."""
        seat = self._my_seat(player)
        refusal = self._undo_refusal(seat)
        if refusal is not None:
            raise NothingToUndo(refusal)
        PlaySession(self.game.copy(), None, None, list(self.events)).undo(seat)
        self._handed = _Handed(len(self.events), None)
        self._send_handed()

    def _send_handed(self) -> None:
        handed = self._handed
        assert handed is not None
        if handed.placed is None:
            self._send(self.client.undo(seq=handed.seq))
        else:
            self._send(self.client.place(handed.placed, seq=handed.seq))

    def stand_in(self, seat: int, level: str | None) -> None:
        """Let bot ``level`` play ``seat`` while its owner is away (None: stop); the table's
        presence says when it does."""
        self._send(self.client.stand_in(seat, level))

    def start_table(self) -> None:
        """End the table's waiting room; a refusal (not its opener) comes back as news."""
        self._send(self.client.start())

    def say(self, text: str) -> None:
        """Say ``text`` to the table; it comes back, to everyone, as :class:`Spoken` news."""
        self._send(self.client.say(text))

    def rematch(self, accept: bool) -> None:
        """Propose or accept (``accept``) the table's rematch, or turn it down; the table's
        presence says who has accepted, and :class:`~dvtui.play.face.Redealt` news its deal."""
        if not self.abilities.table_rematch:
            raise RuleError(self.abilities.rematch or "no rematch here")
        self._send(self.client.rematch(accept))

    def close_table(self) -> None:
        """End the table (its opener's or the server's account's); the table then stops, for
        everyone, and that comes back as a refusal of what follows (``closed``)."""
        self._send(self.client.close_table())

    def resign(self) -> None:
        """Give this seat up to a bot; once the table's presence says so, this side watches."""
        self._send(self.client.resign())

    def sit(self, seat: int) -> None:
        """Watching, take ``seat`` at the table in place (one's own again in a rematch after
        resigning); the table's presence says when this side sits there, news that it refused."""
        self.client.sit(seat)

    def _send(self, request: Coroutine[Any, Any, None]) -> None:
        """Send without waiting (a request lost with its connection is sent again on reconnection
        when it is a decision; the table's answer is news)."""
        task = asyncio.get_running_loop().create_task(request)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)


def _spoken(said: Said) -> Spoken:
    return Spoken(said.user, said.text, said.seat)


def _nobody(news: News) -> None:
    """Before a screen attaches: nobody to tell."""


__all__ = ["TAKEN_OVER", "RemoteSession", "TableStopped"]
