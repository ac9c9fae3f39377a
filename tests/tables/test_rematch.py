"""A rematch at the same table, over a real ``dvtui serve``: Ana at a terminal (Pilot) and Bob's
session propose and accept it on the end screen, both follow into the next game with the next
first player, and the finished game stays fetchable and verifies. A client of the protocol's first
vocabulary (a hello naming no feature) at a table that chats, closes and deals a rematch is sent
nothing outside that vocabulary, and its reconnection follows into the new game.
The rule itself: tests/tables/test_rematch_rules.py."""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import notifications
from dvtui.app.widgets.panels import RoundBar
from dvtui.bots import choose
from dvtui.cli.play import run_table
from dvtui.engine import CardPlaced
from dvtui.plain.console import Console
from dvtui.plain.table import PlainTable
from dvtui.play.face import News, Redealt, Spoken
from dvtui.server.main import Server
from dvtui.store import read_game
from dvtui.tables import RemoteSession, ServerPlace, open_table, table_info

from ..support.pilot import WAIT, text, until
from ..support.processes import dvtui
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import Threaded, play_out


async def _to_the_last_round(pause: Callable[[], Awaitable[object]], *sessions: RemoteSession) -> None:
    """Play every seat of ``sessions`` (greedy, as their keys would) until the game's last round,
    ``pause()`` between looks: a resignation there leaves the server's stand-in a round to play,
    not a whole game (which it plays at a bot's pace)."""
    async with asyncio.timeout(WAIT):
        while (game := sessions[0].game).round < game.rounds:
            for session in sessions:
                if session.human_to_move() is not None and not session.deciding:
                    session.place(choose("greedy", session.game.copy(), 1))
            await pause()


async def test_a_rematch_with_two_terminals_deals_the_next_game_at_the_same_table(
    threaded: Threaded, tmp_path: Path
) -> None:
    served = threaded
    place = served.place
    await open_table(place, "rm", ["Ana", "Bob", "bot:greedy"], seed=3, first_player=0)
    ana = await RemoteSession.open(place, "rm", seat=0)
    bob = await RemoteSession.open(place, "rm", seat=1)
    told: list[News] = []
    bob.attach(told.append)
    await play_out(ana, bob)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, "the results", lambda: isinstance(app.screen, EndScreen))
            end = app.screen
            assert isinstance(end, EndScreen) and end.check_action("rematch", ())
            assert not end.check_action("new_game", ())
            offer = end.query_one("#end-rematch", Static)
            assert "r: propose a rematch" in text(offer)
            await pilot.press("t")  # back at the table, Bob proposes: a toast says so
            await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen))
            bob.rematch(True)
            proposed = "Bob proposes a rematch at this table (e: the results, where r accepts)."
            await until(pilot, "the toast", lambda: proposed in [n.message for n in notifications(app)])
            await pilot.press("e")
            await until(pilot, "the results", lambda: isinstance(app.screen, EndScreen))
            end = app.screen
            assert isinstance(end, EndScreen)
            offer = end.query_one("#end-rematch", Static)
            assert "Rematch proposed by Bob · accepted: Bob · awaited: you" in text(offer)
            assert end.check_action("decline", ())
            await pilot.press("d")  # Ana turns it down: the proposal is gone, for Bob too
            await until(pilot, "Bob to hear of it", lambda: bob.presence().rematch is None)
            await until(pilot, "the offer again", lambda: "r: propose a rematch" in text(offer))
            await pilot.press("r")  # Ana proposes
            await until(pilot, "Bob to hear of it", lambda: bob.presence().rematch is not None)
            vote = bob.presence().rematch
            assert vote is not None and (vote.by, list(vote.accepted), list(vote.awaited)) == (0, [0], [1])
            await until(pilot, "the proposal on Ana's end screen", lambda: "awaited: Bob" in text(offer))
            assert "Rematch proposed by you · accepted: you · awaited: Bob" in text(offer)
            bob.rematch(True)
            await until(pilot, "Ana's table to play the next game", lambda: isinstance(app.screen, TableScreen)
                        and app.screen.session.game.created.seed == 4)  # fmt: skip
            screen = app.screen
            assert isinstance(screen, TableScreen)
            created = screen.session.game.created
            assert created.first_player == 1 and [p.name for p in created.players] == ["Ana", "Bob", "Bot 1"]
            await until(pilot, "Bob's session to follow", lambda: any(isinstance(n, Redealt) for n in told))
            bob_next = next(n.session for n in told if isinstance(n, Redealt))
            assert bob_next.game.created == created and bob_next.human_to_move() == 1
            await until(pilot, "Bob to play first", lambda: "Bob to play" in text(screen.query_one(RoundBar)))
            bob_next.place(choose("greedy", bob_next.game.copy(), 1))
            await until(pilot, "Bob's first move on Ana's screen", lambda: len(screen.session.events) >= 2)
            info = await table_info(place, "rm")
            assert info is not None and info.game == 2 and not info.over
            listed = await asyncio.to_thread(dvtui, "tables", "--server", served.directory)
            assert "; game 2 (dvtui fetch rm --game N: an earlier one)" in listed.stdout, listed.stderr
            kept = sorted((served.directory / "games").glob("rm.*.dvr"))
            assert len(kept) == 1  # the finished game, put aside as NAME.<time>.dvr
            old = tmp_path / "game1.dvr"
            fetched = await asyncio.to_thread(dvtui, "fetch", "--server", served.directory, "rm", "--game", "1",
                                              "-o", old)  # fmt: skip
            assert fetched.returncode == 0, fetched.stderr
            assert fetched.stdout == f"table rm: its game 1 (over) is saved in {old}\n"
            assert old.read_bytes() == kept[0].read_bytes()
            verified = await asyncio.to_thread(dvtui, "verify", old)
            assert verified.returncode == 0, verified.stdout + verified.stderr
            heard: list[News] = []
            bob_next.attach(heard.append)
            bob_next.say("gg")  # a table's chat comes to a fetch after the lines: never in the game
            await until(pilot, "the line said", lambda: any(isinstance(n, Spoken) for n in heard))
            current = await asyncio.to_thread(dvtui, "fetch", "--server", served.directory, "rm", "-o",
                                              tmp_path / "now.dvr")  # fmt: skip
            assert current.returncode == 0 and "round 1 of" in current.stdout, current.stderr
            missing = await asyncio.to_thread(dvtui, "fetch", "--server", served.directory, "rm", "--game", "3",
                                              "-o", tmp_path / "none.dvr")  # fmt: skip
            assert missing.returncode != 0 and "keeps games 1 to 2, not 3" in missing.stderr
    finally:
        if app.session is not None:
            app.session.close()  # (the next game's session, once the table has adopted it)
        bob.close()
    assert await asyncio.to_thread(served.stop) == 0
    await asyncio.to_thread(served.start)  # the table's history is in its record: a restart keeps it
    again = tmp_path / "again.dvr"
    fetched = await asyncio.to_thread(dvtui, "fetch", "--server", served.directory, "rm", "--game", "1", "-o", again)
    assert fetched.returncode == 0 and again.read_bytes() == old.read_bytes(), fetched.stderr


FIRST_TYPES = {"welcome", "tables", "opened", "joined", "released", "presence", "error", "bye"}
GAME_LINES = {"game_created", "card_placed", "placement_undone", "column_resolved", "round_ended", "game_ended"}
FIRST_CODES = {
    "bad_message", "too_long", "flood", "version", "no_table", "table_exists", "bad_setup", "seat_taken", "no_seat",
    "not_seated", "stale", "illegal", "nothing_to_undo", "undo_limit", "not_away", "game_over", "log_full", "server",
    "taken_over", "not_trusted", "not_opener", "shutdown", "busy", "timeout",
}  # fmt: skip
FIRST_KEYS = {
    "welcome": {"type", "version", "server", "user"},
    "joined": {"type", "table", "next_seq", "seat", "hints"},
    "presence": {"type", "table", "seats", "spectators"},
    "error": {"type", "code", "message", "seq", "re"},
    "bye": {"type", "reason"},
}
FIRST_INFO_KEYS = {"table", "seats", "round", "rounds", "to_move", "over", "spectators", "hints"}
"""The protocol's first vocabulary (as the client before the waiting room, clocks, chat, closing
and rematches decoded it: an error code outside its list stopped it)."""


def _first_vocabulary(messages: list[dict[str, Any]]) -> None:
    for message in messages:
        kind = message["type"]
        assert kind in FIRST_TYPES | GAME_LINES, message
        if kind in FIRST_KEYS:
            assert set(message) <= FIRST_KEYS[kind], message
        if kind == "error":
            assert message["code"] in FIRST_CODES, message
        for info in message.get("tables", []) if kind == "tables" else []:
            assert set(info) <= FIRST_INFO_KEYS, info


def _until_closed(client: RawClient) -> list[dict[str, Any]]:
    """Every message up to the server's closing the connection."""
    got = []
    while (message := client.receive()) is not None:
        got.append(message)
    return got


def _until(client: RawClient, kind: str, got: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        message = client.receive()
        assert message is not None, got
        got.append(message)
        if message["type"] == kind:
            return message


async def test_a_client_of_the_first_vocabulary_gets_nothing_newer_and_follows_a_rematch(in_process: Server) -> None:
    socket = str(in_process.place.socket)
    old = RawClient(socket)
    assert set(old.hello(features=None)) == {"type", "version", "server", "user"}
    await open_table(in_process.place, "v1", ["Ana", "bot:greedy", "bot:greedy"], seed=7, move_time=3600, wait=True)
    got: list[dict[str, Any]] = [ask(old, {"type": "list_tables"}, "tables")]
    assert {"waiting", "move_time", "game"} <= set(ask(speaking_for(socket, "new"), {"type": "list_tables"},
                                                       "tables")["tables"][0])  # fmt: skip
    old.send({"type": "watch", "table": "v1"})
    _until(old, "presence", got)
    ana = await RemoteSession.open(in_process.place, "v1", seat=0)
    ana.say("hello [b]there[/b]")  # a chat line: never to the old client
    await play_out(ana)
    ana.rematch(True)  # Ana is the only person at the table: the rematch is dealt at once
    got += await asyncio.to_thread(_until_closed, old)  # the old client is told bye and closed
    assert got[-1]["type"] == "bye" and "deals a new game" in got[-1]["reason"]
    assert any(m["type"] == "game_ended" for m in got)
    _first_vocabulary(got)
    again = speaking_for(socket, "old", features=None)  # its reconnection
    fresh: list[dict[str, Any]] = []
    again.send({"type": "watch", "table": "v1", "since": len([m for m in got if m["type"] in GAME_LINES])})
    joined = _until(again, "joined", fresh)
    assert joined["next_seq"] == 0  # from the new game's first line
    created = _until(again, "game_created", fresh)
    assert created["first_player"] == 1 and created["seed"] == 8
    _until(again, "presence", fresh)
    ana.close()

    # a table closed under it: the first vocabulary's "server" (the table takes no more decisions)
    closer = speaking_for(socket, "ana")
    assert ask(closer, {"type": "open_table", "table": "v2", "players": ["old", "bob", "bot:random"]}, "opened")
    again.send({"type": "join", "table": "v2", "seat": 0})
    _until(again, "presence", fresh)
    assert ask(closer, {"type": "say", "table": "v2", "text": "bye"}, "said")["type"] == "said"
    assert ask(closer, {"type": "close_table", "table": "v2"}, "closed")["type"] == "closed"
    stopped = _until(again, "error", fresh)
    assert stopped["code"] == "server" and "closed table v2" in stopped["message"]
    _first_vocabulary(fresh)


async def _eventually(check: Callable[[], bool]) -> None:
    """Wait (on this loop, where the sessions read) until ``check()``."""
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.01)


def _next(told: list[News]) -> RemoteSession | None:
    dealt = [news.session for news in told if isinstance(news, Redealt)]
    assert len(dealt) <= 1 and all(isinstance(session, RemoteSession) for session in dealt)
    return dealt[0] if dealt else None  # type: ignore[return-value]


async def test_once_the_one_awaited_leaves_the_rematch_is_dealt_and_a_spectator_follows(in_process: Server) -> None:
    place = in_process.place
    await open_table(place, "lv", ["Ana", "Bob", "bot:greedy"], seed=5, first_player=2)
    ana = await RemoteSession.open(place, "lv", seat=0)
    bob = await RemoteSession.open(place, "lv", seat=1)
    eve = await RemoteSession.open(place, "lv", watch=True)
    told_ana: list[News] = []
    told_eve: list[News] = []
    ana.attach(told_ana.append)
    eve.attach(told_eve.append)
    await play_out(ana, bob)
    assert not eve.abilities.table_rematch and ana.abilities.table_rematch
    ana.rematch(True)
    await _eventually(lambda: bob.presence().rematch is not None)
    assert _next(told_ana) is None  # Bob has not accepted
    bob.close()  # ... and leaves: Ana, the only person left, has accepted
    await _eventually(lambda: _next(told_ana) is not None and _next(told_eve) is not None)
    ana_next, eve_next = _next(told_ana), _next(told_eve)
    assert ana_next is not None and eve_next is not None
    created = ana_next.game.created
    assert created.first_player == 0 and created.seed == 6 and eve_next.game.created == created
    assert eve_next.seat is None and ana_next.seat == 0 and ana_next.presence().rematch is None
    ana.close()  # (handed over: the table is the next game's session's now)
    assert ana_next.status == "connected"
    ana_next.close()
    eve_next.close()


def test_leaving_during_the_rematch_says_the_game_being_played_not_the_last_ones_result(
    in_process: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``dvtui join``, the table's game over: Ana's terminal follows the rematch into game 2 and
    she leaves during it. What is printed then is about game 2 (she left a game going on, her seat
    stays hers), not game 1's result."""
    place = in_process.place

    async def first_game() -> None:
        await open_table(place, "fq", ["Ana", "Bob", "bot:greedy"], seed=3, first_player=0, wait=False)
        ana, bob = await RemoteSession.open(place, "fq", seat=0), await RemoteSession.open(place, "fq", seat=1)
        await play_out(ana, bob)
        ana.close()
        bob.close()

    asyncio.run(first_game())

    async def followed(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DvtuiApp)
        await until(pilot, "the results", lambda: isinstance(app.screen, EndScreen))
        bob = await RemoteSession.open(place, "fq", seat=1)
        try:
            bob.rematch(True)
            await until(pilot, "Bob's proposal", lambda: app.session is not None and app.session.presence() is not None
                        and app.session.presence().rematch is not None)  # type: ignore[union-attr]  # fmt: skip
            await pilot.press("r")
            await until(pilot, "game 2", lambda: type(app.screen) is TableScreen and not app.screen.session.game.over)
            await pilot.press("q")
        finally:
            bob.close()

    def run_app(build: Callable[[], DvtuiApp], _without: str = "", *, loop: asyncio.AbstractEventLoop) -> int:
        build().run(loop=loop, headless=True, size=(100, 30), auto_pilot=followed)
        return 0

    monkeypatch.setattr("dvtui.cli.play._run_app", run_app)
    monkeypatch.setattr("dvtui.cli.play.has_terminal", lambda: True)
    assert run_table(place, "fq", 0) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == "Left table fq (your seat stays yours); come back: dvtui join fq", said


@pytest.mark.long
async def test_who_resigned_and_watches_is_told_their_seat_is_theirs_again_in_the_rematch(in_process: Server) -> None:
    """Ana resigns in the last round and watches the bot play her seat out; Bob's rematch is dealt
    without asking her (she resigned). Her screen follows into the next game, where her seat is hers
    again: it says so, and the key that sits her there."""
    place = in_process.place
    await open_table(place, "rs", ["Ana", "Bob", "bot:greedy"], seed=3, first_player=0, wait=False)
    ana = await RemoteSession.open(place, "rs", seat=0)
    bob = await RemoteSession.open(place, "rs", seat=1)
    app = DvtuiApp(
        ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=0.01, hold_round_end=False))
    )  # resolutions go by
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_the_last_round(lambda: pilot.pause(0.01), ana, bob)
            await _ana_resigns_and_bob_ends(pilot, app, ana, bob)
            await _rematch_offered_to_ana(pilot, app, bob)
    finally:
        if app.session is not None:
            app.session.close()
        bob.close()
        ana.close()


async def _ana_resigns_and_bob_ends(
    pilot: Pilot[object], app: DvtuiApp, ana: RemoteSession, bob: RemoteSession
) -> None:
    """Ana (on ``app``'s screen) resigns and watches; Bob plays the game out; the results show."""
    ana.resign()
    await until(pilot, "Ana to watch", lambda: ana.seat is None)
    async with asyncio.timeout(WAIT):
        while not bob.game.over:
            if bob.human_to_move() is not None and not bob.deciding:
                bob.place(choose("greedy", bob.game.copy(), 1))
            await pilot.pause(0.01)
    await until(pilot, "the results", lambda: isinstance(app.screen, EndScreen))


async def _rematch_offered_to_ana(pilot: Pilot[object], app: DvtuiApp, bob: RemoteSession) -> None:
    """Bob's rematch is dealt and Ana, watching on ``app``'s screen, is offered her seat again."""
    bob.rematch(True)
    await until(pilot, "the next game", lambda: app.session is not None and not app.session.game.over)
    offer = "Ana's seat is yours again in this game: j takes it, here."
    await until(pilot, "the offer", lambda: offer in [n.message for n in notifications(app)])


async def _ana_and_bob(place: ServerPlace, table: str) -> tuple[RemoteSession, RemoteSession, list[RemoteSession]]:
    """Ana and Bob seated at a new table ``table`` (a greedy bot third, Ana first); Bob's sessions,
    his first and each the table deals him next, gathered in the list as they come."""
    await open_table(place, table, ["Ana", "Bob", "bot:greedy"], seed=3, first_player=0, wait=False)
    ana = await RemoteSession.open(place, table, seat=0)
    bob = await RemoteSession.open(place, table, seat=1)
    bobs: list[RemoteSession] = [bob]

    def follow(news: News) -> None:
        if isinstance(news, Redealt):
            assert isinstance(news.session, RemoteSession)
            bobs.append(news.session)
            news.session.attach(follow)

    bob.attach(follow)
    return ana, bob, bobs


@pytest.mark.long
async def test_who_resigned_takes_their_seat_again_in_the_rematch_with_j(in_process: Server) -> None:
    """Ana resigns, watches, and Bob's rematch is dealt: on her screen ``j`` takes her seat of the
    new game in place (no leaving, no ``dvtui join``), and her next placement is hers, made with
    her keys, not a stand-in's."""
    ana, bob, bobs = await _ana_and_bob(in_process.place, "sj")
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=0.01, hold_round_end=False)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await _to_the_last_round(lambda: pilot.pause(0.01), ana, bob)
            await _ana_resigns_and_bob_ends(pilot, app, ana, bob)
            under = next(s for s in app.screen_stack if isinstance(s, TableScreen))
            assert under.check_action("sit", ()) is False  # a game over has no seat to take
            await _rematch_offered_to_ana(pilot, app, bob)
            table = app.screen
            assert isinstance(table, TableScreen) and table.check_action("sit", ()) is True
            await pilot.press("j")
            session = app.session
            assert isinstance(session, RemoteSession)
            await until(pilot, "Ana seated again", lambda: session.seat == 0 and session.presence().seat == 0)
            assert table.check_action("sit", ()) is False
            async with asyncio.timeout(WAIT):
                while session.human_to_move() != 0:
                    mover = bobs[-1]
                    if mover.human_to_move() is not None and not mover.deciding:
                        mover.place(choose("greedy", mover.game.copy(), 1))
                    await pilot.pause(0.01)
            card = min(session.game.hands[0])
            await pilot.press(str(card), "a", "enter")

            def placed() -> list[CardPlaced]:
                return [e for e in read_game(in_process.games / "sj.dvr").events if isinstance(e, CardPlaced)]

            await until(pilot, "Ana's own placement", lambda: any(e.player == 0 for e in placed()))
            mine = next(e for e in placed() if e.player == 0)
            assert (mine.card, mine.column, mine.stand_in) == (card, 0, None)
    finally:
        if app.session is not None:
            app.session.close()
        for session in bobs:
            session.close()
        ana.close()


async def test_a_plain_spectator_takes_its_seat_of_the_rematch_with_sit(in_process: Server) -> None:
    """The plain mode's word for ``j``: Ana resigned, the rematch is dealt, and from ``dvtui watch
    --plain`` she types ``sit Ana``: her seat of the new game is hers again, played from these lines."""
    place = in_process.place
    ana, bob, bobs = await _ana_and_bob(place, "ps")
    await _to_the_last_round(lambda: asyncio.sleep(0.01), ana, bob)
    ana.resign()
    async with asyncio.timeout(WAIT):
        while ana.seat is not None:
            await asyncio.sleep(0.01)
        ana.close()
    await play_out(bob)
    bob.rematch(True)
    async with asyncio.timeout(WAIT):
        while len(bobs) < 2:
            await asyncio.sleep(0.01)
    watcher = await RemoteSession.open(place, "ps", watch=True)
    out = io.StringIO()
    reading, writing = os.pipe()
    plain = PlainTable(watcher, Console(out), bell=False)
    with os.fdopen(reading) as into:
        run = asyncio.create_task(plain.run(into))
        try:
            os.write(writing, b"sit\n")  # (no seat held here yet: it says so)
            os.write(writing, b"sit ana\n")
            async with asyncio.timeout(WAIT):
                while watcher.seat != 0 or watcher.presence().seat != 0:
                    await asyncio.sleep(0.01)
        finally:
            os.close(writing)
            await asyncio.wait_for(run, WAIT)
            watcher.close()
            for session in bobs:
                session.close()
    said = out.getvalue()
    assert "You have no seat here to take back now." in said and "Taking your seat, Ana, again." in said


async def test_a_seat_another_holds_is_refused_and_the_spectator_watches_on(in_process: Server) -> None:
    """``sit`` asks for a seat Bob plays from his terminal: the table refuses it, and the
    spectator goes on watching, told why, rather than losing the table."""
    place = in_process.place
    await open_table(place, "sr", ["Ana", "Bob", "bot:greedy"], seed=3, first_player=0, wait=False)
    bob = await RemoteSession.open(place, "sr", seat=1, user="Bob")  # web:Bob, a person of his own
    watcher = await RemoteSession.open(place, "sr", watch=True)
    told: list[News] = []
    watcher.attach(told.append)
    try:
        watcher.sit(1)
        async with asyncio.timeout(WAIT):
            while not any(getattr(news, "notice", None) for news in told):
                await asyncio.sleep(0.01)
            while watcher.status != "connected":
                await asyncio.sleep(0.01)
        assert watcher.seat is None and watcher.presence().seat is None
        assert watcher.client.watch and bob.seat == 1
        assert watcher.failure is None  # still at the table, watching
    finally:
        watcher.close()
        bob.close()
