"""``dvtui analyse FILE``: every placement's win chance and loss, marks where it mattered (headless).

The analysis itself is :mod:`dvtui.replay.analysis`; this prints it, with a progress line on a
terminal, and keeps it beside the file (``FILE.analysis.json``) to be reused.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..describe import column_label, percent
from ..i18n import _
from ..printable import printable
from ..replay.analysis import BUDGET, Analysis, kept, mark_counts, mark_word
from ..store import parse_game
from ..store.reader import read_bytes
from .errors import UsageError


def run_analyse(args: argparse.Namespace) -> int:
    budget = BUDGET if args.budget is None else args.budget
    if budget < 1:
        raise UsageError(_("--budget must be 1 or more iterations, not {budget}").format(budget=budget))
    jobs = args.jobs if args.jobs is not None else 1
    if jobs < 0:
        raise UsageError(_("--jobs must be 0 (all cores) or more, not {jobs}").format(jobs=jobs))
    if jobs == 0:
        jobs = os.cpu_count() or 1
    path = Path(args.file)
    data = read_bytes(path)
    loaded = parse_game(data, str(path))
    for notice in loaded.notices:
        print(_("dvtui: warning: {message}").format(message=printable(notice)), file=sys.stderr)
    analysis, unkept = kept(path, data, loaded.events, budget, jobs, _progress if sys.stderr.isatty() else None)
    if unkept is not None:
        print(_("dvtui: warning: {message}").format(message=printable(unkept)), file=sys.stderr)
    names = [seat.name for seat in loaded.events[0].players]  # type: ignore[attr-defined]
    sys.stdout.write(report(analysis, names))
    sys.stdout.flush()
    return 0


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(1, total)
    end = "\n" if done == total else ""
    bar = "#" * filled + "." * (width - filled)
    sys.stderr.write("\r" + _("analysing [{bar}] {done}/{total}").format(bar=bar, done=done, total=total) + end)
    sys.stderr.flush()


def _pct(x: float | None) -> str:
    return "?" if x is None else percent(x, digits=0)


def _noise(x: float | None) -> str:
    """The loss's standard error, ``±1%``; nothing where there is no loss to doubt (the best placement)."""
    return "" if not x else "±" + percent(x, digits=0)


def report(analysis: Analysis, names: list[str]) -> str:
    """One line per placement under headings in the language spoken (each column as wide as its
    heading or its widest cell, should that be wider), then each player's marks; names are made printable."""
    shown = [printable(name) for name in names]
    heads = [_("round"), _("seat"), _("placed"), _("win"), _("loss"), _("noise"), _("best"), _("mark")]
    rows = []
    for r in analysis.reviews:
        rows.append([
            str(r.round), f"{r.player + 1} {shown[r.player]}", f"{r.card}→{column_label(r.column)}",
            _pct(r.before), _pct(r.loss), _noise(r.noise), f"{r.best_card}→{column_label(r.best_column)}",
            mark_word(r.mark),
        ])  # fmt: skip
    widths = [5, -(max(len(n) for n in shown) + 4), -6, 4, 4, 5, -6, -1]  # negative: on the left
    longest = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(heads)]
    wide = [(-1 if w < 0 else 1) * max(abs(w), n) for n, w in zip(longest, widths, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(-w) if w < 0 else c.rjust(w) for c, w in zip(cells, wide, strict=True)).rstrip()

    said = _("Analysis at {budget} iterations a placement (win chance: the strong bot's model of the game played on "
             "by bots)")  # fmt: skip
    lines = [said.format(budget=analysis.budget), line(heads), *(line(row) for row in rows), ""]
    for p, name in enumerate(shown):
        lines.append(_("{seat} {name}: {marks}").format(seat=p + 1, name=name, marks=mark_counts(analysis.reviews, p)))
    return "\n".join(lines) + "\n"
