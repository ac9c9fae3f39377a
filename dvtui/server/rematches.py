"""A table's rematch rules (:class:`TableRematch`, a base of :class:`~.table.Table`): who has
proposed or accepted the next game, through this server or another, whether it is to be dealt and
by which server, and the next game's deal and record (the finished game kept in its history)."""

from __future__ import annotations

from typing import Generic

import msgspec

from ..engine import GameCreated, new_game
from ..play.session import PlaySession
from ..tables.protocol import RematchVote
from ..tables.wire import Error
from .refusal import G, Refusal
from .stores.base import MAX_HISTORY, Here, TableRecord


class TableRematch(Generic[G]):
    """The rematch of a table's finished game, over the table's state (:class:`~.table.Table`
    sets it; declared here for these rules)."""

    name: str
    session: PlaySession
    record: TableRecord
    seated: list[G | None]
    elsewhere: dict[int, Here]
    accepted: list[int]
    """The seats that have proposed (the first) or accepted a rematch of the finished game, while
    they are at the table (empty: no rematch is proposed)."""
    failed: Error | None

    @property
    def over(self) -> bool:
        return self.session.game.over

    def seat_of(self, guest: G) -> int | None:
        """Where ``guest`` sits here (None: nowhere; watching, say)."""
        for seat, there in enumerate(self.seated):
            if there is guest:
                return seat
        return None

    def rematch(self, guest: G, accept: bool) -> bool:
        """``guest``, seated here, proposes or accepts a rematch of the finished game (``accept``),
        or withdraws and turns it down (the proposal is gone: a rematch needs everyone; the record
        counts it, so the table's other servers withdraw theirs too). Returns whether the table is
        to deal its next game now (see :meth:`rematch_ready`)."""
        seat = self.seat_of(guest)
        if seat is None:
            raise Refusal("not_seated", f"only a player seated at table {self.name} may propose or accept a rematch")
        if not self.over:
            raise Refusal("illegal", f"the game at table {self.name} is not over: a rematch follows its end")
        if self.failed is not None:
            raise Refusal(self.failed.code, self.failed.message)
        if not accept:  # (counted in the record: the other servers withdraw their acceptances too)
            self.accepted = []
            self.record.declined += 1
        elif seat not in self.accepted:
            self.accepted.append(seat)
        return self.rematch_ready()

    def _withdraw(self, seat: int) -> None:
        if seat in self.accepted:
            self.accepted.remove(seat)

    def accepted_anywhere(self) -> list[int]:
        """The seats that proposed or accepted the rematch, here (in that order) and through the
        other servers (a game not over has no rematch proposed)."""
        if not self.over:
            return []
        declined = self.record.declined  # (an acceptance made before the rematch was last turned down is gone)
        there = [
            seat for seat, h in sorted(self.elsewhere.items())
            if h.accepts and h.declined == declined and seat not in self.accepted
        ]  # fmt: skip
        return [*self.accepted, *there]

    def adopt(self, record: TableRecord) -> None:
        """``record`` as another server kept it: a rematch turned down through it withdraws the
        acceptances made here too, as a rematch turned down here withdraws every one."""
        if record.declined != self.record.declined:
            self.accepted = []
        self.record = record

    def rematch_awaited(self) -> list[int]:
        """The seats whose people, at the table now (through any server), have not accepted the
        rematch proposed (a bot client's seat is not awaited: it plays what the table deals)."""
        accepted = self.accepted_anywhere()
        if not accepted:
            return []
        people = {seat for seat, guest in enumerate(self.seated) if guest is not None and guest.bot is None}
        people |= {seat for seat, h in self.elsewhere.items() if h.bot is None}
        return sorted(people - set(accepted))

    def rematch_ready(self) -> bool:
        """A rematch is proposed and every person seated at the table has accepted it."""
        return bool(self.accepted_anywhere()) and self.over and self.failed is None and not self.rematch_awaited()

    def deals_here(self) -> bool:
        """The rematch is ready and this server deals it: the one its lowest connected seat is at
        (with people at the table through several servers, one deals and the others follow)."""
        seats = [seat for seat, guest in enumerate(self.seated) if guest is not None]
        return self.rematch_ready() and bool(seats) and min([*seats, *self.elsewhere]) in seats

    def rematch_vote(self) -> RematchVote | None:
        """The rematch proposed, as the table's presence says it (None: none is)."""
        accepted = self.accepted_anywhere()
        if not accepted:
            return None
        return RematchVote(by=accepted[0], accepted=accepted, awaited=self.rematch_awaited())

    def next_game(self) -> GameCreated:
        """The rematch's deal: the same seats, the next seed (the finished game's plus one, so a
        table's games follow from its first seed), and the next first player. The rules (R7) move
        the first player one seat clockwise at each round's end and say nothing of a new game; a
        table carries that rotation on from game to game: its next game's first player is one seat
        clockwise of the finished game's, so over as many rematches as seats each seat starts once. A rated
        table's rematch is rated too."""
        created = self.session.game.created
        seed = ((created.seed or 0) + 1) % (1 << 63)
        first = (created.first_player + 1) % len(created.players)
        return new_game(list(created.players), first_player=first, seed=seed, rated=created.rated)

    def next_record(self, finished: str) -> TableRecord:
        """The table's record for its next game: the same owners, invitations, opener, hints and move
        time; nobody resigned and no stand-in (everybody plays again); the game counted, and
        ``finished``, the finished game's file as the store put it aside, kept in its history."""
        record = self.record
        n = self.session.game.n
        history = [*record.history, finished][-MAX_HISTORY:]
        return msgspec.structs.replace(
            record, owners=list(record.owners), kept_for=list(record.kept_for), stand_ins=[None] * n,
            resigned=[False] * n, started=True, game=record.game + 1, history=history, declined=0, released=[],
            stand_in_by=[None] * n,
        )  # fmt: skip

    def earlier_game(self, game: int) -> str | None:
        """The file (as the store named it) of this table's game number ``game``, one before the
        current one; None: the table kept none so numbered (the current game is the store's own)."""
        first = self.record.game - len(self.record.history)
        return self.record.history[game - first] if first <= game < self.record.game else None


__all__ = ["TableRematch"]
