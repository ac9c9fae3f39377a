"""A game at a table server behind the session face the screens already talk to.

:class:`RemoteSession` runs a :class:`TableClient` on an event loop in a thread of its own: the lines
it receives wait in an inbox until the screen takes them (told by ``wake``, called from that thread:
the app posts itself a message, so nothing polls). The game the screen draws is folded on the
screen's side only, from that inbox, so a line arriving while the screen draws changes nothing under
it. ``place`` and ``undo`` send the decision for the position the screen shows (its ``seq``) and
return once the server's lines for it came back, as a local session returns once the file has them.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ..bots import BotSpec
from ..engine import CardPlaced, Event, Game, GameCreated, NothingToUndo, Placement, PlacementUndone, RuleError, fold
from ..play.session import PlayedMove, PlaySession, Standing
from ..store import LoadedGame, SaveFailed, encode_line, parse_game
from .client import Backoff, Diverged, Refused, TableClient, Unreachable
from .protocol import STOPPING, Error, SeatState
from .store import FileStore
from .undos import undo_refusal
from .where import ServerPlace

TAKEN_OVER = "taken over elsewhere"
"""Why a seat's client stops when another connection of its owner takes the seat."""

ANSWER_WAIT = 30.0
"""Seconds a decision waits for the server's lines before it is reported as unconfirmed."""

OPEN_WAIT = 120.0
"""Seconds to wait for a table's lines when joining (a server being started counts)."""

DECISIONS = frozenset({"place", "undo"})
"""The requests :meth:`RemoteSession.place` and :meth:`~RemoteSession.undo` wait on: an error
answering one of them (its ``re``) is that decision's refusal."""


DECISION_REFUSALS = frozenset({"stale", "illegal", "nothing_to_undo", "game_over"})
"""Codes the server answers nothing but a decision with: a server older than ``re`` still has its
refusals of a decision taken as such, instead of leaving the decision to wait until it gives up."""


def answers_decision(error: Error) -> bool:
    """``error`` is what a decision waiting for its lines takes as its answer: a refusal of a
    decision, or the table stopping (after which no decision is written). An error answering
    another request (a stand-in) is told on its own, never taken as the decision's."""
    if error.re is not None:
        return error.re in DECISIONS
    return error.code in STOPPING or error.code in DECISION_REFUSALS


class TableStopped(RuleError):
    """The table takes no more decisions (the server could not save, the log is full)."""


class RemoteSession:
    """A seat (``seat``) or a spectator (``seat`` None) at a table, as a :class:`GameSession`."""

    def __init__(self, client: TableClient, wake: Callable[[], None] | None = None) -> None:
        self.client = client
        self.wake = wake or (lambda: None)
        """Called from the client's thread whenever something arrived (lines, presence, status)."""
        self._cond = threading.Condition()
        self._inbox: list[Event] = []
        self._errors: list[Error] = []
        self._seats: list[SeatState] = []
        self._spectators = 0
        self._status = "connecting"
        self._ready = False
        self._failed: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._mirror: PlaySession | None = None
        self.stopped: Error | None = None
        """The error after which the table takes no more decisions, once one came."""

    # -- opening and closing ---------------------------------------------------------------------

    @classmethod
    def open(
        cls, place: ServerPlace, table: str, *, seat: int | None = None, watch: bool = False,
        backoff: Backoff | None = None, wake: Callable[[], None] | None = None, user: str | None = None,
    ) -> RemoteSession:  # fmt: skip
        """Join (or watch) ``table`` (for ``user``, a person this account vouches for: see
        :class:`TableClient`); returns once its lines so far are here. Raises Refused (no such
        table, a seat that is another's, an account the server does not trust to vouch...) or
        Unreachable."""
        client = TableClient(place, table, seat=seat, watch=watch, backoff=backoff, user=user)
        session = cls(client, wake)
        session._thread = threading.Thread(target=session._thread_main, name=f"table {table}", daemon=True)
        session._thread.start()
        with session._cond:
            if not session._cond.wait_for(lambda: session._ready or session._failed is not None, OPEN_WAIT):
                session.close()
                raise Unreachable(f"table {table}: the server sent no game")
            failed = session._failed
        if failed is not None:
            session.close()
            raise failed
        created = session._inbox[0]
        assert isinstance(created, GameCreated)
        events = list(session._inbox)
        session._mirror = PlaySession(fold(events).game, None, None, events)
        return session

    def _thread_main(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        client = self.client
        try:
            await client.connect()
            async for update in client.updates():
                with self._cond:
                    for event in update.events:
                        if client.next_seq > len(self._inbox):  # a rejoin from line 0 sends lines again
                            self._inbox.append(event)
                    if update.presence:
                        self._seats, self._spectators = list(client.seats), client.spectators
                        self._ready = self._ready or bool(self._inbox)
                    if update.error is not None:
                        self._errors.append(update.error)
                        if update.error.code in STOPPING:
                            self.stopped = update.error
                    if update.status is not None:
                        self._status = update.status
                    self._cond.notify_all()
                self.wake()
        except (Refused, Unreachable, Diverged) as e:
            with self._cond:
                self._failed = e
                self._status = "lost"
                self._cond.notify_all()
            self.wake()

    def _submit(self, coroutine: Coroutine[Any, Any, None]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            coroutine.close()
            raise RuleError("the connection to the table is closed")
        asyncio.run_coroutine_threadsafe(coroutine, loop)

    def close(self) -> None:
        """Leave the table (the seat stays one's own: ``dvtui join`` takes it back)."""
        loop = self._loop
        if loop is not None and not loop.is_closed() and self._thread is not None and self._thread.is_alive():
            future = asyncio.run_coroutine_threadsafe(self.client.close(), loop)
            with contextlib.suppress(Exception):  # a loop already ending: the thread ends anyway
                future.result(5)
        if self._thread is not None:
            self._thread.join(5)

    # -- what the table is ------------------------------------------------------------------------

    @property
    def _local(self) -> PlaySession:
        assert self._mirror is not None, "RemoteSession.open makes the game"
        return self._mirror

    @property
    def game(self) -> Game:
        return self._local.game

    @property
    def events(self) -> Sequence[Event]:
        return self._local.events

    @property
    def path(self) -> Path | None:
        return None  # the server keeps the file

    @property
    def notices(self) -> Sequence[str]:
        return []

    @property
    def names(self) -> list[str]:
        return self._local.names

    @property
    def bots(self) -> Sequence[tuple[BotSpec, int] | None]:
        return [None] * self.game.n  # the server's bots think on the server

    @property
    def humans(self) -> list[int]:
        return self._local.humans

    @property
    def saving(self) -> bool:
        return True

    @property
    def save_failure(self) -> SaveFailed | None:
        return None

    @property
    def table(self) -> str:
        return self.client.table

    @property
    def seat(self) -> int | None:
        return self.client.seat

    @property
    def watching(self) -> bool:
        return self.client.watch

    @property
    def hints(self) -> bool:
        return self.client.hints

    @property
    def table_file(self) -> Path:
        """The table's game file on the server's side (a branch's ``parent``: this side never
        opens it, and may not be allowed to)."""
        return FileStore(self.client.server.games).path(self.table)

    def as_file(self) -> LoadedGame:
        """The game as this side has it (every line the table sent, up to the last decision
        shown), written and read as the table's file is: what a branch ("play from here") is made
        from. Raises ``GameFileError`` (never for lines the table sent)."""
        data = b"".join(encode_line(event, seq) for seq, event in enumerate(self.events))
        return parse_game(data, str(self.table_file), checkpoints=True)

    @property
    def status(self) -> str:
        """``connected``, ``reconnecting``, or ``lost`` (the client gave up)."""
        with self._cond:
            return self._status

    @property
    def failure(self) -> BaseException | None:
        """Why the client stopped, once it has (a seat taken over elsewhere, no server any more)."""
        with self._cond:
            return self._failed

    def left_why(self) -> str | None:
        """Why this side is no longer at the table, in a few words (None: it is there)."""
        failure = self.failure
        if failure is None:
            return None
        if isinstance(failure, Refused) and failure.code == "taken_over":
            return TAKEN_OVER
        return str(failure)

    def presence(self) -> tuple[list[SeatState], int]:
        """Each seat's state and the number of spectators, as the server last said."""
        with self._cond:
            return list(self._seats), self._spectators

    def is_bot(self, player: int) -> bool:
        return self._local.is_bot(player)

    def human_to_move(self) -> int | None:
        """This seat, when its placement is awaited: the only one this side decides for (none once
        the client has stopped: a seat taken over elsewhere is decided for there)."""
        human = self._local.human_to_move()
        return human if human is not None and human == self.seat and self.failure is None else None

    def hint_seed(self, player: int) -> int:
        return self._local.hint_seed(player)

    def standing_placements(self) -> list[Standing]:
        return self._local.standing_placements()

    def undo_player(self) -> int | None:
        player = self._local.undo_player()
        if player is None or player != self.seat or self.failure is not None or self._undo_refusal(player) is not None:
            return None
        return player

    def _undo_refusal(self, seat: int) -> str | None:
        """The table's bound on undos (the server's rule, read from the same lines), or None."""
        return undo_refusal(self.events, seat, self.names[seat])

    def why_no_undo(self) -> str:
        if self.seat is None:
            return "You are watching: nothing to take back."
        if self.failure is not None:
            return f"You have left the table: {self.left_why()}."
        player = self._local.undo_player()
        if player is not None and player != self.seat:
            return f"{self.names[player]} placed last: only they can take it back."
        refusal = self._undo_refusal(self.seat)
        if player is not None and refusal is not None:
            return f"{refusal}."
        return self._local.why_no_undo()

    # -- the lines that came ----------------------------------------------------------------------

    def take_move(self) -> PlayedMove | None:
        """The next decision received (a placement with the lines it caused, or one placement
        taken back), folded into :attr:`game`; None until all its lines are here."""
        local = self._local
        n = len(local.events)
        with self._cond:
            ahead = self._inbox[n:]
        if not ahead:
            return None
        trial = local.game.copy()
        taken: list[Event] = []
        for event in ahead:
            trial.apply(event)
            taken.append(event)
            if not trial.derived_pending:
                break
        else:
            return None  # the rest of the round's resolution is on its way
        before, local.game = local.game, trial
        local.events.extend(taken)
        return PlayedMove(taken, before)

    def _answered(self) -> bool:
        return any(map(answers_decision, self._errors))

    def _take_answers(self) -> list[Error]:
        """The errors answering a decision, taken out of the inbox of errors (the rest stay for
        :meth:`take_errors`). Called with ``_cond`` held."""
        answers = [e for e in self._errors if answers_decision(e)]
        self._errors = [e for e in self._errors if not answers_decision(e)]
        return answers

    def _await(self, n: int, accepted: Callable[[Event], bool]) -> PlayedMove:
        """Wait for the line at ``n`` or an error answering the decision; the decision's move when
        the line is it."""
        with self._cond:
            done = self._cond.wait_for(
                lambda: len(self._inbox) > n or self._answered() or self._failed is not None
                or self._status == "reconnecting",
                ANSWER_WAIT,
            )  # fmt: skip
            errors = self._take_answers()
            arrived = self._inbox[n] if len(self._inbox) > n else None
            status = self._status
        if arrived is None:
            if errors:
                raise (TableStopped if errors[0].code in STOPPING else RuleError)(errors[0].message)
            if not done or status == "reconnecting":
                raise RuleError("the connection to the table dropped: the table's lines will say whether it counted")
            raise RuleError(f"the table is gone: {self.failure}")
        if not accepted(arrived):  # the server refuses ours (stale): its answer is on its way
            with self._cond:
                self._cond.wait_for(lambda: self._answered() or self._failed is not None, ANSWER_WAIT)
                errors += self._take_answers()
            why = f" ({errors[0].message})" if errors else ""
            raise RuleError(f"another move came first{why}: look again and decide")
        return self._next_move()

    def _next_move(self) -> PlayedMove:
        """The next decision's move, waiting for its lines (a round's resolution follows its last
        placement)."""
        while True:
            move = self.take_move()
            if move is not None:
                return move
            with self._cond:
                if not self._cond.wait_for(partial(_grown, self._inbox, len(self._inbox)), ANSWER_WAIT):
                    raise RuleError("the table's lines stopped coming: it will go on when they do")

    # -- decisions -----------------------------------------------------------------------------------

    def _my_seat(self, player: int | None) -> int:
        seat = self.seat
        if seat is None:
            raise RuleError("you are watching this table: you cannot play")
        if player is not None and player != seat:
            raise RuleError(f"{self.names[player]}'s seat is not yours")
        if self.stopped is not None:
            raise TableStopped(self.stopped.message)
        return seat

    def place(self, placement: Placement, player: int | None = None) -> PlayedMove:
        """Send the placement for the position on screen; returns once the table wrote it."""
        seat = self._my_seat(player)
        n = len(self.events)
        with self._cond:
            self._take_answers()  # a late answer to an earlier decision is not this one's
        self._submit(self.client.place(placement, seq=n))

        def mine(event: Event) -> bool:
            return isinstance(event, CardPlaced) and (event.player, event.card, event.column) == (seat, *placement)

        return self._await(n, mine)

    def undo(self, player: int) -> list[PlacementUndone]:
        """Take back this seat's latest placement (and the bots' since), by the table's rule."""
        seat = self._my_seat(player)
        refusal = self._undo_refusal(seat)
        if refusal is not None:
            raise NothingToUndo(refusal)
        trial = PlaySession(self.game.copy(), None, None, list(self.events))
        count = len(trial.undo(seat))  # the table's rule, checked here first: NothingToUndo says why
        n = len(self.events)
        with self._cond:
            self._take_answers()
        self._submit(self.client.undo(seq=n))
        undone: list[PlacementUndone] = []
        first = self._await(n, lambda event: isinstance(event, PlacementUndone))
        undone.extend(e for e in first.events if isinstance(e, PlacementUndone))
        while len(undone) < count:
            move = self._next_move()
            undone.extend(e for e in move.events if isinstance(e, PlacementUndone))
        return undone

    def stand_in(self, seat: int, level: str | None) -> None:
        """Let bot ``level`` play ``seat`` while its owner is away (None: stop); the table's
        presence says when it does."""
        self._submit(self.client.stand_in(seat, level))

    def take_errors(self) -> list[Error]:
        """Errors the table sent that no decision of this side waits for (a refused stand-in, a
        table that stopped between decisions)."""
        with self._cond:
            errors, self._errors = self._errors, []
        return errors


def _grown(inbox: list[Event], seen: int) -> bool:
    return len(inbox) > seen


__all__ = ["TAKEN_OVER", "RemoteSession", "TableStopped"]
