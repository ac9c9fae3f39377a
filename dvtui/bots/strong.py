"""``strong``: Monte Carlo tree search with max^n backups over the placements left in the round.

Why this shape: once dealt, Dolce Vita has no hidden information and no chance (R4.4), and a round
is a short sequence of public placements (5 per player, R4.2) followed by a deterministic
resolution (R5, R6). So the bot searches the rest of the current round exactly as the rules play it
and judges the state the round's resolution leaves with :mod:`dvtui.bots.value`, which estimates
each player's chance to win (rank, not raw score, decides the game, R8).

- **Tree**: one node per sequence of placements; each node keeps, for every player, the sum of the
  values its simulations gave them (max^n: at a node, the player to move picks the child best for
  *them*). Children are tried in the order of a cheap prior (what the placement gains its player in
  that column if the round ended now), and progressive widening lets a node consider more of its up
  to 42 placements as it is visited more, so the search goes deep where it matters.
- **Merging**: placements into columns that cannot matter (empty columns, which can never hold a
  card again) are one move per card, and two columns with the same cards and the same totals are
  one column.
- **Rollouts**: the placements left after the tree are played by a fast policy in which each
  player grabs, with its smallest sufficient card, the column whose bottom card is worth most to it
  (with a little randomness); then the round is resolved exactly, exchanges included.
- **Determinism**: all chance comes from a ``random.Random`` seeded per call from the bot's seed and
  the move (:func:`dvtui.bots.base.mix`), and an iteration budget never looks at the clock; so the
  same state, seed and budget give the same move on every machine. A time budget (``strong@0.5s``,
  the app's hints) trades that for a bounded wait. A bot that only plays the move stops its budget
  early once no placement could still overtake the most visited one: the same move, about a fifth
  sooner on average.

The search works on a compact copy of the round (totals, hands, cards as ints) rather than on
:class:`~dvtui.engine.Game`, because it imagines thousands of ends of the round for one move: the
round's end is :mod:`dvtui.engine.compact` (the engine's rules on that copy, tested against
:meth:`Game.projected`), and columns are ranked by :func:`dvtui.engine.rank`.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..engine import COLUMNS, PLACEMENTS_PER_PLAYER, Game, Phase, Placement, compact, rank
from . import value as V
from .base import Stopped, mix, move_key

# The constants are Final so that the compiled build (pyproject.toml's mypyc hook) folds them into the code instead of
# looking them up at every use; bench/bench_strength.py --set still retunes them in the pure build.
DEFAULT_ITERATIONS: Final = 5000
"""Plain ``strong``: a budget meant to keep a person waiting well under a second a move, even on a
shared core (more players cost more per simulation). More iterations keep paying off; the times
and the strength are printed by ``bench/bench_strength.py``."""

EXPLORATION: Final = 0.25
"""UCT constant; values are win chances in [0, 1]. Tuned against greedy (``bench/bench_strength.py
--set EXPLORATION=...``)."""
WIDEN_BASE: Final = 2.0
WIDEN_POWER: Final = 0.5
"""Progressive widening: a node visited N times considers ceil(WIDEN_BASE * N**WIDEN_POWER) moves
(the root: ROOT_WIDEN_BASE, so every first move is looked at early)."""
ROOT_WIDEN_BASE: Final = 8.0
CARD_COST: Final = 0.35
"""Rollouts and priors charge a card this much (in 100k per pip) for using it: spend small cards.
Tuned against greedy, like :data:`EXPLORATION`."""
STOP_EVERY: Final = 64
"""Iterations between two looks at the ``stop`` event (and, for a caller that settles, at whether
the move is settled): a small slice of a search, so a quitting program need not wait for the move,
and few enough looks that they cost the search nothing."""
ROLLOUT_EPSILON: Final = 0.1
"""Chance that a rollout placement is uniformly random: keeps the rollouts from being one story."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How a search judges what it cannot search: the rollouts' policy and the value at the round's
    end. The defaults are ``strong``'s own (its moves are pinned by tests); a level may search with
    another (:mod:`dvtui.bots.ladder`), and ``bench/bench_evaluation.py`` measures one against another."""

    rollout_epsilon: float = ROLLOUT_EPSILON
    """Chance that a rollout placement is random rather than the fast policy's (0: greedy rollouts)."""
    potential_weight: float = V.POTENTIAL_WEIGHT
    """How much of what the columns left can still add counts towards a player's expected final score."""
    temperature_scale: float = 1.0
    """Times the fitted softmax temperature (below 1: a lead at the round's end says more)."""
    strong_games: bool = False
    """Judge the round's end by the value fitted to strong bots' games (:data:`dvtui.bots.value.STRONG_GAMES`:
    its depth decay, potential weight and temperature) rather than to greedy ones."""
    rank_weight: float = V.RANK_WEIGHT
    """Part of the judgement given to the share of opponents beaten rather than to winning."""
    exploration: float = EXPLORATION
    """The UCT constant."""


STRONG = Evaluation()
"""``strong``'s evaluation."""

_Move = tuple[float, int, int]
"""(minus its prior, card, column) inside the search: a plain triple, made by the thousand per move
and sorted as it stands (best prior first); what leaves the search is a
:class:`~dvtui.engine.Placement`."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The strong bot's advice: the move, and what it expects of it (for the app's hint, ``h``)."""

    placement: Placement
    gain: int
    """Expected rise of the player's score by the end of this round, in game units (e.g. 300000)."""
    win: float
    """The search's judgement of the move for the player, about 0..1: mostly their chance to win
    (see :mod:`dvtui.bots.value`); from :func:`dvtui.bots.advise` (the hint), that chance calibrated."""
    iterations: int
    seconds: float
    visits: tuple[tuple[Placement, int], ...] = ()
    """Every placement the search weighed at the root with how often it tried it, most first: the
    search's own ranking, from which the ladder's weaker levels draw (:mod:`dvtui.bots.ladder`)."""


class _Node:
    __slots__ = ("gain", "judge", "kids", "mean", "mover", "moves", "n", "root_n", "w")

    def __init__(self, mover: int, players: int) -> None:
        self.mover = mover
        self.judge = (mover - 1) % players  # who chose this node: its parent's mover
        self.moves: list[_Move] | None = None  # merged, prior order; None until expanded
        self.kids: list[_Node] = []
        self.n = 0
        self.root_n = 0.0  # sqrt(n), kept by the backup: the selection reads it for every child it weighs
        # the sum of the values its simulations gave its judge, the only player whose sum is ever read
        # (the selection weighs a child for its parent's mover; the root's children are judged by the bot)
        self.w = 0.0
        self.mean = 0.0  # w / n, kept by the backup: what the selection weighs for the parent's mover
        self.gain = 0.0  # sum over simulations of the root player's score rise this round


class _Search:
    """One search from one state; holds the round's fixed facts in compact form."""

    def __init__(self, game: Game, seed: int, evaluation: Evaluation = STRONG) -> None:
        if game.phase != Phase.PLACEMENT:
            raise ValueError("the strong bot is asked for a placement outside the placement phase")
        n = game.n
        self.n = n
        self.me = game.to_move
        self.rng = random.Random(mix(seed, move_key(game), 0x57)).random
        self.state = state = compact.CompactGame(game)
        self.cols = state.columns
        self.live = [k for k in range(COLUMNS) if self.cols[k]]
        self.dead = [k for k in range(COLUMNS) if not self.cols[k]]
        # columns holding the same cards share a number (only money-only columns ever do: goods are unique)
        kinds: dict[tuple[int, ...], int] = {}
        self.same = [kinds.setdefault(tuple(col), k) for k, col in enumerate(self.cols)]
        self.own = state.goods
        self.worth = state.worth
        self.rounds_left = game.rounds - game.round
        self.last_round = self.rounds_left == 0
        decay, weight, temp = V.fitted(n, self.rounds_left, evaluation.strong_games)
        self.pot_w = weight if evaluation.strong_games else evaluation.potential_weight
        self.temp = temp * evaluation.temperature_scale
        self.eps = evaluation.rollout_epsilon
        self.rank_w = evaluation.rank_weight
        self.explore = evaluation.exploration
        self.decay = decay
        self.gains = V.gain_table(decay)
        self.tot0 = [t[:] for t in game.totals]
        self.hands0 = [sorted(h) for h in game.hands]
        self.left0 = PLACEMENTS_PER_PLAYER * n - len(game.placements)
        # value of each column's bottom card to each player, for the rollout policy
        self.prize = [[self._use(p, self.cols[k][0]) if self.cols[k] else 0 for k in range(COLUMNS)] for p in range(n)]
        # for the rollout policy: by player, the live columns worth something to them, most first
        # (ties in column order, the order the policy breaks them in)
        self.wanted = [sorted((k for k in self.live if row[k] > 0), key=lambda k: -row[k]) for row in self.prize]
        self.root = _Node(self.me, n)
        self.judged: dict[tuple[int, ...], tuple[list[float], int]] = {}
        """By the number of each column's outcome (:meth:`evaluate`): the round's end judged."""
        # every total of a column is below this (a player adds at most their hand to any column), so
        # a column's totals read as digits in this base are one small int, cheaper to look up than a tuple
        self.base = 1 + max(max(t) for t in self.tot0) + max(sum(h) for h in self.hands0)
        self.span = self.base**n
        self.placements: dict[int, list[_Move]] = {}
        """By hand, player, column and its totals, as one int (see :meth:`moves`): the placements there."""
        self.outcome_of: dict[int, int] = {}
        """By a column's totals in :attr:`base`: the number of its outcome in :attr:`outcomes`."""
        self.outcome_ids: dict[tuple[int, ...], int] = {}
        self.outcomes: list[tuple[int, ...]] = []
        """Every column outcome (:data:`compact.Outcomes`'s entries) met so far, numbered by :attr:`outcome_ids`."""
        self.iterations = 0

    def _use(self, p: int, code: int) -> int:
        """What receiving this card adds to player p's score (negative: a forced exchange, R6.1)."""
        k = code >> 3
        v = code & 7
        return v if k == compact.MONEY else v - self.own[p][k]

    # -- the round's end ------------------------------------------------------------------------

    def evaluate(self, tot: list[list[int]]) -> tuple[list[float], int]:
        """Resolve the round from these totals and judge it: (value per player, my score rise).

        Judgements are memoised by the columns' outcomes: many simulations of a round end alike,
        more as the round goes on."""
        outcome_of = self.outcome_of
        base = self.base
        ids: list[int] = []
        for t in tot:
            code = 0
            for x in t:
                code = code * base + x
            i = outcome_of.get(code)
            if i is None:
                i = outcome_of[code] = self._outcome_id(t)
            ids.append(i)
        key = tuple(ids)
        found = self.judged.get(key)
        if found is not None:
            return found
        known = self.outcomes
        orders = tuple([known[i] for i in ids])
        last = self.last_round
        worth, own, rest = self.state.resolve(orders, not last)
        gain = worth[self.me] - self.worth[self.me]
        if last:
            found = V.final(worth, self.rank_w), gain
        else:
            pw = self.pot_w
            pots = V.potentials(own, rest, self.gains)
            est = [worth[p] + pw * pots[p] for p in range(self.n)]
            found = V.estimate(est, self.temp, self.rank_w), gain
        self.judged[key] = found
        return found

    def _outcome_id(self, t: list[int]) -> int:
        """The number of the outcome of a column with these totals (see :func:`compact.outcomes`)."""
        order, cancelled = rank(t)
        entry = compact.CANCELLED if cancelled and not order else order
        i = self.outcome_ids.get(entry)
        if i is None:
            i = self.outcome_ids[entry] = len(self.outcomes)
            self.outcomes.append(entry)
        return i

    def share(self, other: _Search) -> None:
        """Use the memos of ``other``, a search from the same position: they are functions of the
        position alone (the judgement of each end of the round, the placements of each column)."""
        self.judged = other.judged
        self.placements = other.placements
        self.outcome_of = other.outcome_of
        self.outcome_ids = other.outcome_ids
        self.outcomes = other.outcomes

    # -- moves ----------------------------------------------------------------------------------

    def moves(self, tot: list[list[int]], hand: list[int], p: int) -> list[_Move]:
        """The distinct placements for p, best prior first (merged: see the module docstring).

        A placement's prior depends only on its column's cards and totals, the player and the
        card, and sibling nodes differ in one column: so each column's placements are kept by
        its state, the player and the hand."""
        seen: set[int] = set()
        scored: list[_Move] = []
        same = self.same
        kept = self.placements
        base = self.base
        span = self.span
        held = 0  # the hand as digits in base (cards are 1 and up, so no two hands read alike)
        for c in hand:
            held = held * base + c
        held = held * self.n + p
        for k in self.live:
            t = tot[k]
            code = 0  # the column's totals as digits in base, below span
            for x in t:
                code = code * base + x
            alike = same[k] * span + code
            if alike in seen:
                continue  # a column with the same cards and the same totals as one already listed
            seen.add(alike)
            key = (held * COLUMNS + k) * span + code
            found = kept.get(key)
            if found is None:
                found = kept[key] = [(-self._prior(t, self.cols[k], p, c), c, k) for c in hand]
            scored += found
        if self.dead:
            k = self.dead[0]
            for c in hand:
                prior = -CARD_COST * c - 0.01  # a card thrown away: the smaller, the better
                scored.append((-prior, c, k))
        scored.sort()
        return scored

    def _prior(self, t: list[int], col: list[int], p: int, c: int) -> float:
        """What placing card c in the column with these totals gains p if the round ended now
        (the card it would take then, against the one it takes without it), less the card's cost."""
        size = len(col)
        before = 0
        order = rank(t)[0]
        if p in order:
            i = order.index(p)
            if i < size:
                before = self._use(p, col[i])
        mine = t[p]
        t[p] = mine + c
        order = rank(t)[0]
        t[p] = mine
        after = 0
        if p in order:
            i = order.index(p)
            if i < size:
                after = self._use(p, col[i])
        return after - before - CARD_COST * c

    def rollout(self, tot: list[list[int]], hands: list[list[int]], p: int, left: int) -> None:
        """Play the ``left`` remaining placements with the fast policy (mutates tot and hands)."""
        n = self.n
        rng = self.rng
        wanted = self.wanted
        prize = self.prize
        eps = self.eps
        tops = [_top(t) for t in tot]  # each column's highest total, kept as the placements go
        while left:
            hand = hands[p]
            choice_c = 0
            choice_k = -1
            if rng() >= eps:
                best = 0.0
                mine_prize = prize[p]
                # the best column the player can take the lead in (or join), with the smallest card
                # that does; a tie goes to the first column. Visited by prize, most first, so once
                # not even the hand's smallest card could reach the best score, no later column can.
                least = CARD_COST * hand[0]  # the hand is sorted
                for k in wanted[p]:
                    if mine_prize[k] - least < best:
                        break
                    t = tot[k]
                    mine = t[p]
                    top = tops[k]
                    if mine < top:
                        need = top - mine + 1
                    elif _level(t, p, top):
                        need = 1  # level with the first
                    else:
                        continue  # already first here
                    for c in hand:
                        if c >= need:
                            s = mine_prize[k] - CARD_COST * c
                            if s > best or (s == best and k < choice_k):
                                best = s
                                choice_c = c
                                choice_k = k
                            break
            if choice_k < 0:
                choice_c = hand[int(rng() * len(hand))] if rng() < eps else hand[0]
                choice_k = self.dead[0] if self.dead and rng() >= eps else int(rng() * COLUMNS)
            _take(hand, choice_c)
            t = tot[choice_k]
            t[p] += choice_c
            if t[p] > tops[choice_k]:
                tops[choice_k] = t[p]
            p += 1
            if p == n:
                p = 0
            left -= 1

    # -- the search -----------------------------------------------------------------------------

    def force(self, card: int, column: int) -> None:
        """Make the search play this placement first: the root's only move (a search of what it is
        worth, :mod:`dvtui.bots.judgement`). Before the first iteration."""
        self.root.moves = [(0.0, card, column)]

    def iterate(self) -> None:
        n = self.n
        tot = [t[:] for t in self.tot0]
        hands = [h[:] for h in self.hands0]
        p = self.me
        left = self.left0
        node = self.root
        path = [node]
        while left:
            moves = node.moves
            if moves is None:
                moves = node.moves = self.moves(tot, hands[p], p)
            kids = node.kids
            base = ROOT_WIDEN_BASE if node is self.root else WIDEN_BASE
            width = min(len(moves), math.ceil(base * (node.n + 1) ** WIDEN_POWER))
            if len(kids) < width:
                i = len(kids)
                child = _Node((p + 1) % n, n)
                kids.append(child)
                _, c, k = moves[i]
                _take(hands[p], c)
                tot[k][p] += c
                p = (p + 1) % n
                left -= 1
                node = child
                path.append(node)
                break
            explore = self.explore * math.sqrt(math.log(node.n))
            best = -1.0
            pick = 0
            for i in range(width):
                kid = kids[i]
                s = kid.mean + explore / kid.root_n
                if s > best:  # ties go to the better prior (earlier child)
                    best = s
                    pick = i
            _, c, k = moves[pick]
            _take(hands[p], c)
            tot[k][p] += c
            p = (p + 1) % n
            left -= 1
            node = kids[pick]
            path.append(node)
        if left:
            self.rollout(tot, hands, p, left)
        values, gain = self.evaluate(tot)
        for node in path:
            node.n += 1
            node.root_n = math.sqrt(node.n)
            node.w += values[node.judge]
            node.mean = node.w / node.n
            node.gain += gain
        self.iterations += 1

    def settled(self, remaining: int) -> bool:
        """Whether ``remaining`` more iterations cannot change the most visited placement at the
        root: its lead over every other one (and over one not yet tried) is larger than that."""
        first = second = 0
        for kid in self.root.kids:
            kn = kid.n
            if kn > first:
                first, second = kn, first
            elif kn > second:
                second = kn
        return first - second > remaining

    def visits(self) -> tuple[tuple[Placement, int], ...]:
        """The root's placements with their visit counts, in :meth:`best`'s order (so the first is its move)."""
        root = self.root
        assert root.moves is not None and root.kids
        order = sorted(range(len(root.kids)), key=lambda j: (-root.kids[j].n, -root.kids[j].w))
        return tuple((Placement(card=root.moves[j][1], column=root.moves[j][2]), root.kids[j].n) for j in order)

    def best(self) -> tuple[Placement, float, float]:
        """The most visited move at the root, with its mean win value and mean score rise."""
        root = self.root
        assert root.moves is not None and root.kids
        i = max(range(len(root.kids)), key=lambda j: (root.kids[j].n, root.kids[j].w))
        kid = root.kids[i]
        _, card, column = root.moves[i]
        return Placement(card=card, column=column), kid.w / kid.n, kid.gain / kid.n


# The rollouts' and the tree's small list work as plain loops over ints: the compiled build makes them
# machine comparisons, where list.count, list.remove and max compare Python objects one by one.


def _take(hand: list[int], card: int) -> None:
    """``hand.remove(card)``: the first such card leaves the hand."""
    i = 0
    while hand[i] != card:
        i += 1
    hand.pop(i)


def _level(t: list[int], p: int, top: int) -> bool:
    """Whether another player than p has ``top`` in these totals (p has it: ``t.count(top) > 1``)."""
    return any(q != p and t[q] == top for q in range(len(t)))


def _top(t: list[int]) -> int:
    """``max(t)``."""
    top = t[0]
    for x in t:
        if x > top:
            top = x
    return top


def candidates(game: Game) -> list[Placement]:
    """The distinct placements the search weighs for the player to move, best prior first: one per
    card for all the empty columns together, and one for two columns with the same cards and totals
    (see the module docstring)."""
    search = _Search(game, 0)
    moves = search.moves([t[:] for t in search.tot0], search.hands0[search.me], search.me)
    return [Placement(card=card, column=column) for _, card, column in moves]


def searched_as(game: Game, placement: Placement) -> Placement:
    """The placement the search stands for ``placement`` with (see :func:`candidates`): the first
    empty column for any empty one, the first of two columns with the same cards and totals."""
    search = _Search(game, 0)
    k = placement.column
    if not search.cols[k]:
        return Placement(card=placement.card, column=search.dead[0])
    key = (search.same[k], tuple(search.tot0[k]))
    for j in search.live:
        if (search.same[j], tuple(search.tot0[j])) == key:
            return Placement(card=placement.card, column=j)
    return placement


def think(
    game: Game,
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    progress: Callable[[float], None] | None = None,
    stop: threading.Event | None = None,
    evaluation: Evaluation = STRONG,
    settle: bool = False,
) -> Suggestion:
    """Search from ``game`` for the player to move and return the move with what it expects.

    With ``seconds`` the search stops on the clock (not deterministic); otherwise after
    ``iterations`` simulations (default :data:`DEFAULT_ITERATIONS`), which makes the move a pure
    function of (state, seed, iterations). With both, after ``iterations`` or at ``seconds``,
    whichever comes first (a shared server bounds every move in time so): a move cut by the clock
    is no longer a pure function of them. ``progress(fraction)`` is called now and then, from the
    calling thread, so a UI can show how far the search is. ``stop``, once set, ends the search
    with :class:`~dvtui.bots.base.Stopped` (looked at every :data:`STOP_EVERY` iterations; it never
    changes the move of a search it lets finish). ``evaluation`` is how it judges the round's end
    (``strong``'s unless a level names another).

    ``settle`` ends an iteration budget as soon as the rest of it could no longer change the move
    (the most visited placement's lead is larger than the iterations left): the same placement,
    sooner, for a caller that wants only the move; the visits, ``win`` and ``gain`` then describe
    the shorter search.
    """
    start = time.perf_counter()
    search = _Search(game, seed, evaluation)
    if seconds is not None and iterations is None:
        deadline = start + seconds
        step = 0
        while True:
            for _ in range(32):
                search.iterate()
            if stop is not None and stop.is_set():
                raise Stopped
            now = time.perf_counter()
            if now >= deadline:
                break
            step += 1
            if progress is not None and step % 4 == 0:
                progress(min(1.0, (now - start) / seconds))
    else:
        budget = max(1, DEFAULT_ITERATIONS if iterations is None else iterations)
        every = max(1, budget // 50)
        cut_at = None if seconds is None else start + seconds
        for i in range(budget):
            search.iterate()
            if progress is not None and i % every == 0:
                progress(i / budget)
            if i % STOP_EVERY == 0:
                if stop is not None and stop.is_set():
                    raise Stopped
                if settle and search.settled(budget - i - 1):
                    break
                if cut_at is not None and i and time.perf_counter() >= cut_at:
                    break
    if progress is not None:
        progress(1.0)
    placement, win, gain = search.best()
    return Suggestion(
        placement=placement,
        gain=round(gain * 100_000),
        win=win,
        iterations=search.iterations,
        seconds=time.perf_counter() - start,
        visits=search.visits(),
    )


def choose(
    game: Game,
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    stop: threading.Event | None = None,
) -> Placement:
    """The level's entry in :data:`dvtui.bots.LEVELS`: the searched move, nothing else (so an
    iteration budget ends once its move is settled: the same move as the whole budget's)."""
    return think(game, seed, iterations=iterations, seconds=seconds, stop=stop, settle=True).placement
