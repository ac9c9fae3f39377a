"""The replay viewer: a finished or unfinished game, moment by moment, on the live table's widgets.

The screen holds one number, the moment (an event index), and draws the engine's state at that
moment (:class:`dvtui.replay.Replay`, from checkpoints) through the same board, hand, scoreboard,
round bar and banner as live play; the log and the position bar are moved to the same moment on
every change, so they never disagree. A ``column_resolved`` moment is drawn exactly as the live
resolution draws that step (:class:`~dvtui.replay.steps.ResolutionStep`: the column in focus, the
results so far, the exchange and the ties); a ``round_ended`` moment shows the next round's table
with the round's scores in the banner.

The same screen opens over the live game (time travel, ``t`` on the table): read-only, following
the game as it goes on (the table tells it each new event: :class:`~dvtui.app.messages.LiveEvents`),
Escape returns. ``b`` branches: a new game file with this prefix, played on
live (:mod:`dvtui.replay.branch`); the original is only ever read (in time travel, the table then
plays the branch, and the game it came from stays saved as it was).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import get_current_worker

from ...describe import column_name, describe_event
from ...engine import DERIVED_TYPES, CardPlaced, ColumnResolved, Game, GameEnded, PlacementUndone, RoundEnded
from ...i18n import N_, _
from ...printable import printable
from ...replay import Replay
from ...replay.analysis import (
    BUDGET,
    SIGNS,
    Analysis,
    analyse,
    blunder_after,
    kept,
    load_kept,
    marks_by_moment,
    start_process_server,
)
from ...replay.steps import ResolutionStep
from ..keys import ANALYSE, BACK, JUMP_ROUND, VIEWER, PaletteEntry
from ..messages import LiveEvents
from ..spoken import SpokenScreen
from ..theme import MUTED
from ..widgets.board import Board
from ..widgets.footer import Footer
from ..widgets.hand import HandBar, hint_text
from ..widgets.panels import Banner, RoundBar, colour_names
from ..widgets.replay_log import ReplayLog
from ..widgets.scoreboard import Scoreboard
from ..widgets.table_view import (
    TableLayout,
    apply_layout,
    compose_table,
    linger,
    moment_banner,
    moment_status,
    table_layout,
)
from ..widgets.timeline_bar import TimelineBar
from .help import HelpScreen, help_text, key_grid

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Playback speeds; at 1x a placement stays on screen for :data:`BEAT` seconds."""
BEAT = 0.8
SHORT_FOOTER = 80
"""Under this many columns the footer never has the palette's key (as the live table's)."""
PALETTE_KEY_CELLS = 12
"""The footer's palette key at its right end, ``▏^p palette`` and its margins."""
STEP_HINT = N_("   ← → step")
PLAYING, PAUSED = "▶", "‖"
"""The timeline's play and pause marks: glyphs of the common monospace fonts (a browser tab's
included: ⏸ is in none of them, and shows as an empty box)."""


def _short(notice: str) -> str:
    """A store notice names the file in full; on screen its name is enough (and fits a line). It
    quotes a file name (and a lock record): made printable."""
    path, sep, rest = notice.partition(" line ")
    return printable(f"{Path(path).name} line {rest}" if sep and "/" in path else notice)


class _Abandoned(Exception):
    """Raised from the analysis' progress report once its viewer is gone, to stop the search."""


class ReplayHelp(HelpScreen):
    """``?`` in a replay: the viewer's keys only (the live game's keys do nothing here), then the
    table's marks and the rules in brief. ``live``: time travel, where Escape goes back to play;
    ``back``: Escape goes back to the screen the viewer was opened from."""

    def __init__(self, *, live: bool = False, back: bool = False) -> None:
        super().__init__()
        self.live = live
        self.back = back or live

    def compose(self) -> ComposeResult:
        leave_out = (ANALYSE,) if self.live else ()
        rows = VIEWER.help_rows(leave_out=leave_out if self.back else (*leave_out, BACK))
        with VerticalScroll(id="help-body", classes="dialog"):
            yield Static(key_grid(_("REPLAY"), _("keys of the viewer"), rows), id="replay-keys")
            yield Static(help_text(None), id="help-text")
        yield Footer(compact=True)


class ReplayScreen(SpokenScreen[None]):
    """A game moment by moment. ``live``: time travel over a game being played (read-only; Escape
    returns), told of its new events with :class:`LiveEvents`. ``back``: opened over another
    screen (the end screen, the start menu), which Escape returns to; the viewer of ``dvtui
    replay`` is the app itself, and ``q`` leaves it."""

    AUTO_FOCUS = None
    # its styles are in the app's stylesheet (dvtui.tcss), beside the live table's

    BINDINGS: ClassVar[list[BindingType]] = VIEWER.bindings()

    def __init__(
        self,
        replay: Replay,
        *,
        notices: Sequence[str] = (),
        live: bool = False,
        branch: Callable[[int, int | None], None] | None = None,  # (decision moment, seat taken or None)
        start: int | None = None,
        branch_refused: str | None = None,
        game_file: Path | None = None,
        back: bool = False,
    ) -> None:
        super().__init__(id="time-travel" if live else "replay")  # both at once: a branch's table, then t
        self.replay = replay
        self.notices = [_short(text) for text in notices]
        self.live = live
        self.back = back or live
        self._branch = branch
        self.branch_refused = branch_refused
        """Without ``branch``: why ``b`` makes no branch here, said when it is pressed (None: ``b``
        is not offered)."""
        self.moment = replay.last if start is None else replay.clamp(start)
        self.game: Game = replay.state_at(self.moment)
        """The engine's state at ``moment``: what every widget draws."""
        self.playing = False
        self.speed = SPEEDS.index(1.0)
        self._timer: Timer | None = None
        self._laid_out_for = Size(0, 0)
        self.game_file = game_file
        """The file shown, when it is one: its analysis is kept beside it (``a``)."""
        self.analysis: Analysis | None = None
        self.analysis_budget = BUDGET
        self.analysis_jobs = os.cpu_count() or 1
        """Processes the analysis searches on (its result does not depend on how many)."""
        """Iterations a placement for ``a`` (one analysis kept per budget)."""
        self.analysing: tuple[int, int] | None = None
        """(done, total) while the analysis is being made."""

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        layout = self._layout(*self.app.size)
        self._laid_out_for = self.app.size
        yield from compose_table(self, layout, ReplayLog())
        self.set_class(self._short_footer(self.app.size.width), "-short-footer", update=False)
        notice = Static(Text("\n".join(f"⚠ {n}" for n in self.notices)), id="replay-notice")
        notice.display = bool(self.notices) and layout.too_small is None
        yield notice
        timeline = TimelineBar(id="timeline")
        timeline.set_class(layout.wide, "-tall", update=False)
        yield timeline
        yield Footer(compact=True)

    def on_mount(self) -> None:
        replay = self.replay
        self.query_one(ReplayLog).reset(replay.events, self.game)
        if self.game_file is not None:  # an analysis made before is shown at once
            found, unread = load_kept(self.game_file, replay.events)
            self._show_analysis(found)
            if unread is not None:  # a file beside a shared game is anyone's: say why it is not used
                self.notify(printable(unread), severity="warning", timeout=8)
        self._set_track()
        self._draw()

    def on_resize(self) -> None:
        if self.app.size != self._laid_out_for:
            self._laid_out_for = self.app.size
            self._relayout(*self.app.size)

    def _layout(self, width: int, height: int) -> TableLayout:
        """The live table's layout, with the position bar and the notices (wrapped) below it."""
        notice = sum(-(-(len(text) + 2) // max(1, width - 2)) for text in self.notices)
        return table_layout(width, height, self.replay.n, extra_rows=1 + notice, viewer=True)

    def _relayout(self, width: int, height: int) -> None:
        layout = self._layout(width, height)
        apply_layout(self, layout)
        self.set_class(self._short_footer(width), "-short-footer")
        self.query_one(TimelineBar).set_class(layout.wide, "-tall")
        self.query_one("#replay-notice").display = bool(self.notices) and layout.too_small is None

    def _short_footer(self, width: int) -> bool:
        """The footer's keys need the palette's cells at its right end (``width`` is narrower
        than their words and the palette's key): in French, time travel's words fill 80 columns."""
        shown = [c for c in VIEWER.commands if c.keys and c.show and c.description and self.check_action(c.name, ())]
        cells = [cell_len(self.app.get_key_display(c.bindings()[0])) + 1 + cell_len(_(c.description)) for c in shown]
        return width < max(SHORT_FOOTER, sum(cells) + len(cells) + PALETTE_KEY_CELLS)

    def _set_track(self) -> None:
        replay = self.replay
        derived = DERIVED_TYPES
        self.query_one(TimelineBar).set_track(
            replay.last, replay.round_starts, [isinstance(e, derived) for e in replay.events]
        )

    # -- moving ----------------------------------------------------------------------------------

    def go(self, moment: int) -> None:
        """Show ``moment`` (clamped to the game): the one way the screen changes."""
        moment = self.replay.clamp(moment)
        if moment == self.moment:
            return
        self.moment = moment
        self.game = self.replay.state_at(moment)
        self._draw()

    def action_step(self, delta: int) -> None:
        self.go(self.moment + delta)

    def action_turn(self, direction: int) -> None:
        replay = self.replay
        self.go(replay.next_turn(self.moment) if direction > 0 else replay.previous_turn(self.moment))

    def action_round(self, direction: int) -> None:
        replay = self.replay
        self.go(replay.next_round(self.moment) if direction > 0 else replay.previous_round(self.moment))

    def action_home(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        self.go(self.replay.last)

    def action_jump_round(self, round_: int) -> None:
        start = self.replay.round_start(round_)
        if start is None:
            reached = len(self.replay.round_starts)
            said = (
                _("This game has no round {round}").format(round=round_)
                if round_ > self.replay.rounds
                else _("The file stops in round {round}").format(round=reached)
            )
            self.notify(said, severity="warning", timeout=3)
            return
        self.go(start)

    @on(TimelineBar.Jump)
    def _bar_clicked(self, message: TimelineBar.Jump) -> None:
        self.go(message.moment)

    @on(ReplayLog.Jump)
    def _log_clicked(self, message: ReplayLog.Jump) -> None:
        self.go(message.moment)

    @on(Banner.Clicked)
    def _banner_clicked(self) -> None:
        self.action_step(1)

    # -- playback --------------------------------------------------------------------------------

    def action_play(self) -> None:
        if self.playing:
            self._pause()
        else:
            if self.moment >= self.replay.last:
                self.go(0)
            self.playing = True
            self._schedule()
        self._draw_status()

    def _pause(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self._beat(), self._tick)

    def _beat(self) -> float:
        """Seconds the current moment stays on screen in playback: a quiet column (nobody placed
        there) passes quickly, a round's end lingers, as in live play (:func:`linger`)."""
        return BEAT * linger(self.replay.events[self.moment]) / SPEEDS[self.speed]

    def _tick(self) -> None:
        self._timer = None
        if not self.playing:
            return
        if self.moment >= self.replay.last:
            self._pause()
            self._draw_status()
            return
        self.go(self.moment + 1)
        if self.moment >= self.replay.last:
            self._pause()
            self._draw_status()
        else:
            self._schedule()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.playing:
            self._schedule()
        self._draw_status()

    # -- leaving, branching ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self.back
        if action == "leave":
            return self.live
        if action == "quit":
            return not self.live
        if action == "branch":
            return self._branch is not None or self.branch_refused is not None
        if action == "analyse":  # not over a game being played: it would be a hint the table may not give
            return not self.live
        return True

    def action_back(self) -> None:
        if self.back:
            self._pause()
            self.app.pop_screen()

    def action_branch(self) -> None:
        """Play from here; with a bot at the table, first ask whose seats play on."""
        if self._branch is None:
            if self.branch_refused is not None:
                self.notify(self.branch_refused, severity="warning", timeout=8)
            return
        self._pause()
        self._draw_status()
        players = self.replay.created.players
        moment = self.replay.decision_moment(self.moment)  # the moment asked about, fixed now: a
        state = self.replay.state_at(moment)  # live game moves on while the question is open
        blunder = None if self.analysis is None else blunder_after(self.analysis.reviews, moment)
        if blunder is not None:
            name = printable(players[blunder.player].name)
            said = _("{name} played {card} under {column} here, a blunder: find a better placement.")
            self.notify(
                said.format(name=name, card=blunder.card, column=column_name(blunder.column)),
                title=_("Try it again"),
                timeout=10,
            )
        if state.over or all(seat.kind == "human" for seat in players):
            self._branch(moment, None)  # nothing to choose (or nothing to play: it says so)
            return
        from .branch import KEEP, BranchScreen

        branch = self._branch

        def chosen(choice: int | None) -> None:
            if choice is not None:
                branch(moment, None if choice == KEEP else choice)

        self.app.push_screen(BranchScreen(players, moment, state.round, state.to_move), chosen)

    def action_help(self) -> None:
        self.app.push_screen(ReplayHelp(live=self.live, back=self.back))

    # -- the analysis --------------------------------------------------------------------------------

    def action_analyse(self) -> None:
        """Show the analysis; make it first when there is none (a worker thread waits on a process
        pool, every core searching, so the screen stays quick; kept beside the file)."""
        if self.analysis is not None:
            from .analysis import AnalysisScreen

            seats = self.replay.created.players
            self.app.push_screen(AnalysisScreen(self.analysis.reviews, [s.name for s in seats],
                                                [s.color for s in seats], self.analysis.budget,
                                                self.replay.final.outcome()))  # fmt: skip
            return
        if self.analysing is not None:
            return
        self.analysing = (0, 0)
        self._draw_status()
        if self.analysis_jobs > 1:
            with contextlib.redirect_stderr(sys.__stderr__):  # see start_process_server
                start_process_server()
        self.run_worker(self._analyse, thread=True, exclusive=True, group="analysis")

    def _analyse(self) -> None:
        """The worker: the analysis of the file (or of a game that is no file, kept nowhere)."""
        call = self.app.call_from_thread
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:  # the viewer is gone (its workers are cancelled with it)
                raise _Abandoned
            call(self._analysis_progress, done, total)

        events = self.replay.events
        unkept: str | None = None
        try:
            if self.game_file is not None:
                data = self.game_file.read_bytes()
                analysis, unkept = kept(
                    self.game_file, data, events, self.analysis_budget, self.analysis_jobs, progress=progress
                )
            else:
                reviews = analyse(events, self.analysis_budget, self.analysis_jobs, progress=progress)
                analysis = Analysis("", self.analysis_budget, "", reviews)
        except _Abandoned:
            return  # nothing kept: the next viewer of this file starts again
        call(self._analysed, analysis, unkept)

    def _analysis_progress(self, done: int, total: int) -> None:
        if self not in self.app.screen_stack:  # left: its workers are being cancelled
            return
        self.analysing = (done, total)
        self._draw_status()

    def _analysed(self, analysis: Analysis, unkept: str | None) -> None:
        if self not in self.app.screen_stack:  # left just as it ended: nothing to show it on
            return
        self.analysing = None
        self._show_analysis(analysis)
        if unkept is not None:
            self.notify(printable(unkept), severity="warning", timeout=8)
        self._draw_status()
        self.action_analyse()

    def _show_analysis(self, analysis: Analysis | None) -> None:
        if analysis is None:
            return
        self.analysis = analysis
        self.query_one(ReplayLog).set_marks(
            {k: SIGNS[r.mark] for k, r in marks_by_moment(analysis.reviews).items() if r.mark in SIGNS}
        )

    async def action_quit(self) -> None:
        self.app.exit()

    async def action_leave(self) -> None:
        self.app.exit()

    def palette_commands(self) -> Iterable[PaletteEntry]:
        """The viewer's commands it allows now (:data:`~dvtui.app.keys.VIEWER`), for the command
        palette: a round's is offered for each round of the file."""
        for command in VIEWER.offered(lambda action: self.check_action(action, ())):
            if command is JUMP_ROUND:
                for r in range(1, len(self.replay.round_starts) + 1):
                    yield command.entry(self, f"jump_round({r})", round=r)
            else:
                yield command.entry(self)

    # -- following a live game -------------------------------------------------------------------

    @on(LiveEvents)
    def _follow_live(self, message: LiveEvents) -> None:
        """Time travel: new moves of the live game join the timeline; at the end, follow them."""
        if self not in self.app.screen_stack:  # closing (Escape): nothing to show them on
            return
        replay = self.replay
        at_end = self.moment == replay.last
        new = message.events
        replay.extend(new)
        self.query_one(ReplayLog).add(new, self.game)
        self._set_track()
        if at_end:
            self.go(replay.last)
        else:
            self._draw_status()

    # -- drawing ---------------------------------------------------------------------------------

    def _draw(self) -> None:
        """Every widget to the current moment."""
        replay = self.replay
        k = self.moment
        game = self.game
        event = replay.events[k]
        players = game.created.players
        names = replay.names
        colors = [s.color for s in players]
        board = self.query_one(Board)
        scores = self.query_one(Scoreboard)
        hand = self.query_one(HandBar)
        banner = self.query_one(Banner)
        banner_text: Text | None = None
        if isinstance(event, (ColumnResolved, RoundEnded, GameEnded)):
            if isinstance(event, ColumnResolved):
                step = ResolutionStep(game, event, replay.resolution_results(k))
                board.show(step.game, focus=step.column, results=step.results)
            else:
                board.show(game)
            scores.show(game, turn=-1)
            status = moment_status(event)
            totals = game.scores() if isinstance(event, RoundEnded) else None
            banner_text = moment_banner(event, names, colors, game.rounds, totals)
        else:
            selected = event.column if isinstance(event, (CardPlaced, PlacementUndone)) else None
            board.show(game, selected=selected)
            scores.show(game)
            if k == 0:
                first = players[game.first_player]
                status = colour_names(_("The deal: {name} starts").format(name=first.name), names, colors)
            else:
                status = colour_names(describe_event(event, names, game.rounds), names, colors)
            seat = players[game.to_move]
            hand.show(
                seat.name, seat.color, game.hands[game.to_move], None, self._next_text(), active=False, names=names
            )
        if banner_text is not None:
            room = self.query_one("#play").size.width - 2  # the banner's padding
            step_hint = _(STEP_HINT)
            if banner_text.cell_len + cell_len(step_hint) <= room:
                banner_text.append(step_hint, style=Style(color=MUTED))
            banner.show(banner_text)
        hand.display = banner_text is None
        banner.display = banner_text is not None
        right = (
            _("TIME TRAVEL · esc returns ") if self.live else _("REPLAY · esc returns ") if self.back else _("REPLAY ")
        )
        self.query_one(RoundBar).show(game, status, right)
        self.query_one(ReplayLog).set_cursor(k)
        self._draw_status()

    def _next_text(self) -> Text:
        """Beside the hand: what happens next in the file."""
        replay = self.replay
        k = self.moment
        names = replay.names
        colors = [s.color for s in replay.created.players]
        if k >= replay.last:
            if self.live:
                return hint_text(_("this is the game as it stands · esc returns to play"))
            return hint_text(_("end of the file · b: play on from here"))
        nxt = replay.events[k + 1]
        if isinstance(nxt, ColumnResolved):
            return hint_text(_("then: the round is resolved, column by column"))
        text = Text(_("then: "), style=Style(color=MUTED, italic=True))
        text.append_text(colour_names(describe_event(nxt, names, replay.created.rounds), names, colors))
        return text

    def _draw_status(self) -> None:
        """The position bar and its words: play or pause, speed, the moment."""
        replay = self.replay
        speed = SPEEDS[self.speed]
        shown = f"{speed:g}×" if speed >= 1 else f"1/{round(1 / speed)}×"
        icon = f"{PLAYING if self.playing else PAUSED} {shown}"
        status = f"{icon}  {self.moment}/{replay.last}"
        if self.analysing is not None:
            done, total = self.analysing
            status += "  " + (_("analysing {done}/{total}").format(done=done, total=total) if total else _("analysing"))
        self.query_one(TimelineBar).show(self.moment, replay.round_at(self.moment), status)


__all__ = ["ReplayHelp", "ReplayScreen"]
