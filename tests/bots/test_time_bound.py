"""A move bounded in seconds as well as iterations (what a shared server asks of every bot): the
search ends at whichever comes first, and the iteration budget still bounds it alone when no
seconds are given (a local game's move stays a pure function of the game and seed)."""

from __future__ import annotations

from dvtui.bots import bot_fn, parse_bot
from dvtui.bots.strong import think
from dvtui.engine import COLORS, Game, Seat, new_game


def test_seconds_end_an_iteration_budget_that_would_run_longer() -> None:
    game = Game(new_game([Seat(name=f"p{i}", kind="bot", color=COLORS[i], bot="strong") for i in range(5)], seed=3))
    cut = think(game, 1, iterations=100_000, seconds=0.05)
    assert 0 < cut.iterations < 100_000
    whole = think(game, 1, iterations=300, seconds=60.0)  # iterations first: the whole budget, as without seconds
    assert whole.iterations == 300 == think(game, 1, iterations=300).iterations
    assert whole.placement == think(game, 1, iterations=300).placement


def test_a_server_bound_reaches_every_searching_level_and_only_them() -> None:
    strong = bot_fn(parse_bot("strong@50000"), within=2.0)
    assert strong.keywords == {"iterations": 50000, "seconds": 2.0, "stop": None}  # type: ignore[attr-defined]
    plain = bot_fn(parse_bot("strong"), within=2.0)
    assert plain.keywords["iterations"] > 0 and plain.keywords["seconds"] == 2.0  # type: ignore[attr-defined]
    timed = bot_fn(parse_bot("strong@5s"), within=2.0)
    assert timed.keywords == {"seconds": 2.0, "stop": None}  # type: ignore[attr-defined]
    master = bot_fn(parse_bot("master"), within=2.0)
    assert master.keywords == {"stop": None, "seconds": 2.0}  # type: ignore[attr-defined]
    assert bot_fn(parse_bot("greedy"), within=2.0) is bot_fn(parse_bot("greedy"))
    assert bot_fn(parse_bot("master")) is bot_fn(parse_bot("master"))  # no bound: the level itself
