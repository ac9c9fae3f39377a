"""The live table at a shared table (Pilot, against a server in this process): a key places for
one's own seat only, the others' moves arrive by themselves (as the session's news),
the header says whose turn it is and the bell rings once when it becomes yours, the banner says who
is there, ``a`` lets a bot stand in for an away seat, and a table without hints offers none."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import os
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from rich.console import Console
from textual.binding import BindingsMap
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.exit_state import Played
from dvtui.app.keys import FASTER, NEXT, SHARED_TABLE, SKIP, SLOWER, STAND_IN
from dvtui.app.notify import PAGE_TURN
from dvtui.app.options import AppOptions
from dvtui.app.screens.analysis import AnalysisScreen
from dvtui.app.screens.branch import BranchScreen
from dvtui.app.screens.dialog import Confirm, LeaveForBranch
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.help import HelpScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import Banner, EventLog, RoundBar
from dvtui.bots import choose, parse_bot
from dvtui.cli.tables import table_line
from dvtui.engine import CardPlaced, Placement
from dvtui.play.local import LocalSession
from dvtui.server.main import Server
from dvtui.store import read_game, saves_dir
from dvtui.store.lock import user_name
from dvtui.tables import RemoteSession, TableClient, list_tables, open_table
from dvtui.tables.headless import play_seat

from ..support.pilot import WAIT, press, text, until
from ..support.servers import watch_until

ME = user_name(os.getuid())
"""The account the tests run as: it holds every seat a test takes without vouching for a person
(the banner names it beside each seat name that is not its own)."""


class Bells:
    def __init__(self, app: DvtuiApp) -> None:
        self.count = 0
        app.bell = self.ring  # type: ignore[method-assign]

    def ring(self) -> None:
        self.count += 1


def _lines(server: Server, table: str = "t") -> int:
    return (server.games / f"{table}.dvr").read_bytes().count(b"\n")


async def _decide(session: RemoteSession, card: int, column: int) -> None:
    """Place for ``session``'s seat once it is its turn there, and wait until the move came back
    (the session reads on this loop: its news arrives while this waits)."""
    async with asyncio.timeout(WAIT):
        while session.human_to_move() is None:
            await asyncio.sleep(0.02)
        session.place(Placement(card, column))
        while session.deciding:
            await asyncio.sleep(0.02)


async def _first_bot_move(server: Server, table: str) -> None:
    """Watch until the server's bot has made the first move, before anyone sits down."""
    await asyncio.to_thread(watch_until, server.place, table, 2)


async def test_a_seat_plays_its_turns_and_hears_the_others_moves(in_process: Server) -> None:
    in_process.limits = dataclasses.replace(in_process.limits, stand_in_grace=0.001)  # (the grace: test_table_rules)
    await open_table(in_process.place, "t", ["Ana", "Bob", "bot:greedy"], first_player=2, seed=5, wait=False)
    await _first_bot_move(in_process, "t")
    bob = await RemoteSession.open(in_process.place, "t", seat=1)
    ana = await RemoteSession.open(in_process.place, "t", seat=0)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    bells = Bells(app)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert screen.shared is not None and screen.shared.table is ana.table  # the shared table's part
            bar, banner = screen.query_one(RoundBar), screen.query_one(Banner)
            assert "Your turn, Ana" in text(bar) and "table t" in text(bar)
            assert f"Ana (you) · Bob ({ME}) (here) · Bot 1 (bot)" in text(banner)
            assert bells.count == 1  # it is her turn as she sits down
            await press(pilot, "5", "a", "enter")
            await until(pilot, "Ana's move in the file", lambda: _lines(in_process) == 3)
            last = read_game(in_process.games / "t.dvr").events[-1]
            assert isinstance(last, CardPlaced) and (last.player, last.card, last.column) == (0, 5, 0)
            await until(pilot, "Bob's turn on screen", lambda: "Bob to play" in text(bar))  # (the move came back)
            assert bells.count == 1
            await press(pilot, "4", "b", "enter")  # not Ana's turn: nothing is sent
            await pilot.pause()
            assert _lines(in_process) == 3
            assert screen.check_action("undo", ()) is True
            await press(pilot, "u")  # Ana's move goes (no other person has placed since)
            await until(pilot, "the undo in the file", lambda: _lines(in_process) == 4)
            await until(pilot, "the undo on screen", lambda: "Your turn, Ana" in text(bar))
            assert ana.human_to_move() == 0 and bells.count == 1  # her own undo: no bell
            await press(pilot, "enter")  # her choice came back to the cursor
            await until(pilot, "Ana's move again", lambda: _lines(in_process) == 5)
            await _decide(bob, 6, 3)  # once Bob's session has heard of Ana's move
            await until(pilot, "Bob's move and the bot's to arrive", lambda: ana.human_to_move() == 0)
            await until(pilot, "them on screen", lambda: "Your turn, Ana" in text(bar))  # (the session tells first)
            assert bells.count == 2
            await press(pilot, "6", "d", "enter")
            await until(pilot, "Ana's second move", lambda: _lines(in_process) == 8)
            bob.close()  # Bob leaves: away
            await until(pilot, "Bob to be away", lambda: f"Bob ({ME}) (away)" in text(banner))
            assert "Bob to play (away" in text(bar)
            assert screen.check_action("stand_in", ()) is True
            await press(pilot, "a")
            await until(pilot, "a bot to play for Bob", lambda: ana.human_to_move() == 0 and _lines(in_process) > 9)
            assert "standing in" in text(banner)
            events = read_game(in_process.games / "t.dvr").events
            assert [e.stand_in for e in events if isinstance(e, CardPlaced) and e.player == 1][-1] is not None
            assert list(ana.events) == events
    finally:
        bob.close()


async def test_a_spectator_sees_the_moves_and_a_table_without_hints_offers_none(in_process: Server) -> None:
    players = ["Ana", "bot:greedy", "bot:greedy"]
    await open_table(in_process.place, "q", players, seed=2, first_player=1, hints=False, wait=False)
    await _first_bot_move(in_process, "q")
    ana = await RemoteSession.open(in_process.place, "q", seat=0)
    watcher = await RemoteSession.open(in_process.place, "q", watch=True)
    app = DvtuiApp(watcher, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    bells = Bells(app)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert "watching q" in text(screen.query_one(RoundBar))
            assert "1 watching" in text(screen.query_one(Banner))
            await until(pilot, "both bots' moves", lambda: _lines(in_process, "q") == 3 and len(watcher.events) == 3)
            assert screen.check_action("pick", ()) is False and screen.check_action("stand_in", ()) is False
            await press(pilot, "6", "d", "enter")
            assert _lines(in_process, "q") == 3
            await press(pilot, "t")  # the viewer over the game so far, followed live
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen) and len(viewer.replay.events) == 3
            await _decide(ana, 6, 3)
            await until(pilot, "Ana's move to reach the spectator", lambda: len(watcher.events) >= 4)
            await until(pilot, "the viewer to hear of it", lambda: len(viewer.replay.events) == len(watcher.events))
            await press(pilot, "escape")
            assert app.screen is screen
            assert bells.count == 0  # a spectator has no turn
            assert list(watcher.events) == read_game(in_process.games / "q.dvr").events[: len(watcher.events)]
        hinted = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
        async with hinted.run_test(size=(100, 30)) as pilot:
            table = hinted.screen
            assert isinstance(table, TableScreen)
            await until(pilot, "Ana's turn", lambda: ana.human_to_move() == 0)
            assert table.check_action("pick", ()) is True and table.check_action("hint", ()) is False
            await press(pilot, "h")  # a player used to h hears why nothing comes
            await pilot.pause()
            assert [str(n.message) for n in hinted._notifications] == ["Hints are off at this table."]
            assert "hint" not in [key.action for key in table.query(FooterKey)]
    finally:
        ana.close()


async def _sit_after_a_round_of_turns(server: Server, table: str) -> tuple[RemoteSession, RemoteSession]:
    """Table ``table``: Ana, Bob and a bot (first), a placement each; Bob's and Ana's sessions,
    Ana's turn. Ana's move is sent before her screen is up (as the bot's)."""
    await open_table(server.place, table, ["Ana", "Bob", "bot:greedy"], first_player=2, seed=5, wait=False)
    await _first_bot_move(server, table)
    bob = await RemoteSession.open(server.place, table, seat=1)
    ana = await RemoteSession.open(server.place, table, seat=0)
    await _decide(ana, 5, 0)
    await _decide(bob, 6, 3)  # once Bob's session has heard of Ana's move
    loop = asyncio.get_running_loop()
    start = loop.time()
    while _lines(server, table) < 5:  # the bot's answer
        assert loop.time() - start < WAIT, "the server's bot never answered"
        await asyncio.sleep(0.02)
    return ana, bob


def _away(session: RemoteSession, seat: int) -> bool:
    return any(s.seat == seat and s.state == "away" for s in session.presence().seats)


async def test_play_from_here_at_a_shared_table_leaves_the_table_as_it_was(
    in_process: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``t`` then ``b`` at a seat: asked first, the player leaves for a file of their own holding
    the table's game up to the moment chosen, and plays it here; the table's file is untouched
    and their seat is away."""
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    ana, bob = await _sit_after_a_round_of_turns(in_process, "b")
    table_file = in_process.games / "b.dvr"
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, "the table's five lines", lambda: len(ana.events) == 5)
            before = table_file.read_bytes()
            table_events = read_game(table_file).events
            await press(pilot, "t", "left", "left")  # moment 2: Ana's placement; Bob is to play
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen) and viewer.moment == 2
            await press(pilot, "b")
            assert isinstance(app.screen, BranchScreen)  # a bot at the table: whose seats play on?
            await press(pilot, "home", "enter")  # keep the seats (Ana plays Bob's too, at this keyboard)
            await pilot.pause()
            question = app.screen
            assert isinstance(question, LeaveForBranch)
            assert "dvtui join b" in " ".join(text(w) for w in question.query("Static"))
            await press(pilot, "n")  # stays: nothing happens
            await pilot.pause()
            assert app.screen is viewer and app.session is ana
            await press(pilot, "b", "home", "enter", "y")
            await until(pilot, "the branch's table", lambda: type(app.screen) is TableScreen)
            branch = app.session
            assert isinstance(branch, LocalSession) and branch.path is not None
            assert branch.path.parent == saves_dir()  # the user's saves, as any branch
            loaded = read_game(branch.path)
            assert loaded.events[1:] == table_events[1:3]  # the table's game up to the moment
            created = loaded.created
            assert (created.parent, created.parent_seq) == (str(table_file.resolve()), 2)
            assert msgspec.structs.replace(created, parent=None, parent_seq=None) == table_events[0]
            assert table_file.read_bytes() == before  # the table never heard of it
            await until(pilot, "Ana's seat to be away", lambda: _away(bob, 0))
            assert branch.human_to_move() == 1  # the app plays the branch: Bob's turn, here
            await press(pilot, "6", "d", "enter")
            await until(pilot, "Bob's move in the branch", lambda: read_game(branch.path).file_lines >= 4)
            placed = read_game(branch.path).events[3]
            assert isinstance(placed, CardPlaced) and (placed.player, placed.card, placed.column) == (1, 6, 3)
            assert table_file.read_bytes() == before
            await press(pilot, "q")
        assert app.return_value == Played(branch.path, over=False, branched_from=str(table_file.resolve()))
    finally:
        bob.close()
        ana.close()


async def test_a_spectator_plays_from_here_without_being_asked(
    in_process: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator has no seat to leave: ``b`` makes the branch at once, and may take the bot's seat."""
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    ana, bob = await _sit_after_a_round_of_turns(in_process, "w")
    watcher = await RemoteSession.open(in_process.place, "w", watch=True)
    table_file = in_process.games / "w.dvr"
    before = table_file.read_bytes()
    app = DvtuiApp(watcher, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await press(pilot, "t", "left")  # moment 3: Bob's placement; the bot is to play
            await press(pilot, "b")
            assert isinstance(app.screen, BranchScreen)
            await press(pilot, "home", "down", "enter")  # the bot's seat, played here too
            await until(pilot, "the branch's table", lambda: type(app.screen) is TableScreen)
            branch = app.session
            assert isinstance(branch, LocalSession) and branch.path is not None
            loaded = read_game(branch.path)
            assert loaded.events[1:] == read_game(table_file).events[1:4]
            assert [p.kind for p in loaded.created.players] == ["human", "human", "human"]
            assert branch.human_to_move() == 2 and table_file.read_bytes() == before
            await press(pilot, "q")
    finally:
        for session in (ana, bob, watcher):
            session.close()


@contextlib.contextmanager
def _still_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A loop to open a snapshot's sessions on (the snapshot runs the app on a loop of its own):
    it stands still while the app runs, so the screen is drawn from what the sessions were told."""
    loop = asyncio.new_event_loop()
    try:
        yield loop
    finally:
        loop.run_until_complete(asyncio.sleep(0.05))  # the sessions' goodbyes go
        loop.close()


def _plain(renderable: object) -> str:
    console = Console(width=120, record=True, file=io.StringIO())  # recorded, written nowhere
    console.print(renderable)
    return console.export_text()


async def test_the_help_at_a_shared_table_lists_every_key_it_binds(in_process: Server) -> None:
    """The shared table's bindings and its help are read from one key map: every key bound
    there (``a``, a bot for an away seat, among them) has its row in the help ``?`` opens."""
    await open_table(in_process.place, "k", ["Ana", "Bob", "bot:greedy"], first_player=2, seed=5, wait=False)
    await _first_bot_move(in_process, "k")
    ana = await RemoteSession.open(in_process.place, "k", seat=0)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    told_in = {SKIP: NEXT, SLOWER: FASTER}  # further keys of a row: "⏎ / space / s", "+ / -"
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.screen
            await until(pilot, "Bob to be away", lambda: table.check_action("stand_in", ()) is True)
            textual = {(b.key, b.action) for bs in BindingsMap(Screen.BINDINGS).key_to_bindings.values() for b in bs}
            bound = [b for bs in table._bindings.key_to_bindings.values() for b in bs  # all, not one a key
                     if (b.key, b.action) not in textual]  # fmt: skip
            commands = {
                (key, action): c for c in SHARED_TABLE.commands for keys, action in c.keys for key in keys.split(",")
            }  # fmt: skip
            in_map = [commands.get((b.key, b.action)) for b in bound]
            assert None not in in_map, [b for b, c in zip(bound, in_map, strict=True) if c is None]
            assert STAND_IN in in_map
            await press(pilot, "question_mark")
            shown = app.screen
            assert isinstance(shown, HelpScreen)
            help_text = " ".join(_plain(shown.query_one("#help-text", Static).content).split())
            for command in {c for c in in_map if c is not None}:
                row = (command if command.help is not None else told_in[command]).help
                assert row is not None and " ".join(row[1].split()) in help_text, command
            assert "a bot plays every away or free seat until its player joins" in help_text
    finally:
        ana.close()


def test_snapshot_a_seat_at_a_shared_table_with_who_is_there(snap_compare, in_process: Server) -> None:  # type: ignore[no-untyped-def]
    """Ana's turn at 80x24: the header says so and names the table, the banner who is there."""
    asyncio.run(open_table(in_process.place, "t", ["Ana", "Bob", "bot:greedy"], first_player=2, seed=5, wait=False))
    watch_until(in_process.place, "t", 2)  # the server's bot moves first
    with _still_loop() as loop:
        # Bob is the person this account vouches for (web:Bob): the snapshot is the same whoever runs it
        bob = loop.run_until_complete(RemoteSession.open(in_process.place, "t", seat=1, user="Bob"))
        ana = loop.run_until_complete(RemoteSession.open(in_process.place, "t", seat=0))
        try:
            assert snap_compare(
                DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None))), terminal_size=(80, 24)
            )
        finally:
            bob.close()
            ana.close()


def _footer_actions(screen: Screen[object]) -> list[str]:
    """The actions the footer offers now (what a person sees at the bottom of the screen)."""
    return [key.action for key in screen.query(FooterKey)]


async def _ana_then_bobs_turn(server: Server, table: str) -> RemoteSession:
    """Table ``table``: Ana, Bob and a bot (first); the bot's and Ana's placements are made, so Bob
    is to play. Ana's session (Bob has never sat down)."""
    await open_table(server.place, table, ["Ana", "Bob", "bot:greedy"], first_player=2, seed=5, wait=False)
    await _first_bot_move(server, table)
    ana = await RemoteSession.open(server.place, table, seat=0)
    await _decide(ana, 5, 0)
    return ana


async def test_the_footer_offers_a_stand_in_as_soon_as_a_seat_is_away_and_no_longer_once_it_is_back(
    in_process: Server,
) -> None:
    """``a`` follows who is there, not only the moves: Bob leaving on his turn puts it in Ana's
    footer at once, Bob coming back takes it away, with no move in between."""
    ana = await _ana_then_bobs_turn(in_process, "f")
    bob = await RemoteSession.open(in_process.place, "f", seat=1)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            banner = screen.query_one(Banner)
            # the footer is drawn again on the refresh after the banner: each is waited for in turn
            await until(pilot, "Bob to be here", lambda: f"Bob ({ME}) (here)" in text(banner))
            await until(pilot, "no stand-in offered", lambda: "stand_in" not in _footer_actions(screen))
            bob.close()
            await until(pilot, "Bob to be away", lambda: f"Bob ({ME}) (away)" in text(banner))
            await until(pilot, "a stand-in offered", lambda: "stand_in" in _footer_actions(screen))
            bob = await RemoteSession.open(in_process.place, "f", seat=1)
            await until(pilot, "Bob to be back", lambda: f"Bob ({ME}) (here)" in text(banner))
            await until(pilot, "no stand-in offered", lambda: "stand_in" not in _footer_actions(screen))
            assert _lines(in_process, "f") == 3  # not a move in between: presence alone
    finally:
        bob.close()
        ana.close()


async def test_a_seat_taken_over_elsewhere_says_so_and_offers_no_play_keys(in_process: Server) -> None:
    """Ana's seat taken by another terminal of hers on her turn: this one says it left the table
    and why, offers no key that plays, and says how to take the seat back."""
    await open_table(in_process.place, "o", ["Ana", "Bob", "bot:greedy"], first_player=2, seed=5, wait=False)
    await _first_bot_move(in_process, "o")
    ana = await RemoteSession.open(in_process.place, "o", seat=0)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    other: RemoteSession | None = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            bar = screen.query_one(RoundBar)
            await until(pilot, "Ana's turn", lambda: "Your turn, Ana" in text(bar))
            await pilot.pause()
            assert "place" in _footer_actions(screen)
            other = await RemoteSession.open(in_process.place, "o", seat=0)
            await until(pilot, "the seat to be taken over", lambda: ana.failure is not None)
            await until(pilot, "the header to say so", lambda: "Left the table: taken over elsewhere" in text(bar))
            await pilot.pause()
            assert "Your turn" not in text(bar)
            plays = {"pick", "step", "column", "place", "undo", "hint", "stand_in"}
            assert not plays & {action.partition("(")[0] for action in _footer_actions(screen)}
            assert not any(screen.check_action(action, ()) for action in plays)
            assert "quit" in _footer_actions(screen)
            hand = text(screen.query_one(HandBar))
            assert "back here: dvtui join o --as Ana" in hand
            await press(pilot, "5", "a", "enter")
            await pilot.pause()
            assert _lines(in_process, "o") == 2  # nothing was sent, nor tried
    finally:
        if other is not None:
            other.close()
        ana.close()


async def test_a_seat_never_taken_is_free_and_its_line_fits_beside_the_hand_at_80_columns(in_process: Server) -> None:
    """Bob has never sat down: the header, the banner and the hand line all say "free" (never
    "away"), and what the hand line says fits on its one line at 80x24, words whole."""
    ana = await _ana_then_bobs_turn(in_process, "n")
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            await until(pilot, "Bob's turn", lambda: "Bob to play" in text(screen.query_one(RoundBar)))
            await pilot.pause()
            header, banner = text(screen.query_one(RoundBar)), text(screen.query_one(Banner))
            hand_bar = screen.query_one(HandBar)
            hand = text(hand_bar)
            assert "Bob to play (free seat · key a: a bot stands in)" in header
            assert "Bob (free)" in banner
            lines = [line.rstrip() for line in hand.splitlines()]
            assert any(line.endswith("   free seat · key a: a bot stands in") for line in lines), lines  # one line
            assert "…" not in hand and hand_bar.size.width == 78
            assert "away" not in header + banner + hand
            assert "stand_in" in _footer_actions(screen)
    finally:
        ana.close()


async def test_a_bot_client_is_shown_as_a_bot_not_a_person(in_process: Server) -> None:
    """A client whose hello says it is a bot (``dvtui join --bot``) sits at Bob's seat: Ana's
    banner and ``dvtui tables`` show a bot client there, not a person."""
    ana = await _ana_then_bobs_turn(in_process, "c")
    bot = TableClient(in_process.place, "c", seat=1, bot="greedy")
    await bot.connect()
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            banner = screen.query_one(Banner)
            await until(pilot, "the bot client at Bob's seat", lambda: f"Bob ({ME}) (bot greedy, here)" in text(banner))
            assert "Bob to play (bot greedy thinking…)" in text(screen.query_one(RoundBar))
            # the footer is drawn again on the next refresh after the banner
            await until(pilot, "no stand-in offered", lambda: "stand_in" not in _footer_actions(screen))
        infos = await list_tables(in_process.place)
        line = table_line(next(info for info in infos if info.table == "c"))
        assert "Bob: connected (" in line and ", bot greedy;" in line
    finally:
        await bot.close()
        ana.close()


async def test_the_end_of_a_shared_tables_game_offers_the_tables_rematch_and_no_new_game(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table server keeps a shared table's game: its end screen offers what works there (the
    table, help, quit, the table's rematch: tests/tables/test_rematch.py, the analysis of its game)
    and says where the game is, never a new game of this machine; and back at the table, a seat
    left away once the game is over is no reason to offer a stand-in."""
    monkeypatch.setattr("dvtui.app.screens.replay.BUDGET", 20)  # a quick analysis
    players = ["Ana", "Bob", "bot:greedy"]
    await open_table(in_process.place, "e", players, seed=3, wait=False)
    bob = TableClient(in_process.place, "e", seat=1, bot="greedy")
    await bob.connect()
    bob_plays = asyncio.create_task(play_seat(bob, parse_bot("greedy")))  # and leaves once it is over
    ana = await RemoteSession.open(in_process.place, "e", seat=0)

    async with asyncio.timeout(WAIT):
        while not ana.game.over:  # (her session and Bob's client read on this loop)
            if ana.human_to_move() is None or ana.deciding:
                await asyncio.sleep(0.01)  # the others' answers, or her own, are on their way
                continue
            ana.place(choose("greedy", ana.game.copy(), 1))
    await bob_plays
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, "the results", lambda: isinstance(app.screen, EndScreen))
            end = app.screen
            await pilot.pause()
            offered = _footer_actions(end)
            assert "new_game" not in offered and "decline" not in offered  # (no rematch proposed yet)
            assert {"back", "help", "quit", "rematch", "analyse"} <= set(offered)
            note = text(end.query_one("#end-note", Static))
            assert note == "The table server keeps this game · t: the table (t again: time travel)"
            await press(pilot, "a")  # the analysis, as at a game of this machine (kept nowhere: no file here)
            await until(pilot, "the analysis", lambda: isinstance(app.screen, AnalysisScreen))
            viewer = app.screen_stack[-2]
            assert isinstance(viewer, ReplayScreen) and viewer.analysis is not None and viewer.game_file is None
            assert list(viewer.replay.events) == list(ana.events)
            await press(pilot, "escape", "escape")  # the analysis, then the viewer: back to the results
            await until(pilot, "the results again", lambda: app.screen is end)
            await press(pilot, "n")
            await pilot.pause()
            assert app.screen is end and not app._notifications  # not even a toast
            await press(pilot, "t")
            table = app.screen
            assert isinstance(table, TableScreen)
            await until(pilot, "Bob to be away", lambda: _away(ana, 1))
            await pilot.pause()
            assert table.check_action("stand_in", ()) is False and "stand_in" not in _footer_actions(table)
    finally:
        ana.close()


def test_snapshot_the_turn_of_a_seat_nobody_has_taken(snap_compare, in_process: Server) -> None:  # type: ignore[no-untyped-def]
    """Bob's turn at 80x24, Bob never came: "free" in the header, the banner and beside the hand
    (one line there, words whole), and ``a`` in the footer."""
    with _still_loop() as loop:
        ana = loop.run_until_complete(_ana_then_bobs_turn(in_process, "t"))
        try:
            assert snap_compare(
                DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None))), terminal_size=(80, 24)
            )
        finally:
            ana.close()


# -- ending a table, resigning a seat -------------------------------------------------------------


def _palette(screen: Screen[object]) -> list[str]:
    """The titles the command palette offers on ``screen`` now (only what it allows)."""
    return [title for title, _help, _run in screen.palette_commands()]  # type: ignore[attr-defined]


async def test_the_opener_ends_the_table_from_its_screen_once_asked_and_a_player_may_not(in_process: Server) -> None:
    """``x`` is the opener's alone (a player's palette has no such entry); it asks first: ``n``
    leaves the table as it is, ``y`` ends it for everyone (its game kept, unfinished) and the key goes."""
    place = in_process.place
    await open_table(place, "x", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, user="ana", wait=False)
    bob = await RemoteSession.open(place, "x", seat=1, user="bob")
    ana = await RemoteSession.open(place, "x", seat=0, user="ana")
    assert ana.abilities.close and not bob.abilities.close
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            await until(pilot, "end table offered", lambda: "End the table" in _palette(screen))
            await _decide(ana, 1, 0)  # a person's decision: the game is worth keeping
            await press(pilot, "x")
            await until(pilot, "the question", lambda: isinstance(app.screen, Confirm))
            await press(pilot, "n")
            await until(pilot, "back at the table", lambda: app.screen is screen)
            assert [info.table for info in await list_tables(place)] == ["x"]
            await press(pilot, "x")
            await until(pilot, "the question", lambda: isinstance(app.screen, Confirm))
            await press(pilot, "y")
            await until(pilot, "the table to stop", lambda: ana.presence().stopped is not None)
            await until(pilot, "no end table offered", lambda: "End the table" not in _palette(screen))
            assert await list_tables(place) == []
            kept = list(in_process.games.glob("x.*.dvr"))
            assert len(kept) == 1 and not read_game(kept[0]).game.over
            await until(pilot, "Bob to hear it", lambda: bob.presence().stopped is not None)
            assert "closed table x" in (bob.presence().stopped or "")
    finally:
        bob.close()
        ana.close()


async def test_a_player_resigns_from_the_screen_once_asked_and_a_bot_plays_the_seat(in_process: Server) -> None:
    """``r`` asks first; ``y`` gives the seat up: a bot plays it to the end (its placements marked
    as a stand-in's), this screen goes on watching (no key plays, nor resigns again)."""
    place = in_process.place
    await open_table(place, "r", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, wait=False)
    bob = await RemoteSession.open(place, "r", seat=1, user="bob")
    ana = await RemoteSession.open(place, "r", seat=0, user="ana")
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await until(pilot, "resign offered", lambda: "Resign" in _palette(screen))
            assert "End the table" not in _palette(screen) and not screen.check_action("close_table", ())  # not hers
            await press(pilot, "r")
            await until(pilot, "the question", lambda: isinstance(app.screen, Confirm))
            await press(pilot, "escape")
            await until(pilot, "back at the table", lambda: app.screen is screen)
            assert ana.presence() is not None and ana.abilities.resign
            await press(pilot, "r")
            await until(pilot, "the question", lambda: isinstance(app.screen, Confirm))
            await press(pilot, "y")
            await until(pilot, "Ana to watch", lambda: ana.abilities.resign is False)
            await until(pilot, "no resign offered", lambda: "Resign" not in _palette(screen))
            banner = screen.query_one(Banner)
            await until(pilot, "resigned", lambda: "Ana (resigned, strong bot playing on)" in text(banner))
            await until(pilot, "the bot's placement for Ana", lambda: _lines(in_process, "r") >= 2)
            placed = [e for e in read_game(in_process.games / "r.dvr").events if isinstance(e, CardPlaced)]
            assert placed[0].player == 0 and placed[0].stand_in is not None
            assert screen.flow.placer() is None and ana.human_to_move() is None
    finally:
        bob.close()
        ana.close()


def test_snapshot_the_question_before_resigning(snap_compare, in_process: Server) -> None:  # type: ignore[no-untyped-def]
    """The dialog ``r`` opens at 80x24: what resigning does, and the keys."""
    asyncio.run(open_table(in_process.place, "t", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, wait=False))
    with _still_loop() as loop:
        ana = loop.run_until_complete(RemoteSession.open(in_process.place, "t", seat=0))
        try:
            app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
            assert snap_compare(app, terminal_size=(80, 24), press=["r"])
        finally:
            ana.close()


async def test_a_closed_table_says_so_for_good_and_offers_no_play_keys(in_process: Server) -> None:
    """The opener ends the table on Bob's turn: Bob's header says the table stopped and who ended
    it (no "your turn" any more), the log keeps that line once the toast is gone, the banner no
    longer lists people as there, the hand's line says no move is taken, and no key plays."""
    place = in_process.place
    await open_table(place, "c", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, user="ana", wait=False)
    ana = await RemoteSession.open(place, "c", seat=0, user="ana")
    bob = await RemoteSession.open(place, "c", seat=1, user="bob")
    app = DvtuiApp(bob, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            bar, banner = screen.query_one(RoundBar), screen.query_one(Banner)
            ana.place(choose("greedy", ana.game.copy(), 1))  # (a game somebody decided in is kept when closed)
            await until(pilot, "Bob's turn", lambda: "Your turn, Bob" in text(bar))
            await until(pilot, "Ana here", lambda: "Ana (here)" in text(banner))
            ana.close_table()
            await until(pilot, "the table to stop", lambda: bob.presence().stopped is not None)
            await until(pilot, "the header to say so", lambda: "Table stopped: web:ana closed table c" in text(bar))
            app.clear_notifications()  # the toast is gone: the screen still says it
            await pilot.pause()
            assert "Your turn" not in text(bar)
            assert "Nobody plays on at table c" in text(banner) and "(here)" not in text(banner)
            assert "no more moves · q leaves" in text(screen.query_one(HandBar))
            log = [line.plain for line in screen.query_one(EventLog).entries]
            assert "The table has stopped: web:ana closed table c; its game is kept, unfinished" in log
            plays = {"pick", "step", "column", "place", "undo", "hint", "stand_in", "chat", "close_table", "resign"}
            assert not plays & {action.partition("(")[0] for action in _footer_actions(screen)}
            assert not any(screen.check_action(action, ()) for action in plays)
            assert "quit" in _footer_actions(screen)
            await press(pilot, "5", "a", "enter", "u")
            await pilot.pause()
            assert bob.human_to_move() is None and not bob.deciding  # nothing was sent, nor tried
    finally:
        bob.close()
        ana.close()


async def test_a_turn_that_comes_while_the_round_summary_is_read_is_called_at_once(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob starts round 1, so Ana starts round 2: the table asks for her move as soon as round 1
    is resolved, while her screen still shows its resolution. Her turn is called then, not once
    she has read the summary: the bell rings, the browser tab's title is told, and the header
    says it is her turn (with the round she plays in)."""
    told: list[dict[str, object]] = []
    monkeypatch.setattr("dvtui.app.screens.shared_table.tell_page", lambda app, message: told.append(message) or True)
    place = in_process.place
    await open_table(place, "rt", ["Bob", "Ana", "bot:greedy"], first_player=0, seed=5, wait=False)
    bob = TableClient(place, "rt", seat=0, bot="greedy")
    await bob.connect()
    bob_plays = asyncio.create_task(play_seat(bob, parse_bot("greedy")))
    ana = await RemoteSession.open(place, "rt", seat=1)
    app = DvtuiApp(
        ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None), in_browser=True)
    )  # each step waits for a key
    bells = Bells(app)
    placed = 0
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            async with asyncio.timeout(WAIT):
                while ana.game.round == 1:  # Ana plays round 1 (as her keys would), the others answer
                    # once her turn is called, as a person answers the bell: placed sooner, before the
                    # screen took the news of her turn in, it would be gone before it could be called
                    if ana.human_to_move() == 1 and not ana.deciding and bells.count > placed:
                        ana.place(choose("greedy", ana.game.copy(), 1))
                        placed += 1
                    await pilot.pause(0.01)
            await until(pilot, "round 1's resolution on screen", lambda: screen.flow.resolution is not None)
            await press(pilot, "s")  # to the summary, which waits to be read
            await pilot.pause()
            resolution = screen.flow.resolution
            assert resolution is not None and resolution.at_summary  # still reading round 1's summary
            assert ana.human_to_move() == 1 and ana.game.round == 2
            bar = text(screen.query_one(RoundBar))
            assert "▶ Your turn, Ana" in bar and "Round 2 of 6" in bar
            assert bells.count == placed + 1  # each of her turns in round 1, and round 2's at once
            assert told[-1] == {"type": PAGE_TURN, "turn": True}
            await press(pilot, "enter")  # the summary read: her turn, already called, is not called again
            await until(pilot, "the table again", lambda: screen.flow.resolution is None)
            assert screen.flow.placer() == 1 and bells.count == placed + 1
    finally:
        bob_plays.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await bob_plays
        ana.close()


async def test_a_table_closed_while_the_round_summary_is_read_says_so_over_it(in_process: Server) -> None:
    """The table is closed while Ana reads round 1's summary: the header over the summary says the
    table stopped, and who closed it, as it does over the table."""
    place = in_process.place
    await open_table(place, "cs", ["Bob", "Ana", "bot:greedy"], first_player=0, seed=5, user="ana", wait=False)
    bob = await RemoteSession.open(place, "cs", seat=0, user="bob")
    ana = await RemoteSession.open(place, "cs", seat=1, user="ana")
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))  # each step waits for a key
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            async with asyncio.timeout(WAIT):
                while ana.game.round == 1:  # both play round 1 (as their keys would)
                    for session in (ana, bob):
                        if session.human_to_move() is not None and not session.deciding:
                            session.place(choose("greedy", session.game.copy(), 1))
                    await pilot.pause(0.01)
            await until(pilot, "round 1's resolution on screen", lambda: screen.flow.resolution is not None)
            await press(pilot, "s")  # to the summary, which waits to be read
            ana.close_table()
            bar = screen.query_one(RoundBar)
            await until(pilot, "the header to say so", lambda: "Table stopped: web:ana closed table cs" in text(bar))
            resolution = screen.flow.resolution
            assert resolution is not None and resolution.at_summary  # still over the summary
            assert "Your turn" not in text(bar)
    finally:
        bob.close()
        ana.close()
