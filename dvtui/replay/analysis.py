"""A coach after the game: every placement weighed by the judgement the hint gives (no Textual).

For each placement of a game, :func:`dvtui.bots.judge` weighs the position before it, with the seed
and the budget the hint (``h``) uses there: each distinct placement is searched on its own, the budget
shared by sequential halving, and the placement played has its search carried on to the size of the
best one's. The analysis reads off the mover's win chance with the best placement and with the one
played, and the loss is their difference: two values measured alike, by searches that draw the same
chance, so that neither a search's habit of valuing most what it searched most nor two searches'
separate noise is taken for a loss. So the analysis never marks the placement the hint advises.

The win chance is a model: what the strong bot's search expects the mover's chance of winning
to be if every player then played as the bots do (its judgement counts places too, a quarter of it:
see :mod:`dvtui.bots.value`). Each value is a mean over simulations, so the loss carries a standard
error, measured from the spread of those simulations' values. A placement is marked only when its
loss passes the mark's threshold *and* is more than :data:`NOISE_SIGMAS` standard errors: a mark says
"this was worse", never "the dice of the search fell this way".

Results are a pure function of (file, budget, dvtui's version, the win chance's calibration): every
search is seeded from the game's seed, the mover and the position, the budget is iterations (never
the clock), and the worker pool returns results in the game's order. They are kept beside the game,
in ``FILE.analysis.json``, keyed by the file's SHA-256, the budget and what made them (the version
and the calibration: :func:`made_by`), and reused when those match.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from multiprocessing.context import BaseContext
from pathlib import Path

import msgspec

from ..bots import DEFAULT_ITERATIONS, bot_seed, judge, searched_as, win_chance, win_chance_error, win_chance_identity
from ..engine import COLUMNS, CardPlaced, Event, Game, Placement
from ..i18n import N_, _, ngettext
from ..store.decode_words import validation_words
from ..store.errors import GameFileError
from ..store.reader import read_bytes
from .sidecar import SidecarError, read_sidecar
from .timeline import Replay

SEED = 0xA7A1
"""Where the seeds of ``bench/bench_analysis.py``'s repeated judgements start (to measure their
noise); the analysis itself judges with the seed of the hint, the mover's :func:`dvtui.bots.bot_seed`."""
BUDGET = DEFAULT_ITERATIONS
"""Iterations per position unless asked otherwise: the strong bot's own budget."""
MARKS: tuple[tuple[float, str], ...] = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""Win-chance loss (0..1) from which a placement earns a mark, worst first: lichess's steps (0.3,
0.2 and 0.1 of its -1..1 winning chances) on a 0..1 scale."""
MARK_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""Each mark's word for people, translated where shown."""
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""How the log shows each mark, as chess annotates moves."""
NOISE_SIGMAS = 2.0
"""A loss smaller than this many standard errors of the search is noise: no mark."""
FORMAT = 2
"""The layout of the analysis file and the judgement it holds (2: :func:`dvtui.bots.judge`'s); a file
of another is recomputed, not read."""


@dataclass(frozen=True, slots=True)
class Review:
    """One placement, judged."""

    moment: int
    """Index of its ``card_placed`` event in the canonical log (the replay's moment)."""
    round: int
    player: int
    """0-based seat (people see it from 1)."""
    card: int
    column: int
    best_card: int
    best_column: int
    before: float
    """The mover's win chance at the position, with the best placement (0..1, calibrated:
    :mod:`dvtui.bots.calibration`)."""
    played: float | None
    """Their win chance with the placement played (None in no analysis this code makes: a kept
    file's layout allows it)."""
    loss: float | None
    noise: float | None
    """One standard error of ``loss``, from the spread of the two searches' simulations."""
    mark: str | None


@dataclass(frozen=True, slots=True)
class Analysis:
    sha256: str
    budget: int
    version: str
    reviews: list[Review]


def mark_for(loss: float, noise: float) -> str | None:
    """The mark a loss earns, or None when it is small or within the search's noise."""
    if loss <= NOISE_SIGMAS * noise:
        return None
    for threshold, name in MARKS:
        if loss >= threshold:
            return name
    return None


def review(game: Game, placement: Placement, budget: int, moment: int = 0, seed: int | None = None) -> Review:
    """Weigh ``placement`` at ``game`` (the position before it) by the judgement the hint gives
    there (:func:`dvtui.bots.judge`, with the seed the hint uses for the mover, unless ``seed``
    names another: another seed measures the noise, ``bench/bench_analysis.py``)."""
    if seed is None:
        seed = bot_seed(game.created.seed or 0, game.to_move)
    standing = searched_as(game, placement)
    judged = judge(game, seed, budget, also=standing)
    best = judged.best
    mine = judged.of(standing)
    assert mine is not None  # ``also`` is always weighed
    n = game.n
    before = win_chance(best.value, n)
    played = win_chance(mine.value, n)
    mark = None
    if mine.placement == best.placement:
        loss = noise = 0.0
    else:
        loss = max(0.0, before - played)
        noise = math.hypot(win_chance_error(best.value, best.error, n), win_chance_error(mine.value, mine.error, n))
        mark = mark_for(loss, noise)
    return Review(
        moment=moment,
        round=game.round,
        player=game.to_move,
        card=placement.card,
        column=placement.column,
        best_card=best.placement.card,
        best_column=best.placement.column,
        before=before,
        played=played,
        loss=loss,
        noise=noise,
        mark=mark,
    )


def positions(events: Sequence[Event]) -> list[tuple[int, Game, Placement]]:
    """Every placement of a canonical log, with its moment and the state before it (taken-back
    placements too: they were played, then thought better of)."""
    replay = Replay(events)
    out = []
    for k, event in enumerate(replay.events):
        if isinstance(event, CardPlaced):
            out.append((k, replay.state_at(k - 1), Placement(card=event.card, column=event.column)))
    return out


def _review_job(job: tuple[int, Game, Placement, int]) -> Review:
    moment, game, placement, budget = job
    return review(game, placement, budget, moment)


def process_context() -> BaseContext:
    """The processes an analysis searches on: forked from a fork server that has already
    imported the search, since the viewer asks from a process with threads running (the app's),
    which a plain fork would copy with their locks held."""
    context = get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def start_process_server() -> None:
    """Start the fork server (and multiprocessing's resource tracker) now. They are handed the
    caller's ``sys.stderr``: a caller whose ``sys.stderr`` is no file (a Textual app's, whose
    ``fileno()`` is -1) calls this with the real one in place, before any analysis."""
    from multiprocessing import forkserver

    process_context()
    forkserver.ensure_running()


def analyse(
    events: Sequence[Event],
    budget: int = BUDGET,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Review]:
    """Review every placement of a game, on ``jobs`` processes; ``progress(done, total)`` after
    each. The result does not depend on ``jobs``."""
    work = [(k, game, placement, budget) for k, game, placement in positions(events)]
    total = len(work)
    out: list[Review] = []
    if progress is not None:
        progress(0, total)
    if jobs <= 1 or total <= 1:
        for job in work:
            out.append(_review_job(job))
            if progress is not None:
                progress(len(out), total)
        return out
    with ProcessPoolExecutor(max_workers=jobs, mp_context=process_context()) as pool:
        # in the game's order, whoever finishes first; stopped (``progress`` raising), map's
        # iterator cancels the searches not yet started and only those under way are waited for
        for result in pool.map(_review_job, work):
            out.append(result)
            if progress is not None:
                progress(len(out), total)
    return out


# -- beside the game ------------------------------------------------------------------------------


def analysis_path(game_file: Path) -> Path:
    """Where a game's analysis is kept: beside it, never inside it."""
    return game_file.with_name(game_file.name + ".analysis.json")


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Head(msgspec.Struct):
    """What says whose analysis a kept file is (the rest is decoded only when it is this one's)."""

    format: int
    sha256: str
    budget: int
    version: str


class _Kept(_Head):
    """A kept analysis file of :data:`FORMAT`, as :func:`save` writes it."""

    reviews: list[Review]


def load(
    path: Path, sha256: str, budget: int, version: str, events: Sequence[Event]
) -> tuple[Analysis | None, str | None]:
    """The kept analysis when it is of this very file, budget and version and fits its placements
    (``events``: the file's canonical log), else None (absent, stale or of another layout: it is
    then made again); with, when a file was there but could not be read as one, why (one line).

    The file is outside text: anyone who shares a game chooses what lies beside it. It is read as
    :func:`~.sidecar.read_sidecar` reads (no pipe, device or link; bounded), decoded into typed
    values (msgspec: no recursion through what is not of the layout; JSON has no NaN, and a number
    out of a float's range is refused) and every value is checked before a screen shows it."""
    try:
        data = read_sidecar(path)
        head = msgspec.json.decode(data, type=_Head)
        if head.format != FORMAT or (head.sha256, head.budget, head.version) != (sha256, budget, version):
            return None, None
        reviews = msgspec.json.decode(data, type=_Kept).reviews
    except FileNotFoundError:
        return None, None
    except SidecarError as e:
        return None, _unread(path, str(e))
    except msgspec.ValidationError as e:  # (msgspec's words say where: "Expected `float`, got `str` - at `$...`")
        said = _("not laid out as dvtui writes it ({error})").format(error=validation_words(str(e)))
        return None, _unread(path, said)
    except (msgspec.DecodeError, RecursionError):
        return None, _unread(path, _("not JSON as dvtui writes it"))
    if not _fits(reviews, events) or not all(map(_in_range, reviews)):
        return None, _unread(path, _("its values are not those of this game's placements"))
    return Analysis(sha256, budget, version, reviews), None


def _unread(path: Path, why: str) -> str:
    return _("{file}: the analysis kept there is not read: {why}").format(file=path, why=why)


def _in_range(r: Review) -> bool:
    """Win chances and losses are in 0..1, the noise a finite standard error of at least 0."""
    chances = [r.before, *(x for x in (r.played, r.loss) if x is not None)]
    noise_ok = r.noise is None or (math.isfinite(r.noise) and r.noise >= 0)
    return noise_ok and all(math.isfinite(x) and 0.0 <= x <= 1.0 for x in chances)


def _fits(reviews: Sequence[Review], events: Sequence[Event]) -> bool:
    """Each review is of the placement at its moment, in order, one for each; its best placement is
    a card and a column; its mark one of :data:`SIGNS`."""
    placed = [k for k, event in enumerate(events) if isinstance(event, CardPlaced)]
    if [r.moment for r in reviews] != placed:
        return False
    for r in reviews:
        event = events[r.moment]
        assert isinstance(event, CardPlaced)
        if (r.player, r.card, r.column, r.round) != (event.player, event.card, event.column, event.round):
            return False
        if not (1 <= r.best_card <= 6 and 0 <= r.best_column < COLUMNS) or (r.mark is not None and r.mark not in SIGNS):
            return False
    return True


def save(path: Path, analysis: Analysis) -> None:
    """Write atomically (a reader never sees half a file); the file is replaced, never written
    through, so a link at its name is not followed."""
    body = {
        "format": FORMAT,
        "sha256": analysis.sha256,
        "budget": analysis.budget,
        "version": analysis.version,
        "reviews": [asdict(r) for r in analysis.reviews],
    }
    text = json.dumps(body, indent=1) + "\n"
    # a fresh name made with O_EXCL: a directory others write to cannot have a link waiting there
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                     suffix=".tmp", delete=False) as f:  # fmt: skip
        tmp = Path(f.name)
        try:
            f.write(text)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def kept(
    game_file: Path,
    data: bytes,
    events: Sequence[Event],
    budget: int = BUDGET,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Analysis, str | None]:
    """The analysis of the game in ``game_file`` (``data``: its bytes, ``events``: their canonical
    log): the one kept beside it when it matches, else made now and kept. Returns it with why it
    could not be kept (None when it was, or was already)."""
    digest, maker = file_digest(data), made_by()
    where = analysis_path(game_file)
    found, unread = load(where, digest, budget, maker, events)
    if found is not None:
        return found, None
    analysis = Analysis(digest, budget, maker, analyse(events, budget, jobs, progress))
    try:
        save(where, analysis)
    except OSError as e:
        return analysis, "; ".join(filter(None, [unread, f"{where}: not kept: {e.strerror or e}"]))
    return analysis, unread


def load_kept(game_file: Path, events: Sequence[Event], budget: int = BUDGET) -> tuple[Analysis | None, str | None]:
    """The analysis kept beside ``game_file`` for its present bytes (``events``: its canonical
    log), if there is one; with why a file there was not read (see :func:`load`)."""
    try:
        data = read_bytes(game_file)
    except GameFileError:
        return None, None
    return load(analysis_path(game_file), file_digest(data), budget, made_by(), events)


def made_by() -> str:
    """What made an analysis, as kept beside the game: dvtui's version and the calibration in use.
    The file keeps calibrated chances, so a map refitted without a new version must not show the
    chances of the old one."""
    from .. import __version__

    return f"{__version__} calibration {win_chance_identity()}"


def mark_counts(reviews: Sequence[Review], player: int) -> str:
    """``2 mistakes, 1 blunder`` (worst last, as the marks' thresholds rise), or ``no mark``."""
    marks = [r.mark for r in reviews if r.player == player and r.mark]
    said = [_counted(m, k) for m in SIGNS if (k := marks.count(m))]
    return _(", ").join(said) or _("no mark")


def _counted(mark: str, count: int) -> str:
    """``2 mistakes``: each mark's count in words (each mark its own message, for its plural)."""
    if mark == "blunder":
        said = ngettext("{count} blunder", "{count} blunders", count)
    elif mark == "mistake":
        said = ngettext("{count} mistake", "{count} mistakes", count)
    else:
        said = ngettext("{count} inaccuracy", "{count} inaccuracies", count)
    return said.format(count=count)


def mark_word(mark: str | None) -> str:
    """A placement's mark as people read it (``""`` for none); the file keeps the English word."""
    return _(MARK_WORDS[mark]) if mark is not None else ""


def marks_by_moment(reviews: Sequence[Review]) -> dict[int, Review]:
    """The marked placements, by their moment in the log."""
    return {r.moment: r for r in reviews if r.mark is not None}


def blunder_after(reviews: Sequence[Review], moment: int) -> Review | None:
    """The blunder played right after ``moment`` (a decision moment), if one was: where ``b`` is
    "try it again"."""
    for r in reviews:
        if r.moment == moment + 1:
            return r if r.mark == "blunder" else None
    return None
