"""Bots and hints think in thread workers that report through typed messages (``BotPlaced``,
``HintReady``, ``ThinkingFailed``), each naming the position it was asked about by the table's turn
token; the table plays or shows only what is about the position on the table. Asserted on the
messages themselves, as the app sees them (``run_test(message_hook=...)``)."""

from __future__ import annotations

from textual.message import Message
from textual.worker import WorkerState

from dvtui.app.messages import BotPlaced, HintReady, ThinkingFailed
from dvtui.app.textual_private import notifications
from dvtui.engine import CardPlaced, Placement

from ..support.apps import new_session, table_app
from .driver import HUMAN, next_decision, table


async def test_bots_and_the_hint_answer_with_messages_the_table_acts_on() -> None:
    messages: list[Message] = []
    app = table_app(new_session(None))  # Ana, then two greedy bots
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("5", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        placed = [m for m in messages if isinstance(m, BotPlaced)]
        bots = [e for e in screen.session.events if isinstance(e, CardPlaced) and e.player != 0]
        assert [m.placement for m in placed] == [(e.card, e.column) for e in bots] and len(bots) == 2
        assert placed[0].token < placed[1].token < screen.flow.token  # each about its own position
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        [ready] = [m for m in messages if isinstance(m, HintReady)]
        assert ready.token == screen.flow.token
        cursor = screen.flow.cursor
        assert (cursor.card, cursor.column) == ready.suggestion.placement
        assert cursor.hint is not None and cursor.hint.startswith(f"{ready.suggestion.placement.card} → ")
        assert not any(isinstance(m, ThinkingFailed) for m in messages)


async def test_an_undo_while_a_bot_thinks_stops_it_and_no_move_comes() -> None:
    messages: list[Message] = []
    app = table_app(new_session(None, players="Ana,bot:strong@10s,bot:greedy"))
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("5", "c", "enter")
        screen = table(app)
        for _ in range(500):
            if any(w.group == "bot" and w.state == WorkerState.RUNNING for w in app.workers):
                break
            await pilot.pause(0.01)
        assert screen.flow.thinking == 1
        [searching] = [w for w in app.workers if w.group == "bot"]
        await pilot.press("u")  # Ana takes her card back while the strong bot searches
        await pilot.pause()
        assert searching.state == WorkerState.CANCELLED  # its thread stops at its next look at the flag
        assert screen.session.human_to_move() == 0 and not screen.session.game.placements
        assert not any(isinstance(m, (BotPlaced, ThinkingFailed)) for m in messages)


async def test_a_failed_search_is_told_and_a_late_answer_is_dropped() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        old = screen.flow.token
        await pilot.press("5", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        placements = len(screen.session.game.placements)
        screen.post_message(BotPlaced(old, Placement(6, 6)))  # about Ana's first turn, long gone
        screen.post_message(ThinkingFailed(old, "bot", RuntimeError("late")))
        screen.post_message(ThinkingFailed(screen.flow.token, "hint", RuntimeError("no memory")))
        await pilot.pause()
        assert len(screen.session.game.placements) == placements
        messages = [n.message for n in notifications(app)]
        assert "hint failed: no memory" in messages and not any("late" in m for m in messages)
