"""The session face over a table (:class:`RemoteSession`) against a server in this process: a
decision returns at once and comes back as Decided news once the server's line for it came, a
decision the table does not take comes back as Refused news, the others' moves arrive by themselves
as news, undo keeps the table's rule, and two people at two sessions finish a game whose file is the
one they saw."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from dvtui.bots import choose
from dvtui.engine import CardPlaced, ColumnResolved, Event, NothingToUndo, Placement, PlacementUndone, RuleError, fold
from dvtui.play.face import Decided, GameSession, News, Refused, TableNews
from dvtui.rulewords import rule_words
from dvtui.server.main import Server
from dvtui.store import read_game
from dvtui.tables import open_table
from dvtui.tables.client import TableClient
from dvtui.tables.protocol import MAX_CHAT_CHARS
from dvtui.tables.remote import RemoteSession, TableStopped
from dvtui.tables.wire import Error

from ..support.servers import WAIT, wait_for, wait_until


async def _open(server: Server, players: str = "Ana,Bob,bot:greedy", table: str = "t") -> None:
    await open_table(server.place, table, players.split(","), first_player=0, seed=5, wait=False)


async def _seat(
    server: Server, seat: int | None, table: str = "t", *, watch: bool = False
) -> tuple[RemoteSession, list[News]]:
    """A session on this test's loop, and the news it tells, in order."""
    session = await RemoteSession.open(server.place, table, seat=seat, watch=watch)
    news: list[News] = []
    session.attach(news.append)
    return session, news


def _decided(news: list[News]) -> list[Decided]:
    return [n for n in news if isinstance(n, Decided)]


def _lines(server: Server, table: str = "t") -> int:
    return (server.games / f"{table}.dvr").read_bytes().count(b"\n")


async def _catch_up(session: RemoteSession, server: Server, table: str = "t") -> None:
    """Until the session has every line the server has written (each decision arrives by itself)."""
    await wait_until("the table's lines", lambda: len(session.events) >= _lines(server, table))


async def test_a_placement_returns_at_once_and_comes_back_with_the_others_moves(in_process: Server) -> None:
    await _open(in_process)
    ana, ana_news = await _seat(in_process, 0)
    bob, bob_news = await _seat(in_process, 1)
    try:
        face: GameSession = ana  # the screens' face (a type checker holds it to it)
        assert face.path is None
        assert (ana.seat, bob.seat, ana.human_to_move(), bob.human_to_move()) == (0, 1, 0, None)
        assert ana.bots == [None, None, None]  # the server's bot thinks on the server
        ana_news.clear()  # (who is there: Bob came)
        ana.place(Placement(6, 3))
        assert ana.deciding and ana_news == []  # handed in; its answer is news
        with pytest.raises(RuleError, match="on its way"):
            ana.place(Placement(5, 0))
        await wait_until("Ana's move to come back", lambda: bool(_decided(ana_news)))
        [move] = _decided(ana_news)
        placed = move.move.events[0]
        assert isinstance(placed, CardPlaced) and (placed.player, placed.card, placed.column) == (0, 6, 3)
        assert not ana.deciding and not any(isinstance(n, Refused) for n in ana_news)
        assert list(ana.events) == read_game(in_process.games / "t.dvr").events  # on disk before it came back
        await wait_until("Ana's move to reach Bob", lambda: bool(_decided(bob_news)))
        assert list(bob.events) == list(ana.events) and _decided(bob_news)[0].move.events == move.move.events
        assert bob.human_to_move() == 1
    finally:
        ana.close()
        bob.close()


async def test_a_placement_returns_while_the_server_is_still_saving_it(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server holds the decision's save: ``place`` has returned before the save ends, and the
    move comes back as Decided once it does."""
    from dvtui.store import GameWriter

    append = GameWriter.append
    saving, let_go, saved = threading.Event(), threading.Event(), threading.Event()

    def held(self: GameWriter, events: list[Event]) -> list[bytes]:
        saving.set()
        let_go.wait(WAIT)  # the server's io thread: this test's loop runs on meanwhile
        try:
            return append(self, events)
        finally:
            saved.set()

    await _open(in_process)
    ana, news = await _seat(in_process, 0)
    monkeypatch.setattr(GameWriter, "append", held)
    try:
        news.clear()
        ana.place(Placement(6, 3))
        assert not saved.is_set() and ana.deciding and news == []
        await wait_until("the server to be saving it", saving.is_set)
        assert not saved.is_set() and news == [] and ana.deciding
        let_go.set()
        await wait_until("the move to come back", lambda: bool(_decided(news)))
        assert saved.is_set() and not ana.deciding
        placed = _decided(news)[0].move.events[0]
        assert isinstance(placed, CardPlaced) and (placed.player, placed.card, placed.column) == (0, 6, 3)
    finally:
        let_go.set()
        ana.close()


async def test_a_rule_this_side_knows_is_a_rule_error_and_a_stale_decision_is_refused(in_process: Server) -> None:
    await _open(in_process)
    ana, ana_news = await _seat(in_process, 0)
    bob, bob_news = await _seat(in_process, 1)
    try:
        expected = ""
        try:
            ana.game.copy().place(Placement(5, 0), player=1)
        except RuleError as e:
            expected = rule_words(e)
        with pytest.raises(RuleError) as refused:
            bob.place(Placement(5, 0))  # Ana's turn
        assert rule_words(refused.value) == expected and expected and "not player 1" in expected
        ana.place(Placement(6, 3))
        await wait_until("Ana's move to reach Bob", lambda: bob.human_to_move() == 1)
        await ana.client.undo()  # written without yielding: Bob's session reads nothing meanwhile
        wait_for("the undo on disk", lambda: _lines(in_process) == 3)  # (the loop is held: Bob has not heard)
        bob.place(Placement(5, 0))  # decided on the position before Ana's undo
        await wait_until("Bob's answer", lambda: any(isinstance(n, Refused) for n in bob_news))
        [stale] = [n for n in bob_news if isinstance(n, Refused)]
        assert "another move came first" in stale.reason and not stale.save_failed
        assert isinstance(_decided(bob_news)[-1].move.events[0], PlacementUndone)
        assert not bob.deciding and bob.human_to_move() is None
        ana_news.clear()
        ana.place(Placement(6, 3))
        await wait_until("Ana's move to reach Bob", lambda: bob.human_to_move() == 1)
        bob_news.clear()
        bob.place(Placement(5, 0))  # on the new position it goes
        await wait_until("Bob's move to come back", lambda: bool(_decided(bob_news)))
        assert not any(isinstance(n, Refused) for n in bob_news)
        with pytest.raises(RuleError, match="seat is not yours"):
            bob.place(Placement(4, 1), player=0)
    finally:
        ana.close()
        bob.close()


async def test_undo_follows_the_tables_rule_and_takes_back_the_bots_answer(in_process: Server) -> None:
    await _open(in_process)
    ana, _ = await _seat(in_process, 0)
    bob, bob_news = await _seat(in_process, 1)
    try:
        ana.place(Placement(6, 3))
        await wait_until("Ana's move to reach Bob", lambda: bob.human_to_move() == 1)
        bob.place(Placement(5, 0))
        await wait_until("the bot to answer", lambda: _lines(in_process) == 4)
        await _catch_up(bob, in_process)
        await _catch_up(ana, in_process)
        assert ana.undo_player() is None and bob.undo_player() == 1
        assert "only they can take it back" in ana.why_no_undo()
        bob_news.clear()
        bob.undo(1)  # Bob's move and the bot's answer to it
        await wait_until("the undo to come back", lambda: not bob.deciding)
        assert len(_decided(bob_news)) == 1 and not any(isinstance(n, Refused) for n in bob_news)  # one decision
        undone = _decided(bob_news)[0].move.events
        assert all(isinstance(u, PlacementUndone) for u in undone)
        assert [(u.player, u.card) for u in undone] == [(2, undone[0].card), (1, 5)]  # type: ignore[attr-defined]
        assert bob.human_to_move() == 1
        await _catch_up(ana, in_process)
        assert list(ana.events) == list(bob.events) == read_game(in_process.games / "t.dvr").events
        bob.place(Placement(4, 2))
        await wait_until("Bob's move to come back", lambda: not bob.deciding)
        await _catch_up(ana, in_process)
        with pytest.raises(NothingToUndo, match="Bob has placed since"):
            ana.undo(0)
    finally:
        ana.close()
        bob.close()


async def test_two_people_and_a_spectator_finish_a_game(in_process: Server) -> None:
    await _open(in_process)
    people = [(await _seat(in_process, 0))[0], (await _seat(in_process, 1))[0]]
    watcher, watched = await _seat(in_process, None, watch=True)
    try:
        assert watcher.seat is None and watcher.human_to_move() is None
        with pytest.raises(RuleError, match="watching"):
            watcher.place(Placement(6, 3))
        while not people[0].game.over:
            await wait_until(
                "someone's turn",
                lambda: people[0].game.over or any(s.human_to_move() is not None and not s.deciding for s in people),
            )
            mover = next((s for s in people if s.human_to_move() is not None and not s.deciding), None)
            if mover is None:
                break
            card, column = choose("greedy", mover.game.copy(), 7)
            mover.place(Placement(card, column))
            await wait_until("the move to come back", lambda mover=mover: not mover.deciding)
        for session in (*people, watcher):
            await _catch_up(session, in_process)
        resolved = sum(isinstance(e, ColumnResolved) for d in _decided(watched) for e in d.move.events)
        assert watcher.game.over and resolved > 0  # the watcher was told every decision, resolutions with them
        events = read_game(in_process.games / "t.dvr").events
        assert list(watcher.events) == list(people[1].events) == events
        assert [e for d in _decided(watched) for e in d.move.events] == events[1:]  # each line told once
        assert fold(events).game.over
    finally:
        for session in (*people, watcher):
            session.close()


async def test_join_and_watch_without_a_terminal_say_so_in_one_line_and_take_no_seat(in_process: Server) -> None:
    from ..support.processes import dvtui as run_dvtui

    await _open(in_process)
    server = str(in_process.place.directory)
    for args in (("join", "t"), ("watch", "t"), ("join", "t", "--as", "Bob", "--no-bell")):
        done = run_dvtui(*args, "--server", server)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith("dvtui: error: the table needs a terminal") and done.stderr.count("\n") == 1
    assert "[Ana: free; Bob: free; Bot 1: bot]" in run_dvtui("tables", "--server", server).stdout
    refused = run_dvtui("new", "--players", "Ana,Bob,Cy", "--no-bell")
    assert refused.returncode == 2 and "--no-bell goes with --table NAME" in refused.stderr


def test_without_a_terminal_a_table_that_does_not_exist_is_said_first(in_process: Server) -> None:
    """The advice to play a seat with a bot is given only for a table that exists."""
    from ..support.processes import dvtui as run_dvtui

    server = str(in_process.place.directory)
    for command in ("join", "watch"):
        done = run_dvtui(command, "nosuch", "--server", server)
        assert done.returncode == 2 and done.stderr == "dvtui: error: no table nosuch (see 'dvtui tables')\n"


def test_a_bad_table_name_is_a_usage_error_in_words_before_any_server_is_asked(tmp_path: Path) -> None:
    from ..support.processes import dvtui as run_dvtui

    nowhere = str(tmp_path / "no-server")  # asked, it would say there is no table server there
    rule = "a table's name is 1 to 32 letters (a-z, A-Z), digits (0-9), '-' or '_', starting with a letter or digit"
    for args, said in (
        (("new", "--table", "bad name!", "--players", "Ana,Bob,Cy"), "--table 'bad name!'"),
        (("join", "ok\n"), "table 'ok\\n'"),
        (("watch", "-" + "x"), None),  # argparse's: an option
        (("watch", "_x"), "table '_x'"),
        (("join", "a" * 33, "--as", "1", "--bot", "greedy"), f"table '{'a' * 33}'"),
        (("web", "--table", "a/b"), "--table 'a/b'"),
    ):
        done = run_dvtui(*args, "--server", nowhere)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        if said is not None:
            assert done.stderr == f"dvtui: error: {said}: {rule}\n"
    assert not (tmp_path / "no-server").exists()


async def test_a_tables_record_is_saved_one_save_at_a_time_and_keeps_every_owner(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players sitting down at once: each seat's owner is saved (two saves at once would share
    the record's temporary file, and one would fail)."""
    import time

    from dvtui.server.stores.files import FileStore

    save = FileStore.save_record
    running: list[int] = [0, 0]  # now, most at once

    def slow(self: FileStore, name: str, record: object) -> None:
        running[0] += 1
        running[1] = max(running)
        time.sleep(0.2)
        try:
            save(self, name, record)  # type: ignore[arg-type]
        finally:
            running[0] -= 1

    monkeypatch.setattr(FileStore, "save_record", slow)
    await _open(in_process)
    sessions = [(await _seat(in_process, seat))[0] for seat in (0, 1)]
    try:
        record = in_process.games / "t.table.json"

        def owners() -> list[str | None]:
            return json.loads(record.read_text())["owners"] if record.exists() else []

        await wait_until("both owners saved", lambda: running[0] == 0 and None not in owners()[:2])
        assert running[1] == 1
    finally:
        for session in sessions:
            session.close()


async def test_an_error_answering_a_stand_in_is_a_notice_and_not_the_placements_refusal(in_process: Server) -> None:
    """The stand-in and the placement leave together (``a`` then a placement, quicker than the
    table answers): the stand-in's refusal arrives while the placement waits, and is told apart."""
    await _open(in_process)
    ana, news = await _seat(in_process, 0)
    bob, _ = await _seat(in_process, 1)
    client = ana.client
    place = client.place

    async def stand_in_then_place(placement: Placement, seq: int | None = None) -> None:
        await client.stand_in(1, "greedy")  # Bob is connected: refused
        await place(placement, seq)

    client.place = stand_in_then_place  # type: ignore[method-assign]
    try:
        ana.place(Placement(6, 3))
        await wait_until("the placement to come back", lambda: bool(_decided(news)))
        placed = _decided(news)[0].move.events[0]
        assert isinstance(placed, CardPlaced) and (placed.player, placed.card, placed.column) == (0, 6, 3)
        # it came before the placement's line (the table answers a connection in order): told on its own
        notices = [n.notice for n in news if isinstance(n, TableNews) and n.notice is not None]
        assert len(notices) == 1 and "Bob" in notices[0]
        assert not any(isinstance(n, Refused) for n in news)
        assert news.index(_decided(news)[0]) > next(
            i for i, n in enumerate(news) if isinstance(n, TableNews) and n.notice
        )
    finally:
        ana.close()
        bob.close()


async def test_only_an_error_answering_a_decision_or_stopping_the_table_refuses_the_decision_waiting(
    in_process: Server,
) -> None:
    """``re`` says which request an error answers: a refused stand-in is a notice even while a
    decision waits; a refused placement or undo is that decision's Refused; a stop nobody asked
    for refuses the decision waiting, and every decision after it, here."""
    await _open(in_process)
    ana, news = await _seat(in_process, 0)
    try:
        news.clear()
        ana.place(Placement(6, 3))  # waiting for its answer: the errors below are told before the loop reads it
        ana._take_error(Error(code="not_away", message="Bob is connected", re="stand_in"))
        ana._take_error(Error(code="no_seat", message="no such seat", re="stand_in"))
        assert news == [TableNews(notice="Bob is connected"), TableNews(notice="no such seat")] and ana.deciding
        ana._take_error(Error(code="illegal", message="not your turn", re="place"))
        assert news[-1] == Refused("not your turn") and not ana.deciding
        ana._take_error(Error(code="stale", message="too late", re="place"))  # a late answer: already told
        assert len(news) == 3
        ana._take_error(Error(code="taken_over", message="elsewhere"))  # answers no decision
        assert news[-1] == TableNews(notice="elsewhere")
        await wait_until("the placement to come back", lambda: bool(_decided(news)))
        news.clear()
        ana._take_error(Error(code="server", message="the table has stopped"))
        assert news == [TableNews(notice="the table has stopped")]  # nothing waited: a notice
        with pytest.raises(TableStopped, match="the table has stopped"):
            ana.place(Placement(5, 0))
    finally:
        ana.close()


async def test_a_stop_refuses_the_decision_waiting(in_process: Server) -> None:
    await _open(in_process)
    ana, news = await _seat(in_process, 0)
    try:
        news.clear()
        ana.place(Placement(6, 3))
        ana._take_error(Error(code="log_full", message="the log is full"))
        assert news == [Refused("the log is full")] and not ana.deciding
        assert ana.stopped is not None and ana.stopped.code == "log_full"
    finally:
        ana.close()


async def test_the_table_names_its_game_and_the_longest_line_one_may_say(in_process: Server) -> None:
    """A branch's parent is the name the server gives the table's game (this side never builds
    the server's paths: a server from before that name is ``tables/NAME``), and the longest line
    one may say comes with the table's abilities."""
    assert TableClient(in_process.place, "t").label == "tables/t"  # until the server says
    await _open(in_process)
    ana, _news = await _seat(in_process, 0)
    try:
        assert ana.as_file().path == str(in_process.games / "t.dvr")
        assert ana.abilities.chat == MAX_CHAT_CHARS
    finally:
        ana.close()


async def test_a_placement_made_just_before_leaving_reaches_the_table(in_process: Server) -> None:
    """Enter, then q before the loop has run the placement's sending (a loaded machine, a stopped
    server): leaving writes the unanswered decision before its goodbye, so the move counts."""
    await _open(in_process)
    ana, _news = await _seat(in_process, 0)
    card = ana.game.hands[0][0]
    ana.place(Placement(card, 3))
    ana.close()  # at once: the placement's own sending has not run yet
    path = in_process.games / "t.dvr"

    def placed() -> bool:
        return any(isinstance(e, CardPlaced) and e.player == 0 for e in read_game(path).events)

    await wait_until("Ana's placement in the table's file", placed)
    [mine] = [e for e in read_game(path).events if isinstance(e, CardPlaced) and e.player == 0]
    assert (mine.card, mine.column) == (card, 3)
