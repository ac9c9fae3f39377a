"""One table's authority without a socket: a :class:`LiveTable` over fake connections that note what
they are sent, on a ``FileStore`` in ``tmp_path``. Its decisions are saved before anyone is told,
its record is kept by the rule that changed it, its talk goes to those who read it, it stops at its
log's bound or on a line another server wrote that the rules refuse, and what it does to the
connections at it (closed, dealt again) it returns to the server instead of doing it."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.engine import Placement
from dvtui.server import live as live_module
from dvtui.server.chat import Heard
from dvtui.server.live import LiveTable
from dvtui.server.stores.base import TableRecord
from dvtui.server.stores.files import FileStore
from dvtui.server.table import Refusal
from tests.support.visitors import Visitor, live_table, seat


@pytest.fixture
def logged() -> list[str]:
    return []


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FileStore]:
    yield FileStore(tmp_path)


def _table(store: FileStore, logged: list[str], players: str = "ana,bob,bot:random") -> LiveTable:
    return live_table(store, logged, players)


def _seat(table: LiveTable, visitor: Visitor, at: int) -> None:
    seat(table, visitor, at)


async def test_a_decision_is_saved_then_sent_to_everyone_at_the_table(store: FileStore, logged: list[str]) -> None:
    table = _table(store, logged, "ana,bob,carl")
    ana, bob, away = Visitor(1, "ana"), Visitor(2, "bob"), Visitor(3, "carl")
    _seat(table, ana, 0)
    _seat(table, bob, 1)
    table.join(away, 2)  # type: ignore[arg-type]  # (its joined not sent yet: told nothing)
    seat = table.session.game.to_move
    placement = table.session.game.legal_placements()[0]
    await table.commit(lambda session: session.place(placement, player=seat))
    assert table.next_seq == 2 and store.path("t").read_bytes() == b"".join(table.lines)
    assert ana.sent[-1] == bob.sent[-1] == table.lines[1] and away.sent == []


async def test_a_record_changed_by_a_rule_is_kept_and_the_rules_value_returned(
    store: FileStore, logged: list[str]
) -> None:
    table = _table(store, logged)
    ana = Visitor(1, "ana")

    def sit(again: bool) -> tuple[int, bool]:
        sat = table.join(ana, 0)  # type: ignore[arg-type]
        return sat.seat, sat.changed

    assert await table.change_record(sit) == 0
    kept = store.record("t")
    assert kept is not None and kept.owners[0] == 1
    with pytest.raises(Refusal):  # a rule that says no keeps nothing
        await table.change_record(lambda again: (table.join(Visitor(2, "bob"), 0), True))  # type: ignore[arg-type]
    assert store.record("t") == kept


class KeepingStore(FileStore):
    """A file store that keeps each record it is given to save, as given (a store on another
    thread, or a database, reads it later)."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.given: list[TableRecord] = []

    def replace_record(self, name: str, record: TableRecord, version: int, game: int | None = None) -> int:
        self.given.append(record)
        return super().replace_record(name, record, version, game)


async def test_a_record_saved_shares_no_list_with_the_table_which_changes_on(tmp_path: Path, logged: list[str]) -> None:
    """What a save reads off the loop is the record as it was: the table changing its own record
    in place afterwards (a seat kept for somebody, a stand-in asked for) changes nothing of it."""
    store = KeepingStore(tmp_path)
    table = _table(store, logged)
    await table.change_record(lambda again: (None, True))
    given = store.given[-1]
    assert given == table.record
    for name in given.__struct_fields__:
        value = getattr(given, name)
        assert not isinstance(value, list) or value is not getattr(table.record, name), name
    table.record.kept_for[0] = 7
    table.record.stand_in_by[0] = 7
    assert given.kept_for[0] is None and given.stand_in_by[0] is None


async def test_closing_returns_everyone_at_the_table_without_forgetting_for_the_server(
    store: FileStore, logged: list[str]
) -> None:
    table = _table(store, logged)
    ana, watcher = Visitor(1, "ana"), Visitor(2, "bob")
    _seat(table, ana, 0)
    table.watch(watcher, 10)  # type: ignore[arg-type]
    watcher.table = table
    table.halt("closed", "ana closed table t")
    assert set(table.evict()) == {ana, watcher}
    assert table.here() == [] and ana.table is None and watcher.table is None
    assert [m["code"] for m in ana.received() if m["type"] == "error"] == ["closed"]


async def test_a_deal_tells_those_who_follow_and_returns_those_who_do_not(store: FileStore, logged: list[str]) -> None:
    table = _table(store, logged)
    follows, older = Visitor(1, "ana"), Visitor(2, "bob", features=frozenset())
    _seat(table, follows, 0)
    _seat(table, older, 1)
    assert table.tell_dealt([b'{"type":"game_created"}\n']) == [older]
    assert follows.received()[0]["type"] == "dealt" and older.sent == []


async def test_the_table_stops_at_its_logs_bound(
    store: FileStore, logged: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_module, "MAX_LOG_LINES", 2)
    table = _table(store, logged, "ana,bob,carl")
    ana = Visitor(1, "ana")
    _seat(table, ana, 0)
    seat = table.session.game.to_move
    await table.commit(lambda session: session.place(table.session.game.legal_placements()[0], player=seat))
    assert table.failed is not None and table.failed.code == "log_full"
    assert ana.received()[-1]["code"] == "log_full"


async def test_lines_another_server_wrote_are_applied_and_a_refused_one_stops_the_table(
    tmp_path: Path, logged: list[str]
) -> None:
    first, second = FileStore(tmp_path / "a"), FileStore(tmp_path / "b")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    here, there = _table(first, logged, "ana,bob,carl"), _table(second, logged, "ana,bob,carl")
    ana = Visitor(1, "ana")
    _seat(here, ana, 0)
    seat = there.session.game.to_move
    placement: Placement = there.session.game.legal_placements()[0]
    await there.commit(lambda session: session.place(placement, player=seat))
    here.apply_news(there.lines[1:])
    assert here.lines[1:] == there.lines[1:] and ana.sent[-1] == there.lines[1]
    here.apply_news([b'{"type":"card_placed","player":9}\n'])
    assert here.failed is not None and here.failed.code == "server" and "refuses" in logged[-1]


async def test_talk_goes_to_those_who_read_it(store: FileStore, logged: list[str]) -> None:
    table = _table(store, logged)
    reads, does_not = Visitor(1, "ana"), Visitor(2, "bob", features=frozenset())
    _seat(table, reads, 0)
    _seat(table, does_not, 1)
    line = b'{"type":"said","table":"t","user":"ana","text":"hi"}\n'
    table.tell_chat(Heard(deque([line]), 1))
    assert reads.sent == [line] and does_not.sent == [] and list(table.chat) == [line] and table.chat_seen == 1


@pytest.mark.parametrize("lost", [1, 3, live_module.HOLD_TRIES - 1])
async def test_a_decision_under_a_hold_lost_again_and_again_is_held_again_each_time_and_written_once(
    store: FileStore, logged: list[str], lost: int
) -> None:
    """A shared database that cuts the table's hold several times under one decision (its sessions
    terminated in a row): each time nothing is written, the table is held again, and the decision
    is made once the hold stays; the table never stops for it."""
    from dvtui.server.stores.base import HoldLost

    table = _table(store, logged, "ana,bob,carl")
    ana = Visitor(1, "ana")
    _seat(table, ana, 0)
    seat = table.session.game.to_move
    placement = table.session.game.legal_placements()[0]
    cuts = iter(range(lost))

    def decide(session):  # type: ignore[no-untyped-def]
        if next(cuts, None) is not None:
            raise HoldLost("table t: this server's hold on it was lost (its database session ended)")
        return session.place(placement, player=seat)

    await table.commit(decide)
    assert table.failed is None, table.failed
    assert table.next_seq == 2 and store.path("t").read_bytes() == b"".join(table.lines)
    assert ana.sent[-1] == table.lines[1]
    assert sum("held again before its next line" in line for line in logged) == lost


async def test_a_hold_that_never_stays_stops_the_table_with_a_clear_line(store: FileStore, logged: list[str]) -> None:
    """Only a database that cuts every hold, :data:`HOLD_TRIES` times in a row, stops the table."""
    from dvtui.server.stores.base import HoldLost

    table = _table(store, logged, "ana,bob,carl")

    def decide(session):  # type: ignore[no-untyped-def]
        raise HoldLost("table t: this server's hold on it was lost (its database session ended)")

    await table.commit(decide)
    assert table.failed is not None and "hold on it was lost" in table.failed.message
    assert table.next_seq == 1


async def test_who_is_here_is_looked_at_again_only_when_it_may_have_changed(
    store: FileStore, logged: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The presence sent after each move tells the turn: who is here is not rebuilt for it (it was,
    at every move, to find it the same); a seat taken is told the store as before."""
    from dvtui.server.stores.base import Here

    made: list[Here] = []

    def counted(*args: object) -> Here:
        made.append(Here(*args))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(live_module, "Here", counted)
    table = _table(store, logged, "ana,bob,carl")
    ana, bob = Visitor(1, "ana"), Visitor(2, "bob")
    _seat(table, ana, 0)
    table.presence_soon()  # (as the verbs do after a seat is taken)
    table.presence_soon.flush()
    assert [h.seat for h in table.told] == [0]
    made.clear()
    for _move in range(3):
        seat = table.session.game.to_move
        placement = table.session.game.legal_placements()[0]
        await table.commit(lambda session, p=placement, s=seat: session.place(p, player=s))
        table.presence_soon.flush()
    assert made == [] and ana.received()[-1]["type"] == "presence"  # the turn told, who is here not rebuilt
    _seat(table, bob, 1)
    table.presence_soon()
    table.presence_soon.flush()
    assert [h.seat for h in table.told] == [0, 1]
