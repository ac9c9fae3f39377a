"""Playing games without a screen: bot-only games for ``dvtui sim``, replays and tests.

A bot's move depends only on the game state and the bot's seed (derived from the game's seed and
its seat), so a game finished here is the same whether it ran in one go or was resumed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots import BotSpec, Mover, bot_fn, bot_seed, parse_bot
from ..engine import Event, EventSink, Game, GameCreated, Seat, new_game


def bot_specs(game: Game) -> list[tuple[BotSpec, int] | None]:
    """For each seat, its bot and the bot's seed (None for a human seat)."""
    seed = game.created.seed or 0
    out: list[tuple[BotSpec, int] | None] = []
    for i, seat in enumerate(game.created.players):
        if seat.kind == "bot" and seat.bot:
            out.append((parse_bot(seat.bot), bot_seed(seed, i)))
        else:
            out.append(None)
    return out


def bot_players(game: Game) -> list[tuple[Mover, int] | None]:
    """For each seat, its bot's move function and seed (None for a human seat)."""
    return [None if bot is None else (bot_fn(bot[0]), bot[1]) for bot in bot_specs(game)]


def play_out(game: Game, sink: EventSink | None = None) -> list[Event]:
    """Let the bots play until the game is over (or a human is to move). Returns the new events;
    ``sink`` receives each decision with its derived events, as one unit, as they happen."""
    out: list[Event] = []
    collect: EventSink = out.extend
    if sink is not None:
        outer = sink

        def collect(events: list[Event]) -> None:
            outer(events)
            out.extend(events)

    run_bots(game, collect)
    return out


def run_bots(game: Game, sink: EventSink | None, players: Sequence[tuple[Mover, int] | None] | None = None) -> None:
    """Let the bots play until the game is over or a human is to move (``dvtui sim`` lives here:
    no list of events is kept). ``players`` overrides the seats' bots (a tournament times their
    moves)."""
    game.play(bot_players(game) if players is None else players, sink)


def play_game(
    seats: Sequence[Seat], seed: int, first_player: int = 0, sink: EventSink | None = None
) -> tuple[Game, list[Event]]:
    """A whole bot game from the deal: the final state and every event, ``game_created`` first."""
    created: GameCreated = new_game(seats, first_player=first_player, seed=seed)
    if sink is not None:
        sink([created])
    game = Game(created, trusted=True)
    events: list[Event] = [created]
    events.extend(play_out(game, sink))
    return game, events
