"""Driving a game through the app like a person: keys only, or the mouse only.

The human's choices follow a fixed rule (so the game, and the file it leaves, are the same on every
run); bots answer in worker threads, so the driver waits for them between its own moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import FooterKey, messages_waiting
from dvtui.app.widgets.board import Board
from dvtui.app.widgets.hand import HandBar
from dvtui.engine import Event, Game, GameCreated, Placement, RoundEnded, Seat, new_game
from dvtui.play.autoplay import bot_players, play_game
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.store import GameWriter, read_game

from ..support.pilot import click, press, settled

Move = Placement
"""A placement as the human chose it."""

HUMAN, RESOLVING, OVER = "human", "resolving", "over"


async def next_decision(pilot: Pilot[int], app: DvtuiApp, limit: int = 5000) -> str:
    """Wait (for bots) until the human is asked, a resolution is on screen, or the game is over.

    Asked once the screen has taken in every news the session told it: the session moves on as
    soon as a bot's move is saved, before its screen shows it (a round's resolution, say), and keys
    typed in between would choose for a position nobody saw."""
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return OVER
        if isinstance(screen, TableScreen) and not messages_waiting(screen):
            if screen.flow.resolution is not None:
                return RESOLVING
            if screen.flow.placer() is not None:  # (not while a decision is being saved)
                return HUMAN
        await app.workers.wait_for_complete()
        await asyncio.sleep(0.002)  # let the bots' answers arrive (no forced redraw: that is slow)
    raise AssertionError(f"no decision after {limit} waits (screen: {app.screen!r})")


async def travel_after_a_move(pilot: Pilot[int], app: DvtuiApp) -> None:
    """Place one card, then open time travel over the game so far (the viewer on the table's game)."""
    assert await next_decision(pilot, app) == HUMAN
    await press(pilot, "4", "c", "enter")
    assert await next_decision(pilot, app) == HUMAN
    await press(pilot, "t")
    await pilot.pause()


def table(app: DvtuiApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), screen
    return screen


def choose(game: Game) -> Move:
    """The test player's rule: alternately the highest and lowest card, a column that moves on."""
    hand = game.hands[game.to_move]
    card = max(hand) if len(game.placements) % 2 == 0 else min(hand)
    column = (len(game.placements) * 3 + game.round) % 7
    return Placement(card, column)


async def play_with_keys(pilot: Pilot[int], app: DvtuiApp, stop_after: int | None = None) -> list[Move]:
    """Play to the end (or until the human has made ``stop_after`` moves) with key presses only:
    digits for cards, letters or arrows for columns, Enter, space and s in resolutions."""
    moves: list[Move] = []
    while True:
        state = await next_decision(pilot, app)
        if state == OVER:
            return moves
        screen = table(app)
        if state == RESOLVING:
            await press(pilot, "space")  # one step by hand, then skip the rest
            if screen.flow.resolution:
                await press(pilot, "s")
            continue
        if stop_after is not None and len(moves) >= stop_after:
            return moves
        card, column = choose(screen.session.game)
        await press(pilot, str(card))
        if len(moves) % 2:
            steps = (column - screen.flow.cursor.column) % 7
            await press(pilot, *(["right"] * steps))
        else:
            await press(pilot, "abcdefg"[column])
        cursor = screen.flow.cursor
        assert (cursor.card, cursor.column) == (card, column), (
            f"the cursor is at card {cursor.card}, column {cursor.column} after the keys for {card}, {column}; "
            f"screen {app.screen!r}, focus {app.focused!r}, placer {screen.flow.placer()}, "
            f"resolution {screen.flow.resolution is not None}, move {len(moves)}"
        )
        await press(pilot, "enter")
        moves.append(Placement(card, column))


async def play_with_mouse(pilot: Pilot[int], app: DvtuiApp) -> list[Move]:
    """Play to the end with clicks only: a hand card then a column; the resolution banner to go
    on (the footer's skip goes to the round's summary, which a click on it closes)."""
    moves: list[Move] = []
    while True:
        state = await next_decision(pilot, app)
        if state == OVER:
            return moves
        screen = table(app)
        if state == RESOLVING:
            assert await click(pilot, "#banner")  # one step, then the footer's "skip"
            if screen.flow.resolution:
                skip = next(key for key in app.screen.query(FooterKey) if key.action == "skip")
                assert await click(pilot, skip)
                if screen.flow.resolution:  # the round's summary waits to be read: a click on it goes on
                    assert isinstance(screen.flow.resolution.step.event, RoundEnded)
                    assert await click(pilot, "#banner")
                assert not screen.flow.resolution
            continue
        card, column = choose(screen.session.game)
        hand = app.screen.query_one(HandBar)
        assert await click(pilot, hand, offset=hand.card_offset(card))
        assert screen.flow.cursor.card == card
        board = app.screen.query_one(Board)
        assert await click(pilot, board, offset=board.column_offset(column))
        moves.append(Placement(card, column))


def expected_events(created: GameCreated, human: int, moves: Sequence[Move]) -> list[Event]:
    """The game the engine and the bots give for the human's ``moves``, without any UI: what the
    file must hold."""
    game = Game(created)
    bots = bot_players(game)
    events: list[Event] = [created]
    queue = list(moves)
    while not game.over:
        bot = bots[game.to_move]
        if bot is None:
            assert game.to_move == human
            if not queue:
                break
            placement = queue.pop(0)
        else:
            fn, seed = bot
            placement = fn(game, seed)
        events.extend(game.place(placement))
    return events


def resumed_at_round(path: Path, players: str, seed: int, round_: int) -> tuple[LocalSession, list[Move]]:
    """A game of ``players`` (the human first, as :func:`tests.support.apps.new_session` deals it)
    played without the app up to round ``round_``, the human's moves by :func:`choose`, saved at
    ``path`` and resumed there (on the recap of the round before): the session, and the human's
    moves so far. A test of what every round asks alike plays one round, not a whole game."""
    created = new_game(parse_players(players), first_player=0, seed=seed)
    game = Game(created)
    bots = bot_players(game)
    moves: list[Move] = []
    with GameWriter.create(path, created) as writer:
        while game.round < round_:
            bot = bots[game.to_move]
            if bot is None:
                moves.append(choose(game))
            placement = moves[-1] if bot is None else bot[0](game, bot[1])
            writer.append(game.place(placement))
    return LocalSession.resume(read_game(path)), moves


# Three people and a hand-made deal: column A gives Ana a house 300; column B then gives her a house
# 600, so the 300 goes back on top of B (R6.1), while Ben and Cy tie at 4 under B and are both
# cancelled (R5.2). Everything else goes under G.
EXCHANGE_AND_TIE = [
    (6, "a"),
    (4, "b"),
    (4, "b"),
    (5, "b"),
    (1, "g"),
    (1, "g"),
    (1, "g"),
    (2, "g"),
    (2, "g"),
    (2, "g"),
    (3, "g"),
    (3, "g"),
    (3, "g"),
    (5, "g"),
    (5, "g"),
]


def hot_seat_session(make_created: Callable[..., GameCreated], path: Path | None = None) -> LocalSession:
    """Ana, Ben and Cy at one keyboard over the deal :data:`EXCHANGE_AND_TIE` is played on."""
    created = make_created(3, {0: ["house-300", "money-100"], 1: ["house-600", "car-200"]})
    seats = [
        Seat(name=name, kind="human", color=color)
        for name, color in (("Ana", "red"), ("Ben", "yellow"), ("Cy", "green"))
    ]
    return LocalSession.start(msgspec.structs.replace(created, players=seats, seed=1), path)


async def mid_round(pilot: Pilot[int]) -> None:
    """A snapshot's moment: two placements made, a third card chosen (its preview shown)."""
    app = pilot.app
    assert isinstance(app, DvtuiApp)
    for keys in (("5", "c", "enter"), ("3", "d", "enter")):
        assert await next_decision(pilot, app) == HUMAN
        await press(pilot, *keys)
    assert await next_decision(pilot, app) == HUMAN
    await press(pilot, "6", "f")  # chosen, not placed: the preview line and the faint +6
    await settled(pilot)


def finished_session() -> LocalSession:
    """A game of bots played to its end (seed 3), for the results."""
    game, events = play_game(parse_players("bot:random,bot:greedy,bot:greedy"), seed=3)
    return LocalSession(PlaySession(game, None, Path("finished.dvr"), events))


async def open_help(pilot: Pilot[int]) -> None:
    """A snapshot's moment: the help, opened at the first decision."""
    app = pilot.app
    assert isinstance(app, DvtuiApp)
    assert await next_decision(pilot, app) == HUMAN
    await press(pilot, "question_mark")
    await settled(pilot)


async def play_exchange_and_tie(pilot: Pilot[int]) -> DvtuiApp:
    """The human's placements of :data:`EXCHANGE_AND_TIE`, each at its turn: the round then
    resolves with an exchange and a tie on screen."""
    app = pilot.app
    assert isinstance(app, DvtuiApp)
    for card, column in EXCHANGE_AND_TIE:
        assert await next_decision(pilot, app) == HUMAN
        await press(pilot, str(card), column, "enter")
    assert await next_decision(pilot, app) == RESOLVING  # (the last placement is saved first)
    return app


async def round_summary(pilot: Pilot[int]) -> None:
    """A snapshot's moment: a round with an exchange and a tie, stepped to its summary."""
    app = await play_exchange_and_tie(pilot)
    await press(pilot, "s")  # past the columns, to the summary, which waits for a key
    screen = table(app)
    assert screen.flow.resolution and screen.flow.resolution.index == len(screen.flow.resolution.steps) - 1
    await settled(pilot)
