"""The live table's searches: a bot of this side choosing its move, and the hint (the strong
bot's judgement for the person to move), each in a worker thread on a copy of the state, posting its
answer as a message that names the position by the flow's token (an answer about a position that
is gone is dropped).

:class:`TableThinking` is :class:`~dvtui.app.screens.table.TableScreen`'s base, over what it draws.
"""

from __future__ import annotations

from textual import on, work
from textual.worker import get_current_worker

from ...bots import BotSpec, Stopped, advise, bot_fn
from ...engine import Game
from ...i18n import _
from ..messages import BotPlaced, HintReady, ThinkingFailed
from .table_drawing import TableDrawing


class TableThinking(TableDrawing):
    """The searches the table screen starts, and their answers (a bot's is the screen's to play)."""

    def _start_bot(self, token: int) -> None:
        flow = self.flow
        seat = flow.bot_to_start()
        if token != flow.token or seat is None:
            return
        bot = self.session.bots[seat]
        assert bot is not None
        spec, seed = bot
        flow.thinking = seat
        self._think(token, spec, self.session.game.copy(), seed)

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
        """The hint: the judgement of the position ``token`` names (the analysis's), in a thread, posted as
        :class:`HintReady` (stopped like :meth:`_think`)."""
        worker = get_current_worker()
        try:
            suggestion = advise(game, seed, stop=worker.cancelled_event)
        except Stopped:
            return
        except Exception as e:
            self.post_message(ThinkingFailed(token, "hint", e))
            return
        if not worker.is_cancelled:
            self.post_message(HintReady(token, suggestion))

    @on(HintReady)
    def _hint_ready(self, message: HintReady) -> None:
        if message.token != self.flow.token or self.flow.placer() is None:
            return
        s = message.suggestion
        self.flow.hinted(s.placement, s.gain, s.win)
        self.refresh_view()

    @on(ThinkingFailed)
    def _thinking_failed(self, message: ThinkingFailed) -> None:
        if message.token != self.flow.token:
            return  # not this game's news
        said = _("bot failed: {error}") if message.what == "bot" else _("hint failed: {error}")
        self.notify(said.format(error=message.error), severity="error", timeout=10)

    def _stop_thinking(self) -> None:
        """Stop the searches of a position that is gone (their answers would be ignored anyway):
        the cores go back to the game at hand."""
        self.workers.cancel_group(self, "bot")
        self.workers.cancel_group(self, "hint")

    def action_no_hint(self) -> None:
        """``h`` when no hint can be asked for now: why, if it is the table's choice (on someone
        else's turn, or during a resolution, there is nothing to say)."""
        refused = self.session.abilities.hints
        if refused is not None:
            self.notify(refused, severity="information")

    def action_hint(self) -> None:
        player = self.flow.placer()
        if player is None or self.session.abilities.hints is not None:
            return
        self.flow.cursor.hint = _("hint: the strong bot is thinking…")
        self.refresh_view()
        self._ask_hint(self.flow.token, self.session.game.copy(), self.session.hint_seed(player))
