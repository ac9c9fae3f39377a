"""The session face over a table (:class:`RemoteSession`) against a server in this process: a
decision returns once the server's line for it came back, a refusal is a RuleError in the server's
words, the others' moves arrive by themselves (the session wakes its owner), undo keeps the table's
rule, and two people at two sessions finish a game whose file is the one they saw."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

from dvtui.bots import choose
from dvtui.engine import CardPlaced, ColumnResolved, NothingToUndo, Placement, PlacementUndone, RuleError, fold
from dvtui.play.session import GameSession
from dvtui.store import read_game
from dvtui.tables import open_table
from dvtui.tables.protocol import Error
from dvtui.tables.remote import RemoteSession, answers_decision
from dvtui.tables.server import Server

from ..support.servers import wait_for


class Woken:
    """Counts the wake-ups a session sends from its client's thread."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self) -> None:
        with self.lock:
            self.count += 1


def _open(server: Server, players: str = "Ana,Bob,bot:greedy", table: str = "t") -> None:
    asyncio.run(open_table(server.place, table, players.split(","), first_player=0, seed=5))


def _seat(server: Server, seat: int | None, table: str = "t", *, watch: bool = False) -> tuple[RemoteSession, Woken]:
    woken = Woken()
    session = RemoteSession.open(server.place, table, seat=seat, watch=watch, wake=woken)
    return session, woken


def _catch_up(session: RemoteSession, server: Server, table: str = "t") -> None:
    """Take every move the server has written (each arrives by itself; this waits for them)."""
    lines = lambda: (server.games / f"{table}.dvr").read_bytes().count(b"\n")  # noqa: E731
    while len(session.events) < lines():
        wait_for("the table's lines", lambda: session.take_move() is not None or len(session.events) >= lines())


def test_a_placement_returns_once_the_table_wrote_it_and_the_others_hear_of_it(in_process: Server) -> None:
    _open(in_process)
    ana, _ = _seat(in_process, 0)
    bob, bob_woken = _seat(in_process, 1)
    try:
        face: GameSession = ana  # the screens' face (a type checker holds it to it)
        assert face.path is None
        assert (ana.seat, bob.seat, ana.human_to_move(), bob.human_to_move()) == (0, 1, 0, None)
        assert ana.bots == [None, None, None]  # the server's bot thinks on the server
        woken = bob_woken.count
        move = ana.place(Placement(6, 3))
        placed = move.events[0]
        assert isinstance(placed, CardPlaced) and (placed.player, placed.card, placed.column) == (0, 6, 3)
        assert list(ana.events) == read_game(in_process.games / "t.dvr").events  # on disk before returning
        wait_for("Ana's move to reach Bob", lambda: bob.take_move() is not None)
        assert list(bob.events) == list(ana.events) and bob_woken.count > woken  # it woke him
        assert bob.human_to_move() == 1
    finally:
        ana.close()
        bob.close()


def test_a_refusal_is_a_rule_error_in_the_servers_words(in_process: Server) -> None:
    _open(in_process)
    ana, _ = _seat(in_process, 0)
    bob, _ = _seat(in_process, 1)
    try:
        expected = ""
        try:
            ana.game.copy().place(Placement(5, 0), player=1)  # column 0, card 5
        except RuleError as e:
            expected = str(e)
        with pytest.raises(RuleError) as refused:
            bob.place(Placement(5, 0))  # Ana's turn
        assert str(refused.value) == expected and expected
        ana.place(Placement(6, 3))
        with pytest.raises(RuleError, match="not 1"):  # decided on the position before Ana's move
            bob.place(Placement(5, 0))
        assert bob.take_move() is not None
        bob.place(Placement(5, 0))  # on the new position it goes
        with pytest.raises(RuleError, match="seat is not yours"):
            bob.place(Placement(4, 1), player=0)
    finally:
        ana.close()
        bob.close()


def test_undo_follows_the_tables_rule_and_takes_back_the_bots_answer(in_process: Server) -> None:
    _open(in_process)
    ana, _ = _seat(in_process, 0)
    bob, _ = _seat(in_process, 1)
    try:
        ana.place(Placement(6, 3))
        _catch_up(bob, in_process)
        bob.place(Placement(5, 0))
        wait_for("the bot to answer", lambda: (in_process.games / "t.dvr").read_bytes().count(b"\n") == 4)
        _catch_up(bob, in_process)
        _catch_up(ana, in_process)
        assert ana.undo_player() is None and bob.undo_player() == 1
        assert "only they can take it back" in ana.why_no_undo()
        undone = bob.undo(1)  # Bob's move and the bot's answer to it
        assert [(u.player, u.card) for u in undone] == [(2, undone[0].card), (1, 5)]
        assert all(isinstance(u, PlacementUndone) for u in undone)
        assert bob.human_to_move() == 1
        _catch_up(ana, in_process)
        assert list(ana.events) == list(bob.events) == read_game(in_process.games / "t.dvr").events
        bob.place(Placement(4, 2))
        _catch_up(ana, in_process)
        with pytest.raises(NothingToUndo, match="Bob has placed since"):
            ana.undo(0)
    finally:
        ana.close()
        bob.close()


def test_two_people_and_a_spectator_finish_a_game(in_process: Server) -> None:
    _open(in_process)
    people = [_seat(in_process, 0)[0], _seat(in_process, 1)[0]]
    watcher, woken = _seat(in_process, None, watch=True)
    try:
        assert watcher.seat is None and watcher.human_to_move() is None
        with pytest.raises(RuleError, match="watching"):
            watcher.place(Placement(6, 3))
        resolved = 0
        while not people[0].game.over:
            for session in people:
                _catch_up(session, in_process)
            mover = next((s for s in people if s.human_to_move() is not None), None)
            if mover is None:
                continue  # the bot's move is on its way
            move = mover.place(choose("greedy", mover.game.copy(), 7))
            resolved += sum(isinstance(e, ColumnResolved) for e in move.events)
        for session in (*people, watcher):
            _catch_up(session, in_process)
        assert watcher.game.over and resolved > 0
        assert woken.count > 0
        events = read_game(in_process.games / "t.dvr").events
        assert list(watcher.events) == list(people[1].events) == events
        assert fold(events).game.over
    finally:
        for session in (*people, watcher):
            session.close()


def test_join_and_watch_without_a_terminal_say_so_in_one_line_and_take_no_seat(in_process: Server) -> None:
    from ..support.processes import dvtui

    _open(in_process)
    server = str(in_process.place.directory)
    for args in (("join", "t"), ("watch", "t"), ("join", "t", "--as", "Bob", "--no-bell")):
        done = dvtui(*args, "--server", server)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith("dvtui: error: the table needs a terminal") and done.stderr.count("\n") == 1
    assert "[Ana: free; Bob: free; Bot 1: bot]" in dvtui("tables", "--server", server).stdout
    refused = dvtui("new", "--players", "Ana,Bob,Cy", "--no-bell")
    assert refused.returncode == 2 and "--no-bell goes with --table NAME" in refused.stderr


def test_without_a_terminal_a_table_that_does_not_exist_is_said_first(in_process: Server) -> None:
    """The advice to play a seat with a bot is given only for a table that exists."""
    from ..support.processes import dvtui

    server = str(in_process.place.directory)
    for command in ("join", "watch"):
        done = dvtui(command, "nosuch", "--server", server)
        assert done.returncode == 2 and done.stderr == "dvtui: error: no table nosuch (see 'dvtui tables')\n"


def test_a_bad_table_name_is_a_usage_error_in_words_before_any_server_is_asked(tmp_path: Path) -> None:
    from ..support.processes import dvtui

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
        done = dvtui(*args, "--server", nowhere)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        if said is not None:
            assert done.stderr == f"dvtui: error: {said}: {rule}\n"
    assert not (tmp_path / "no-server").exists()


def test_a_tables_record_is_saved_one_save_at_a_time_and_keeps_every_owner(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players sitting down at once: each seat's owner is saved (two saves at once would share
    the record's temporary file, and one would fail)."""
    import time

    from dvtui.tables.store import FileStore

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
    _open(in_process)
    sessions = [_seat(in_process, seat)[0] for seat in (0, 1)]
    try:
        record = in_process.games / "t.table.json"

        def owners() -> list[str | None]:
            return json.loads(record.read_text())["owners"] if record.exists() else []

        wait_for("both owners saved", lambda: running[0] == 0 and None not in owners()[:2], lambda: str(owners()))
        assert running[1] == 1
    finally:
        for session in sessions:
            session.close()


def test_an_error_answering_a_stand_in_does_not_fail_a_placement_waiting_for_its_line(in_process: Server) -> None:
    """The stand-in and the placement leave together (``a`` then a placement, quicker than the
    table answers): the stand-in's refusal arrives while the placement waits, and is told apart."""
    _open(in_process)
    ana, _ = _seat(in_process, 0)
    bob, _ = _seat(in_process, 1)
    client = ana.client
    place = client.place

    async def stand_in_then_place(placement: Placement, seq: int | None = None) -> None:
        await client.stand_in(1, "greedy")  # Bob is connected: refused
        await place(placement, seq)

    client.place = stand_in_then_place  # type: ignore[method-assign]
    try:
        move = ana.place(Placement(6, 3))
        placed = move.events[0]
        assert isinstance(placed, CardPlaced) and (placed.player, placed.card, placed.column) == (0, 6, 3)
        # it came before the placement's line (the table answers a connection in order): told on its own
        assert [(e.code, e.re) for e in ana.take_errors()] == [("not_away", "stand_in")]
    finally:
        ana.close()
        bob.close()


def test_a_decision_takes_as_its_answer_only_an_error_answering_a_decision() -> None:
    """``re`` says which request an error answers; a server older than ``re`` sends none, and then
    the codes only a decision is ever answered with still refuse the decision waiting."""
    assert answers_decision(Error(code="illegal", message="not your turn", re="place"))
    assert answers_decision(Error(code="nothing_to_undo", message="nothing", re="undo"))
    assert not answers_decision(Error(code="not_away", message="Bob is connected", re="stand_in"))
    assert not answers_decision(Error(code="no_seat", message="no", re="stand_in"))
    assert answers_decision(Error(code="server", message="the table has stopped"))  # a stop nobody asked for
    for code in ("stale", "illegal", "nothing_to_undo", "game_over"):  # an older server's refusals
        assert answers_decision(Error(code=code, message="refused")), code  # type: ignore[arg-type]
    assert not answers_decision(Error(code="not_away", message="Bob is connected"))
    assert not answers_decision(Error(code="taken_over", message="elsewhere"))
