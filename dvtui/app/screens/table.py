"""The live table: one screen for the whole game.

Data flows one way: a key or a click becomes a decision, the session hands it to the engine
and the events to the store, and only then is the screen redrawn from the new state and the next
decision asked for. Bots (and the hint) think in worker threads on a copy of the state, so the table
never freezes; a worker posts its answer as a message (:class:`~dvtui.app.messages.BotPlaced`,
``HintReady``) naming the position by the table's turn token, and an answer about a position that
is gone (an undo, a branch, a quit) is dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.events import DescendantBlur, DescendantFocus
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import get_current_worker

from ...bots import BotSpec, Stopped, bot_fn, think
from ...describe import (
    column_label,
    gains_line,
    handover_line,
    hint_line,
    placement_outcome,
    round_gains,
)
from ...engine import COLUMNS, CardPlaced, Event, Game, Phase, Placement, RoundEnded, RuleError, fold
from ...play.session import GameSession, PlayedMove, preview
from ...replay.steps import resolution_steps
from ...store import SaveError, SaveFailed
from ..config import Pace, save_pace
from ..keys import TABLE, UNDO, KeyMap, PaletteEntry
from ..messages import STATE_TITLE, BotPlaced, BranchRequested, HintReady, LiveEvents, ThinkingFailed
from ..table_state import TableState
from ..theme import ERROR, GOLD, MUTED, seat_color
from ..widgets.board import Board, Ghost
from ..widgets.faces import seat_emphasis, styled
from ..widgets.hand import HandBar, hint_text
from ..widgets.panels import Banner, EventLog, PaceLabel, RoundBar, colour_names
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


class TableScreen(Screen[None]):
    """The game. ``session`` holds the state and its save file; the table is its one owner (it
    plays a branch or a rematch by adopting it)."""

    AUTO_FOCUS = ""  # nothing: the table's keys are the screen's; the log is focused on demand

    KEYS: ClassVar[KeyMap] = TABLE
    """Its keys: the bindings, the help's key map and the palette's commands read from it."""
    BINDINGS: ClassVar[list[BindingType]] = TABLE.bindings()

    SCREEN_ID = "table"

    def __init__(self, session: GameSession, pace: Pace | None = None, *, recap: bool = True) -> None:
        """``recap``: open on the resolution of the round the file ends in, as a resumed game left
        while it was shown does; a branch starts where its player chose, with nothing unseen."""
        super().__init__(id=self.SCREEN_ID)
        self.session = session
        self.recap_on_mount = recap
        self.pace = pace or Pace()
        self.state = TableState()
        """The game on screen as the table shows it (cursor, hint, resolution): replaced whole by
        :meth:`adopt`."""
        self.turn_token = 0
        """Bumped at every change of position, across games: answers computed for an older one are
        dropped."""
        self._timer: Timer | None = None
        self._laid_out_for = Size(0, 0)
        self._binding_state: tuple[bool | None, ...] = ()
        self._time_travel: Screen[None] | None = None
        """The viewer opened over this game (``t``), told of each new event."""

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        layout = self._layout(*self.app.size)
        yield from compose_table(self, layout, EventLog(), hide_banner=True)
        with Horizontal(id="footer-row"):
            # at 80 columns the palette's ^p makes room for the pace (it is in the help and ^p works)
            yield Footer(compact=True, show_command_palette=layout.wide)
            yield PaceLabel()

    def on_mount(self) -> None:
        log = self.query_one(EventLog)
        log.reset(self.session.events, self.session.game)
        for notice in self.session.notices:
            self.notify(notice, title="Recovered", severity="warning", timeout=8)
        self._laid_out_for = self.app.size
        self._binding_state = self._binding_key()  # the footer is about to be drawn anyway
        self.query_one(PaceLabel).show(self.pace.bot_delay)
        self.refresh_view()
        if self.recap_on_mount:
            self._recap_interrupted_resolution()
        self.call_after_refresh(self.advance)

    def _recap_interrupted_resolution(self) -> None:
        """A game left while its round was being resolved (the file ends with ``round_ended``:
        nobody has placed since) opens on that resolution again, so the results are not lost; the
        log tells it as it is shown again, as in play, not ahead of the table."""
        session = self.session
        history = session.events
        if session.game.over or not history or not isinstance(history[-1], RoundEnded):
            return
        last = next((i for i in range(len(history) - 1, -1, -1) if isinstance(history[i], CardPlaced)), None)
        if last is None:
            return
        placed = history[last]
        assert isinstance(placed, CardPlaced)
        before = fold(history[:last]).game
        events = before.copy().place(Placement(card=placed.card, column=placed.column), player=placed.player)
        self.state.recap = True
        self.state.round_start_scores = before.scores()
        self.state.steps = resolution_steps(before, events)
        self.state.step_index = 0
        self.state.pending_log = list(history[last + 1 :])
        self.query_one(EventLog).reset(history[: last + 1], session.game)
        self._show_step()

    @on(DescendantFocus)
    @on(DescendantBlur)
    def _log_focus(self, event: DescendantFocus | DescendantBlur) -> None:
        """While the log is read (focused), it takes the place of the board and the hand where it
        is otherwise a few lines under them (80x24); the scores stay, and Escape gives the table back."""
        if isinstance(event.widget, EventLog):
            self.set_class(isinstance(event, DescendantFocus), "-reading-log")

    def on_resize(self) -> None:
        if self.app.size != self._laid_out_for:
            self._laid_out_for = self.app.size
            self._relayout(*self.app.size)

    def _layout(self, width: int, height: int) -> TableLayout:
        """The banner has a line under the hand when several people share this keyboard."""
        return table_layout(width, height, self.session.game.n, banner_row=len(self.session.humans) >= 2)

    def _relayout(self, width: int, height: int) -> None:
        """Side panel when there is room, everything stacked at 80x24; cards grow with height."""
        layout = self._layout(width, height)
        apply_layout(self, layout)
        self.query_one(Footer).show_command_palette = layout.wide

    # -- drawing -------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw the live position (not a resolution step)."""
        session = self.session
        game = session.game
        human = session.human_to_move()
        if human is not None and human != self.state.cursor_player:
            self.state.fresh_cursor(human)  # the keyboard changes hands (or the game begins)
        board = self.query_one(Board)
        state = self.state
        card = state.selected_card
        ghost = Ghost(player=human, card=card) if human is not None and card is not None else None
        board.show(game, selected=state.selected_column if human is not None else None, ghost=ghost)
        self.query_one(Scoreboard).show(game)
        self._show_handover(human)
        hand = self.query_one(HandBar)
        hand.display = True
        seat = game.created.players[game.to_move]
        names = session.names
        failed = self.save_failure
        if failed is not None:  # the game has stopped: nobody is to play, nothing is thinking
            hand.show(seat.name, seat.color, game.hands[game.to_move], None,
                      Text(f"Game stopped: {failed.reason} · q leaves (it says how to go on)",
                           style=Style(color=ERROR, bold=True)), active=False, names=names)
        elif game.over:
            hand.show(seat.name, seat.color, [], None, hint_text("Game over: e for the results, q to leave"),
                      active=False, names=names)
        elif human is not None:
            hand.show(seat.name, seat.color, game.hands[human], self.state.selected_card, self._advice(), active=True,
                      names=names)
        else:
            hand.show(seat.name, seat.color, game.hands[game.to_move], None, self._waiting_line(game), active=False,
                      names=names)
        self._show_round_bar()
        self._bindings_changed()

    def _waiting_line(self, game: Game) -> Text:
        """The line beside the hand of a seat this keyboard does not play: a bot thinking."""
        seat = game.created.players[game.to_move]
        return hint_text(f"{seat.name} ({seat.bot or 'bot'}) is thinking…")

    def _show_handover(self, human: int | None) -> None:
        """With several people at one keyboard, a line that says whose turn it is and what the
        person before did (and whether they can still take it back)."""
        banner = self.query_one(Banner)
        session = self.session
        if human is None or len(session.humans) < 2:
            banner.display = False
            return
        names = session.names
        last = next((s.placed for s in reversed(session.standing_placements())
                     if s.placed.player != human and not session.is_bot(s.placed.player)), None)
        line = handover_line(names, human, last, session.game.round, session.undo_player())
        banner.display = True
        banner.show(colour_names(line, names, [s.color for s in session.game.created.players]))

    def _show_round_bar(self, status: Text | None = None, game: Game | None = None) -> None:
        game = game or self.session.game
        failed = self.save_failure
        if status is None:
            seat = game.created.players[game.to_move]
            if failed is not None:  # the status itself (the right end is cut first at 80 columns)
                status = Text(f"✗ NOT SAVED: {failed.reason.removeprefix('the ')}", style=Style(color=ERROR, bold=True))
            elif game.over:
                status = Text("Game over", style=Style(bold=True))
            elif self.session.human_to_move() is not None:
                status = Text(f"▶ {seat.name} to play", style=seat_emphasis(seat.color))
            else:
                status = Text(f"{seat.name} is thinking…", style=Style(color=seat_color(seat.color)))
        right = "not saved " if not self.session.saving or failed is not None else "✓ saved "
        self.query_one(RoundBar).show(game, status, right)

    @property
    def save_failure(self) -> SaveFailed | None:
        """The save that failed, once one has: the game has stopped (the session refuses the rest)."""
        return self.session.save_failure

    def _advice(self) -> Text:
        """The line beside the human's hand: what to do, or what the chosen placement gives."""
        game = self.session.game
        player = game.to_move
        if self.state.hint is not None:
            return Text(self.state.hint, style=Style(color=GOLD))
        if self.state.selected_card is None:
            return hint_text("pick a card 1-6, column a-g, then ⏎")  # one line at the smallest width
        outcome = preview(game, player, Placement(self.state.selected_card, self.state.selected_column))
        text = styled(f"{self.state.selected_card} → {column_label(self.state.selected_column)}: ", Style(bold=True))
        if outcome is not None:
            text.append(placement_outcome(outcome, player, self.session.names))
        return text

    # -- turns -----------------------------------------------------------------------------------

    def advance(self) -> None:
        """Ask for the next decision: a bot's (in a worker), a human's (wait), or the results."""
        if self.state.steps or self.save_failure is not None:
            return
        game = self.session.game
        if game.over:
            self.refresh_view()
            self.action_results()
            return
        if self.session.human_to_move() is not None:
            return
        token = self.turn_token
        if self.pace.bot_delay > 0:
            self._timer = self.set_timer(self.pace.bot_delay, partial(self._start_bot, token))
        else:
            self.call_later(self._start_bot, token)

    def _start_bot(self, token: int) -> None:
        session = self.session
        game = session.game
        if token != self.turn_token or self.state.steps or game.over or game.phase != Phase.PLACEMENT:
            return
        bot = session.bots[game.to_move]
        if bot is None:
            return
        spec, seed = bot
        self.state.thinking = game.to_move
        self._think(token, spec, game.copy(), seed)

    # not exclusive: the next bot starts while the worker whose answer was just played is still
    # ending, and cancelling that one would report a finished search as cancelled
    @work(thread=True, group="bot", exit_on_error=False)
    def _think(self, token: int, spec: BotSpec, game: Game, seed: int) -> None:
        """A bot's move for the position ``token`` names, in a thread, posted as :class:`BotPlaced`.
        Cancelling the worker (an undo, a branch, the app closing cancels every worker) stops a
        searching bot: the thread cannot be killed, and the process would wait for it."""
        worker = get_current_worker()
        try:
            placement = bot_fn(spec, worker.cancelled_event)(game, seed)
        except Stopped:
            return  # told to stop: nothing to report
        except Exception as e:  # reported on screen, as the worker's message, not raised in a thread
            self.post_message(ThinkingFailed(token, "bot", e))
            return
        if not worker.is_cancelled:
            self.post_message(BotPlaced(token, placement))

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)  # a second h replaces the first
    def _ask_hint(self, token: int, game: Game, seed: int) -> None:
        """The strong bot's advice for the position ``token`` names, in a thread, posted as
        :class:`HintReady` (stopped like :meth:`_think`)."""
        worker = get_current_worker()
        try:
            suggestion = think(game, seed, stop=worker.cancelled_event)
        except Stopped:
            return
        except Exception as e:
            self.post_message(ThinkingFailed(token, "hint", e))
            return
        if not worker.is_cancelled:
            self.post_message(HintReady(token, suggestion))

    @on(BotPlaced)
    def _bot_placed(self, message: BotPlaced) -> None:
        if message.token != self.turn_token or self.state.steps:
            return  # about a position (or a game, before a branch) that is gone
        self.state.thinking = None
        self._play(message.placement, self.session.game.to_move)

    @on(HintReady)
    def _hint_ready(self, message: HintReady) -> None:
        if message.token != self.turn_token or self.state.steps:
            return
        suggestion = message.suggestion
        self.state.selected_card, self.state.selected_column = suggestion.placement
        self.state.hint = hint_line(suggestion.placement, suggestion.gain, suggestion.win)
        self.refresh_view()

    @on(ThinkingFailed)
    def _thinking_failed(self, message: ThinkingFailed) -> None:
        if message.token != self.turn_token:
            return  # not this game's news
        self.notify(f"{message.what} failed: {message.error}", severity="error", timeout=10)

    def _stop_thinking(self) -> None:
        """Stop the searches of a position that is gone (their answers would be ignored anyway):
        the cores go back to the game at hand."""
        self.workers.cancel_group(self, "bot")
        self.workers.cancel_group(self, "hint")

    def _play(self, placement: Placement, player: int) -> None:
        """Hand a placement to the session (engine, then disk), then show what it did."""
        try:
            move = self.session.place(placement, player=player)
        except RuleError as e:
            self.notify(str(e), severity="warning")
            return
        except SaveError as e:
            self.notify(f"{e}. The move was not made.", title="Could not save", severity="error", timeout=15)
            self.refresh_view()
            return
        self.turn_token += 1
        self.state.selected_card = None
        self.state.hint = None
        self._tell_time_travel(move.events)
        self._after_move(move)

    def _after_move(self, move: PlayedMove) -> None:
        log = self.query_one(EventLog)
        game = self.session.game
        decision, derived = move.events[:1], move.events[1:]
        log.add(decision, game)
        if derived:
            self.state.pending_log = list(derived)
            self.state.round_start_scores = move.before.scores()
            self.state.steps = resolution_steps(move.before, move.events)
            self.state.step_index = 0
            self._show_step()
            return
        self.refresh_view()
        self.advance()

    # -- the resolution ------------------------------------------------------------------------

    def _show_step(self) -> None:
        step = self.state.steps[self.state.step_index]
        session = self.session
        names = session.names
        colors = [s.color for s in session.game.created.players]
        board = self.query_one(Board)
        board.show(step.game, focus=step.column, results=step.results)
        self.query_one(Scoreboard).show(step.game, turn=-1)
        self._log_until(step.event)
        event = step.event
        self._show_round_bar(moment_status(event, "Recap · " if self.state.recap else ""), step.game)
        banner_text = moment_banner(event, names, colors, session.game.rounds)
        summary = isinstance(event, RoundEnded)
        if summary:
            if self._holds_summary():
                banner_text.append("  ⏎ next", style=Style(color=MUTED))
            scores = step.game.scores()
            before = self.state.round_start_scores or [0] * len(scores)
            gains = round_gains(step.results.values(), len(scores))
            for p, (taken, returned) in enumerate(gains):
                line = gains_line(names[p], scores[p] - before[p], scores[p], taken, returned)
                banner_text.append("\n")
                banner_text.append_text(colour_names(line, names, colors))
        if not summary and not self.has_class("-narrow"):  # at 80 columns it would wrap; the footer has the keys
            banner_text.append("   ⏎: next · s: skip", style=Style(color=MUTED))
        self.query_one(HandBar).display = False
        banner = self.query_one(Banner)
        banner.display = True
        banner.show(banner_text, summary=summary)
        self._bindings_changed()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if summary and self._holds_summary():
            return  # people read it in their own time: a key or a click goes on
        if self.pace.step_delay is not None:
            self._timer = self.set_timer(self.pace.step_delay * linger(event), self.action_next_step)

    def _log_until(self, event: Event) -> None:
        """Tell the log every pending derived event up to and including ``event``."""
        if event in self.state.pending_log:
            cut = self.state.pending_log.index(event) + 1
            shown, self.state.pending_log = self.state.pending_log[:cut], self.state.pending_log[cut:]
            self.query_one(EventLog).add(shown, self.session.game)

    def _holds_summary(self) -> bool:
        """The round's summary waits for a key when people play (bots alone go on)."""
        return self.pace.hold_round_end and bool(self.session.humans)

    def _end_resolution(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.state.steps = []
        self.state.recap = False
        if self.state.pending_log:
            self.query_one(EventLog).add(self.state.pending_log, self.session.game)
            self.state.pending_log = []
        self.refresh_view()
        self.advance()

    def action_next_step(self) -> None:
        if not self.state.steps:
            return
        self.state.step_index += 1
        if self.state.step_index >= len(self.state.steps):
            self._end_resolution()
        else:
            self._show_step()

    def action_skip(self) -> None:
        """Straight to the round's summary when it waits to be read; past the resolution
        otherwise (or from the summary)."""
        if not self.state.steps:
            return
        state = self.state
        last = len(state.steps) - 1
        if self._holds_summary() and state.step_index < last and isinstance(state.steps[last].event, RoundEnded):
            state.step_index = last
            self._show_step()
        else:
            self._end_resolution()

    @on(Banner.Clicked)
    def _banner_clicked(self) -> None:
        self.action_next_step()

    # -- the human's decisions -----------------------------------------------------------------

    def _bindings_changed(self) -> None:
        """Refresh the footer only when what it offers changes (it is rebuilt each time). Called
        whenever the screen is redrawn, whatever changed: a move, or (at a shared table) who is there."""
        state = self._binding_key()
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()

    def _binding_key(self) -> tuple[bool | None, ...]:
        """What the footer offers: every action of the screen's keys, as :meth:`check_action` allows it now."""
        return tuple(self.check_action(c.name, ()) for c in self.KEYS.commands if c.keys)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        placing = not self.state.steps and self.session.human_to_move() is not None and self.save_failure is None
        if action in ("pick", "step", "column", "place"):
            return placing
        if action in ("cannot_undo", "no_hint"):
            return True  # reached only when undo (hint) is off: the same key, listed after it
        if action == "hint":
            return placing and self._hints_refused() is None
        if action == "undo":
            return not self.state.steps and self.session.undo_player() is not None and self.save_failure is None
        if action in ("next_step", "skip"):
            return bool(self.state.steps)
        if action == "results":
            return self.session.game.over and not self.state.steps
        return True

    def _human(self) -> int | None:
        return None if self.state.steps else self.session.human_to_move()

    def action_pick(self, card: int) -> None:
        player = self._human()
        if player is None:
            return
        if card not in self.session.game.hands[player]:
            self.notify(f"Your {card} is already on the table this round.", severity="warning")
            return
        self.state.selected_card = card
        self.state.hint = None
        self.refresh_view()

    def action_step(self, delta: int) -> None:
        if self._human() is None:
            return
        self.state.selected_column = (self.state.selected_column + delta) % COLUMNS
        self.state.hint = None
        self.refresh_view()

    def action_column(self, column: int) -> None:
        if self._human() is None:
            return
        self.state.selected_column = column
        self.state.hint = None
        self.refresh_view()

    def action_place(self) -> None:
        player = self._human()
        if player is None:
            return
        if self.state.selected_card is None:
            self.notify("Choose a card first: 1 to 6, or click one.", severity="warning")
            return
        self._play(Placement(self.state.selected_card, self.state.selected_column), player)

    @on(Board.ColumnClicked)
    def _column_clicked(self, message: Board.ColumnClicked) -> None:
        player = self._human()
        if player is None:
            return
        self.state.selected_column = message.column
        if self.state.selected_card is None:
            self.state.hint = None
            self.refresh_view()
            self.notify("Choose a card first, then click a column.", severity="information")
            return
        self._play(Placement(self.state.selected_card, self.state.selected_column), player)

    @on(HandBar.CardClicked)
    def _card_clicked(self, message: HandBar.CardClicked) -> None:
        self.action_pick(message.card)

    def action_undo(self) -> None:
        if self.state.steps:
            return
        session = self.session
        player = session.undo_player()
        if player is None:
            self.action_cannot_undo()
            return
        try:
            undone = session.undo(player)
        except RuleError as e:
            self.notify(str(e), severity="warning")
            return
        except SaveError as e:
            self.notify(f"{e}. Nothing was taken back.", title="Could not save", severity="error", timeout=15)
            self.refresh_view()
            return
        self.turn_token += 1
        self._stop_thinking()
        self.state.thinking = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._tell_time_travel(undone)
        self.query_one(EventLog).add(undone, session.game)
        last = undone[-1]
        self.state.cursor_player = last.player  # their choice comes back to them, not a fresh cursor
        self.state.selected_card = last.card
        self.state.selected_column = last.column
        self.state.hint = None
        self.refresh_view()
        self.advance()

    def action_cannot_undo(self) -> None:
        self.notify(self.session.why_no_undo(), severity="warning", markup=False)  # names are plain text

    def _hints_refused(self) -> str | None:
        """Why this table gives no hints at all, said when ``h`` is pressed (None: it gives them)."""
        return None if _strong_available() else "No hints here: the strong bot is not installed."

    def action_no_hint(self) -> None:
        """``h`` when no hint can be asked for now: why, if it is the table's choice (on someone
        else's turn, or during a resolution, there is nothing to say)."""
        refused = self._hints_refused()
        if refused is not None:
            self.notify(refused, severity="information")

    def action_hint(self) -> None:
        player = self._human()
        if player is None or self._hints_refused() is not None:
            return
        self.state.hint = "hint: the strong bot is thinking…"
        self.refresh_view()
        self._ask_hint(self.turn_token, self.session.game.copy(), self.session.hint_seed(player))

    def action_pace(self, direction: int) -> None:
        """``+`` (direction -1) makes bots and resolutions quicker, ``-`` (+1) slower; the pace is
        remembered for the next game and the next resume."""
        pace = self.pace
        limit = pace.change(direction)
        self.query_one(PaceLabel).show(pace.bot_delay)
        message = f"Pace: {pace.words()}" + (f" — {limit}" if limit else "") + "."
        try:
            save_pace(pace)
        except OSError as e:
            message += f" (Not remembered for next time: {e}.)"
        self.notify(message, title=STATE_TITLE, timeout=3)  # the app keeps one pace notice up

    def action_results(self) -> None:
        if not self.session.game.over or self.state.steps:
            return
        self.app.push_screen(self._end_screen())

    def _end_screen(self) -> Screen[None]:
        """The results: who won, the standings, and what may follow (a rematch, a new game)."""
        from .end import EndScreen

        return EndScreen(self.session)

    def action_time_travel(self) -> None:
        """``t``: the replay viewer's timeline over this game so far, read-only, following the game
        as it goes on (the table tells it each new event); Escape comes back here."""
        from ...replay import Replay
        from .replay import ReplayScreen

        session = self.session
        refused = self._branch_refused()
        branch = self._branch_from if refused is None and self._can_branch() else None
        self._time_travel = ReplayScreen(Replay(session.events), live=True, branch=branch, branch_refused=refused)
        self.app.push_screen(self._time_travel)

    def _can_branch(self) -> bool:
        """``b`` in time travel is offered: a branch's parent is a file."""
        return self.session.path is not None

    def _branch_refused(self) -> str | None:
        """Why ``b`` in time travel makes no branch here, said when pressed (None: it may)."""
        return None

    def _tell_time_travel(self, events: Sequence[Event]) -> None:
        """The viewer over this game, while it is open, hears of events just saved (in order:
        they queue up with its other messages)."""
        viewer = self._time_travel
        if viewer is None:
            return
        if viewer in self.app.screen_stack:
            viewer.post_message(LiveEvents(events))
        else:
            self._time_travel = None  # closed (Escape)

    def _branch_from(self, moment: int, take: int | None) -> None:
        """``b`` in time travel: play on from ``moment`` (a decision moment, as the viewer hands it
        over) in a new file. This game stays on disk as it is (``dvtui resume`` continues it);
        from now on this table plays the branch (the app makes it: :class:`BranchRequested`)."""
        self.app.post_message(BranchRequested(self, moment, take))

    def adopt(self, session: GameSession) -> None:
        """Play ``session`` from now on (a branch, a rematch, a new game) and let go of the game
        played so far (closed: its file stays as it is). Whatever was under way for the old game
        (a bot thinking, a hint, a resolution on screen) is dropped."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.turn_token += 1  # answers computed for the old game are ignored when they arrive
        self._stop_thinking()
        old, self.session = self.session, session
        old.close()
        self._time_travel = None  # the viewer over the old game is closed by now
        self.state = TableState()  # whole: nothing of the old game's cursor or resolution stays
        self.query_one(EventLog).reset(session.events, session.game)
        self._relayout(*self.app.size)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.KEYS))

    async def action_quit(self) -> None:
        self.app.exit()

    # -- for the command palette ----------------------------------------------------------------

    def palette_commands(self) -> Iterable[PaletteEntry]:
        """What can be done now, for the command palette: the keys' commands the table allows now
        (this screen's key map, :attr:`KEYS`), and where the game is saved."""
        for command in self.KEYS.offered(lambda action: self.check_action(action, ())):
            if command is UNDO:
                undoer = self.session.undo_player()
                if undoer is not None:
                    yield command.entry(self, name=self.session.names[undoer])
            else:
                yield command.entry(self)
        path = self.session.path
        if path is not None:
            yield ("Where is this game saved?", str(path), partial(self.notify, f"Saved in {path}", timeout=8))

def _strong_available() -> bool:
    from ...bots import LEVELS

    return "strong" in LEVELS

