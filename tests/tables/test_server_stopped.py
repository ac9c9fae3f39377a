"""A table server that stops answering (SIGSTOP: a machine swapping, a process stuck on a disk)
after a placement was sent never stops the screen: it draws and takes keys (the help, the log, quit)
and the placement lands once the server goes on, shown as every move is."""

from __future__ import annotations

import signal
from typing import Any

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.help import HelpScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import EventLog
from dvtui.engine import CardPlaced
from dvtui.store import read_game
from dvtui.tables import RemoteSession

from ..support.pilot import press, until
from ..support.servers import Served, short_dir, table_on_disk, wait_until


def placements_of_ana(server: Served) -> list[CardPlaced]:
    events = read_game(server.game_file("t")).events
    return [e for e in events if isinstance(e, CardPlaced) and e.player == 0]


def _anas_turn_in_round_3(lines: list[dict[str, Any]]) -> int:
    """Ana's first placement of round 3: the table is cut before it, her turn."""
    return next(i for i, line in enumerate(lines) if line["type"] == "card_placed" and line["round"] == 3
                and line["player"] == 0)  # fmt: skip


@pytest.mark.long
async def test_the_screen_draws_and_takes_keys_while_the_server_is_stopped() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        d.joinpath("srv").mkdir(mode=0o700)
        # a table a few rounds in, a server stopped there left it (Ana to place): its lines are what
        # the log has to scroll through
        table_on_disk(server.directory / "games", "t", "Ana,bot:greedy,bot:greedy", 5, _anas_turn_in_round_3)
        server.start()
        ana = await RemoteSession.open(server.place, "t", seat=0)
        app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
        assert server.proc is not None
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            log = screen.query_one(EventLog)

            async def to_anas_turn() -> None:
                """Until Ana places, with ``s`` past each resolution shown meanwhile: it waits for keys
                here (no step delay), and it may begin only after her placement was drawn (the bots'
                that end the round come later, on a loaded machine a good while later)."""
                while True:
                    await until(pilot, "Ana's turn or a resolution", lambda: (
                        screen.flow.placer() == 0 or screen.flow.resolution is not None
                    ))  # fmt: skip
                    if screen.flow.placer() == 0:
                        return
                    await press(pilot, "s")

            await to_anas_turn()
            sent = len(placements_of_ana(server))
            card = ana.game.hands[0][0]

            server.proc.send_signal(signal.SIGSTOP)
            try:
                # sent, each key handled: the server, stopped, cannot answer, however long one waits
                await press(pilot, str(card), "c", "enter")
                assert ana.deciding and screen.flow.placer() is None
                assert "on its way" in screen.query_one(HandBar).render().plain
                await press(pilot, "question_mark")  # the help opens...
                await until(pilot, "the help", lambda: isinstance(app.screen, HelpScreen))
                await press(pilot, "escape")  # ... and closes
                await until(pilot, "the table again", lambda: app.screen is screen)
                await press(pilot, "tab")  # the log is read
                await until(pilot, "the log focused", lambda: log.has_focus)
                assert log.max_scroll_y > 0
                await press(pilot, "home")
                await until(pilot, "the log at its top", lambda: log.scroll_offset.y == 0)
                await press(pilot, "escape")
                assert len(placements_of_ana(server)) == sent  # nothing reached the file meanwhile
            finally:
                server.proc.send_signal(signal.SIGCONT)

            await until(pilot, "the placement to land", lambda: not ana.deciding)
            landed = placements_of_ana(server)
            assert len(landed) == sent + 1 and (landed[-1].card, landed[-1].column) == (card, 2)
            await until(
                pilot,
                "the move in the log",
                lambda: any(f"Ana placed {card} under column C" in line.plain for line in log.entries),
            )

            await until(pilot, "Ana's turn", lambda: screen.flow.placer() == 0 or ana.game.over)
            if not ana.game.over:
                card = ana.game.hands[0][0]
                server.proc.send_signal(signal.SIGSTOP)
                try:
                    await press(pilot, str(card), "d", "enter")
                    assert ana.deciding
                    await pilot.press("q")  # quit works while the server is stopped
                    await pilot.pause()
                finally:
                    server.proc.send_signal(signal.SIGCONT)
        assert app.return_code == 0
        if not ana.game.over:  # the placement sent before quitting counts once the server goes on
            # on this loop, which the client's connection lives on (a blocking wait would hold its bytes)
            await wait_until("the last placement", lambda: len(placements_of_ana(server)) == sent + 2)
