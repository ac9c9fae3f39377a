"""The server's bots: when a table's bot moves, and worker processes shared fairly between the
people whose tables use them.

:class:`BotMoves` starts the move of the bot to play at a table (:meth:`~.table.Table.bot_to_move`),
one move at a time per table and only while somebody is at it, and hands the placement back to
the server to play; a move the table no longer wants by the time a worker is free (somebody moved,
everybody left) is dropped unthought.

A bot's move is CPU for seconds (``strong@10s``), and one person can open many tables. So the
workers are slots granted by :class:`BotQueue`: a table asks for a slot in the name of the person
at it (its *account*), and a free slot goes to the waiting account that holds the fewest slots,
the one served longest ago first. Whoever opens a hundred tables of bots waits in one line; a
table at which somebody else sits is served next, after at most the moves already thinking. A
table has at most one move waiting or thinking (the server's), so an account's tables take turns.

Two things keep that wait short. Every move is bounded in seconds as well as iterations
(:attr:`MaxBudget.seconds`, whatever the bot's iteration budget: on a server a move cut by time
is no longer a pure function of the game and seed, as a local game's is). And the moves that
search little or not at all (:func:`quick`: ``greedy``, ``random``, ``novice``...) have a worker
and a queue of their own, so they never wait behind a search.

:class:`BotPool` runs the moves in plain child processes (:mod:`dvtui.server.think`) fed over a
pipe; :class:`MaxBudget` is the most a server lets a bot think (``dvtui serve --max-budget``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import sys
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar, cast

from ..bots import DEFAULT_ITERATIONS, LADDER, parse_bot
from ..engine import BUDGETED, MAX_ITERATIONS, MAX_SECONDS, BotSpec, Game, Placement
from ..play.session import PlaySession
from .table import BotTurn
from .think import HEADER, frame

Account = Hashable
"""Whom a bot's move is charged to: a uid, or a vouched person's name."""


QUICK_ITERATIONS = 1000
"""A bot that searches at most this many iterations a move (or not at all) plays in the quick lane:
a few milliseconds a move."""


def quick(level: str) -> bool:
    """Whether bot ``level``'s move is quick enough for the lane of its own (see the module's docstring)."""
    spec = parse_bot(level)
    if spec.level in BUDGETED:
        return spec.seconds is None and (spec.iterations or DEFAULT_ITERATIONS) <= QUICK_ITERATIONS
    rung = next((r for r in LADDER if r.name == spec.level), None)
    return rung is None or rung.iterations <= QUICK_ITERATIONS


class BotQueue:
    """``slots`` workers granted fairly between accounts (see the module's docstring)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._waiting: dict[Account, deque[asyncio.Future[None]]] = {}
        self._busy: Counter[Account] = Counter()
        self._served: dict[Account, int] = {}
        """Each account's latest grant (a count of grants), while it waits or holds a slot."""
        self._grants = 0

    @contextlib.asynccontextmanager
    async def turn(self, account: Account) -> AsyncIterator[None]:
        """Hold a slot for ``account`` for the block, once one is granted."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(account, deque()).append(granted)
        self._grant()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release(account)  # granted, but cancelled before it ran
            else:
                self._forget(account, granted)
            raise
        try:
            yield
        finally:
            self._release(account)

    def pick(self) -> Account:
        """The waiting account a free slot goes to: the fewest slots held, then the longest unserved."""
        return min(self._waiting, key=lambda a: (self._busy[a], self._served.get(a, -1)))

    def _grant(self) -> None:
        while sum(self._busy.values()) < self.slots and self._waiting:
            account = self.pick()
            line = self._waiting[account]
            granted = line.popleft()
            if not line:
                del self._waiting[account]
            self._grants += 1
            self._served[account] = self._grants
            self._busy[account] += 1
            granted.set_result(None)

    def _release(self, account: Account) -> None:
        self._busy[account] -= 1
        if self._busy[account] <= 0:
            del self._busy[account]
            if account not in self._waiting:
                self._served.pop(account, None)  # a newcomer again: nothing of it is queued
        self._grant()

    def _forget(self, account: Account, granted: asyncio.Future[None]) -> None:
        line = self._waiting.get(account)
        if line is not None and granted in line:
            line.remove(granted)
            if not line:
                del self._waiting[account]
                if account not in self._busy:
                    self._served.pop(account, None)


@dataclass(frozen=True, slots=True)
class MaxBudget:
    """The most a bot may think on this server: iterations and seconds of search per move. The
    seconds bound every move, an iteration budget's too (see the module's docstring)."""

    iterations: int = MAX_ITERATIONS
    seconds: float = MAX_SECONDS

    def problem(self, level: str) -> str | None:
        """Why bot ``level`` may not sit at a table of this server, or None."""
        spec = parse_bot(level)
        rung = next((r for r in LADDER if r.name == spec.level), None)
        if rung is not None and rung.iterations > self.iterations:  # a named level's search is fixed
            return f"{spec} searches more than this server's bots may ({self.said()})"
        if spec.level not in BUDGETED:
            return None
        if (spec.iterations or DEFAULT_ITERATIONS) > self.iterations and spec.seconds is None:
            return f"{spec} searches more than this server's bots may ({self.said()})"
        if spec.seconds is not None and spec.seconds > self.seconds:
            return f"{spec} thinks longer than this server's bots may ({self.said()})"
        return None

    def cut(self, level: str) -> str:
        """``level`` within this server's budget (a table opened under a larger one plays on)."""
        spec = parse_bot(level)
        if spec.level not in BUDGETED:
            return level
        if spec.seconds is not None:
            return str(BotSpec(spec.level, seconds=min(spec.seconds, self.seconds)))
        iterations = spec.iterations or DEFAULT_ITERATIONS
        return level if iterations <= self.iterations else str(BotSpec(spec.level, iterations=self.iterations))

    def said(self) -> str:
        return f"at most {self.iterations} iterations or {self.seconds:g} seconds a move"


class BotFailed(Exception):
    """A worker answered with an error, or died."""


class BotPool:
    """Worker processes (at most ``workers``, started as needed, kept while they answer) and the
    queue that shares them; :meth:`close` ends them all."""

    def __init__(self, workers: int, budget: MaxBudget | None = None) -> None:
        self.queue = BotQueue(workers)
        self.quick_queue = BotQueue(1)
        """The quick moves' lane (:func:`quick`): one worker of its own, shared fairly too."""
        self.budget = budget or MaxBudget()
        self._idle: list[asyncio.subprocess.Process] = []
        self._quick_idle: list[asyncio.subprocess.Process] = []
        self._ending: set[asyncio.Task[int]] = set()
        self._running: set[asyncio.subprocess.Process] = set()

    async def move(
        self, account: Account, game: Game, level: str, seed: int, wanted: Callable[[], bool]
    ) -> Placement | None:
        """Bot ``level``'s placement in ``game``, thought in a worker once ``account``'s turn comes;
        None if ``wanted()`` says, by then, that the move is no longer to be made."""
        lane, idle = (self.quick_queue, self._quick_idle) if quick(level) else (self.queue, self._idle)
        async with lane.turn(account):
            if not wanted():
                return None
            while idle and idle[-1].returncode is not None:
                self._end(idle.pop())  # died while idle (killed by hand, say): not a bot's failure
            worker = idle.pop() if idle else await self._start()
            self._running.add(worker)
            answered = False
            try:
                answer = await self._ask(worker, (game, self.budget.cut(level), seed, self.budget.seconds))
                answered = True
            finally:
                self._running.discard(worker)
                if answered:
                    idle.append(worker)
                else:  # cancelled mid-thought, or dead: a worker is only reused between answers
                    self._end(worker)
        kind, value = answer
        if kind != "move":
            raise BotFailed(str(value))
        return cast("Placement", value)  # a worker answers "move" with its placement (pickled whole)

    async def _start(self) -> asyncio.subprocess.Process:
        # The server's own dvtui, first on the path (-P: never one in the working directory): a
        # worker of another version would not speak this pipe's language.
        here = str(Path(__file__).resolve().parents[2])  # (the directory holding dvtui/)
        path = os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])
        return await asyncio.create_subprocess_exec(
            sys.executable, "-P", "-m", "dvtui.server.think", env={**os.environ, "PYTHONPATH": path},
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
        )  # fmt: skip

    @staticmethod
    async def _ask(worker: asyncio.subprocess.Process, request: object) -> tuple[str, object]:
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(frame(request))
        try:
            await worker.stdin.drain()
            size = HEADER.unpack(await worker.stdout.readexactly(HEADER.size))[0]
            answer: tuple[str, object] = pickle.loads(await worker.stdout.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            raise BotFailed(f"its worker process ended ({e!r})") from None
        return answer

    def _end(self, worker: asyncio.subprocess.Process) -> None:
        with contextlib.suppress(ProcessLookupError):
            worker.kill()
        task = asyncio.ensure_future(worker.wait())
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def close(self) -> None:
        """End every worker (thinking or not) and wait for each to be gone."""
        for worker in [*self._idle, *self._quick_idle, *self._running]:
            self._end(worker)
        self._idle.clear()
        self._quick_idle.clear()
        self._running.clear()
        if self._ending:
            await asyncio.wait(list(self._ending))


class BotTable(Protocol):
    """What :class:`BotMoves` needs of a table."""

    session: PlaySession
    lock: asyncio.Lock
    """Held while a decision is checked and saved."""
    bot_task: asyncio.Task[None] | None

    @property
    def next_seq(self) -> int: ...

    def bot_to_move(self) -> BotTurn | None: ...

    def account(self) -> Account | None: ...


T = TypeVar("T", bound=BotTable)


class BotMoves(Generic[T]):
    """The bots' moves at the tables (see the module's docstring): ``play`` plays a placement
    (called with the table's lock held, the move still wanted); ``failed`` hears of a bot that
    failed (the table stops); ``then`` is called after each move played, to start the next."""

    def __init__(
        self, pool: BotPool, *, play: Callable[[T, BotTurn, Placement], Awaitable[None]],
        failed: Callable[[T, Exception], None], then: Callable[[T], None],
    ) -> None:  # fmt: skip
        self.pool = pool
        self._play = play
        self._failed = failed
        self._then = then
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, table: T) -> None:
        """Start the bot to move at ``table``, if a bot is to move and none is thinking there."""
        if table.bot_task is not None:
            return
        turn = table.bot_to_move()
        if turn is not None:
            table.bot_task = task = asyncio.create_task(self._move(table, turn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _move(self, table: T, turn: BotTurn) -> None:
        ok = False
        try:
            async with table.lock:
                seq, game = table.next_seq, table.session.game.copy()

            def wanted() -> bool:
                return table.next_seq == seq and table.bot_to_move() == turn

            account = table.account()
            # None: the move is no longer to be made (everybody left while it waited, say); the
            # next start makes the next one, if any, and a table nobody is at waits for a join
            placement = None if account is None else await self.pool.move(account, game, turn.level, turn.seed, wanted)
            if placement is not None:
                async with table.lock:
                    if wanted():
                        await self._play(table, turn, placement)
            ok = True
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self._failed(table, e)
        finally:
            table.bot_task = None
        if ok:
            self._then(table)

    async def stop(self) -> None:
        """Cancel every move thinking (each ends its worker as it goes) and wait for them."""
        thinking = list(self._tasks)
        for task in thinking:
            task.cancel()
        await asyncio.gather(*thinking, return_exceptions=True)
