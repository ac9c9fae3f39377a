"""The state of a game and the rules that move it: a fold of events (STYLE: state = fold(events)).

Decisions are validated and applied; derived events (R5-R8) are computed by :meth:`Game.derive_next`
from the state alone, so a file's derived events are checked by recomputing them, never trusted.
The hot loop of ``dvtui sim`` is :meth:`Game.play`, so the state is plain lists of strings and
ints, mutated in place, with no per-move allocation beyond the events themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat
from typing import NoReturn

from .cards import (
    ALL_CARD_NAMES,
    BOX_SIZE,
    CATEGORIES,
    CATEGORY_OF,
    COLORS,
    COLUMN_HEIGHT,
    COLUMNS,
    DECK,
    GOODS,
    MONEY_100,
    MONEY_200,
    NUMBER_CARDS,
    VALUE_OF,
    deal,
    is_money,
)
from .errors import (
    BadSetup,
    CardNotInHand,
    ColumnOutOfRange,
    GameOver,
    NothingToUndo,
    NotPlacementPhase,
    RuleError,
    WrongPlayer,
)
from .events import (
    DERIVED_TYPES,
    FORMAT_VERSION,
    Award,
    CardPlaced,
    ColumnResolved,
    Event,
    GameCreated,
    GameEnded,
    PlacementUndone,
    RoundEnded,
    Seat,
)

ROUNDS: dict[int, int] = {3: 6, 4: 4, 5: 5}
"""R3: rounds by player count, as printed."""

MIN_PLAYERS = 3
MAX_PLAYERS = 5
PLACEMENTS_PER_PLAYER = 5
"""R4.2: each player places 5 of 6 cards a round."""

PLACEMENT = 0  # zero on purpose: "if game.phase" is the hot loop's test for "not placing"
RESOLVING = 1  # columns still to resolve (R5)
ROUND_ENDING = 2  # round_ended owed (R7)
GAME_ENDING = 3  # game_ended owed (R8)
OVER = 4

_FULL_HAND = list(NUMBER_CARDS)
_NO_GOODS: list[str | None] = [None] * len(CATEGORIES)

Mover = Callable[["Game", int], tuple[int, int]]
"""Whoever decides for a seat in :meth:`Game.play`: (state, seed) -> (card, column), e.g. a bot."""
EventSink = Callable[[list[Event]], None]
"""Receives a decision with the derived events it triggered, as one unit (a file writer appends it)."""


class DerivedMismatch(RuleError):
    """A derived event in a file differs from what the rules give; ``field`` names where."""

    def __init__(self, event_type: str, field: str, expected: object, found: object) -> None:
        self.field = field
        super().__init__(
            f"{event_type}: field {field!r} should be {_show(expected)}, found {_show(found)}"
        )


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _rank(totals: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """R5.1-R5.3 for one column: (who takes a card, in order; who is cancelled, sorted).

    Players with a total of 0 placed nothing there and take no part (R5.1). Every group of equal
    totals is removed, however many tie and at whatever rank (R5.2); the rest rank by total,
    highest first (R5.3), and no two of them can be equal.
    """
    ranked = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)  # stable: seat order in a tie
    order: list[int] = []
    cancelled: list[int] = []
    n = len(ranked)
    i = 0
    while i < n:
        total = totals[ranked[i]]
        if not total:  # the rest placed nothing here (R5.1)
            break
        j = i + 1
        while j < n and totals[ranked[j]] == total:
            j += 1
        if j - i == 1:
            order.append(ranked[i])
        else:  # R5.2: a tie cancels everyone in it
            cancelled.extend(ranked[i:j])
        i = j
    cancelled.sort()
    return tuple(order), tuple(cancelled)


_RANKINGS: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
"""Memo of :func:`_rank`: a column's outcome depends only on the totals, and a game resolves 28 to
35 columns, most with totals seen before; this keeps ``dvtui sim`` fast. Bounded in size."""
_RANKINGS_MAX = 200_000


def _rank_memo(totals: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`_rank`, looked up in :data:`_RANKINGS` first and kept there for next time."""
    key = tuple(totals)
    ranking = _RANKINGS.get(key)
    if ranking is None:
        ranking = _rank(totals)
        if len(_RANKINGS) < _RANKINGS_MAX:
            _RANKINGS[key] = ranking
    return ranking


def rounds_for(players: int) -> int:
    """R3; refuses other player counts with the rule's own words."""
    if players not in ROUNDS:
        raise BadSetup(f"Dolce Vita is for 3 to 5 players (R3), not {players}")
    return ROUNDS[players]


def new_game(
    seats: Sequence[Seat], *, first_player: int = 0, seed: int = 0
) -> GameCreated:
    """R2: a seeded deal for ``seats`` (clockwise), as the ``game_created`` event that records it."""
    rounds = rounds_for(len(seats))
    if not 0 <= first_player < len(seats):
        raise BadSetup(f"first player must be a seat from 0 to {len(seats) - 1}, not {first_player}")
    grid, box = deal(seed)
    created = GameCreated(
        format=FORMAT_VERSION,
        players=list(seats),
        first_player=first_player,
        rounds=rounds,
        grid=grid,
        box=box,
        seed=seed,
    )
    return created


def check_setup(created: GameCreated) -> None:
    """R1-R3 on a ``game_created`` from anywhere (a file may have been written by another tool).

    The money split is not assumed (R1.2): any 17 money cards of 100k and 200k are accepted.
    """
    if created.format != FORMAT_VERSION:
        raise BadSetup(f"format {created.format} is not supported (this is format {FORMAT_VERSION})")
    n = len(created.players)
    rounds = rounds_for(n)
    if created.rounds != rounds:
        raise BadSetup(f"{n} players play {rounds} rounds (R3), not {created.rounds}")
    if not 0 <= created.first_player < n:
        raise BadSetup(f"first_player must be a seat from 0 to {n - 1}, not {created.first_player}")
    colors: set[str] = set()
    for i, seat in enumerate(created.players):
        if seat.kind not in ("human", "bot"):
            raise BadSetup(f"players[{i}].kind must be \"human\" or \"bot\", not {seat.kind!r}")
        if seat.kind == "bot" and not seat.bot:
            raise BadSetup(f"players[{i}] is a bot without a level (\"bot\" field)")
        if seat.color not in COLORS:
            raise BadSetup(f"players[{i}].color must be one of {', '.join(COLORS)}, not {seat.color!r}")
        if seat.color in colors:
            raise BadSetup(f"players[{i}].color {seat.color!r} is already taken (R2.3)")
        if not seat.name.strip():
            raise BadSetup(f"players[{i}].name is empty")
        colors.add(seat.color)
    grid = created.grid
    if list(map(len, grid)) != _GRID_SHAPE:
        raise BadSetup(f"grid must be {COLUMNS} columns of {COLUMN_HEIGHT} cards (R2.1)")
    if len(created.box) != BOX_SIZE:
        raise BadSetup(f"box must hold {BOX_SIZE} cards (R2.1), not {len(created.box)}")
    cards = list(chain.from_iterable(grid))  # (C-level helpers: every file read is checked here)
    cards += created.box
    money = cards.count(MONEY_100) + cards.count(MONEY_200)
    if money == len(DECK) - len(GOODS) and set(cards) - _MONEY == _GOODS_SET:
        return  # 66 cards, 17 of them money, so the 49 others are the 49 goods, once each
    unknown = [card for card in cards if card not in ALL_CARD_NAMES]
    if unknown:
        raise BadSetup(f"unknown card {unknown[0]!r}")
    goods = [card for card in cards if card in CATEGORY_OF]
    if len(set(goods)) != len(goods):
        dup = next(card for card in goods if goods.count(card) > 1)
        raise BadSetup(f"card {dup!r} is dealt twice (R1.1: one card per category and value)")
    # 66 cards, none unknown, no good twice: the only way left to be wrong is goods missing
    raise BadSetup(
        f"the deal must hold all {len(GOODS)} goods and {len(DECK) - len(GOODS)} money cards (R1), "
        f"it holds {len(goods)} goods and {money} money cards"
    )


_GOODS_SET = frozenset(GOODS)
_GRID_SHAPE = [COLUMN_HEIGHT] * COLUMNS
_COLUMN_SET = frozenset(range(COLUMNS))
_CARD_INFO: dict[str, tuple[int, int]] = {card: (VALUE_OF[card], CATEGORY_OF.get(card, -1)) for card in VALUE_OF}
"""Card -> (value, category index or -1 for money): one look-up per award in the hot loop."""
_MONEY = frozenset((MONEY_100, MONEY_200))
_SUCCESSORS = {n: tuple((p + 1) % n for p in range(n)) for n in ROUNDS}
"""R4.1: ``_SUCCESSORS[players][p]`` is the seat after p, clockwise (a look-up: ``%`` is a slow opcode)."""
_TURNS = {
    n: tuple(tuple((first + i) % n for i in range(PLACEMENTS_PER_PLAYER * n)) for first in range(n)) for n in ROUNDS
}
"""R4.1-R4.2: ``_TURNS[players][first]``, who places, in order, in a round that ``first`` starts."""


class _HandOver(Exception):
    """Raised by :func:`_hand_over`, the mover of a seat nobody plays for in :meth:`Game.play`."""


def _hand_over(game: Game, seed: int) -> tuple[int, int]:
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
        "history",
        "money",
        "n",
        "next_column",
        "phase",
        "placements",
        "round",
        "round_length",
        "rounds",
        "to_move",
        "totals",
        "worth",
    )

    created: GameCreated
    n: int
    rounds: int
    columns: list[list[str]]
    hands: list[list[int]]
    totals: list[list[int]]
    placements: list[CardPlaced]
    goods: list[list[str | None]]
    money: list[list[str]]
    round: int
    first_player: int
    phase: int
    next_column: int
    history: list[list[int]]
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
        # copies made by C loops (map) rather than comprehensions: `dvtui sim` starts 10,000 games a second
        self.columns = list(map(list, created.grid))
        self.hands = list(map(list.copy, repeat(_FULL_HAND, n)))
        self.totals = list(map(list.copy, repeat([0] * n, COLUMNS)))
        self.placements = []
        self.goods = list(map(list.copy, repeat(_NO_GOODS, n)))
        self.money = list(map(list.copy, repeat([], n)))
        self.round = 1
        self.first_player = created.first_player
        self.phase = PLACEMENT
        self.next_column = 0
        self.history = []  # scores after each finished round, for the end screen's chart
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

    def legal_placements(self) -> list[tuple[int, int]]:
        """Every (card, column) the player to move may place (R4.3: any column, any card in hand)."""
        if self.phase != PLACEMENT:
            return []
        return [(card, col) for card in self.hands[self.to_move] for col in range(COLUMNS)]

    def owned_cards(self, player: int) -> list[str]:
        """Every card the player owns: goods, then money (R8 scores these)."""
        return [g for g in self.goods[player] if g is not None] + self.money[player]

    def copy(self) -> Game:
        """An independent copy, for previews, search and replay checkpoints."""
        g = Game.__new__(Game)
        g.created = self.created
        g.n = self.n
        g.rounds = self.rounds
        g.columns = list(map(list.copy, self.columns))
        g.hands = list(map(list.copy, self.hands))
        g.totals = list(map(list.copy, self.totals))
        g.placements = self.placements[:]
        g.goods = list(map(list.copy, self.goods))
        g.money = list(map(list.copy, self.money))
        g.round = self.round
        g.first_player = self.first_player
        g.phase = self.phase
        g.next_column = self.next_column
        g.history = list(map(list.copy, self.history))
        g.to_move = self.to_move
        g.worth = self.worth[:]
        g.round_length = self.round_length
        return g

    # -- decisions ---------------------------------------------------------------------------

    def check_placement(self, player: int, column: int, card: int) -> None:
        """Raise the typed error that says why this placement is illegal, or return."""
        if self.phase != PLACEMENT:
            if self.phase == OVER:
                raise GameOver("the game is over (R8): no more placements")
            raise NotPlacementPhase("the round is being resolved: its derived events come first")
        if player != self.to_move:
            raise WrongPlayer(f"it is player {self.to_move}'s turn, not player {player}'s (R4.1)")
        if column not in _COLUMN_SET:  # (whatever it is: a program may hand in anything)
            raise ColumnOutOfRange(f"column must be 0 to {COLUMNS - 1}, not {column!r}")
        if card not in self.hands[player]:
            if card in NUMBER_CARDS:
                raise CardNotInHand(f"player {player} has already placed their {card} this round")
            raise CardNotInHand(f"number cards are 1 to 6, not {card}")

    def place(self, column: int, card: int, player: int | None = None) -> list[Event]:
        """Place ``card`` under ``column`` for the player to move (or check it is ``player``).

        Returns the decision event followed by every derived event it triggers (a round's last
        placement resolves the round, and the last round ends the game), all already applied.
        A decision is folded exactly as a file's ``card_placed`` is (:meth:`apply`); games of
        bots go through :meth:`play` instead, a loop that does the same for a whole round.
        """
        p = self.to_move
        if player is not None and player != p:
            self.check_placement(player, column, card)  # raises WrongPlayer (or why nobody may place)
        event = CardPlaced(self.round, p, column, card)
        self.apply(event)
        return [event, *self.derive_all()] if self.derived_pending else [event]

    def play(self, movers: Sequence[tuple[Mover, int] | None], sink: EventSink | None = None) -> None:
        """Let ``movers[seat] = (choose, seed)`` decide for their seats, ``choose(game, seed) ->
        (card, column)``, until the game is over or a seat without a mover is to move.

        ``sink`` receives each decision with the derived events it triggers, as :meth:`place`
        returns them. The same rules as :meth:`place` (an illegal choice raises its typed error
        and changes nothing), in one loop per round over the round's turns (R4.1), the state held
        in locals: ``dvtui sim`` spends a third of its time here, and a call to :meth:`place` per
        card cost it 7%.
        """
        if self.derived_pending:
            owed = self.derive_all()
            if sink is not None:
                sink(owed)
        chooses = [_hand_over if m is None else m[0] for m in movers]
        seeds = [0 if m is None else m[1] for m in movers]
        while not self.phase:  # a round: PLACEMENT is 0, and after a round it is PLACEMENT or OVER
            hands = self.hands
            totals = self.totals
            placements = self.placements
            round_length = self.round_length
            successor = _SUCCESSORS[self.n]
            round_ = self.round
            for p in _TURNS[self.n][self.first_player][len(placements) :]:
                self.to_move = p
                try:
                    card, column = chooses[p](self, seeds[p])
                except _HandOver:
                    return  # a seat with nobody to decide for it: a person's turn
                try:
                    if column not in _COLUMN_SET:
                        raise ValueError
                    hands[p].remove(card)  # the test "card in hand" and the move, in one scan
                except ValueError:
                    self._refuse(CardPlaced(round_, p, column, card))  # raises the error place() raises
                event = CardPlaced(round_, p, column, card)
                totals[column][p] += card
                placements.append(event)
                if sink is not None and len(placements) < round_length:
                    self.to_move = successor[p]  # as place() leaves the game, should the sink fail
                    sink([event])
            self.phase = RESOLVING  # the round's turns are all played
            self.next_column = 0
            derived = self.derive_all()
            if sink is not None:
                sink([event, *derived])

    def undo(self, player: int | None = None) -> PlacementUndone:
        """Take back the latest placement of the current round; its player is to move again.

        With ``player``, only that player's own latest placement may be taken back (the UI's rule:
        a human undoes their own move, not a bot's).
        """
        if self.phase == OVER:
            raise GameOver("the game is over (R8): nothing to undo")
        if self.phase != PLACEMENT or not self.placements:
            raise NothingToUndo("no placement of this round to take back (undo never crosses a resolution)")
        last = self.placements[-1]
        if player is not None and last.player != player:
            raise NothingToUndo(f"the latest placement is player {last.player}'s, not player {player}'s")
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
            return self._resolve_next_column()
        if phase == ROUND_ENDING:
            return self._end_round()
        if phase == GAME_ENDING:
            return self._end_game()
        raise NotPlacementPhase("no derived event is owed now")

    def derive_all(self) -> list[Event]:
        """Every derived event owed now, applied, in file order."""
        out: list[Event] = self._resolve_columns(COLUMNS) if self.phase == RESOLVING else []  # type: ignore[assignment]
        if self.phase == ROUND_ENDING:
            out.append(self._end_round())
        if self.phase == GAME_ENDING:
            out.append(self._end_game())
        return out

    def _resolve_next_column(self) -> ColumnResolved:
        return self._resolve_columns(self.next_column + 1)[0]

    def _resolve_columns(self, stop: int) -> list[ColumnResolved]:
        """Resolve columns ``next_column`` .. ``stop - 1`` (R5, R6), left to right, applying each.

        One loop for a whole round, with everything it touches held in locals: ``dvtui sim``
        resolves some 40 columns a game and this is a third of its time.
        """
        events: list[ColumnResolved] = []
        all_totals = self.totals
        columns = self.columns
        goods = self.goods
        worth = self.worth
        money = self.money
        round_ = self.round
        zeros = [0] * self.n
        rankings = _RANKINGS
        card_info = _CARD_INFO
        start = self.next_column
        for c in range(start, stop):
            totals = all_totals[c]
            column = columns[c]
            try:
                order, cancelled = rankings[tuple(totals)]
            except KeyError:
                order, cancelled = _rank_memo(totals)
            if order:
                awards: list[Award] = []
                for p in order:  # R5.3: highest total first, each takes the current bottom card
                    if not column:  # R5.4
                        break
                    card = column.pop(0)
                    value, k = card_info[card]
                    if k < 0:  # R6.3: money is never exchanged
                        money[p].append(card)
                        worth[p] += value
                        awards.append(Award(p, card, None))
                        continue
                    held = goods[p]
                    old = held[k]
                    held[k] = card
                    if old is None:
                        worth[p] += value
                    else:  # R6.1: the old good goes at once on top of this column
                        column.append(old)
                        worth[p] += value - VALUE_OF[old]
                    awards.append(Award(p, card, old))
                events.append(ColumnResolved(round_, c, totals, list(cancelled) if cancelled else [], awards, False))
            elif cancelled:  # R5.2: everyone who played here tied; nobody takes a card
                events.append(ColumnResolved(round_, c, totals, list(cancelled), [], False))
            elif column:  # R5.5: nobody played here, the bottom card goes to the top
                column.append(column.pop(0))
                events.append(ColumnResolved(round_, c, totals, [], [], True))
            else:
                events.append(ColumnResolved(round_, c, totals, [], [], False))
            all_totals[c] = zeros[:]  # the event now owns the old list
        if stop == COLUMNS:
            self.phase = ROUND_ENDING
        else:
            self.next_column = stop
        return events

    def _end_round(self) -> RoundEnded:
        nxt = _SUCCESSORS[self.n][self.first_player]  # R7
        event = RoundEnded(self.round, nxt)
        self.history.append(self.worth[:])
        self.placements = []
        self.hands = list(map(list.copy, repeat(_FULL_HAND, self.n)))  # R7: every card back in hand
        self.first_player = nxt
        self.to_move = nxt
        if self.round == self.rounds:
            self.phase = GAME_ENDING
        else:
            self.round += 1
            self.phase = PLACEMENT
        return event

    def _end_game(self) -> GameEnded:
        scores = self.scores()
        best = max(scores)
        self.phase = OVER
        return GameEnded(scores=scores, winners=[p for p, s in enumerate(scores) if s == best])  # R8

    # -- projections ---------------------------------------------------------------------------

    def projected(self) -> tuple[list[ColumnResolved], Game]:
        """What every column would award if the round ended now, and the state that would leave.

        The one place the UI and the bots ask "what would happen"; nothing re-derives R5/R6.
        """
        g = self.copy()
        if g.phase == PLACEMENT:
            g.phase = RESOLVING
            g.next_column = 0
        events = g._resolve_columns(COLUMNS) if g.phase == RESOLVING else []
        return events, g

    # -- folding a log -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold one event from a log: decisions are validated, derived events recomputed and
        compared (a difference raises :class:`DerivedMismatch` naming the field)."""
        kind = type(event)
        if kind is CardPlaced:
            if not self.apply_placements((event,), 0, 1):
                self._refuse(event)  # type: ignore[arg-type]
        elif kind is ColumnResolved or kind is RoundEnded or kind is GameEnded:
            if not self.derived_pending:
                raise RuleError(f"{event.__struct_config__.tag} is not owed here: a decision is expected")
            expected = self.derive_next()
            if expected != event:
                compare_derived(expected, event)
        elif kind is PlacementUndone:
            assert isinstance(event, PlacementUndone)
            if self.phase == PLACEMENT and event.round != self.round:
                raise RuleError(f"placement_undone says round {event.round}, but round {self.round} is being played")
            if self.phase == PLACEMENT and self.placements:
                last = self.placements[-1]
                if (last.player, last.column, last.card) != (event.player, event.column, event.card):
                    raise RuleError(
                        "placement_undone must name the latest placement exactly: "
                        f"player {last.player}, column {last.column}, card {last.card}"
                    )
            self.undo()
        elif kind is GameCreated:
            raise RuleError("game_created may only be the first event")
        else:
            raise RuleError(f"not an event of this game: {event!r}")

    def apply_placements(self, events: Sequence[Event], start: int, stop: int) -> int:
        """Fold ``events[start:stop]`` while they are plainly legal ``card_placed`` events of the
        round being played; return the index of the first one not applied (``stop``, another
        kind of event, or one for :meth:`apply`, which says what is wrong with it).

        The same as :meth:`apply` on each, in one loop: reading a file is mostly placements."""
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
            player = ev.player  # type: ignore[attr-defined]
            card = ev.card  # type: ignore[attr-defined]
            column = ev.column  # type: ignore[attr-defined]
            hand = hands[to_move]
            if player != to_move or ev.round != round_ or column not in _COLUMN_SET or card not in hand:  # type: ignore[attr-defined]
                break
            hand.remove(card)
            totals[column][player] += card
            placements.append(ev)  # type: ignore[arg-type]
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
            raise RuleError(f"card_placed says round {event.round}, but round {self.round} is being played")
        self.check_placement(event.player, event.column, event.card)
        raise RuleError(f"card_placed could not be applied: {event!r}")  # check_placement always says why first

    @classmethod
    def fold(cls, events: Iterable[Event]) -> Game:
        """The state after ``events`` (a full log, or a decision-only script: derived events that
        are owed and absent are recomputed)."""
        it = iter(events)
        first = next(it, None)
        if not isinstance(first, GameCreated):
            raise RuleError("a game starts with game_created")
        game = cls(first)
        for event in it:
            if game.derived_pending and not isinstance(event, DERIVED_TYPES):
                game.derive_all()
            game.apply(event)
        game.derive_all()
        return game


def compare_derived(expected: Event, found: Event) -> None:
    """Raise :class:`DerivedMismatch` at the first field where ``found`` differs from the rules."""
    exp_type = expected.__struct_config__.tag
    found_type = found.__struct_config__.tag
    if exp_type != found_type:
        raise DerivedMismatch(exp_type, "type", exp_type, found_type)
    for name in expected.__struct_fields__:
        if name == "seq":
            continue
        a = getattr(expected, name)
        b = getattr(found, name)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list) and a and isinstance(a[0], Award):
            for i in range(max(len(a), len(b))):
                if i >= len(a) or i >= len(b):
                    raise DerivedMismatch(exp_type, f"{name}", a, b)
                for sub in Award.__struct_fields__:
                    if getattr(a[i], sub) != getattr(b[i], sub):
                        raise DerivedMismatch(exp_type, f"{name}[{i}].{sub}", getattr(a[i], sub), getattr(b[i], sub))
        raise DerivedMismatch(exp_type, name, a, b)
    raise DerivedMismatch(exp_type, "seq", expected.seq, found.seq)  # only seq can differ now


def first_player_of_round(created: GameCreated, round_: int) -> int:
    """Invariant of R7: the first player of round k is (first_player + k - 1) mod players."""
    return (created.first_player + round_ - 1) % len(created.players)


__all__ = [
    "ROUNDS",
    "DerivedMismatch",
    "Game",
    "check_setup",
    "first_player_of_round",
    "is_money",
    "new_game",
    "rounds_for",
]
