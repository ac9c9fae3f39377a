"""A seat played by a bot through the server: ``dvtui join NAME --as SEAT --bot LEVEL``, the
reference client for programs that play (it does what any client does: fold the lines, answer
when it is its turn, with the ``seq`` of the position it answered)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..bots import BotSpec, choose
from ..engine import Game
from ..i18n import _
from .client import TableClient
from .connection import Refused
from .wire import STOPPING


async def play_seat(
    client: TableClient, spec: BotSpec, say: Callable[[str], None] | None = None,
    seated: Callable[[Game, int], None] | None = None,
) -> Game:  # fmt: skip
    """Play ``client``'s seat with bot ``spec`` until the game is over; returns the final game.
    ``say`` hears of a lost connection and of its return; ``seated`` of the game and the seat
    (an index) once, as soon as the game is known (a script's user learns the bot sits there)."""
    answered: int | None = None  # the position (next seq) the last placement was sent for
    told = False
    try:
        async for update in client.updates():
            if update.status == "reconnecting" and say is not None:
                say(_("connection lost; reconnecting…"))
            if update.status == "connected":
                answered = None  # a placement sent just before the drop may never have arrived
                if say is not None:
                    say(_("reconnected"))
            if update.error is not None and update.error.code in STOPPING:
                raise Refused(update.error)
            game = client.game
            if game is None:
                continue
            if not told and client.seat is not None:
                told = True
                if seated is not None:
                    seated(game, client.seat)
            if game.over:
                return game
            if client.my_turn() and answered != client.next_seq:
                answered = client.next_seq
                placement = await asyncio.to_thread(choose, spec, game.copy(), client.bot_seed())
                await client.place(placement)
    finally:
        await client.close()
    raise AssertionError("the updates ended before the game did")  # close() is only called above
