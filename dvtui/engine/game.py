"""The state of a game and the decisions that move it.

Decisions are validated and applied; derived events (R5-R8) are computed by :meth:`Game.derive_next`
from the state alone, so a log's derived events are checked by recomputing them, never trusted.
A whole log is folded by :func:`dvtui.engine.fold`, one event at a time by :meth:`Game.apply`.
The sim's hot loop is :meth:`Game.play`, so the state is plain lists of strings and ints,
mutated in place, with no per-move allocation beyond the events themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import NamedTuple, NoReturn

from .cards import CATEGORIES, COLUMNS, NUMBER_CARDS
from .errors import (
    CardNotInHand,
    ColumnOutOfRange,
    DerivedMismatch,
    GameOver,
    NothingToUndo,
    NotPlacementPhase,
    RuleError,
    WrongPlayer,
)
from .events import (
    CardPlaced,
    ColumnResolved,
    Event,
    GameCreated,
    GameEnded,
    PlacementUndone,
    RoundEnded,
)
from .rules import Outcome, resolve_columns, settle_columns, winners
from .setup import PLACEMENTS_PER_PLAYER, ROUNDS, check_setup


class Phase(IntEnum):
    """Where a game stands between two events."""

    PLACEMENT = 0
    """A decision is awaited (R4). Zero on purpose: ``if game.phase`` is the hot loops' test for
    "no placement now"."""
    RESOLVING = 1
    """Columns still to resolve (R5)."""
    ROUND_ENDING = 2
    """``round_ended`` owed (R7)."""
    GAME_ENDING = 3
    """``game_ended`` owed (R8)."""
    OVER = 4


PLACEMENT, RESOLVING, ROUND_ENDING, GAME_ENDING, OVER = Phase  # names the hot loops look up once

_FULL_HAND = list(NUMBER_CARDS)
_WHOLE = slice(None)
"""``[:]`` made once: :meth:`Game._settle` refills every hand in place each round, and a slice in
the code is a new slice object each time."""
_NO_GOODS: list[str | None] = [None] * len(CATEGORIES)
_COLUMN_SET = frozenset(range(COLUMNS))
_Empty = tuple[tuple[list[int], ...], tuple[list[int], ...], tuple[list[str | None], ...], tuple[list[str], ...]]
_EMPTY: dict[int, _Empty] = {n: ((_FULL_HAND,) * n, ([0] * n,) * COLUMNS, (_NO_GOODS,) * n, ([],) * n) for n in ROUNDS}
"""A new game's lists by table size, for :class:`Game` to copy (hands, totals, goods, money): a
tuple of the list to copy, once per copy, made once (``itertools.repeat`` parses its arguments
the slow way, four times a game)."""
_SUCCESSORS = {n: tuple((p + 1) % n for p in range(n)) for n in ROUNDS}
"""R4.1: ``_SUCCESSORS[players][p]`` is the seat after p, clockwise (a look-up: ``%`` is a slow opcode)."""
_TURNS = {
    n: tuple(tuple((first + i) % n for i in range(PLACEMENTS_PER_PLAYER * n)) for first in range(n)) for n in ROUNDS
}
"""R4.1-R4.2: ``_TURNS[players][first]``, who places, in order, in a round that ``first`` starts."""


class Placement(NamedTuple):
    """A decision (R4.3): put number card ``card`` (1-6) under column ``column`` (0-6).

    One value from the engine up, in the style of python-chess's ``Move``, so no layer passes two
    bare ints whose order it must remember; a tuple underneath, so a hot loop may still unpack it
    (``card, column = placement``) and a placement is hashable and cheap."""

    card: int
    column: int


PLACEMENTS: dict[int, tuple[Placement, ...]] = {
    card: tuple(Placement(card, column) for column in range(COLUMNS)) for card in NUMBER_CARDS
}
"""Every card's placements by column, made once: :meth:`Game.legal_placements` hands out these,
and a mover that returns one of them is looked up in :meth:`Game.play` by identity (a key the
dict holds), not by comparing two tuples."""

_Placed = tuple[dict[Placement, CardPlaced], ...]
"""``placed[player][placement]``: a round's ``card_placed`` events, one for every decision, keyed
by the placements :data:`PLACEMENTS` holds."""
_PLACED: dict[int, tuple[_Placed, ...]] = {}
"""Every ``card_placed`` event a game may hold, by number of players, then by round (index 0
unused), made the first time a game at such a table is played (see :func:`_placed`)."""


def _placed(players: int) -> tuple[_Placed, ...]:
    """Every ``card_placed`` event of every round at a table of ``players``, by round, shared by
    every game :meth:`Game.play` plays (one look-up a game, then a tuple's index a round).

    Looking a decision up here is :meth:`Game.play`'s test that its column and card are ones the
    rules know (dicts: nothing else is a key; a value equal to one, ``3.0`` or ``True``, finds it
    as ``list.remove`` finds it in the hand). A game nobody watches records the event found: it
    goes nowhere but ``placements``, where the movers read it, and building one per card was a
    tenth of a simulated game. So nothing may change these; :meth:`Game.play` gives a game it
    hands back mid-round copies of its own, and a watched game gets new ones for its sink."""
    try:
        return _PLACED[players]
    except KeyError:
        placed = tuple(
            tuple(
                {
                    placement: CardPlaced(round=round_, player=p, column=placement[1], card=placement[0])
                    for card in NUMBER_CARDS
                    for placement in PLACEMENTS[card]
                }
                for p in range(players)
            )
            for round_ in range(ROUNDS[players] + 1)
        )
        return _PLACED.setdefault(players, placed)


Mover = Callable[["Game", int], Placement]
"""Whoever decides for a seat in :meth:`Game.play`: (state, seed) -> placement, e.g. a bot."""
EventSink = Callable[[list[Event]], object]
"""Receives a decision with the derived events it triggered, as one unit (a file writer appends it;
what it returns is not looked at)."""


class _HandOver(Exception):
    """Raised by :func:`_hand_over`, the mover of a seat nobody plays for in :meth:`Game.play`."""


def _hand_over(game: Game, seed: int) -> Placement:
    raise _HandOver


class Game:
    """One game's state. Build it from a ``game_created`` event, then feed it decisions.

    Columns are lists read bottom first (R2.2): index 0 is the card a winner takes, ``append`` puts
    a card on top. ``totals[c][p]`` is what player p has placed under column c this round.
    """

    __slots__ = (
        "columns",
        "created",
        "first_player",
        "goods",
        "hands",
        "money",
        "n",
        "next_column",
        "phase",
        "placements",
        "round",
        "round_length",
        "round_scores",
        "rounds",
        "to_move",
        "totals",
        "worth",
    )

    created: GameCreated
    n: int
    """The number of players."""
    rounds: int
    columns: list[list[str]]
    hands: list[list[int]]
    totals: list[list[int]]
    placements: list[CardPlaced]
    """The placements standing in the round being played, in order."""
    goods: list[list[str | None]]
    money: list[list[str]]
    round: int
    first_player: int
    phase: Phase
    next_column: int
    round_scores: list[list[int]]
    """Everyone's score after each finished round (the end screen's chart)."""
    to_move: int
    """R4.1: whose placement it is (kept up to date rather than derived: the sim asks every move)."""
    worth: list[int]
    """R8 score of each player so far, kept up to date at every award."""
    round_length: int

    def __init__(self, created: GameCreated, *, trusted: bool = False) -> None:
        """``trusted``: ``created`` was just made by :func:`new_game`, whose deal is right by
        construction (tests/engine prove it), so it is not checked again; anything read from a
        file or a person is checked."""
        if not trusted:
            check_setup(created)
        n = len(created.players)
        self.created = created
        self.n = n
        self.rounds = created.rounds
        # copies made by C loops (map) rather than comprehensions, unpacked into a list display rather
        # than handed to list() (a call of a type, the slow way): the sim starts a game per deal
        self.columns = [*map(list.copy if trusted else list, created.grid)]  # new_game deals lists
        hands, totals, goods, money = _EMPTY[n]
        self.hands = [*map(list.copy, hands)]
        self.totals = [*map(list.copy, totals)]
        self.placements = []
        self.goods = [*map(list.copy, goods)]
        self.money = [*map(list.copy, money)]
        self.round = 1
        self.first_player = created.first_player
        self.phase = PLACEMENT
        self.next_column = 0
        self.round_scores = []
        self.to_move = created.first_player
        self.worth = [0] * n
        self.round_length = PLACEMENTS_PER_PLAYER * n  # R4.2: placements in a round

    # -- reading the state -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def derived_pending(self) -> bool:
        """True between a round's last placement and the derived events that complete it."""
        return self.phase != PLACEMENT and self.phase != OVER

    def score(self, player: int) -> int:
        """R8: the value of everything the player owns."""
        return self.worth[player]

    def scores(self) -> list[int]:
        return self.worth[:]

    def outcome(self) -> Outcome | None:
        """R8: the final scores and who won (a tie shares the victory), once the game is over;
        None while it goes on."""
        return Outcome.of(self.worth) if self.phase == OVER else None

    def legal_placements(self) -> list[Placement]:
        """Every placement the player to move may make (R4.3: any column, any card in hand), card by
        card in hand order, each card's columns from the left."""
        if self.phase != PLACEMENT:
            return []
        return [placement for card in self.hands[self.to_move] for placement in PLACEMENTS[card]]

    def owned_cards(self, player: int) -> list[str]:
        """Every card the player owns: goods, then money (R8 scores these)."""
        return [g for g in self.goods[player] if g is not None] + self.money[player]

    def copy(self) -> Game:
        """An independent copy, for previews, search and replay checkpoints."""
        g = Game.__new__(Game)
        g.created = self.created
        g.n = self.n
        g.rounds = self.rounds
        g.columns = [*map(list.copy, self.columns)]
        g.hands = [*map(list.copy, self.hands)]
        g.totals = [*map(list.copy, self.totals)]
        g.placements = self.placements[:]
        g.goods = [*map(list.copy, self.goods)]
        g.money = [*map(list.copy, self.money)]
        g.round = self.round
        g.first_player = self.first_player
        g.phase = self.phase
        g.next_column = self.next_column
        g.round_scores = [*map(list.copy, self.round_scores)]
        g.to_move = self.to_move
        g.worth = self.worth[:]
        g.round_length = self.round_length
        return g

    # -- decisions ---------------------------------------------------------------------------

    def check_placement(self, placement: Placement, *, player: int) -> None:
        """Raise the typed error that says why ``player`` may not make this placement, or return."""
        card, column = placement
        if self.phase != PLACEMENT:
            if self.phase == OVER:
                raise GameOver.of("game_over")
            raise NotPlacementPhase.of("resolving")
        if player != self.to_move:
            raise WrongPlayer.of("not_your_turn", to_move=self.to_move, player=player)
        if column not in _COLUMN_SET:  # (whatever it is: a program may hand in anything)
            raise ColumnOutOfRange.of("column_range", last=COLUMNS - 1, column=column)
        if card not in self.hands[player]:
            if card in NUMBER_CARDS:
                raise CardNotInHand.of("card_placed", player=player, card=card)
            raise CardNotInHand.of("card_range", card=card)

    def place(self, placement: Placement, *, player: int | None = None, stand_in: str | None = None) -> list[Event]:
        """Make ``placement`` for the player to move (or check it is ``player``). ``stand_in``: the
        bot level placing for an absent human (a shared table), noted on the ``card_placed``.

        Returns the decision event followed by every derived event it triggers (a round's last
        placement resolves the round, and the last round ends the game), all already applied.
        A decision is folded exactly as a log's ``card_placed`` is (:meth:`apply`); games of
        bots go through :meth:`play` instead, a loop over whole rounds.
        """
        p = self.to_move
        if player is not None and player != p:
            self.check_placement(placement, player=player)  # raises WrongPlayer (or why nobody may place)
        card, column = placement
        event = CardPlaced(round=self.round, player=p, column=column, card=card, stand_in=stand_in)
        self.apply(event)
        return [event, *self.derive_all()] if self.derived_pending else [event]

    def play(self, movers: Sequence[tuple[Mover, int] | None], sink: EventSink | None = None) -> None:
        """Let ``movers[seat] = (choose, seed)`` decide for their seats, ``choose(game, seed) ->
        placement``, until the game is over or a seat without a mover is to move.

        ``sink`` receives each decision with the derived events it triggers, as :meth:`place`
        returns them. The same rules as :meth:`place` (an illegal choice raises its typed error
        and changes nothing), in one loop per round over the round's turns (R4.1), the state held
        in locals.

        MIRROR of :meth:`apply_placements`: the same five state updates of a placement (the card
        leaves the hand, the column's total grows, the placement is recorded, the turn moves on,
        the round's last placement leaves its columns to resolve), inlined, because a method call
        per card is a large share of a simulated game's work (``bench/bench_sim_ab.py`` measures
        it). A change to one is a change to both; ``tests/engine/test_r4_placement.py`` plays
        games both ways and compares them.
        """
        if self.phase and self.phase != OVER:  # derived_pending, without a property call a game
            owed = self.derive_all()
            if sink is not None:
                sink(owed)
        chooses: list[Mover] = []  # one loop rather than two comprehensions: the sim plays a game a call
        seeds: list[int] = []
        for mover in movers:
            if mover is None:
                chooses.append(_hand_over)
                seeds.append(0)
            else:
                chooses.append(mover[0])
                seeds.append(mover[1])
        try:
            self._play_rounds(chooses, seeds, sink)
        finally:
            if sink is None and self.placements:  # handed back mid-round: events of its own
                self.placements = [
                    CardPlaced(round=e.round, player=e.player, column=e.column, card=e.card) for e in self.placements
                ]

    def _play_rounds(self, chooses: list[Mover], seeds: list[int], sink: EventSink | None) -> None:
        """:meth:`play`'s loop over rounds, the events of a game nobody watches shared
        (:func:`_placed`)."""
        by_round = _placed(self.n)
        turns = _TURNS[self.n]
        while not self.phase:  # a round: PLACEMENT is 0, and after a round it is PLACEMENT or OVER
            hands = self.hands
            totals = self.totals
            placements = self.placements
            round_ = self.round
            placed = by_round[round_]
            order = turns[self.first_player]
            for p in order[len(placements) :] if placements else order:  # (a round begun: no slice)
                self.to_move = p
                try:
                    placement = chooses[p](self, seeds[p])
                except _HandOver:
                    return  # a seat with nobody to decide for it: a person's turn
                try:
                    event = placed[p][placement]  # a column and a card the rules know
                except (KeyError, TypeError):  # (TypeError: unhashable, no placement at all)
                    self._refuse(CardPlaced(round=round_, player=p, column=placement[1], card=placement[0]))
                card = event.card  # (the event's fields: a NamedTuple, not an exact tuple, indexes slowly)
                column = event.column
                try:
                    hands[p].remove(card)  # the test "card in hand" and the move, in one scan
                except ValueError:
                    self._refuse(event)  # as place() raises
                totals[column][p] += card
                if sink is None:
                    placements.append(event)
                else:
                    event = CardPlaced(round=round_, player=p, column=column, card=card)
                    placements.append(event)
                    if len(placements) < self.round_length:  # (looked up here: a watched game only)
                        self.to_move = _SUCCESSORS[self.n][p]  # as place() leaves the game, should the sink fail
                        sink([event])
            self.phase = RESOLVING  # the round's turns are all played
            self.next_column = 0
            if sink is None:
                self._settle()
            else:
                sink([event, *self.derive_all()])

    def undo(self, player: int | None = None) -> PlacementUndone:
        """Take back the latest placement of the current round; its player is to move again.

        With ``player``, only that player's own latest placement may be taken back (the UI's rule:
        a human undoes their own move, not a bot's).
        """
        if self.phase == OVER:
            raise GameOver.of("undo_over")
        if self.phase != PLACEMENT or not self.placements:
            raise NothingToUndo.of("undo_none")
        last = self.placements[-1]
        if player is not None and last.player != player:
            raise NothingToUndo.of("undo_not_theirs", last=last.player, player=player)
        event = PlacementUndone(round=self.round, player=last.player, column=last.column, card=last.card)
        self._apply_undone(event)
        return event

    def _apply_undone(self, event: PlacementUndone) -> None:
        self.to_move = event.player
        self.placements.pop()
        self.totals[event.column][event.player] -= event.card
        hand = self.hands[event.player]
        hand.append(event.card)
        hand.sort()

    # -- derived events ----------------------------------------------------------------------

    def derive_next(self) -> Event:
        """Compute the next derived event owed by the rules, apply it and return it."""
        phase = self.phase
        if phase == RESOLVING:
            return self._resolve_columns(self.next_column + 1)[0]
        if phase == ROUND_ENDING:
            return self._end_round()
        if phase == GAME_ENDING:
            return self._end_game()
        raise NotPlacementPhase.of("nothing_owed")

    def derive_all(self) -> list[Event]:
        """Every derived event owed now, applied, in log order."""
        out: list[Event] = self._resolve_columns(COLUMNS) if self.phase == RESOLVING else []  # type: ignore[assignment]
        if self.phase == ROUND_ENDING:
            out.append(self._end_round())
        if self.phase == GAME_ENDING:
            out.append(self._end_game())
        return out

    def _settle(self) -> None:
        """:meth:`derive_all` for a game nobody watches (:meth:`play` without a sink): the same
        state, without the events (:func:`settle_columns`), and the lists of the round that ended
        refilled in place (the totals zeroed, every card back in each hand), as no event or screen
        holds them: a list made and one freed cost more than one refilled."""
        settle_columns(self.totals, self.columns, self.goods, self.money, self.worth)
        self.placements.clear()
        whole = _WHOLE
        for hand in self.hands:
            hand[whole] = _FULL_HAND  # R7 (hand[:] would build a slice a hand)
        self._next_round()
        if self.phase == GAME_ENDING:
            self.phase = OVER  # what _end_game leaves, without its event

    def _resolve_columns(self, stop: int) -> list[ColumnResolved]:
        """Resolve columns ``next_column`` .. ``stop - 1`` (R5, R6); the round's end is owed
        once the last column is resolved."""
        events = resolve_columns(
            self.totals, self.columns, self.goods, self.money, self.worth, self.round, self.next_column, stop
        )
        if stop == COLUMNS:
            self.phase = ROUND_ENDING
        else:
            self.next_column = stop
        return events

    def _end_round(self) -> RoundEnded:
        event = RoundEnded(round=self.round, next_first_player=_SUCCESSORS[self.n][self.first_player])
        self.placements = []
        self.hands = [*map(list.copy, _EMPTY[self.n][0])]  # R7: every card back in hand
        self._next_round()
        return event

    def _next_round(self) -> None:
        """R7 once the hands are full again: the round's scores kept, the next player starts the
        next round (or the game's end is owed)."""
        nxt = _SUCCESSORS[self.n][self.first_player]
        self.round_scores.append(self.worth[:])
        self.first_player = nxt
        self.to_move = nxt
        if self.round == self.rounds:
            self.phase = GAME_ENDING
        else:
            self.round += 1
            self.phase = PLACEMENT

    def _end_game(self) -> GameEnded:
        scores = self.worth[:]
        self.phase = OVER
        return GameEnded(scores=scores, winners=winners(scores))  # R8

    # -- projections ---------------------------------------------------------------------------

    def projected(
        self, after: Placement | None = None, *, player: int | None = None
    ) -> tuple[list[ColumnResolved], Game]:
        """What every column would award if the round ended now, and the state that would leave.

        ``after``: as if ``player`` (default: the player to move) had also made this placement
        first (a bot weighing a move). That what-if is not checked, and only the column's total
        changes (the card stays in hand, nobody's turn moves): it asks what the round would give,
        not whether the move may be made.

        The one place the UI and the bots ask "what would happen"; nothing re-derives R5/R6.
        """
        g = self.copy()
        if after is not None:
            card, column = after
            g.totals[column][self.to_move if player is None else player] += card
        if g.phase == PLACEMENT:
            g.phase = RESOLVING
            g.next_column = 0
        events = g._resolve_columns(COLUMNS) if g.phase == RESOLVING else []
        return events, g

    # -- folding a log -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold one event of a log: a decision is validated, a derived event recomputed and
        compared (a difference raises :class:`DerivedMismatch` naming the field). A whole log is
        folded by :func:`dvtui.engine.fold`, which says where an error is."""
        kind = type(event)
        if kind is CardPlaced:
            if not self.apply_placements((event,), 0, 1):
                self._refuse(event)  # type: ignore[arg-type]
        elif kind is ColumnResolved or kind is RoundEnded or kind is GameEnded:
            if not self.derived_pending:
                raise RuleError.of("not_owed", event=event.__struct_config__.tag)
            expected = self.derive_next()
            if expected != event:
                raise DerivedMismatch.between(expected, event)
        elif kind is PlacementUndone:
            assert isinstance(event, PlacementUndone)
            if self.phase == PLACEMENT and event.round != self.round:
                raise RuleError.of("undo_round", said=event.round, round=self.round)
            if self.phase == PLACEMENT and self.placements:
                last = self.placements[-1]
                if (last.player, last.column, last.card) != (event.player, event.column, event.card):
                    raise RuleError.of("undo_not_latest", player=last.player, column=last.column, card=last.card)
            self.undo()
        elif kind is GameCreated:
            raise RuleError.of("created_again")
        else:
            raise RuleError.of("not_an_event", event=event)

    def apply_placements(self, events: Sequence[Event], start: int, stop: int) -> int:
        """Fold ``events[start:stop]`` while they are plainly legal ``card_placed`` events of the
        round being played; return the index of the first one not applied (``stop``, another
        kind of event, or one for :meth:`apply`, which says what is wrong with it).

        The one place a placement changes the state (the card leaves the hand, the column's total
        grows, the placement is recorded, the turn moves on, and the round's last placement leaves
        its columns to resolve) for :meth:`apply`, :meth:`place` and a log's runs of placements.
        MIRROR of the loop in :meth:`play`, which inlines the same updates (see there why)."""
        hands = self.hands
        totals = self.totals
        placements = self.placements
        successor = _SUCCESSORS[self.n]
        round_length = self.round_length
        round_ = self.round
        to_move = self.to_move
        i = start
        while i < stop and not self.phase:
            ev = events[i]
            if type(ev) is not CardPlaced:
                break
            player = ev.player
            card = ev.card
            column = ev.column
            hand = hands[to_move]
            if player != to_move or ev.round != round_ or column not in _COLUMN_SET or card not in hand:
                break
            hand.remove(card)
            totals[column][player] += card
            placements.append(ev)
            i += 1
            if len(placements) < round_length:
                to_move = successor[player]
            else:
                self.phase = RESOLVING
                self.next_column = 0
        self.to_move = to_move
        return i

    def _refuse(self, event: CardPlaced) -> NoReturn:
        """Raise the typed error that says why :meth:`apply_placements` did not apply ``event``."""
        if self.phase == PLACEMENT and event.round != self.round:
            raise RuleError.of("placed_round", said=event.round, round=self.round)
        self.check_placement(Placement(card=event.card, column=event.column), player=event.player)
        raise RuleError.of("not_applied", event=event)  # check_placement always says why first
