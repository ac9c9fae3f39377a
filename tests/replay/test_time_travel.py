"""Time travel in a live game: ``t`` on the table opens the replay's timeline over the
game so far, read-only; Escape returns to play, the game and its file as they were."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.messages import BotPlaced, ThinkingFailed
from dvtui.app.options import AppOptions
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import notifications
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.engine import Placement, Seat, new_game
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.store import read_game

from ..support.pilot import press, settled
from ..support.replays import fold_prefix, picture


def live_app(path: Path, branch: Path | None = None) -> DvtuiApp:
    created = new_game(parse_players("Ana,bot:greedy,bot:greedy"), first_player=0, seed=3)
    return DvtuiApp(
        LocalSession.start(created, path),
        AppOptions(
            pace=Pace(bot_delay=0.0, step_delay=None),
            branch_path=None if branch is None else (lambda created: branch),
            player_name="Zed",
        ),
    )


async def human_turn(pilot: Pilot[int], table: TableScreen) -> None:
    """Wait for the bots until Ana is asked (skipping any resolution on screen)."""
    for _ in range(500):
        if table.flow.resolution:
            table.action_skip()
        elif table.flow.placer() is not None:  # (not while her last decision is being saved)
            return
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.005)
    raise AssertionError("Ana is never asked")


async def two_turns_in(pilot: Pilot[int]) -> TableScreen:
    """Ana places twice (5 under C, 3 under E); the bots answer; Ana is to play again."""
    table = pilot.app.screen
    assert isinstance(table, TableScreen)
    for move in (("5", "c"), ("3", "e")):
        await human_turn(pilot, table)
        await press(pilot, *move, "enter")
    await human_turn(pilot, table)
    return table


async def test_t_opens_the_timeline_and_escape_returns(tmp_path: Path) -> None:
    path = tmp_path / "live.dvr"
    app = live_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await two_turns_in(pilot)
        session = table.session
        events = list(session.events)
        size = path.stat().st_size
        await press(pilot, "t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.live
        assert screen.moment == len(events) - 1  # at the game as it stands
        assert picture(screen.game) == picture(session.game)
        assert "TIME TRAVEL" in screen.query_one("#round-bar").right.plain
        titles = [c.title for c in app.get_system_commands(screen)]  # the palette: the viewer's commands
        assert {"Back", "Play from here", "Round 1"} <= set(titles)
        await press(pilot, "home")
        assert screen.moment == 0 and picture(screen.game) == picture(fold_prefix(events, 0))
        await press(pilot, "down", "right")
        assert picture(screen.game) == picture(fold_prefix(events, screen.moment))
        assert screen.query_one(ReplayLog).cursor == screen.moment
        await press(pilot, "b", "escape")  # the branch's question, answered "no branch": nothing made
        await pilot.pause()
        assert app.screen is screen and app.session is session and app.branched is None
        await press(pilot, "escape")
        await pilot.pause()
        assert app.screen is table
        assert session.events == events and path.stat().st_size == size  # read-only
        await press(pilot, "2", "g", "enter")  # and play goes on
        await human_turn(pilot, table)
        assert len(session.events) > len(events)
    loaded = read_game(path)
    assert loaded.events[: len(events)] == events


async def test_the_timeline_follows_the_game_as_it_goes_on(tmp_path: Path) -> None:
    app = live_app(tmp_path / "live.dvr")
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen
        assert isinstance(table, TableScreen)
        await human_turn(pilot, table)
        await press(pilot, "t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        before = screen.replay.last
        table.action_pick(4)  # the game moves on behind the timeline (a move, the bots' answers)
        table.action_column(1)
        table.action_place()
        await human_turn(pilot, table)
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.replay.last >= before + 3:
                break
        history = table.session.events
        assert screen.replay.last == len(history) - 1 >= before + 3
        assert screen.moment == screen.replay.last  # it was at the end: it follows
        assert picture(screen.game) == picture(table.session.game)
        await press(pilot, "escape")
        assert app.screen is table


async def test_the_table_tells_the_timeline_each_move_as_it_is_saved(tmp_path: Path) -> None:
    """The bots play while the timeline is open: their moves reach it as they are saved, so
    whenever the app is idle the timeline ends where the game stands and, left at the end, shows
    it (nothing waits for a timer: the table tells the viewer, the viewer never looks)."""
    app = live_app(tmp_path / "live.dvr")
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen
        assert isinstance(table, TableScreen)
        await human_turn(pilot, table)
        await press(pilot, "t")
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        start = viewer.replay.last
        checks = 0
        for _ in range(4):  # Ana's moves, behind the timeline, and the bots' answers
            table.action_pick(table.session.game.hands[0][0])
            table.action_place()
            while table.flow.placer() is None:
                if table.flow.resolution:
                    table.action_skip()
                await app.workers.wait_for_complete()
                await settled(pilot)  # the bot's move handled by the table, behind the timeline
                assert viewer.replay.events == table.session.events  # told of every move, in order
                assert viewer.moment == viewer.replay.last  # it was at the end: it shows the game as it stands
                assert picture(viewer.game) == picture(table.session.game)
                checks += 1
        assert viewer.replay.last >= start + 12 and checks >= 4 and app.screen is viewer


async def test_b_in_time_travel_plays_on_from_the_moment_in_a_new_file(tmp_path: Path) -> None:
    """ "What if I had played the 5 elsewhere?": back to Ana's first turn, ``b``, keep the seats. The
    game played so far stays in its file as it was (unfinished, it verifies, nothing is added to it
    after), the table now plays the branch (its file: the prefix, then the new moves), and bots'
    moves still coming for the old game are dropped."""
    from dvtui.app.screens.branch import BranchScreen
    from dvtui.cli import main

    path, out = tmp_path / "live.dvr", tmp_path / "what-if.dvr"
    app = live_app(path, out)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await two_turns_in(pilot)
        old = table.session
        events = list(old.events)
        stale = table.flow.token  # a bot's answer for the old game, arriving after the branch
        await press(pilot, "t", "home")  # moment 0, the deal: Ana to place her first card
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.moment == 0 and viewer.game.to_move == 0
        await press(pilot, "b")
        await pilot.pause()
        assert isinstance(app.screen, BranchScreen)
        await press(pilot, "enter")  # with a person at the table: keep the seats
        await pilot.pause()
        assert app.screen is table and app.session is table.session is not old
        session = table.session
        assert session.path == out and app.branched == out
        assert len(session.events) == 1 and session.game.to_move == 0  # the deal, annotated:
        assert session.events[0].parent == str(path.resolve())  # type: ignore[attr-defined]
        assert picture(session.game) == picture(fold_prefix(events, 0))
        assert any(n.title == "Playing from here" for n in notifications(app))
        saved = path.read_bytes()
        table.post_message(BotPlaced(stale, Placement(6, 6)))
        table.post_message(ThinkingFailed(stale, "bot", RuntimeError("gone")))
        await pilot.pause()
        assert not any("failed" in n.message for n in notifications(app))  # not this game's news
        assert len(session.events) == 1  # dropped: the branch is still at its deal
        await press(pilot, "2", "a", "enter")  # the other card, another column
        await human_turn(pilot, table)
        branch_events = list(session.events)
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        assert path.read_bytes() == saved  # the old game: nothing more, whatever was under way
        await press(pilot, "q")
    parent = read_game(path)
    assert parent.events == events and not parent.game.over
    branch = read_game(out)
    assert branch.created.parent == str(path.resolve()) and branch.created.parent_seq == 0
    assert branch.created.players == parent.created.players
    assert branch.events == branch_events and branch.events[1] != events[1]
    mine = branch.events[1]
    assert (mine.player, mine.card, mine.column) == (0, 2, 0)  # type: ignore[attr-defined]
    assert main(["verify", str(path), str(out)]) == 0


async def test_b_in_time_travel_can_hand_a_bot_seat_to_the_person(tmp_path: Path) -> None:
    """The seat choice as in a file's replay: after moment 1 (Ana's card) it is Bot 1's turn.
    With Ana at the table, the person plays that seat too (hot-seat): it keeps its name, and the
    table asks for its card."""
    path, out = tmp_path / "live.dvr", tmp_path / "seat.dvr"
    app = live_app(path, out)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen
        assert isinstance(table, TableScreen)
        await human_turn(pilot, table)
        await press(pilot, "4", "b", "enter")
        await human_turn(pilot, table)
        await press(pilot, "t", "home", "right", "b")  # moment 1: Bot 1 to move
        await pilot.pause()
        await press(pilot, "down", "enter")  # past "keep the seats": the seat to move, Bot 1's
        await pilot.pause()
        assert app.screen is table
        game = table.session.game
        assert game.to_move == 1 and game.created.players[1].kind == "human"
        assert game.created.players[1].name == "Bot 1" and table.session.human_to_move() == 1
        assert game.created.players[0] == read_game(path).created.players[0]  # Ana is still Ana
        await press(pilot, "q")
    assert read_game(out).created.players[1] == Seat(name="Bot 1", kind="human", color="yellow")
    assert read_game(path).created.players[1].kind == "bot"
