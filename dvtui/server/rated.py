"""Rated tables at the server: each rated game's end kept once, and the ratings folded from them.

A rated game's record (:class:`~dvtui.ratings.FinishedGame`) is made from the game itself, its
table's record (who owns each seat, who resigned) and its last line's time stamp, so the same game
always gives the same record, byte for byte, whoever makes it and whenever. The server keeps it in
its store right after the game's last line is written (:meth:`Rater.ended`); a server killed between
the two finds the game over and rated but its record missing when it starts again, and keeps it then
(:meth:`Rater.complete`, from the tables and the kept games). The ratings are the fold of the kept
records (:class:`~dvtui.ratings.Ledger`, which counts a game id once), so a record kept twice,
by a restart or by two servers on one database, doubles nothing. Each ``ratings`` or ``profile``
request first folds in what the store gained since (another server's games).

A club's records take seconds to fold (100,000 accounts: over ten), so the server folds them at
the start in the background (:meth:`Rater.fold_in_background`) and serves its tables meanwhile.
Until the fold is done (:attr:`Rater.ready`) the ledger is the fold's alone: a rated game that ends
meanwhile is kept in the store at once and folded once the fold is done (a record the fold read
already is counted once all the same), and what reads the ratings waits for it (a ``ratings`` or
``profile`` request here; a seek, an arena's seating: the server's club).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from ..engine import Event, GameCreated
from ..i18n import N_
from ..ratings import ConflictingGame, FinishedGame, Ledger, Standing, from_events, unrated
from ..store import GameFileError, SaveError, parse_game
from ..tables.clubwire import MAX_RECENT, AskProfile, AskRatings, Leaderboard, PlayerProfile, RatedGame, RatedLine
from ..tables.stamps import last_stamp
from ..tables.wire import encode
from .live import LiveTable, RunsIO
from .operator import said
from .refusal import owner_name
from .stores.base import GameStore, TableRecord

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(FinishedGame)


def game_id(table: str, number: int, first_line: bytes) -> str:
    """A rated game's id: its table, its number there, and a digest of its first line (which holds
    its deal and when it was made), so a table's name used again never gives an id already used."""
    return f"{table}/{number}/{hashlib.sha256(first_line).hexdigest()[:12]}"


def id_parts(game: str) -> tuple[str, int]:
    """The table and game number a rated game's id names (``("", 0)``: an id of another shape)."""
    table, _sep, rest = game.partition("/")
    number, _sep, _digest = rest.partition("/")
    return (table, int(number)) if number.isdigit() else ("", 0)


def finished(table: str, record: TableRecord, lines: Sequence[bytes], events: Sequence[Event]) -> FinishedGame | None:
    """The rated record of table ``table``'s game (its ``lines`` as written, its ``events``), or None:
    the game is casual, or not over. Raises ValueError for a person's seat nobody owns."""
    if not events or not isinstance(events[0], GameCreated) or not events[0].rated or not lines:
        return None
    accounts = [None if owner is None else owner_name(owner) for owner in record.owners]
    stamp = last_stamp(lines[-1])
    ended = 0 if stamp is None else round(stamp * 1000)
    game = from_events(game_id(table, record.game, lines[0]), ended, events, accounts, record.resigned)
    return game if game.scores is not None else None


class Rater:
    """The server's ratings: the records kept in its store, folded (see the module's docstring)."""

    def __init__(self, store: GameStore, run_io: RunsIO, log: Callable[[str], None]) -> None:
        self.store = store
        self.run_io = run_io
        self.log = log
        self.ledger = Ledger()
        self.seen = 0
        """How far the store's records have been read (its cursor: :meth:`GameStore.rated_since`)."""
        self.ready = asyncio.Event()
        """Set while no fold runs in the background: what reads the ledger waits for it. (A rater
        that folds as it is asked, :meth:`load`, is ready at once.)"""
        self.ready.set()
        self._meanwhile: list[FinishedGame] | None = None
        """The rated games that ended during the background fold, kept already, folded after it
        (None: no fold runs)."""

    def fold_new(self, data: list[bytes]) -> None:
        """Fold the records ``data`` in, all at once (each game in its place, those after it folded
        again once); a record that does not read, or contradicts one folded under its id, is left
        out and said in the log (a game ends once)."""
        skipped = said(N_("a rated game's record is left out: {error}"))
        games = []
        for raw in data:
            try:
                games.append(_decoder.decode(raw))
            except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as e:
                self.log(skipped.format(error=e))
        try:
            self.ledger.extend(games)
        except ConflictingGame:  # (none is folded then: one by one, the damaged ones left out)
            for game in games:
                try:
                    self.ledger.add(game)
                except ConflictingGame as e:
                    self.log(skipped.format(error=e))

    def load(self) -> None:
        """Every record the store keeps, folded (blocks: at the start). A store that cannot be read
        leaves them to the next request (said in the log): the tables are served all the same."""
        try:
            data, self.seen = self.store.rated_since(0)
        except (SaveError, OSError) as e:
            self.log(said(N_("the rated games' records cannot be read now: {error}")).format(error=e))
            return
        self.fold_new(data)

    async def refresh(self) -> None:
        """Fold in the records kept since the last read (those of the other servers on the store);
        a store that cannot be read now leaves the ratings as they were folded (said in the log)."""
        try:
            data, self.seen = await self.run_io(lambda: self.store.rated_since(self.seen))
        except (SaveError, OSError) as e:
            self.log(said(N_("the rated games' records cannot be read now: {error}")).format(error=e))
            return
        self.fold_new(data)

    def keep(self, game: FinishedGame) -> bool:
        """Keep ``game``'s record in the store and fold it (blocks); False: it was folded already."""
        if self.ledger.step(game.game) is not None:
            return False
        self.store.keep_rated(game.game, _encoder.encode(game))
        return self.fold(game)

    def fold(self, game: FinishedGame) -> bool:
        """Fold ``game``, kept already; False: it contradicts the record folded under its id."""
        try:
            self.ledger.add(game)
        except ConflictingGame as e:
            self.log(said(N_("a rated game's record is left out: {error}")).format(error=e))
            return False
        why = unrated(game)
        if why is not None:
            self.log(said(N_("rated game {game} rates nobody ({why})")).format(game=game.game, why=why))
        return True

    async def ended(self, table: LiveTable) -> None:
        """``table``'s game has just ended: if it is rated, its record is kept and folded."""
        try:
            game = finished(table.name, table.record, table.lines, table.session.events)
        except ValueError as e:
            self.log(said(N_("table {table}: its rated game rates nobody: {error}")).format(table=table.name, error=e))
            return
        if game is None:
            return
        try:  # kept off the loop, folded on it (where the requests read the ratings)
            await self.run_io(lambda: self.store.keep_rated(game.game, _encoder.encode(game)))
        except (SaveError, OSError) as e:  # (made again from the game at the next start)
            unkept = said(N_("table {table}: its rated game's end is not kept yet: {error}"))
            self.log(unkept.format(table=table.name, error=e))
            return
        if self._meanwhile is not None:  # the start's fold owns the ledger: folded after it
            self._meanwhile.append(game)
            return
        self.fold(game)

    def fold_in_background(self, tables: Sequence[LiveTable], kept: Sequence[str]) -> Coroutine[Any, Any, None]:
        """What :meth:`load` and :meth:`complete` do at the start, as work to run in a task while the
        server serves: not :attr:`ready` from now until it is done. The tables' games over are read
        now, on the loop (their tables go on meanwhile); the store is read, folded and completed in
        a thread; the games that ended meanwhile are folded last."""
        self.ready.clear()
        self._meanwhile = []
        return self._fold_all(self._ended_games([table for table in tables if table.over]), list(kept))

    async def _fold_all(self, games: list[tuple[str, FinishedGame]], kept: list[str]) -> None:
        start = time.monotonic()

        def fold() -> None:
            self.load()
            self._keep_missing(games, kept)

        try:
            await self.run_io(fold)
        except Exception as e:  # a bug must not leave every request waiting for ratings forever
            self.log(said(N_("the rated games' records cannot be read now: {error}")).format(error=repr(e)))
        meanwhile, self._meanwhile = self._meanwhile or [], None
        for game in meanwhile:
            self.fold(game)
        self.ready.set()
        if self.ledger.games():  # (a server without rated games says nothing of them)
            folded = said(N_("the rated games are read and folded ({seconds} s)"))
            self.log(folded.format(seconds=f"{time.monotonic() - start:.1f}"))

    def complete(self, tables: Sequence[LiveTable], kept: Sequence[str]) -> int:
        """Keep the record of every rated game over whose record is missing: one ended just before the
        server stopped (or was killed) without it. From ``tables`` and the ``kept`` games; how many
        (blocks: at the start)."""
        return self._keep_missing(self._ended_games(tables), kept)

    @staticmethod
    def _ended_games(tables: Sequence[LiveTable]) -> list[tuple[str, FinishedGame]]:
        """The rated record of each of ``tables``' games over, with its table's name."""
        found = []
        for table in tables:
            try:
                game = finished(table.name, table.record, table.lines, table.session.events)
            except ValueError:
                continue
            if game is not None:
                found.append((table.name, game))
        return found

    def _keep_missing(self, games: Sequence[tuple[str, FinishedGame]], kept: Sequence[str]) -> int:
        """:meth:`complete` over the tables' rated ``games`` and the ``kept`` games' names."""
        found = sum(self._kept_at_start(table, game) for table, game in games)
        for name in kept:
            try:
                data = self.store.game_bytes(f"{name}.dvr")
                if b'"rated":true' not in data[: data.find(b"\n")]:  # (a casual game is not read further)
                    continue
                record = self.store.record(name)
                loaded = parse_game(data, name)
            except (GameFileError, SaveError, OSError):
                continue  # (the hall says in its log which kept game does not read)
            if record is None or not loaded.game.over or not loaded.game.created.rated:
                continue
            table = name.partition(".")[0]
            try:
                game = finished(table, record, data.splitlines(keepends=True), loaded.events)
            except ValueError:
                continue
            if game is not None:
                found += self._kept_at_start(table, game)
        return found

    def _kept_at_start(self, table: str, game: FinishedGame) -> int:
        """Keep ``game``, table ``table``'s, unless it is folded already; 1 if it was kept."""
        try:
            if not self.keep(game):
                return 0
        except (SaveError, OSError) as e:  # (tried again at the next start)
            unkept = said(N_("table {table}: its rated game's end is not kept yet: {error}"))
            self.log(unkept.format(table=table, error=e))
            return 0
        self.log(said(N_("rated game {game} kept from its game at the start")).format(game=game.game))
        return 1

    def matched_rating(self, account: str) -> int | None:
        """What the pool and the tournaments match a person by: the mean of their rating from the
        rated games kept here (its cautious shown number would read a newcomer far below the people
        of their strength); None before their first rated game, a newcomer."""
        if not self.ledger.history(account):
            return None
        return round(self.ledger.rating(account).mu)

    async def leaderboard(self, message: AskRatings) -> bytes:
        await self.ready.wait()
        await self.refresh()
        standings = self.ledger.leaderboard(message.top)
        lines = [_line(i + 1, standing) for i, standing in enumerate(standings)]
        return encode(Leaderboard(standings=lines, accounts=self.ledger.accounts()))

    async def profile(self, message: AskProfile, user: str) -> bytes:
        await self.ready.wait()
        await self.refresh()
        account = user if message.account is None else message.account.strip()
        found = self.ledger.profile(account)
        history = found.history[-MAX_RECENT:]
        games = []
        for entry in history:
            table, number = id_parts(entry.game)
            ended = datetime.fromtimestamp(entry.ended / 1000, UTC).isoformat(timespec="seconds")
            games.append(RatedGame(game=entry.game, table=table, number=max(number, 1),
                                   ended=ended.replace("+00:00", "Z"), place=entry.place, players=entry.players,
                                   before=entry.before.shown, after=entry.after.shown))  # fmt: skip
        line = _line(self.ledger.rank(account), found.standing)
        return encode(PlayerProfile(standing=line, places=list(found.places), history=games))


def _line(rank: int, standing: Standing) -> RatedLine:
    like, by = standing.like
    return RatedLine(
        rank=rank, account=standing.account, shown=standing.shown, provisional=standing.provisional, like=like,
        by=by, games=standing.games, mu=standing.rating.mu, sigma=standing.rating.sigma,
    )  # fmt: skip


__all__ = ["Rater", "finished", "game_id", "id_parts"]
