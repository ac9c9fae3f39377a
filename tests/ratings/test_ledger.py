"""The ratings' fold, on games made by hand: places from scores (ties shared, a resign last), bots that
never move, a game given twice counted once, games arriving in any order folded in the order they ended."""

from __future__ import annotations

import msgspec
import pytest

from dvtui.bots import choose
from dvtui.engine import COLORS, Event, Game, GameEnded, Seat, new_game
from dvtui.ratings import (
    BOT_SIGMA,
    NEWCOMER,
    BotSeat,
    ConflictingGame,
    FinishedGame,
    Ledger,
    Person,
    Rating,
    Step,
    Z,
    bot_rating,
    fold,
    from_events,
    level_rating,
    places,
    plays_like,
    update,
)


def game(
    gid: str,
    ended: int,
    seats: str,
    scores: tuple[int, ...] | None,
    resigned: tuple[int, ...] = (),
) -> FinishedGame:
    """A finished game: ``seats`` a space-separated list of accounts and ``bot:LEVEL`` seats."""
    holders = tuple(BotSeat(s[4:]) if s.startswith("bot:") else Person(s) for s in seats.split())
    return FinishedGame(game=gid, ended=ended, seats=holders, scores=scores, resigned=resigned)


def test_places_share_a_tie_and_put_a_resign_last() -> None:
    assert places((30, 50, 30)) == (2, 1, 2)
    assert places((40, 40, 10, 20)) == (1, 1, 4, 3)
    assert places((90, 10, 20, 30, 40), resigned=(0,)) == (5, 4, 3, 2, 1)
    assert places((90, 10, 20), resigned=(0, 2)) == (2, 1, 2)


def test_three_people_the_winner_rises_the_last_falls() -> None:
    ledger = fold([game("t/1", 1, "ann bob cid", (50, 30, 10))])
    ann, bob, cid = (ledger.rating(a) for a in ("ann", "bob", "cid"))
    assert ann.mu > NEWCOMER.mu > cid.mu
    assert abs(bob.mu - NEWCOMER.mu) < ann.mu - NEWCOMER.mu
    assert all(r.sigma < NEWCOMER.sigma for r in (ann, bob, cid))  # each game says something of everyone
    assert [e.place for e in ledger.history("ann")] == [1]
    assert [s.account for s in ledger.leaderboard()] == ["ann", "bob", "cid"]
    assert ledger.leaderboard()[0].games == 1


def test_four_people_a_tie_is_shared_between_the_places_it_spans() -> None:
    """Two sharing first move alike, between what first and second alone would have: more than the
    third, whom they finished ahead of (the model's own reading of a tie moved the third as much)."""
    ledger = fold([game("t/1", 1, "ann bob cid dan", (20, 40, 40, 10))])
    ann, bob, cid, dan = (ledger.rating(a) for a in ("ann", "bob", "cid", "dan"))
    assert bob == cid
    strict = fold([game("t/1", 1, "ann bob cid dan", (20, 41, 40, 10))])
    assert strict.rating("bob").mu > bob.mu > strict.rating("cid").mu
    assert bob.mu > ann.mu > dan.mu
    assert ann.mu == pytest.approx(strict.rating("ann").mu)
    assert [ledger.history(a)[0].place for a in ("ann", "bob", "cid", "dan")] == [3, 1, 1, 4]


def test_a_tie_of_everyone_moves_nobody() -> None:
    ledger = fold([game("t/1", 1, "ann bob cid dan eve", (7, 7, 7, 7, 7))])
    assert all(ledger.rating(a).mu == pytest.approx(NEWCOMER.mu) for a in ("ann", "bob", "cid", "dan", "eve"))


def test_five_people_a_resign_is_last_whatever_its_score() -> None:
    """The resigned seat scored most (its stand-in played on), yet finishes last: it loses most."""
    ledger = fold([game("t/1", 1, "ann bob cid dan eve", (90, 40, 30, 20, 10), resigned=(0,))])
    assert ledger.history("ann")[0].place == 5
    assert ledger.history("bob")[0].place == 1
    assert min(("ann", "bob", "cid", "dan", "eve"), key=lambda a: ledger.rating(a).mu) == "ann"


def test_a_bot_seat_counts_with_its_level_and_never_moves() -> None:
    beaten = fold([game("t/1", 1, "ann bot:master bot:master", (50, 30, 10))])
    step = beaten.step("t/1")
    assert step is not None and step.seated[1:] == (Rating(level_rating("master") or 0.0, BOT_SIGMA),) * 2
    assert beaten.accounts() == 1 and [a for a, _ in step.entries] == ["ann"]
    # the same result against weaker bots says less: beating masters lifts a person more
    easy = fold([game("t/1", 1, "ann bot:novice bot:novice", (50, 30, 10))])
    assert beaten.rating("ann").mu > easy.rating("ann").mu > NEWCOMER.mu
    # a bot's strength is the ladder's, whatever it won or lost before
    many = fold(game(f"t/{i}", i, "ann bot:club bot:club", (50, 30, 10)) for i in range(20))
    assert bot_rating(BotSeat("club")) == Rating(level_rating("club") or 0.0, BOT_SIGMA)
    assert {r for s in (many.step(f"t/{i}") for i in range(20)) if s for r in s.seated[1:]} == {
        bot_rating(BotSeat("club"))
    }


def test_a_win_that_tells_little_never_lowers_the_shown_rating() -> None:
    """A settled player far above the field wins as expected: the game says almost nothing, and it
    must not leave the rating less sure than before (which would lower the shown number)."""
    field = {"ann": Rating(2000.0, 25.0), "bob": Rating(900.0, 25.0), "cid": Rating(900.0, 25.0)}
    step = update(game("t/1", 1, "ann bob cid", (50, 30, 10)), field)
    ann = dict(step.entries)["ann"].after
    assert ann.sigma <= field["ann"].sigma
    assert ann.mu - Z * ann.sigma >= field["ann"].mu - Z * field["ann"].sigma


def test_the_same_game_given_twice_counts_once() -> None:
    first = game("t/1", 1, "ann bob cid", (50, 30, 10))
    once = fold([first])
    ledger = Ledger([first])
    assert ledger.add(first) is False
    assert ledger.add(msgspec.json.decode(msgspec.json.encode(first), type=FinishedGame)) is False
    assert ledger.leaderboard() == once.leaderboard() and ledger.history("ann") == once.history("ann")
    assert ledger.games() == 1


def test_a_different_record_under_a_folded_id_is_refused() -> None:
    ledger = fold([game("t/1", 1, "ann bob cid", (50, 30, 10))])
    with pytest.raises(ConflictingGame, match="t/1"):
        ledger.add(game("t/1", 1, "ann bob cid", (10, 30, 50)))
    before = everything(ledger)
    with pytest.raises(ConflictingGame, match="t/2"):  # two records of one game in one batch
        ledger.extend(
            [
                game("t/0", 0, "ann bob cid", (1, 2, 3)),
                game("t/2", 2, "a b c", (1, 2, 3)),
                game("t/2", 2, "a b c", (3, 2, 1)),
            ]
        )
    assert everything(ledger) == before and ledger.step("t/0") is None  # refused before any change


GAMES = [
    game("a/1", 10, "ann bob cid", (50, 30, 10)),
    game("b/1", 20, "cid dan bot:club ann", (20, 60, 40, 10)),
    game("a/2", 30, "bob ann cid dan eve", (10, 20, 30, 40, 50), resigned=(4,)),
    game("c/1", 30, "eve bot:strong dan", (30, 30, 10)),  # ended with a/2: taken in the order of ids
    game("b/2", 40, "ann bob bot:novice", (5, 50, 25)),
]


def everything(ledger: Ledger) -> object:
    return ledger.leaderboard(), {a: ledger.history(a) for a in ("ann", "bob", "cid", "dan", "eve")}


def test_the_order_of_arrival_changes_nothing() -> None:
    in_order = fold(GAMES)
    late = Ledger()
    for g in (GAMES[3], GAMES[0], GAMES[4], GAMES[2], GAMES[1]):  # each arriving after games that ended later
        late.add(g)
    assert everything(late) == everything(in_order)
    assert everything(fold(reversed(GAMES))) == everything(in_order)
    # and the order matters: the same games ending in another order rate otherwise
    moved = [msgspec.structs.replace(g, ended=100 - g.ended) for g in GAMES]
    assert everything(fold(moved)) != everything(in_order)


def test_a_late_game_is_folded_in_its_place_and_the_later_ones_again() -> None:
    ledger = fold(GAMES[2:])
    before = ledger.rating("ann")
    ledger.add(GAMES[0])
    assert [e.game for e in ledger.history("ann")] == ["a/1", "a/2", "b/2"]
    assert ledger.rating("ann") != before
    assert everything(ledger) == everything(fold([GAMES[0], *GAMES[2:]]))


@pytest.mark.parametrize(
    ("seats", "scores", "why"),
    [
        ("ann bob cid", None, "unfinished"),
        ("bot:club bot:strong bot:novice", (3, 2, 1), "no_person"),
        ("ann bob bot:random", (3, 2, 1), "unmeasured_bot"),
        ("ann bob bot:strong@5000", (3, 2, 1), "unmeasured_bot"),
        ("ann bob ann", (3, 2, 1), "account_twice"),
    ],
)
def test_a_game_that_rates_nobody(seats: str, scores: tuple[int, ...] | None, why: str) -> None:
    ledger = fold([game("t/1", 1, seats, scores), game("t/2", 2, "ann bob cid", (3, 2, 1))])
    step = ledger.step("t/1")
    assert step is not None and step.unrated == why and step.entries == ()
    assert [e.game for e in ledger.history("ann")] == ["t/2"]
    assert ledger.rating("ann") == fold([game("t/2", 2, "ann bob cid", (3, 2, 1))]).rating("ann")


@pytest.mark.parametrize(
    "record",
    [
        {"game": "", "ended": 1, "seats": [], "scores": None},
        {"game": "t", "ended": 1, "seats": [{"type": "person", "account": "a"}] * 2, "scores": [1, 2]},
        {"game": "t", "ended": 1, "seats": [{"type": "person", "account": "a"}] * 3, "scores": [1, 2]},
        {
            "game": "t",
            "ended": 1,
            "seats": [{"type": "bot", "level": "club"}] * 3,
            "scores": [1, 2, 3],
            "resigned": [3],
        },
        {
            "game": "t",
            "ended": 1,
            "seats": [{"type": "bot", "level": "club"}] * 3,
            "scores": [1, 2, 3],
            "resigned": [1, 0],
        },
        {"game": "t", "ended": 1, "seats": [{"type": "person", "account": ""}] * 3, "scores": [1, 2, 3]},
        {"game": "t" * 201, "ended": 1, "seats": [{"type": "bot", "level": "club"}] * 3, "scores": [1, 2, 3]},
    ],
)
def test_a_bad_record_is_refused_when_read(record: dict[str, object]) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(msgspec.json.encode(record), type=FinishedGame)


def test_a_newcomer_is_provisional_until_known_better_than_one_games_luck() -> None:
    assert NEWCOMER.provisional
    ledger = Ledger()
    games = 0
    while ledger.rating("ann").provisional:
        games += 1
        ledger.add(game(f"t/{games}", games, "ann bot:club bot:club", (games % 3, 1, 2 - games % 3)))
    assert 10 < games < 40
    assert not ledger.leaderboard()[0].rating.provisional


def test_a_rating_reads_against_the_ladder() -> None:
    assert plays_like(round(level_rating("club") or 0) + 40) == ("club", 40)
    assert plays_like(round(level_rating("expert") or 0) - 5) == ("strong", -5)
    assert plays_like(0)[0] == "novice" and plays_like(5000)[0] == "master"


def test_the_leaderboards_top_is_its_head() -> None:
    ledger = fold(GAMES)
    assert ledger.leaderboard(top=2) == ledger.leaderboard()[:2]
    shown = [s.rating.shown for s in ledger.leaderboard()]
    assert shown == sorted(shown, reverse=True)


def played(seats: list[Seat], stand_in_for: int) -> list[Event]:
    """A whole game of greedy moves, every placement of seat ``stand_in_for`` a stand-in's."""
    game = Game(new_game(seats, seed=5), trusted=True)
    events: list[Event] = [game.created]
    while not game.over:
        seat = game.to_move
        placement = choose("greedy", game, seat)
        events += game.place(placement, stand_in="greedy" if seat == stand_in_for else None)
    return events


SEATS = [
    Seat(name="Ann", kind="human", color=COLORS[0]),
    Seat(name="Bob", kind="human", color=COLORS[1]),
    Seat(name="Club", kind="bot", bot="club", color=COLORS[2]),
]


def test_a_game_read_from_its_events_rates_a_stand_ins_seat_as_its_owners() -> None:
    events = played(SEATS, stand_in_for=1)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    record = from_events("t/1", 7, events, ["ann", "bob", None])
    assert record == FinishedGame(
        game="t/1", ended=7, seats=(Person("ann"), Person("bob"), BotSeat("club")), scores=tuple(ended.scores)
    )
    ledger = fold([record])
    assert [e.place for e in ledger.history("bob")] == [places(tuple(ended.scores))[1]]
    # resigned, the same seat finishes last, whatever its stand-in scored
    gave_up = fold([from_events("t/1", 7, events, ["ann", "bob", None], resigned=[False, True, False])])
    assert gave_up.history("bob")[0].place == 3


def test_a_game_closed_before_its_end_rates_nobody() -> None:
    events = played(SEATS, stand_in_for=1)
    unfinished = [e for e in events if not isinstance(e, GameEnded)]
    record = from_events("t/1", 7, unfinished, ["ann", "bob", None])
    assert record.scores is None
    ledger = fold([record])
    assert ledger.accounts() == 0 and ledger.step("t/1") == Step(record, (), unrated="unfinished")


def test_events_that_are_no_game_or_a_person_without_account_are_refused() -> None:
    events = played(SEATS, stand_in_for=1)
    with pytest.raises(ValueError, match="seat 2 is a person's with no account"):
        from_events("t/1", 7, events, ["ann", None, None])
    with pytest.raises(ValueError, match="do not start with game_created"):
        from_events("t/1", 7, events[1:], ["ann", "bob", None])
    with pytest.raises(ValueError, match="the accounts are not one per seat"):
        from_events("t/1", 7, events, ["ann", "bob"])


def test_an_id_from_outside_is_never_said_raw() -> None:
    hostile = "t/\x1b[2J1"
    ledger = fold([game(hostile, 1, "ann bob cid", (50, 30, 10))])
    with pytest.raises(ConflictingGame) as refused:
        ledger.add(game(hostile, 1, "ann bob cid", (10, 30, 50)))
    assert "\x1b" not in str(refused.value) and "\\x1b[2J" in str(refused.value)
    with pytest.raises(msgspec.ValidationError) as bad:
        msgspec.json.decode(
            msgspec.json.encode(msgspec.structs.asdict(game(hostile, 1, "a b c", None)) | {"scores": [1]}),
            type=FinishedGame,
        )
    assert "\x1b" not in str(bad.value) and "the scores are not one per seat" in str(bad.value)


def test_a_profile_counts_places_and_reads_as_json() -> None:
    ledger = fold(GAMES)
    profile = ledger.profile("ann")
    assert profile.history == ledger.history("ann") and len(profile.history) == 4
    assert sum(profile.places) == profile.standing.games == 4
    assert profile.places == tuple(sum(1 for e in profile.history if e.place == p) for p in range(1, 6))
    read = msgspec.json.decode(msgspec.json.encode(profile))
    shown = ledger.rating("ann").shown
    assert read["standing"] | {"rating": None} == {
        "account": "ann",
        "shown": shown,
        "provisional": True,
        "like": list(plays_like(shown)),
        "games": 4,
        "rating": None,
    }
    newcomer = ledger.profile("zoe")
    assert newcomer.history == () and newcomer.places == (0,) * 5 and newcomer.standing.shown == NEWCOMER.shown
