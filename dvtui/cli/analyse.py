"""``dvtui analyse FILE``: every placement's win chance and loss, marks where it mattered (headless).

The analysis itself is :mod:`dvtui.replay.analysis`; this prints it, with a progress line on a
terminal, and keeps it beside the file (``FILE.analysis.json``) to be reused.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..describe import column_label
from ..printable import printable
from ..replay.analysis import BUDGET, Analysis, kept, mark_counts
from ..store import parse_game
from ..store.reader import read_bytes
from .errors import UsageError


def run_analyse(args: argparse.Namespace) -> int:
    budget = BUDGET if args.budget is None else args.budget
    if budget < 1:
        raise UsageError(f"--budget must be 1 or more iterations, not {budget}")
    jobs = args.jobs if args.jobs is not None else 1
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {jobs}")
    if jobs == 0:
        jobs = os.cpu_count() or 1
    path = Path(args.file)
    data = read_bytes(path)
    loaded = parse_game(data, str(path))
    for notice in loaded.notices:
        print(f"dvtui: warning: {printable(notice)}", file=sys.stderr)
    analysis, unkept = kept(path, data, loaded.events, budget, jobs, _progress if sys.stderr.isatty() else None)
    if unkept is not None:
        print(f"dvtui: warning: {printable(unkept)}", file=sys.stderr)
    names = [seat.name for seat in loaded.events[0].players]  # type: ignore[attr-defined]
    sys.stdout.write(report(analysis, names))
    sys.stdout.flush()
    return 0


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(1, total)
    end = "\n" if done == total else ""
    sys.stderr.write(f"\ranalysing [{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
    sys.stderr.flush()


def _pct(x: float | None) -> str:
    return "  ?" if x is None else f"{round(100 * x):3d}%"


def report(analysis: Analysis, names: list[str]) -> str:
    """One line per placement, then each player's marks; names are made printable."""
    shown = [printable(name) for name in names]
    wide = max(len(n) for n in shown)
    lines = [
        f"Analysis at {analysis.budget} iterations a placement (win chance: the strong bot's model of the game "
        "played on by bots)",
        f"{'round':>5}  {'seat':<{wide + 4}}  placed  win    loss  best    mark",
    ]
    for r in analysis.reviews:
        who = f"{r.player + 1} {shown[r.player]}"
        placed = f"{r.card}→{column_label(r.column)}"
        best = f"{r.best_card}→{column_label(r.best_column)}"
        lines.append(
            f"{r.round:>5}  {who:<{wide + 4}}  {placed:<6}  {_pct(r.before)}  {_pct(r.loss)}  {best:<6}  {r.mark or ''}"
        )
    lines.append("")
    for p, name in enumerate(shown):
        lines.append(f"{p + 1} {name}: {mark_counts(analysis.reviews, p)}")
    return "\n".join(lines) + "\n"
