"""The ladder's ratings: a duplicate gauntlet at 3, 4 and 5 players fitted by a Plackett-Luce model.

Each deal seats some levels and is played once in every cyclic rotation of the seats, so the luck
of the cards and of the seat falls on every level alike. Two designs say which levels sit together:

- ``--design rungs`` (the ladder's published ratings): for each rung ``LOWER:UPPER`` of ``--rungs``,
  tables of one bot of the upper level and ``players - 1`` of the lower. That is the ladder's own
  rung test, and the table a person meets: one player among bots of one level. The default rungs
  form a chain (plus ``greedy`` beside ``casual``), never a cycle, so each rung's difference is
  measured by its own games alone, and a level's rating is the sum of the rungs to the anchor;
- ``--design mixed``: each deal seats ``players`` distinct ``--levels`` drawn from the deal's
  number, so every level also meets far weaker and far stronger ones.

Each game's finishing order (by score; a tie broken by the deal's own draw) is one ranking; ``choix``
fits Plackett-Luce strengths to all rankings (a level seated twice is two draws of one strength,
which its spectral estimator handles exactly), shown as Elo (400 / ln 10 per unit of log-strength)
relative to ``--anchor``. The 95% intervals come from resampling whole deals (all of a deal's
rotations together), never single games, since the games of one deal are not independent. Beside
the fit, each pair of levels that met gets the share of games the stronger finished ahead of the
other (ties half), a reading of a rung free of the model: about 70% is 150 Elo.

Needs the ``bench`` extra (``pip install -e '.[bench]'``). Examples::

    python bench/bench_ladder.py --deals 2 --resamples 50                     # a smoke run, minutes
    python bench/bench_ladder.py --deals 20 --jobs 2 --record rungs.jsonl     # the published table (1 h)
    python bench/bench_ladder.py --deals 40 --jobs 2 --record rungs.jsonl     # 20 more deals a rung
    python bench/bench_ladder.py --design mixed --levels novice,casual,strong,master --players 3 --deals 30

``--record FILE`` keeps every game's result, one JSON line each, and plays only the games of the run
it does not hold yet: a run can be stopped and resumed, or extended (the same command with more
deals plays only the new ones; the fit covers every game of the run). A file written at another
commit is refused, since its games were played by other bots (uncommitted changes to the bots
are not seen: commit them first).

``--records FILE ...`` plays nothing: it fits the games the given ``--record`` files hold, at whatever
commit each was played (the caller vouches that the bots' moves were the same), every whole deal of the
rungs and sizes asked for, resampling whole deals across all the files. ``--earlier FILE`` pools the
fit, rung by rung, with the rungs of a set of games no longer kept (a JSON file of each rung's
games, Plackett-Luce Elo and share ahead with its 95% interval, as once published; see
:func:`pooled`)::

    python bench/bench_ladder.py --records ladder500.jsonl --earlier bench/ladder_deals_0_19.json --resamples 500
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import choix
import numpy as np
from bench_evaluation import resampled  # the same resampling of whole deals as the head-to-head bench

from dvtui.bots import bot_seed, choose, parse_bot
from dvtui.engine import COLORS, Game, Seat, new_game

ELO = 400 / math.log(10)
"""Elo points per unit of Plackett-Luce log-strength (the logistic scale of Elo)."""
RUNGS = "novice:casual,casual:club,club:strong,strong:master,casual:greedy"
"""The rung design's rungs by default: the ladder, with strong for expert (the same player,
tests/bots/test_ladder.py) and greedy measured beside casual, the level it plays like."""
POOL = "novice,casual,greedy,club,strong,master"
"""The mixed design's levels by default."""

Task = tuple[int, int, int, tuple[str, ...]]
"""(players, deal, rotation, the deal's levels in seat order before rotation)."""
Result = tuple[Task, list[str], dict[str, list[float]]]
"""(the task, levels from first to last place, each level's move times)."""


def seating(players: int, deal: int, pool: tuple[str, ...]) -> tuple[str, ...]:
    """The levels at a deal: ``players`` of the pool, distinct while the pool allows, drawn from the deal."""
    rng = random.Random(players * 1_000_003 + deal)
    if len(pool) >= players:
        return tuple(rng.sample(pool, players))
    return tuple(rng.choice(pool) for _ in range(players))


def rung(players: int, lower: str, upper: str) -> tuple[str, ...]:
    """A rung's table: the upper level in the first seat, the lower in every other."""
    return (upper, *(lower,) * (players - 1))


def tasks(rungs: list[tuple[str, str]] | None, pool: tuple[str, ...], sizes: list[int], deals: range) -> list[Task]:
    """Every game of the gauntlet (the rung design's when ``rungs`` are given): the slowest rung first,
    then deal by deal, so that a run stopped early has played whole deals at every size."""
    if rungs is not None:
        tables = [(p, d, rung(p, lo, up)) for lo, up in reversed(rungs) for d in deals for p in reversed(sizes)]
    else:
        tables = [(p, d, seating(p, d, pool)) for p in sizes for d in deals]
    return [(p, d, r, levels) for p, d, levels in tables for r in range(p)]


def commit() -> str:
    """The source tree's commit, which the bots' play is a function of."""
    where = Path(__file__).parent
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=where
    ).stdout.strip()


def recorded(path: Path | None, head: str) -> dict[Task, Result]:
    """The games a ``--record`` file holds, by task (none without a file); exits on another commit's file."""
    found: dict[Task, Result] = {}
    if path is None or not path.exists():
        return found
    for n, line in enumerate(path.read_text().splitlines(), 1):
        row = json.loads(line)
        if row["commit"] != head:
            sys.exit(f"bench_ladder: error: {path} line {n}: played at commit {row['commit']}, this is {head}")
        players, deal, rotation, levels = row["task"]
        task = (players, deal, rotation, tuple(levels))
        found[task] = (task, row["order"], row["times"])
    return found


def loaded(paths: list[Path]) -> tuple[dict[Task, Result], set[str]]:
    """Every game the record files hold, at any commit, and those commits; exits on a game two lines hold."""
    found: dict[Task, Result] = {}
    commits: set[str] = set()
    for path in paths:
        if not path.exists():
            sys.exit(f"bench_ladder: error: {path}: no such record")
        for n, line in enumerate(path.read_text().splitlines(), 1):
            row = json.loads(line)
            players, deal, rotation, levels = row["task"]
            task = (players, deal, rotation, tuple(levels))
            if task in found:
                sys.exit(
                    f"bench_ladder: error: {path} line {n}: deal {deal} at {players} players, rotation {rotation} again"
                )
            found[task] = (task, row["order"], row.get("times", {}))  # (a slim copy keeps no times)
            commits.add(row["commit"])
    return found, commits


def spans(numbers: list[int]) -> str:
    """Deal numbers as runs (``0-19, 500-519``)."""
    runs: list[list[int]] = []
    for k in sorted(set(numbers)):
        if runs and k == runs[-1][1] + 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)


Estimate = tuple[int, float, float, float, float]
"""A rung's (games, Plackett-Luce Elo, its standard error, share ahead, its standard error)."""


def from_interval(low: float, high: float) -> float:
    """A standard error read from a 95% interval (its width over 2 x 1.96)."""
    return (high - low) / (2 * 1.96)


def earlier(path: Path) -> dict[tuple[str, str], Estimate]:
    """The rungs of a set of games no longer kept, from its JSON file.

    Each rung gives its games, its Plackett-Luce Elo (the upper level's rating less the lower's) and
    the share ahead with its 95% interval; only the share's interval was published for every rung,
    so the Elo's standard error is read from it through the slope of the logistic Elo curve (on
    games that are kept, the two agree within a few Elo)."""
    rungs: dict[tuple[str, str], Estimate] = {}
    for name, row in json.loads(path.read_text())["rungs"].items():
        lower, _, upper = name.partition(":")
        share, low, high = row["ahead"]
        error = from_interval(low, high)
        rungs[(lower, upper)] = (row["games"], float(row["elo"]), ELO * error / (share * (1 - share)), share, error)
    return rungs


def pooled(a: Estimate, b: Estimate) -> Estimate:
    """Two sets' estimates of one rung pooled with their games as weights.

    The pooled Elo and share are the games-weighted means; the sets' games are independent, so the
    variance of a weighted mean is the weighted sum of their variances (what resampling whole deals
    within each set would give), read as a normal 95% interval."""
    games = a[0] + b[0]
    wa, wb = a[0] / games, b[0] / games
    return (
        games,
        wa * a[1] + wb * b[1],
        math.hypot(wa * a[2], wb * b[2]),
        wa * a[3] + wb * b[3],
        math.hypot(wa * a[4], wb * b[4]),
    )


def chained(rungs: dict[tuple[str, str], Estimate], anchor: str) -> dict[str, tuple[float, float]]:
    """Each level's Elo against the anchor as the sum of the rungs between them, with its standard
    error (the rungs' games are independent, so their variances add)."""
    levels = {anchor: (0.0, 0.0)}
    while True:
        grown = False
        for (lower, upper), (_, elo, error, _, _) in rungs.items():
            if upper in levels and lower not in levels:
                levels[lower] = (levels[upper][0] - elo, math.hypot(levels[upper][1], error))
                grown = True
            elif lower in levels and upper not in levels:
                levels[upper] = (levels[lower][0] + elo, math.hypot(levels[lower][1], error))
                grown = True
        if not grown:
            return levels


def ahead(order: list[str], a: str, b: str) -> float | None:
    """The share of (a seat, b seat) pairs of one game where ``a`` finished ahead; None if they did not meet."""
    pairs = [i < j for i, x in enumerate(order) if x == a for j, y in enumerate(order) if y == b]
    return sum(pairs) / len(pairs) if pairs else None


def play(task: Task) -> Result:
    """One game of the deal with the levels rotated ``rotation`` seats on; their finishing order."""
    players, deal, rotation, levels = task
    seated = [levels[(i + rotation) % players] for i in range(players)]
    specs = [parse_bot(level) for level in seated]
    seats = [Seat(name=f"{s.level}{i}", kind="bot", color=COLORS[i], bot=str(s)) for i, s in enumerate(specs)]
    seed = 7_000_003 * deal + players
    game = Game(new_game(seats, first_player=0, seed=seed))
    times: dict[str, list[float]] = defaultdict(list)
    while not game.over:
        p = game.to_move
        start = time.perf_counter()
        placement = choose(specs[p], game, bot_seed(seed, p))
        times[seated[p]].append(time.perf_counter() - start)
        game.place(placement)
    scores = game.scores()
    ties = random.Random(seed).random
    order = sorted(range(players), key=lambda q: (-scores[q], ties()))
    return task, [seated[q] for q in order], dict(times)


def played(
    todo: list[Task], done: dict[Task, Result], path: Path | None, jobs: int, head: str
) -> tuple[list[Task], float]:
    """Plays the games of ``todo`` that ``done`` lacks into it (and the record): those games, and the seconds taken."""
    missing = [t for t in todo if t not in done]
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        record = stack.enter_context(path.open("a")) if path else None
        workers = stack.enter_context(multiprocessing.Pool(jobs)) if jobs > 1 else None
        for result in workers.imap_unordered(play, missing) if workers else map(play, missing):
            done[result[0]] = result
            if record is not None:
                task, order, moved = result
                record.write(json.dumps({"commit": head, "task": task, "order": order, "times": moved}) + "\n")
                record.flush()
    return missing, time.perf_counter() - start


def fit(rankings: list[list[int]], items: int) -> np.ndarray:
    """Plackett-Luce log-strengths (a little regularised, so a level that never won stays finite)."""
    return np.asarray(choix.ilsr_rankings(items, [tuple(r) for r in rankings], alpha=0.01), dtype=float)


def as_elo(share: float) -> float:
    """A share of games finished ahead of one other player, on the logistic Elo curve."""
    share = min(max(share, 1e-6), 1 - 1e-6)
    return ELO * math.log(share / (1 - share))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--design", choices=("rungs", "mixed"), default="rungs", help="which levels sit together")
    ap.add_argument("--rungs", default=RUNGS, help="rungs LOWER:UPPER, comma-separated (default: %(default)s)")
    ap.add_argument("--levels", default=POOL, help="the mixed design's levels (default: %(default)s)")
    ap.add_argument("--anchor", default="strong", help="the level shown at 0 Elo")
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--first-deal", type=int, default=0)
    ap.add_argument("--deals", type=int, default=2, help="deals per table size (and per rung)")
    ap.add_argument("--resamples", type=int, default=200, help="bootstrap resamples of whole deals")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--record", type=Path, help="a JSON-lines file of played games to resume and extend")
    ap.add_argument(
        "--records", type=Path, nargs="+", metavar="FILE", help="fit the games of these records, playing none"
    )
    ap.add_argument("--earlier", type=Path, metavar="FILE", help="pool the rungs with those of a set no longer kept")
    args = ap.parse_args()
    rungs = (
        [(r.partition(":")[0], r.partition(":")[2]) for r in args.rungs.split(",")] if args.design == "rungs" else None
    )
    if rungs is not None:
        pool = tuple(dict.fromkeys(level for pair in rungs for level in pair))
    else:
        pool = tuple(args.levels.split(","))
    for level in pool:
        parse_bot(level)
    sizes = [int(p) for p in args.players.split(",")]
    if args.earlier is not None and rungs is None:
        sys.exit("bench_ladder: error: --earlier pools rungs: it needs the rung design")
    if args.records:
        done, commits = loaded(args.records)
        tables = {rung(size, lo, up) for lo, up in rungs for size in sizes} if rungs is not None else None
        asked = [t for t in done if t[0] in sizes and (set(t[3]) <= set(pool) if tables is None else t[3] in tables)]
        rotations = Counter((players, deal, levels) for players, deal, _, levels in asked)
        todo = sorted(t for t in asked if rotations[(t[0], t[1], t[3])] == t[0])  # whole deals only
        head, missing, wall = ", ".join(sorted(commits)), [], 0.0
    else:
        todo = tasks(rungs, pool, sizes, range(args.first_deal, args.first_deal + args.deals))
        head = commit()
        done = recorded(args.record, head)
        missing, wall = played(todo, done, args.record, args.jobs, head)
    results = [done[t] for t in todo]

    index = {level: i for i, level in enumerate(pool)}
    by_deal: dict[tuple[int, int, tuple[str, ...]], list[list[str]]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    for (players, deal, _, levels), order, moved in results:
        by_deal[(players, deal, levels)].append(order)
        for level, spent in moved.items():
            times[level].extend(spent)
    deals = list(by_deal)
    anchor = index.get(args.anchor, 0)

    def strengths(picked: list[int]) -> np.ndarray:
        rankings = [[index[level] for level in order] for k in picked for order in by_deal[deals[k]]]
        params = fit(rankings, len(pool))
        return np.asarray((params - params[anchor]) * ELO)

    point = strengths(list(range(len(deals))))
    rng = np.random.default_rng(0)
    spread = np.asarray([strengths(list(rng.integers(0, len(deals), len(deals)))) for _ in range(args.resamples)])

    print(
        f"{date.today()} commit {head}: {args.design} design, {len(results)} games ({len(deals)} deals at "
        f"{args.players} players, deals {spans([t[1] for t in todo])}, every rotation; "
        f"{len(missing)} played now in {wall / 60:.1f} min), {args.resamples} resamples of whole deals"
    )
    print(f"{'level':<10} {'Elo':>6} {'95% interval':>16} {'p95 s/move':>11}")
    ranked = sorted(pool, key=lambda lv: -point[index[lv]])
    for level in ranked:
        i = index[level]
        lo, hi = np.percentile(spread[:, i], [2.5, 97.5]) if len(spread) else (math.nan, math.nan)
        spent = sorted(times[level])
        p95 = f"{spent[min(len(spent) - 1, int(0.95 * len(spent)))]:.3f}" if spent else "-"  # (a slim record: none)
        print(f"{level:<10} {point[i]:>6.0f} {f'{lo:.0f} .. {hi:.0f}':>16} {p95:>11}")

    pairs_rng = random.Random(0)
    print(f"\n{'pair':<20} {'players':>7} {'games':>6} {'ahead':>6} {'95% interval':>16} {'as Elo':>7}")
    for high, low in ((a, b) for n, a in enumerate(ranked) for b in ranked[n + 1 :]):
        for size in [None, *sizes] if len(sizes) > 1 else [None]:
            per_deal = []
            for key in deals:
                if size is None or key[0] == size:
                    shares = [s for order in by_deal[key] if (s := ahead(order, high, low)) is not None]
                    if shares:
                        per_deal.append(shares)
            if per_deal:
                share, lo, hi = resampled(per_deal, args.resamples, pairs_rng)
                games = sum(map(len, per_deal))
                pair = f"{high} > {low}"
                print(
                    f"{pair:<20} {size or 'all':>7} {games:>6} {share:>6.3f} {f'{lo:.3f} .. {hi:.3f}':>16} "
                    f"{as_elo(share):>+7.0f}"
                )

    if args.earlier is not None and rungs is not None:
        mine = {
            pair: measured(pair, by_deal, point[index[pair[1]]] - point[index[pair[0]]], spread, index, args.resamples)
            for pair in rungs
        }
        before = earlier(args.earlier)
        both = {pair: pooled(before[pair], mine[pair]) if pair in before else mine[pair] for pair in rungs}
        print(f"\npooled with {args.earlier}, rung by rung (games as weights, normal 95% intervals)")
        print(f"{'level':<10} {'Elo':>6} {'95% interval':>16}")
        levels = chained(both, args.anchor)
        for level, (elo, error) in sorted(levels.items(), key=lambda item: -item[1][0]):
            print(f"{level:<10} {elo:>6.0f} {f'{elo - 1.96 * error:.0f} .. {elo + 1.96 * error:.0f}':>16}")
        print(f"\n{'rung':<20} {'games':>6} {'Elo':>6} {'ahead':>6} {'95% interval':>16} {'as Elo':>7}")
        for (lower, upper), (games, elo, _, share, error) in both.items():
            pair = f"{upper} > {lower}"
            interval = f"{share - 1.96 * error:.3f} .. {share + 1.96 * error:.3f}"
            print(f"{pair:<20} {games:>6} {elo:>+6.0f} {share:>6.3f} {interval:>16} {as_elo(share):>+7.0f}")


def measured(
    pair: tuple[str, str],
    by_deal: dict[tuple[int, int, tuple[str, ...]], list[list[str]]],
    elo: float,
    spread: np.ndarray,
    index: dict[str, int],
    resamples: int,
) -> Estimate:
    """One rung's estimate from this run's games: its Elo (the fit's, with the standard error its
    resamples of whole deals give) and the share of games its upper level finished ahead."""
    lower, upper = pair
    per_deal = [
        [s for order in orders if (s := ahead(order, upper, lower)) is not None]
        for (players, _, levels), orders in by_deal.items()
        if levels == rung(players, lower, upper)
    ]
    share, low, high = resampled(per_deal, resamples, random.Random(0))
    differences = spread[:, index[upper]] - spread[:, index[lower]]
    error = from_interval(*np.percentile(differences, [2.5, 97.5]))
    return sum(map(len, per_deal)), float(elo), float(error), share, from_interval(low, high)


if __name__ == "__main__":
    main()
