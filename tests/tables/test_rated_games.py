"""A rated table's games, without a server: the ``rated`` key (absent from a casual game's file,
kept by a rematch, dropped by a branch), the record a rated game's end makes (the owners' accounts,
a resign last, an unfinished or casual game none), its id, the file store's records (a torn last
line is none), a record kept once however often the start completes it, and who reads ``rated``
in the list (a client that named ``ratings``). End to end, with real accounts: test_rated.py."""

from __future__ import annotations

import asyncio
import os
import pwd
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import msgspec
import pytest

from dvtui.bots import choose
from dvtui.engine import Event, GameCreated, new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.ratings import NEWCOMER, BotSeat, FinishedGame, Ledger, Person
from dvtui.replay.branch import plan_branch
from dvtui.replay.timeline import Replay
from dvtui.server.live import Backing, LiveTable
from dvtui.server.peers import NoPeers
from dvtui.server.rated import Rater, finished, game_id, id_parts
from dvtui.server.stores.base import TableRecord
from dvtui.server.stores.files import RATED_FILE, FileStore
from dvtui.server.table import Table
from dvtui.store.codec import encode_line
from dvtui.tables import Connection, ServerPlace, list_tables, open_table
from dvtui.tables.clubwire import AskRatings
from dvtui.tables.older import listed_for
from dvtui.tables.protocol import FEATURES, Welcome
from dvtui.tables.ratings import NoRatings, has_ratings, leaderboard
from dvtui.tables.where import make_private_dir

from ..support.raw import RawClient
from ..support.servers import WAIT, in_thread, short_dir


def _played(players: str = "Ana,Bob,Cy", *, rated: bool = True, seed: int = 5, upto: int | None = None) -> PlaySession:
    """A game of ``players`` played by greedy bots to its end (or its first ``upto`` placements)."""
    session = PlaySession.start(new_game(parse_players(players), seed=seed, rated=rated), None)
    made = 0
    while not session.game.over and (upto is None or made < upto):
        player = session.game.to_move
        session.place(choose("greedy", session.game, player), player=player)
        made += 1
    return session


def _lines(events: list[Event], stamp: str = "2026-12-07T06:00:00.000Z") -> list[bytes]:
    return [encode_line(event, i, stamp) for i, event in enumerate(events)]


def _record(owners: list[int | str | None], resigned: list[bool] | None = None) -> TableRecord:
    n = len(owners)
    return TableRecord(
        owners=owners, stand_ins=[None] * n, resigned=resigned or [False] * n, kept_for=[None] * n, game=2
    )


def test_a_casual_games_first_line_has_no_rated_key_and_a_rated_ones_says_so() -> None:
    seats = parse_players("Ana,Bob,Cy")
    casual = encode_line(new_game(seats, seed=3), 0)
    assert b"rated" not in casual  # every casual file as it always was, byte for byte
    assert casual == encode_line(new_game(seats, seed=3, rated=False), 0)
    rated = encode_line(new_game(seats, seed=3, rated=True), 0)
    assert rated == casual[:-2] + b',"rated":true}\n'
    created = msgspec.json.decode(rated.replace(b'"seq":0,', b""), type=GameCreated)
    assert created.rated


def test_a_rated_tables_rematch_is_rated_and_a_casual_ones_casual() -> None:
    for rated in (True, False):
        session = _played(rated=rated)
        table = Table("t", session, _record(["ana", "bob", "cy"]))
        assert table.next_game().rated is rated


def test_a_branch_of_a_rated_game_is_not_rated() -> None:
    session = _played(upto=4)
    replay = Replay(session.events)
    branch = plan_branch(replay, 2, "tables/t", 2)
    assert session.events[0].rated  # type: ignore[attr-defined]
    assert not branch.created.rated


def test_a_rated_games_end_names_each_seats_owner_and_a_resign_finishes_last() -> None:
    session = _played("Ana,Bob,bot:club")
    lines = _lines(session.events)
    record = _record(["ana", "bob", None], resigned=[False, True, False])
    game = finished("t", record, lines, session.events)
    assert game is not None
    assert game.seats == (Person("web:ana"), Person("web:bob"), BotSeat("club"))
    assert game.resigned == (1,)
    assert game.ended == 1796623200000  # the last line's stamp, in milliseconds
    assert game.game == game_id("t", 2, lines[0]) and id_parts(game.game) == ("t", 2)
    assert finished("t", record, lines, session.events) == game  # the same game, the same record


def test_a_casual_or_unfinished_game_makes_no_record_and_a_seat_without_owner_is_refused() -> None:
    casual = _played(rated=False)
    assert finished("t", _record(["ana", "bob", "cy"]), _lines(casual.events), casual.events) is None
    going = _played(upto=5)
    assert finished("t", _record(["ana", "bob", "cy"]), _lines(going.events), going.events) is None
    over = _played()
    with pytest.raises(ValueError, match="seat 2 is a person's with no account"):
        finished("t", _record(["ana", None, "cy"]), _lines(over.events), over.events)


def test_a_tables_name_used_again_gives_its_games_other_ids() -> None:
    first, again = (new_game(parse_players("Ana,Bob,Cy"), seed=seed, rated=True) for seed in (1, 2))
    assert game_id("t", 1, encode_line(first, 0)) != game_id("t", 1, encode_line(again, 0))


def _rater(directory: Path, logged: list[str]) -> Rater:
    async def run_io(fn):  # type: ignore[no-untyped-def]
        return fn()

    return Rater(FileStore(directory), run_io, logged.append)


def test_the_file_store_keeps_each_record_once_and_a_torn_last_line_is_none(tmp_path: Path) -> None:
    logged: list[str] = []
    rater = _rater(tmp_path, logged)
    session = _played()
    game = finished("t", _record(["ana", "bob", "cy"]), _lines(session.events), session.events)
    assert game is not None and rater.keep(game)
    assert not rater.keep(game)  # folded already: not kept again
    with open(tmp_path / RATED_FILE, "ab") as torn:
        torn.write(b'{"game":"t/3/')
    again = _rater(tmp_path, logged)
    again.load()
    assert again.ledger.games() == 1 and again.ledger.rating("web:ana") == rater.ledger.rating("web:ana")
    assert again.seen == 1


def test_the_start_completes_a_missing_record_once(tmp_path: Path) -> None:
    logged: list[str] = []
    rater = _rater(tmp_path, logged)
    session = _played()
    lines = _lines(session.events)
    backing = Backing(rater.store, NoPeers(), rater.run_io, logged.append)
    table = LiveTable("t", session, lines, _record(["ana", "bob", "cy"]), backing)
    assert rater.complete([table], []) == 1
    assert rater.complete([table], []) == 0  # there already: nothing doubled
    again = _rater(tmp_path, logged)
    again.load()
    assert again.complete([table], []) == 0
    assert again.ledger.profile("web:ana").standing.games == 1
    assert (tmp_path / RATED_FILE).read_bytes().count(b"\n") == 1


def test_the_end_hook_keeps_a_rated_games_record_once(tmp_path: Path) -> None:
    logged: list[str] = []
    rater = _rater(tmp_path, logged)
    session = _played()
    backing = Backing(rater.store, NoPeers(), rater.run_io, logged.append)
    table = LiveTable("t", session, _lines(session.events), _record(["ana", "bob", "cy"]), backing)
    asyncio.run(rater.ended(table))
    kept = (tmp_path / RATED_FILE).read_bytes().splitlines()
    assert len(kept) == 1
    assert msgspec.json.decode(kept[0], type=FinishedGame).seats[0] == Person("web:ana")


def test_a_table_info_says_rated_only_to_a_client_that_named_ratings() -> None:
    session = _played()
    info = Table("t", session, _record([None, None, None])).info()
    assert info.rated is True
    assert listed_for(info, frozenset(FEATURES)).rated is True
    assert listed_for(info, frozenset(FEATURES) - {"ratings"}).rated is msgspec.UNSET


def test_a_record_kept_after_a_torn_line_is_read_and_each_read_goes_on_from_the_last(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.keep_rated("a", b'{"a":1}')
    assert store.rated_since(0) == ([b'{"a":1}'], 1)
    with open(tmp_path / RATED_FILE, "ab") as torn:
        torn.write(b'{"game":"t/3/')  # a crash in the middle of a record
    assert store.rated_since(1) == ([], 1)
    store.keep_rated("b", b'{"b":2}')
    assert store.rated_since(1) == ([b'{"game":"t/3/', b'{"b":2}'], 3)  # (the torn line, a record that does not read)
    assert store.rated_since(3) == ([], 3)
    assert FileStore(tmp_path).rated_since(0) == ([b'{"a":1}', b'{"game":"t/3/', b'{"b":2}'], 3)


def test_records_are_folded_at_once_and_one_contradicting_another_is_left_out(tmp_path: Path) -> None:
    seats = (Person("web:ana"), BotSeat("club"), BotSeat("novice"))
    first = FinishedGame(game="t/1/a", ended=2, seats=seats, scores=(9, 5, 1))
    other = FinishedGame(game="t/1/a", ended=2, seats=seats, scores=(1, 5, 9))  # the same id, another end
    earlier = FinishedGame(game="t/0/b", ended=1, seats=seats, scores=(1, 5, 9))
    with open(tmp_path / RATED_FILE, "wb") as kept:
        kept.write(b"".join(msgspec.json.encode(game) + b"\n" for game in (first, other, earlier)))
    logged: list[str] = []
    rater = _rater(tmp_path, logged)
    rater.load()
    assert rater.ledger.games() == 2 and [e.game for e in rater.ledger.history("web:ana")] == ["t/0/b", "t/1/a"]
    assert rater.ledger.history("web:ana")[-1].place == 1  # the first record kept, the other left out
    assert len(logged) == 1 and "game t/1/a ended twice, differently" in logged[0]


def test_the_start_completes_a_kept_rated_games_record_and_reads_no_casual_one(tmp_path: Path) -> None:
    logged: list[str] = []
    rater = _rater(tmp_path, logged)
    store = rater.store
    assert isinstance(store, FileStore)
    for kept, rated in (("t.2026-12-07T06-00-00", True), ("u.2026-12-07T06-00-00", False)):
        session = _played(rated=rated)
        (tmp_path / f"{kept}.dvr").write_bytes(b"".join(_lines(session.events)))
        store.save_record(kept, _record(["ana", "bob", "cy"]))
    assert rater.complete([], ["t.2026-12-07T06-00-00", "u.2026-12-07T06-00-00"]) == 1
    (entry,) = rater.ledger.history("web:ana")
    assert id_parts(entry.game) == ("t", 2)  # its table's name and number, not the kept game's name
    assert rater.complete([], ["t.2026-12-07T06-00-00"]) == 0


def test_a_request_while_the_store_cannot_be_read_answers_with_the_ratings_folded(tmp_path: Path) -> None:
    logged: list[str] = []
    rater = _rater(tmp_path, logged)
    session = _played()
    game = finished("t", _record(["ana", "bob", "cy"]), _lines(session.events), session.events)
    assert game is not None and rater.keep(game)
    (tmp_path / RATED_FILE).unlink()
    (tmp_path / RATED_FILE).mkdir()  # (reading it now fails)
    answer = msgspec.json.decode(asyncio.run(rater.leaderboard(AskRatings(top=5))))
    assert [line["account"] for line in answer["standings"]] == sorted(["web:ana", "web:bob", "web:cy"],
        key=lambda a: -rater.ledger.rating(a).shown)  # fmt: skip
    assert "the rated games' records cannot be read now" in logged[-1]


def test_a_start_whose_records_cannot_be_read_or_kept_goes_on_and_says_why(tmp_path: Path) -> None:
    logged: list[str] = []
    (tmp_path / RATED_FILE).mkdir()  # (neither read nor appended to)
    rater = _rater(tmp_path, logged)
    rater.load()
    session = _played()
    backing = Backing(rater.store, NoPeers(), rater.run_io, logged.append)
    table = LiveTable("t", session, _lines(session.events), _record(["ana", "bob", "cy"]), backing)
    assert rater.complete([table], []) == 0
    assert "records cannot be read now" in logged[0] and "its rated game's end is not kept yet" in logged[1]


def test_a_server_that_speaks_no_ratings_is_asked_for_none(tmp_path: Path) -> None:
    place = ServerPlace(tmp_path, personal=False)
    older = Connection(None, None, Welcome(version=1, server="0.9", user="ana", features=["bank"]), place)  # type: ignore[arg-type]
    with pytest.raises(NoRatings, match=r"has no ratings \(an older dvtui serve\): no rated tables there"):
        has_ratings(older)
    has_ratings(Connection(None, None, Welcome(version=1, server="1", user="ana", features=["ratings"]), place))  # type: ignore[arg-type]


class HeldStore(FileStore):
    """A file store whose first read of the rated games' records (the start's fold) waits for
    ``go``: the test decides when the fold may go on."""

    def __init__(self, games: Path) -> None:
        super().__init__(games)
        self.go = threading.Event()
        self.reads = 0

    def rated_since(self, seen: int) -> tuple[list[bytes], int]:
        self.reads += 1
        if self.reads == 1:
            assert self.go.wait(WAIT), "the test never let the fold go on"
        return super().rated_since(seen)


def _club(games: Path, first: str = "web:ana") -> list[FinishedGame]:
    """Three rated games kept in ``games``' store before the server starts (``first`` won the first)."""
    people = (Person(first), Person("web:bob"), BotSeat("club"))
    club = [FinishedGame(game=f"old/{i}/x", ended=i, seats=people, scores=(9 - i, 5, i)) for i in range(3)]
    store = FileStore(games)
    for game in club:
        store.keep_rated(game.game, msgspec.json.encode(game))
    return club


def test_a_rated_game_ending_during_the_start_fold_is_folded_after_it_once(tmp_path: Path) -> None:
    """The fold owns the ledger until it is done: a game that ends meanwhile is kept in the store at
    once and folded after the fold, once, though the fold read its record too."""
    club = _club(tmp_path)
    store = HeldStore(tmp_path)
    logged: list[str] = []
    rater = Rater(store, asyncio.to_thread, logged.append)
    session = _played()
    backing = Backing(store, NoPeers(), rater.run_io, logged.append)
    table = LiveTable("t", session, _lines(session.events), _record(["ana", "bob", "cy"]), backing)

    async def start() -> None:
        folding = asyncio.create_task(rater.fold_in_background([], []))
        try:
            assert not rater.ready.is_set()
            await rater.ended(table)  # its record kept now, before the fold reads the store
            assert (tmp_path / RATED_FILE).read_bytes().count(b"\n") == len(club) + 1
            assert rater.ledger.games() == 0  # (the fold, held, owns the ledger)
        finally:
            store.go.set()
        await folding

    asyncio.run(start())
    assert rater.ready.is_set()
    assert rater.ledger.games() == len(club) + 1
    assert rater.ledger.profile("web:ana").standing.games == len(club) + 1
    assert (tmp_path / RATED_FILE).read_bytes().count(b"\n") == len(club) + 1
    assert "the rated games are read and folded" in logged[-1]


def test_the_server_serves_tables_during_the_start_fold_and_answers_ratings_once_it_is_done() -> None:
    """A server with ratings to fold listens at once: a table is opened and listed while the fold
    waits; a ``ratings`` request asked meanwhile is answered with the ratings folded."""
    with short_dir() as directory:
        place = ServerPlace(directory, personal=False)
        make_private_dir(place.games)
        club = _club(place.games)
        store = HeldStore(place.games)
        with in_thread(directory, store=store) as srv, ThreadPoolExecutor(1) as asker:
            try:  # (a server stopping waits for its fold)
                asyncio.run(open_table(place, "now", ["Ana", "bot:novice", "bot:novice"]))
                assert [info.table for info in asyncio.run(list_tables(place))] == ["now"]
                assert not srv.rater.ready.is_set()  # (the tables were served while it folds)
                asked = asker.submit(asyncio.run, leaderboard(place, 10))
            finally:
                store.go.set()
            board = asked.result(WAIT)
    folded = Ledger(club).leaderboard()
    assert board.accounts == 2
    assert [(line.account, line.shown, line.games) for line in board.standings] == [
        (standing.account, standing.shown, standing.games) for standing in folded
    ]


class NotedEvent(asyncio.Event):
    """An event that notes, for a test's thread, that somebody waits for it."""

    def __init__(self) -> None:
        super().__init__()
        self.waited = threading.Event()

    async def wait(self) -> Literal[True]:
        self.waited.set()
        return await super().wait()


def test_a_seek_during_the_start_fold_waits_for_it_and_is_placed_by_the_folded_rating() -> None:
    """A seek asked while the ratings are folded waits for the fold: its seeker enters the pool with
    the rating the fold gives them, not a newcomer's."""
    me = pwd.getpwuid(os.geteuid()).pw_name
    with short_dir() as directory:
        place = ServerPlace(directory, personal=False)
        make_private_dir(place.games)
        club = _club(place.games, me)
        store = HeldStore(place.games)
        with in_thread(directory, store=store) as srv:
            srv.rater.ready = ready = NotedEvent()  # (not set: the fold is held)
            asks = RawClient(str(place.socket))
            try:
                asks.hello(["seek"])
                asks.send({"type": "seek", "players": [5], "wait": 600})
                assert ready.waited.wait(WAIT)
                assert len(srv.seeks.pool) == 0  # (the seek waits for the fold)
            finally:
                store.go.set()
            assert asks.until("seeking")["pool"] == 1
            (seeker,) = srv.seeks.pool.seekers.values()  # (before the seeker leaves: closing drops it)
            asks.close()
    assert seeker.rating == round(Ledger(club).rating(me).mu) != round(NEWCOMER.mu)
