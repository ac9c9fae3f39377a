"""What a position is worth to each player: the strong bot's judgement at the end of a round.

The search (``strong.py``) plays out the placements left in the round and resolves it exactly; this
module turns the state that leaves into one number per player that stands mostly for "how likely
is this player to win", because the game is won on rank (R8), not on raw score:

- after the last round the answer is exact: the share of the victory (1/k for k tied winners);
- before it, each player's final score is estimated as what they own now plus what the remaining
  goods can still add *for them* (a good is worth only its rise over the one of its category they
  already own, R6.1, and a card deep in a column is less likely to be reached), and the estimates
  become win chances through a softmax whose temperature grows with the rounds still to play;
- a quarter of the judgement is the share of opponents beaten (``master``'s: half, see
  :data:`dvtui.bots.ladder.MASTER`), and a pinch is the score margin, so a player who cannot win
  (or cannot lose) still plays for something instead of at random.

Cards, goods and scores are in the ints of :mod:`dvtui.engine.compact` (the state a compact
resolution leaves) so the hot loop does integer arithmetic only. The weights were fitted to games of
greedy bots (see ``bench/bench_strength.py --calibrate``).
"""

from __future__ import annotations

import functools
import math
from typing import Final

from ..engine.compact import MONEY

# Fitted to games of greedy bots per player count (``bench/bench_strength.py --calibrate``): the
# maximum-likelihood softmax of "score + weight * potential" over who won in the end. The plain numbers
# are Final, folded into the compiled build's code (pyproject.toml's mypyc hook), as the search's are in strong.py.
POTENTIAL_WEIGHT: Final = 0.3
"""How much of the goods' remaining value for a player counts towards their expected final score
(one weight for every number of rounds left: the fit varies little with it)."""
DEPTH_DECAY: dict[int, float] = {1: 0.5, 2: 0.75, 3: 0.85, 4: 0.85}
"""By rounds left: a card ``d`` deep in its column counts ``decay ** d`` of its value (cards deep in
a column are out of reach when few rounds are left). 0.9 beyond the table."""
TEMPERATURE: dict[int, tuple[float, float]] = {3: (1.3, 1.45), 4: (2.5, 0.9), 5: (1.25, 1.0)}
"""Softmax temperature (in 100k) = a + b * rounds_left: the more rounds left, the less a lead says."""
MARGIN: Final = 0.02
"""A little of the score margin (per 1,000,000) is added to every judgement, so that a decided game
still prefers losing by less and winning by more (and opponents who simply maximise their score
are better modelled)."""
RANK_WEIGHT: Final = 0.25
"""Part of the judgement given to the share of opponents beaten rather than to winning: a player
who cannot win still fights for second place, as people at the table expect."""


# Fitted to 160 self-play games of strong@2000 at 3 players (800 states), the compiled build:
# ``python bench/bench_strength.py --calibrate --calibrate-bot strong@2000 --players 3 --deals 160``.
STRONG_GAMES: dict[tuple[int, int], tuple[float, float, float]] = {
    (3, 1): (0.5, 0.3, 2.25),
    (3, 2): (0.65, 0.3, 4.0),
    (3, 3): (0.85, 0.25, 4.0),
    (3, 4): (0.75, 0.4, 5.0),
    (3, 5): (0.75, 0.4, 5.5),
}
"""By (players, rounds left): (depth decay, potential weight, softmax temperature in 100k) fitted the
same way to self-play games of ``strong`` bots instead of greedy ones, for a search that expects
its opponents to convert a lead as well as it does (a lead says more there: the temperatures are
lower than the greedy fit's). A size it does not cover keeps the greedy fit."""


def fitted(players: int, rounds_left: int, strong_games: bool) -> tuple[float, float, float]:
    """(depth decay, potential weight, temperature) for a round's end with ``rounds_left`` to play:
    from the fit to strong bots' games when asked and known, otherwise from the greedy fit."""
    if strong_games:
        found = STRONG_GAMES.get((players, rounds_left))
        if found is not None:
            return found
    return DEPTH_DECAY.get(rounds_left, 0.9), POTENTIAL_WEIGHT, temperature(players, rounds_left)


def potential(owned: list[int], rest: list[list[int]], gains: Gains) -> float:
    """What the cards still in the columns can add for a player owning ``owned`` (value by
    category), a card ``d`` deep counting ``decay ** d`` of its rise (``gains``: :func:`gain_table`)."""
    return potentials([owned], rest, gains)[0]


def potentials(owners: list[list[int]], rest: list[list[int]], gains: Gains) -> list[float]:
    """:func:`potential` for each of ``owners``: the columns are read once for all of them, since
    a search asks this for every player of every round's end it judges."""
    cards = [gains[d][code] for col in rest for d, code in enumerate(col)]
    out = []
    for owned in owners:
        held = owned + _NOBODY_OWNS_MONEY
        total = 0.0
        for k, rise in cards:
            total += rise[held[k]]  # adding the 0.0 of a card that would not rise changes nothing
        out.append(total)
    return out


_NOBODY_OWNS_MONEY: Final = [0]
"""Appended to a player's goods so that money (category :data:`~dvtui.engine.compact.MONEY`, the
last) reads as a category they own nothing of: its full value counts."""

Gains = list[list[tuple[int, tuple[float, ...]]]]
"""By depth in its column and card code: (the card's category, what it adds at that depth to a
player holding a good of value 0..7 of that category). A table, so that :func:`potentials` does
one look-up per card and player rather than the arithmetic."""

DEPTHS: Final = 64
"""A column holds at most 9 cards and the goods exchanged into it."""


@functools.cache
def gain_table(decay: float) -> Gains:
    """The :data:`Gains` for this depth decay (kept: a search asks for one of a few fitted decays)."""
    table: Gains = []
    for d in range(DEPTHS):
        weight = decay**d
        row = []
        for code in range((MONEY + 1) * 8):
            k = code >> 3
            v = code & 7
            row.append((k, tuple((v - h) * weight if v - h > 0 else 0.0 for h in range(8))))
        table.append(row)
    return table


def temperature(players: int, rounds_left: int) -> float:
    a, b = TEMPERATURE.get(players, (1.5, 1.2))
    return a + b * rounds_left


def final(worth: list[int], rank_w: float = RANK_WEIGHT) -> list[float]:
    """After the last round (R8): the share of the victory (1/k for k tied winners), blended with
    the share of opponents beaten (ties count half), plus the margin term."""
    # R8 read off the compact scores rather than Game.outcome(): this runs for every distinct end
    # of the game a search imagines, where there is no Game to ask, only the ints of a resolution.
    best = max(worth)
    winners = worth.count(best)
    n = len(worth)
    mean = sum(worth) / n
    win_w = 1.0 - rank_w
    out = []
    for w in worth:
        beaten = sum(1.0 if w > x else 0.5 if w == x else 0.0 for x in worth) - 0.5
        out.append((win_w / winners if w == best else 0.0) + rank_w * beaten / (n - 1) + MARGIN * (w - mean) / 10.0)
    return out


def estimate(estimates: list[float], temperature: float, rank_w: float = RANK_WEIGHT) -> list[float]:
    """Before the last round: win chances by a softmax of the estimated final scores, blended
    with the expected share of opponents beaten (pairwise logistic), plus the margin term."""
    n = len(estimates)
    top = max(estimates)
    mean = added(estimates) / n
    exps = [math.exp((e - top) / temperature) for e in estimates]
    total = added(exps)
    win_w = (1.0 - rank_w) / total
    out = []
    for p, e in enumerate(estimates):
        value = win_w * exps[p] + MARGIN * (e - mean) / 10.0
        if rank_w:
            mine = exps[p]  # mine / (mine + x) is logistic((e_p - e_q) / temperature); 1/2 for q = p
            beaten = 0.0  # added as added() does, inline: a call and a list per player cost the search 2-5%
            for x in exps:
                beaten += mine / (mine + x)
            value += rank_w * (beaten - 0.5) / (n - 1)
        out.append(value)
    return out


def added(values: list[float]) -> float:
    """The floats added left to right, as ``sum`` did before Python 3.12.

    Python 3.12's ``sum`` compensates its rounding, which changes the last bits of a judgement and
    could change a move: added this way, a bot plays the same game on every Python dvtui runs on
    (and the compiled build as the pure one)."""
    total = 0.0
    for v in values:
        total += v
    return total
