"""A table's verbs, each one guest's request to the table's authority (:class:`~.live.LiveTable`).

Release a seat, start, set the move time, close, resign, let a bot stand in, say something, vote
for a rematch, decide, and a bot's move: each checks the table's rules (a
:class:`~.table.Refusal` says no), changes and keeps the table's record, says it in the log and
tells those at the table. None of them calls up into the server: what the server must do of its
connections (forget those a closed table let go, deal the rematch everyone accepted, start the
bot) each RETURNS, or is the server's to do after any verb (wake the table). They stand on the
table's :class:`~.live.Backing` alone, so a test drives them without a socket.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial

from ..bots import parse_bot
from ..engine import CardNotInHand, NotPlacementPhase, Placement, RuleError, SeatError, WrongPlayer
from ..i18n import N_
from ..rulewords import english_words
from ..store import GameFileError, SaveError
from ..tables.protocol import Place, Released, Said, Started, Undo
from ..tables.undos import MAX_UNDOS_PER_ROUND, undos_this_round
from ..tables.wire import ErrorCode, Owner, encode
from .chat import Heard, Talk
from .live import Conn, LiveTable, seat_said
from .openings import worth_keeping
from .operator import said
from .pool import MaxBudget
from .table import BotTurn, Refusal, Sat, owner_name

RESIGNED_BOT = "strong"
"""The bot that plays a resigned seat to the end."""


def _operator() -> Owner:
    """The server's own account, which may do what a table's opener may."""
    return os.geteuid()


def bot_level(asked: str, budget: MaxBudget) -> str:
    """Bot level ``asked`` as the server plays it, or refused (no such level, over ``budget``)."""
    try:
        level = str(parse_bot(asked))
    except SeatError as e:
        raise Refusal("bad_message", english_words(e)) from None
    over = budget.problem(level)
    if over is not None:
        raise Refusal("bad_message", over)
    return level


async def join(table: LiveTable, conn: Conn, seat: int | None) -> Sat[Conn]:
    """``conn`` takes ``seat`` (None: the one :meth:`~.table.Table.join` picks) and the table's
    record keeps it; another connection of the same identity sitting there is pushed off, told
    why. Where it sat (the server then moves the connection there: :meth:`.live.LiveTable.arrive`)."""
    pushed: Conn | None = None  # (pushed off by the first try only: a try again finds it gone)

    def sit(again: bool) -> tuple[Sat[Conn], bool]:
        nonlocal pushed
        try:
            sat = table.join(conn, seat)
        except Refusal:
            if again:  # the seat it took went to somebody else through another server
                table.leave(conn)
            raise
        pushed = sat.pushed if not again else pushed
        return sat._replace(pushed=pushed), sat.changed

    sat = await table.change_record(sit)
    if sat.pushed is not None:  # another connection of the same identity
        sat.pushed.table = None
        sat.pushed.fail("taken_over", "this seat was taken by another connection of the same user")
    if conn.bot is None:
        sits = said(N_("{user} sits at {table} {seat}"))
    else:
        sits = said(N_("{user} sits at {table} {seat}, a {level} bot client"))
    table.backing.log(sits.format(user=conn.user, table=table.name, seat=seat_said(table, sat.seat), level=conn.bot))
    return sat


async def release(table: LiveTable, conn: Conn, seat: int, *, to: Owner | None, bot: str | None) -> None:
    """The table's opener (or the server's own account) frees ``seat``: its owner, and whom its
    name kept it for, lose it; one connected there is pushed off (as a seat taken over). ``to``:
    the seat kept for that person now; ``bot``: a stand-in of that level plays it meanwhile."""
    held: Conn | None = None  # (held by the first try only: a try again finds it gone)

    def free(again: bool) -> tuple[None, bool]:
        nonlocal held
        freed = table.release(conn.identity, seat, operator=_operator(), to=to, bot=bot)
        held = freed if not again else held
        return None, True

    await table.change_record(free)
    if held is not None:
        held.table = None
        if held is not conn:
            held.fail("taken_over", f"the opener of table {table.name} released this seat")
    if to is not None:
        released = said(N_("{user} released {table} seat {number} to {owner}"))
    elif bot is not None:
        released = said(N_("{user} released {table} seat {number} to a {level} bot"))
    else:
        released = said(N_("{user} released {table} seat {number}"))
    owner = None if to is None else owner_name(to)
    table.backing.log(released.format(user=conn.user, table=table.name, number=seat + 1, owner=owner, level=bot))
    table.presence_soon()
    conn.send(encode(Released(table=table.name, seat=seat)))


async def start(table: LiveTable, conn: Conn) -> None:
    """The table's opener (or the server's own account) ends its waiting room: the free human
    seats get a stand-in bot until their people come, and the first placement may be made."""

    def begin(again: bool) -> tuple[bool, bool]:
        started = table.start(conn.identity, operator=_operator())
        return started, started

    if await table.change_record(begin):
        table.backing.log(said(N_("{user} started {table}")).format(user=conn.user, table=table.name))
        table.presence_soon()
    conn.send(encode(Started(table=table.name)))


async def set_clock(
    table: LiveTable, conn: Conn, move_time: int, *, time_bank: int | None = None, increment: int | None = None
) -> None:
    """The table's opener (or the server's own account) sets or shortens its move time (and its
    seats' time bank and increment: :meth:`~.table.Table.set_clock`)."""

    def clock_set(again: bool) -> tuple[None, bool]:
        table.set_clock(conn.identity, move_time, operator=_operator(), time_bank=time_bank, increment=increment)
        return None, True

    await table.change_record(clock_set)
    clock = said(N_("{user} set {table}'s move time to {seconds} s"))
    table.backing.log(clock.format(user=conn.user, table=table.name, seconds=move_time))
    table.presence_soon()
    if conn.table is not table:
        conn.send(table.presence_line(conn))


async def close(table: LiveTable, conn: Conn) -> tuple[list[Conn], bool]:
    """The table's opener (or the server's own account) ends an unfinished table: everyone at
    it is told (``closed``: no more decisions) and let go. Returns those let go (for the server to
    forget where they were) and whether its game is worth keeping (the server puts it aside)."""
    if not table.may_close(conn.identity, operator=_operator()):  # (a vouched person is not the account)
        raise Refusal("not_opener", f"only the opener of table {table.name} may close it")
    if table.over:
        raise Refusal("game_over", f"table {table.name}'s game is over: there is nothing to end")
    keep = worth_keeping(table.session.events)
    what = "its game is kept, unfinished" if keep else "nobody had made a decision there: its game is not kept"
    table.halt("closed", f"{conn.user} closed table {table.name}; {what}")
    async with table.lock:  # a decision being saved finishes first; none follows (halted)
        pass
    return table.evict(), keep


async def resign(table: LiveTable, conn: Conn) -> None:
    """The seat ``conn``'s identity owns at the table is given up to a stand-in for good."""

    def give_up(again: bool) -> tuple[int, bool]:
        return table.resign(conn.identity, RESIGNED_BOT)[0], True

    seat = await table.change_record(give_up)
    resigned = said(N_("{user} resigned at {table} {seat}: a {level} bot plays it"))
    table.backing.log(
        resigned.format(user=conn.user, table=table.name, seat=seat_said(table, seat), level=RESIGNED_BOT)
    )
    table.presence_soon()
    if conn.table is not table:
        conn.send(table.presence_line(conn))


async def stand_in(table: LiveTable, conn: Conn, seat: int, level: str | None, *, grace: float) -> None:
    """``conn``, seated at the table, lets a bot of ``level`` stand in for ``seat`` while its
    person is away (None: no bot); ``grace``: how long a seat left stays free of its stand-in."""

    def let(again: bool) -> tuple[str | None, bool]:
        return table.stand_in(conn, seat, level, grace=grace), True

    level = await table.change_record(let)
    if level is not None:
        lets = said(N_("{user} lets {level} stand in for {table} {seat}"))
    else:
        lets = said(N_("{user} lets no bot stand in for {table} {seat}"))
    table.backing.log(lets.format(user=conn.user, level=level, table=table.name, seat=seat_said(table, seat)))
    table.presence_soon()


async def say(table: LiveTable, conn: Conn, text: str, chats: Talk, limited: Callable[[str, str], None]) -> None:
    """Tell everyone at the table (and the speaker) ``text`` (already checked), and keep it in
    ``chats`` beside the game (``limited``: the log for what may happen often). Who speaks, and
    for which seat, is who the connection is: the owner of a seat speaks as that seat's player,
    anyone else as a spectator, whatever they ask."""
    owners = table.record.owners
    seat = owners.index(conn.identity) if conn.identity in owners else None
    at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")  # as every stamp: UTC, Z
    line = encode(Said(table=table.name, user=conn.user, text=text, at=at, seat=seat))
    async with table.chat_lock:
        try:
            heard, kept = await table.backing.run_io(
                partial(chats.say, table.name, line, table.chat_seen, table.game_id)
            )
        except OSError as e:
            unkept = said(N_("table {table}: cannot keep its chat: {error}"))
            limited(f"chat {table.name}", unkept.format(table=table.name, error=e))
            heard, kept = Heard(deque([line]), table.chat_seen), True
        table.tell_chat(heard)
    if conn.table is not table:
        conn.send(line)
    if not kept:
        full = said(N_("table {table}: its chat file is full; lines go unkept"))
        limited(f"chat {table.name}", full.format(table=table.name))


async def rematch(table: LiveTable, conn: Conn, accept: bool) -> bool:
    """A seated person proposes or accepts (``accept``) or turns down a rematch of the finished
    game. Returns whether everyone seated has accepted: the server then deals again."""
    if conn.table is not table:
        raise Refusal("not_seated", f"only a player seated at table {table.name} may propose or accept a rematch")

    def vote(again: bool) -> tuple[bool, bool]:
        # a rematch turned down is kept: every server withdraws its acceptances
        return table.rematch(conn, accept), not accept

    ready = await table.change_record(vote)
    seat = conn.seat
    assert seat is not None
    if accept:
        voted = said(N_("{user} accepts a rematch at {table} {seat}"))
    else:
        voted = said(N_("{user} turns the rematch down at {table} {seat}"))
    table.backing.log(voted.format(user=conn.user, table=table.name, seat=seat_said(table, seat)))
    table.presence_soon()
    return ready


async def decide(table: LiveTable, seat: int, message: Place | Undo) -> None:
    """Check and play ``seat``'s decision (called with ``table.lock`` held)."""
    if table.failed is not None:
        raise Refusal(table.failed.code, table.failed.message, seq=table.failed.seq)
    try:  # what another server decided first comes first
        await table.held()
    except (SaveError, OSError, GameFileError) as e:
        raise Refusal("server", f"table {table.name} cannot be played now: {e}") from None
    if message.seq != table.next_seq:
        stale = {"next_seq": table.next_seq, "seq": message.seq}
        raise Refusal.because("stale", "stale", stale, seq=table.next_seq)
    if table.over:
        raise Refusal.because("game_over", "game_over", {})
    waiting = table.why_waiting()
    if waiting is not None:
        raise Refusal("illegal", waiting, seq=table.next_seq)
    try:
        if isinstance(message, Place):
            placement = Placement(card=message.card, column=message.column)
            game = table.session.game
            try:  # the rules' own refusals, in the wire's words (theirs are the server's language)
                game.check_placement(placement, player=seat)
            except WrongPlayer:
                raise Refusal.because("illegal", "not_your_turn", {"to_move": game.to_move, "seat": seat},
                                      seq=table.next_seq) from None  # fmt: skip
            except CardNotInHand:
                raise Refusal.because("illegal", "card_placed", {"seat": seat, "card": message.card},
                                      seq=table.next_seq) from None  # fmt: skip
            except NotPlacementPhase:
                raise Refusal.because("illegal", "resolving", {}, seq=table.next_seq) from None
            table.placing(seat)
            await table.commit(lambda session: session.place(placement, player=seat))
        else:
            if undos_this_round(table.session.events, seat) >= MAX_UNDOS_PER_ROUND:
                raise Refusal.because("undo_limit", "undo_limit", {"seat": seat, "most": MAX_UNDOS_PER_ROUND},
                                      seq=table.next_seq)  # fmt: skip
            begun = table.turn_begun(seat)
            if begun is not None:
                raise Refusal.because("nothing_to_undo", "turn_begun", {"seat": begun}, seq=table.next_seq)
            await table.commit(lambda session: session.undo(seat), undone=seat)
    except RuleError as e:
        code: ErrorCode = "nothing_to_undo" if isinstance(message, Undo) else "illegal"
        raise Refusal.ruled(code, e, seq=table.next_seq) from None


async def play_bot(table: LiveTable, turn: BotTurn, placement: Placement) -> None:
    """Play the bot's ``placement`` for ``turn`` (called with ``table.lock`` held), unless the
    position moved on meanwhile (another server's bot may have made this move already)."""
    seq = table.next_seq
    try:
        await table.held()
    except (SaveError, OSError, GameFileError) as e:
        table.backing.log(said(N_("table {table}: its bot's move waits: {error}")).format(table=table.name, error=e))
        return
    if table.next_seq != seq:
        return  # the next wake asks for the move of the position now
    level = turn.level if turn.standing_in else None
    table.placing(turn.seat)
    with contextlib.suppress(Refusal):  # (stale: the next wake asks for the move of the position now)
        await table.commit(lambda session: session.place(placement, player=turn.seat, stand_in=level))


__all__ = [
    "RESIGNED_BOT",
    "bot_level",
    "close",
    "decide",
    "join",
    "play_bot",
    "release",
    "rematch",
    "resign",
    "say",
    "set_clock",
    "stand_in",
    "start",
]
