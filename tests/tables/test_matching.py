"""The pool's matching rule without a server: sizes, pools that never mix, the rating window that
widens with the wait, the one who waited longest first, bots of the people's level after the wait."""

from __future__ import annotations

from pathlib import Path

from dvtui.ratings import level_rating
from dvtui.server.matching import MOST_SEEKERS, WINDOW_GROWTH, WINDOW_START, Pool, Seeker, bot_level, window
from dvtui.server.seeks import seat_names
from dvtui.tables.clubwire import SEEK_MOST_WAIT, SEEK_MOVE_TIME, SEEK_WAIT

DOCS = Path(__file__).resolve().parents[2] / "docs"


def seeker(key: str, rating: int = 1370, sizes: tuple[int, ...] = (3, 4, 5), *, since: float = 0.0,
           rated: bool = False, move_time: int = 60, wait: float = 60.0) -> Seeker:  # fmt: skip
    return Seeker(key, rating, frozenset(sizes), rated, move_time, wait, since)


def pool_of(*seekers: Seeker) -> Pool:
    pool = Pool()
    for s in seekers:
        pool.add(s)
    return pool


def keys(pool: Pool, now: float) -> list[list[str]]:
    return [sorted(str(s.key) for s in m.people) for m in pool.match(now)]


def test_the_window_widens_with_the_wait() -> None:
    assert window(0) == 100 and window(10) == 200 and window(50) == 600


def test_people_of_a_size_they_all_asked_for_are_seated_together() -> None:
    pool = pool_of(seeker("a", sizes=(3,)), seeker("b", sizes=(4,)), seeker("c", sizes=(3, 4)))
    assert keys(pool, 0.0) == []  # no size all three accept, and two are not a table
    pool.add(seeker("d", sizes=(4, 5)))
    pool.add(seeker("e", sizes=(3, 4, 5)))
    assert keys(pool, 0.0) == [["a", "c", "e"]]  # a came first: the three who accept 3
    assert list(pool.seekers) == ["b", "d"]
    pool.add(seeker("f", sizes=(4, 5)))
    assert keys(pool, 0.0) == []  # three who would play 4 (or 5)
    pool.add(seeker("g", sizes=(3, 4)))
    assert keys(pool, 0.0) == [["b", "d", "f", "g"]]


def test_the_largest_size_all_accept_with_the_people_there() -> None:
    pool = pool_of(*(seeker(k) for k in "abcdef"))
    assert keys(pool, 0.0) == [["a", "b", "c", "d", "e"]]  # five accepted 3-5: one table of 5
    assert list(pool.seekers) == ["f"]


def test_rated_and_casual_and_move_times_never_mix() -> None:
    pool = pool_of(seeker("a"), seeker("b", rated=True), seeker("c", move_time=30), seeker("d"))
    assert keys(pool, 0.0) == []
    pool.add(seeker("e", rated=True))
    pool.add(seeker("f", rated=True))
    assert keys(pool, 0.0) == [["b", "e", "f"]]


def test_far_ratings_meet_once_the_window_has_widened() -> None:
    pool = pool_of(seeker("a", 1200), seeker("b", 1400), seeker("c", 1300))
    assert keys(pool, 0.0) == []  # 200 points apart: beyond a newcomer's window of 100
    assert keys(pool, 9.0) == []  # 190
    assert keys(pool, 10.0) == [["a", "b", "c"]]


def test_everyone_accepts_everyone_else() -> None:
    # b has waited long (a wide window) but c has just come: c does not accept b yet
    pool = pool_of(seeker("a", 1500, since=0.0), seeker("b", 1700, since=0.0), seeker("c", 1580, since=29.0))
    assert keys(pool, 30.0) == []  # a and b are 200 apart, within each other's window of 400; c's is 110
    assert keys(pool, 31.0) == [["a", "b", "c"]]  # c's window is 120 now: b too is near enough


def test_the_one_who_waited_longest_is_seated_first() -> None:
    pool = pool_of(seeker("late", since=5.0), seeker("early", since=0.0), *(seeker(k, since=1.0) for k in "xyz"))
    pool.add(seeker("last", since=6.0))
    tables = pool.match(6.0)
    assert tables[0].people[0].key == "early"
    assert "early" not in pool.seekers


def test_bots_of_the_peoples_level_fill_the_seats_after_the_wait() -> None:
    pool = pool_of(seeker("a", 1640, sizes=(4, 5), wait=10.0))
    assert pool.match(9.9) == []
    (table,) = pool.match(10.0)
    assert [s.key for s in table.people] == ["a"] and table.bots == ["master"] * 3  # the smallest size asked
    assert len(pool) == 0


def test_those_near_join_the_one_whose_wait_is_over() -> None:
    pool = pool_of(seeker("a", 1100, wait=5.0), seeker("b", 1150, since=4.0), seeker("far", 2000))
    (table,) = pool.match(5.0)
    assert sorted(str(s.key) for s in table.people) == ["a", "b"]
    assert table.bots == ["novice"]  # the rung nearest their mean (1125)
    assert list(pool.seekers) == ["far"]


def test_a_bots_level_is_the_nearest_rung_the_server_lets_play() -> None:
    club = level_rating("club")
    assert club is not None
    assert bot_level([round(club)]) == "club"
    assert bot_level([2400]) == "master"
    assert bot_level([2400], allowed=lambda level: level != "master") == "strong"
    assert bot_level([2400], allowed=lambda level: False) == "greedy"


def test_seat_names_are_unique_and_short() -> None:
    assert seat_names(["ana", "web:ana", "ANA"]) == ["ana", "web:ana", "ANA 2"]
    long = "x" * 30
    assert seat_names([long, long]) == ["x" * 24, "x" * 22 + " 2"]
    # a vouched person's name may hold what a seat's may not: a comma, spaces where a cut falls
    assert seat_names(["web:a,b", "web:" + "y" * 19 + " z"]) == ["web:a b", "web:" + "y" * 19]


def test_the_docs_state_the_pools_rule_as_the_code_has_it() -> None:
    pools = " ".join((DOCS / "SHARED_TABLES.md").read_text().split())
    protocol = " ".join((DOCS / "PROTOCOL.md").read_text().split())
    assert f"a window is {WINDOW_START} points when you arrive and grows by {WINDOW_GROWTH} each second" in pools
    assert f"{WINDOW_START} points when they arrive and {WINDOW_GROWTH} more for each second" in protocol
    assert SEEK_WAIT == 60 and SEEK_MOST_WAIT == 600 and SEEK_MOVE_TIME == 60
    assert "(default one minute, at most ten)" in pools and "one minute a move unless the seek says" in pools
    assert "`wait`: seconds, 1 to 600 (optional, default 60)" in protocol
    assert f"| people seeking at once, over all the pools | {MOST_SEEKERS:,} |" in protocol
