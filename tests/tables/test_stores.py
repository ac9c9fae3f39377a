"""The tables' store contract, over both stores: files (``FileStore``) and PostgreSQL (``PgStore``,
on a real PostgreSQL). The server asks a store for nothing else, so what holds here holds for a
server on either; and a game kept in the database is byte for byte the ``.dvr`` the file store
writes for the same decisions."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.engine import GameCreated, new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.stores.base import GameStore, TableExists, TableRecord
from dvtui.server.stores.files import FileStore
from dvtui.store import GameLocked, parse_game
from dvtui.store import writer as file_writer
from dvtui.store.codec import line_decoder


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each save is stamped with the next of a fixed row of times, the same for both stores."""
    stamps = iter(f"2026-11-27T01:{m:02d}:{s:02d}.000Z" for m in range(60) for s in range(60))
    monkeypatch.setattr(file_writer, "utc_stamp", lambda: next(stamps))


def _created(seed: int = 3) -> GameCreated:
    return new_game(parse_players("bot:random,bot:greedy,bot:random"), seed=seed)


def _record() -> TableRecord:
    return TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=1000)


def _play(session: PlaySession, decisions: int | None = None) -> list[bytes]:
    """Let the bots make ``decisions`` decisions (None: to the end); the lines saved meanwhile."""
    lines: list[bytes] = []
    count = iter(range(10**6))
    session.play_bots(lambda: decisions is not None and next(count) >= decisions, saved=lines.extend)
    return lines


@pytest.fixture(params=["files", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "files":
        yield FileStore(tmp_path)
        return
    from dvtui.server.stores.pg import PgStore

    pg = PgStore(request.getfixturevalue("pg_database"), tmp_path)
    try:
        yield pg
    finally:
        pg.close()


def _export(store: GameStore, name: str) -> bytes:
    """The game ``name`` as its ``.dvr`` (a kept game's name or a table's)."""
    if isinstance(store, FileStore):
        return (store.games / f"{name}.dvr").read_bytes()
    return b"".join(store.lines(name))  # type: ignore[attr-defined]


def test_create_append_reopen(store: GameStore) -> None:
    session, lines = store.create("t1", _created(), _record())
    assert len(lines) == 1 and lines[0].startswith(b'{"type":"game_created","seq":0,')
    saved = _play(session, 5)
    store.rest("t1", session)
    again, read, record = store.reopen("t1")
    assert read == lines + saved  # every line acknowledged, in seq order
    assert record == _record()
    assert len(again.events) == len(session.events) and again.game.to_move == session.game.to_move
    more = _play(again)
    assert again.game.over
    store.rest("t1", again)
    assert _export(store, "t1") == b"".join(lines + saved + more)
    assert store.names() == ["t1"]


def test_a_name_in_play_is_refused_and_a_finished_one_is_put_aside(store: GameStore) -> None:
    session, _ = store.create("t2", _created(), _record())
    with pytest.raises(TableExists):
        store.create("t2", _created(4), _record())
    _play(session)
    store.rest("t2", session)
    finished = _export(store, "t2")
    session, _lines = store.create("t2", _created(5), _record())
    store.rest("t2", session)
    [kept] = store.kept()
    assert kept.startswith("t2.")
    loaded, _last = store.read_kept(kept)
    assert loaded.game.over
    assert _export(store, kept) == finished
    assert store.game_bytes(f"{kept}.dvr") == finished
    assert store.names() == ["t2"]
    store.forget(kept)
    assert store.kept() == []


def test_archive_and_record(store: GameStore) -> None:
    session, _ = store.create("t3", _created(), _record())
    store.rest("t3", session)
    changed = TableRecord(owners=[1000, None, None], stand_ins=[None, "greedy", None], game=2)
    store.save_record("t3", changed)
    assert store.reopen("t3")[2] == changed
    assert store.last_active("t3") >= store.game_written("t3") > 0
    aside = store.archive("t3")
    assert aside.endswith(".dvr") and store.names() == [] and store.kept() == [aside.removesuffix(".dvr")]


def test_unfinished_games_are_listed_after_a_new_store(store: GameStore, tmp_path: Path) -> None:
    session, _ = store.create("t4", _created(), _record())
    _play(session, 3)
    store.rest("t4", session)
    if isinstance(store, FileStore):
        second: GameStore = FileStore(tmp_path)
    else:
        from dvtui.server.stores.pg import PgStore

        second = PgStore(store.conninfo, tmp_path)  # type: ignore[attr-defined]
    assert second.names() == ["t4"]
    again, lines, _ = second.reopen("t4")
    assert not again.game.over and len(lines) == 4
    second.rest("t4", again)


@pytest.mark.postgresql
def test_database_game_equals_the_file_stores_bytes(
    pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same decisions, made through each store with the same clock: the same bytes, a game that reads."""
    from dvtui.server.stores.pg import PgStore

    games: list[bytes] = []
    for store in (FileStore(tmp_path), PgStore(pg_database, tmp_path)):
        stamps = iter(f"2026-11-27T02:00:{s:02d}.000Z" for s in range(60) for _ in range(1000))
        monkeypatch.setattr(file_writer, "utc_stamp", lambda: next(stamps))  # noqa: B023
        session, _ = store.create("same", _created(9), _record())
        _play(session)
        store.rest("same", session)
        games.append(_export(store, "same"))
    assert games[0] == games[1]
    assert parse_game(games[1]).game.over


@pytest.mark.postgresql
def test_one_writer_per_game(pg_database: str, tmp_path: Path) -> None:
    """A second store (another server) cannot play a game the first holds; once let go, it can."""
    from dvtui.server.stores.pg import PgStore

    one, two = PgStore(pg_database, tmp_path), PgStore(pg_database, tmp_path)
    two.lock_wait = 0.5  # nothing here answers its ask to let go: the refusal, without half a minute's wait
    try:
        session, _ = one.create("held", _created(), _record())
        with pytest.raises(GameLocked):
            two.reopen("held")
        one.rest("held", session)
        one.close()  # its unlock is done before it returns
        again, _lines, _ = two.reopen("held")
        two.rest("held", again)
    finally:
        two.close()


@pytest.mark.postgresql
def test_two_servers_racing_for_one_table_exactly_one_holds_it(pg_database: str, tmp_path: Path) -> None:
    from dvtui.server.stores.pg import PgStore

    stores = [PgStore(pg_database, tmp_path) for _ in range(2)]
    try:
        session, _ = stores[0].create("race", _created(), _record())
        stores[0].rest("race", session)
        stores[0].close()  # (its unlock done)
        stores[0] = PgStore(pg_database, tmp_path)
        for store in stores:
            store.lock_wait = 0.0  # no waiting for the other: one of the two must be refused
        start = threading.Barrier(2)
        won: list[PlaySession] = []
        lost: list[BaseException] = []

        def reopen(store: PgStore) -> None:
            start.wait()
            try:
                won.append(store.reopen("race")[0])
            except GameLocked as e:
                lost.append(e)

        threads = [threading.Thread(target=reopen, args=(store,)) for store in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(won) == 1 and len(lost) == 1
        assert "another server plays it" in str(lost[0])
    finally:
        for store in stores:
            store.close()


@pytest.mark.postgresql
def test_a_writer_that_lost_its_hold_is_refused_by_the_key_and_holds_the_game_again(
    pg_database: str, tmp_path: Path
) -> None:
    """A server that writes a game it holds again without having read what another server wrote
    meanwhile (its writer behind the game) has its append refused by the primary key: nothing of
    it is kept (the game never forks), and it is told its hold is lost rather than that the game
    stopped, so that it holds the game again with the other's line and goes on from there."""
    from dvtui.server.stores.base import HoldLost
    from dvtui.server.stores.pg import PgStore

    one, two = PgStore(pg_database, tmp_path), PgStore(pg_database, tmp_path)
    try:
        stale, _ = one.create("lost", _created(), _record())
        one.holds.close()  # its connection (and every lock on it) is gone
        taker, _lines, _ = two.reopen("lost")
        _play(taker, 1)
        taker.close()
        game_id = one.game_id(stale)
        assert game_id is not None and one.take(game_id)  # held again, its lines not read: its writer is behind
        with pytest.raises(HoldLost, match="another server wrote its next line first"):
            _play(stale, 1)
        assert stale.save_failure is None
        assert len(two.lines("lost")) == 2
        stale.close()
        one.holds.release(game_id)
        again, lines, _ = one.reopen("lost")  # (held again, with the other's line)
        assert len(lines) == 2
        _play(again, 1)
        assert len(two.lines("lost")) == 3
        again.close()
    finally:
        one.close()
        two.close()


@pytest.mark.postgresql
def test_a_server_whose_hold_was_terminated_writes_nothing_until_it_holds_the_game_again(
    pg_database: str, tmp_path: Path
) -> None:
    """The session holding a game's lock is terminated (an administrator, a pooler, a timeout):
    the server's next append notices at once and writes nothing (the hold may be another's by
    then); once it holds the game again it reads what was written meanwhile and goes on."""
    import psycopg

    from dvtui.server.stores.base import HoldLost
    from dvtui.server.stores.pg import PgStore
    from dvtui.server.stores.pgpeers import PgPeers

    one, two = PgStore(pg_database, tmp_path), PgStore(pg_database, tmp_path)
    try:
        stale, _ = one.create("cut", _created(), _record())
        with psycopg.connect(pg_database, autocommit=True) as admin:
            (game_id,) = admin.execute("SELECT id FROM dvtui_games WHERE name = 'cut'").fetchone() or (0,)
            holders = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s::oid "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                (game_id,),
            ).fetchall()
        assert holders == [(True,)]
        taker, _lines, _ = two.reopen("cut")  # nobody holds it now: another server takes it and plays
        _play(taker, 1)
        two.rest("cut", taker)
        before = list(stale.events)
        with pytest.raises(HoldLost, match="hold on it was lost"):
            stale.place(stale.game.legal_placements()[0])
        assert stale.events == before and stale.save_failure is None  # nothing written, nothing stopped
        assert len(one.lines("cut")) == 2
        stale.close()
        news = PgPeers(one).hold("cut", stale, 1)  # held again: the line written meanwhile, then its own
        assert news == one.lines("cut")[1:]
        event = line_decoder.decode(news[0])
        event.seq = None
        stale.game.apply(event)
        stale.place(stale.game.legal_placements()[0])
        assert len(one.lines("cut")) == 3
    finally:
        one.close()
        two.close()


def test_a_tournament_is_kept_and_replaced_by_name(store: GameStore) -> None:
    assert store.arenas() == []
    store.keep_arena("friday", b'{"name":"friday","v":1}')
    store.keep_arena("cup", b'{"name":"cup"}')
    store.keep_arena("friday", b'{"name":"friday","v":2}')  # its next change, in its place
    assert store.arenas() == [("cup", b'{"name":"cup"}'), ("friday", b'{"name":"friday","v":2}')]
