"""``dvtui serve``: the table server in the foreground (and ``--import``/``--export`` between a
directory's files and a database). The one command that imports :mod:`dvtui.server`: the client
commands (:mod:`.tables`) reach a server over its socket and start a personal one as a process of
its own, so they never load the server's code."""

from __future__ import annotations

import argparse
import dataclasses
import os
import pwd
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots import parse_bot
from ..engine import MAX_ITERATIONS, MAX_SECONDS, SeatError
from ..i18n import _
from ..printable import printable
from ..server import AlreadyServed
from ..server.limits import Limits
from ..server.main import serve
from ..server.pool import MaxBudget
from ..server.registry import KEEP_DAYS, MAX_KEEP_DAYS, TableLimits
from ..store import SaveError
from ..tables import Diverged, Dropped, Refused, Unreachable, server_place
from ..tables.where import personal_idle
from .errors import EXIT_BAD_FILE, EXIT_OK, UsageError

if TYPE_CHECKING:
    from ..server.stores.pg import PgStore
    from ..server.stores.pgpeers import PgPeers


def run_serve(args: argparse.Namespace) -> int:
    """``dvtui serve``: serve until stopped (or idle), or move the games and leave."""
    try:
        conninfo = args.store if args.store is not None else os.environ.get("DVTUI_STORE") or None
        if args.import_dir is not None or args.export_dir is not None:
            return _move_store(conninfo, args.import_dir, args.export_dir)
        place = server_place(args.dir)
        idle = args.idle if args.idle is not None else (personal_idle() if place.personal else None)
        trust = [_account(name) for name in args.trust]
        kept = TableLimits(keep_days=_keep_days(args.keep_days))
        store = None if conninfo is None else _database(conninfo, place.games)
        peers = None if store is None else _peers(store)
        return serve(place, idle=idle, trust=trust, limits=_limits(args.limit), budget=_max_budget(args.max_budget),
                     table_limits=kept, store=store, peers=peers)  # fmt: skip
    except (Unreachable, Refused, Diverged, Dropped, AlreadyServed) as e:
        print(_("dvtui: error: {message}").format(message=printable(str(e))), file=sys.stderr)
        return EXIT_BAD_FILE


def _keep_days(days: float | None) -> float:
    """``--keep-days N``: how long a game put aside is kept after its last line (default 30)."""
    if days is None:
        return KEEP_DAYS
    if not 1 <= days <= MAX_KEEP_DAYS:
        raise UsageError(_("--keep-days {days}: give 1 to {most} days").format(days=f"{days:g}", most=MAX_KEEP_DAYS))
    return days


def _limits(options: list[str]) -> Limits:
    """``--limit NAME=VALUE``s over the defaults."""
    try:
        return Limits().with_options(options)
    except ValueError as e:
        raise UsageError(_("--limit {error}").format(error=e)) from None


def _database(conninfo: str, chats: Path | None) -> PgStore:
    """The PostgreSQL store ``conninfo`` names (its schema made on first use); a bad one is a usage
    error, one that cannot be reached a one-line failure."""
    from ..server.stores.pg import PgStore, StoreUnavailable
    from ..server.stores.pgerrors import DatabaseError

    def log(line: str) -> None:  # as the server's own lines are said
        print(f"dvtui serve: {printable(line)}", file=sys.stderr, flush=True)

    try:
        return PgStore(conninfo, chats, log=log)
    except StoreUnavailable as e:
        raise UsageError(str(e)) from None
    except DatabaseError as e:
        raise SaveError(_("--store: {why}").format(why=e)) from None


def _peers(store: PgStore) -> PgPeers:
    """The other servers on ``store``'s database, whom a server there follows."""
    from ..server.stores.pgpeers import PgPeers

    return PgPeers(store)


def _move_store(conninfo: str | None, import_dir: str | None, export_dir: str | None) -> int:
    """``serve --import DIR`` / ``--export DIR``: copy the games between a server directory's files
    and the database, say what was done, and leave."""
    from ..server.stores.pgmove import export_files, import_files

    if conninfo is None:
        raise UsageError(_("--import and --export need --store (or DVTUI_STORE)"))
    store = _database(conninfo, None)
    from ..server.stores.pgerrors import DatabaseError

    say = lambda line: print(f"dvtui serve: {printable(line)}", file=sys.stderr)  # noqa: E731
    try:
        if import_dir is not None:
            done = import_files(store, Path(import_dir), say)
            print(_("imported {moved} games into the database ({there} there already, {bad} unreadable)").format(
                moved=len(done.moved), there=len(done.there), bad=len(done.unreadable)))  # fmt: skip
        else:
            assert export_dir is not None
            done = export_files(store, Path(export_dir), say)
            games = printable(str(Path(export_dir) / "games"))
            print(_("exported {moved} games into {games} ({there} there already)").format(
                moved=len(done.moved), games=games, there=len(done.there)))  # fmt: skip
    except DatabaseError as e:
        raise SaveError(_("--store: {why}").format(why=e)) from None
    except OSError as e:
        raise SaveError(f"{e.filename or import_dir or export_dir}: {e.strerror or e}") from None
    finally:
        store.close()
    return EXIT_BAD_FILE if done.unreadable else EXIT_OK


def _account(name: str) -> int:
    """``--trust ACCOUNT``: its uid."""
    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        raise UsageError(f"--trust {name}: no such account on this host") from None


def _max_budget(given: Sequence[str]) -> MaxBudget | None:
    """``--max-budget``: a bot budget's number (iterations) and/or one in seconds, each within the
    largest a bot may have anywhere."""
    if not given:
        return None
    budget = MaxBudget()
    for text in given:
        try:
            spec = parse_bot(f"strong@{text}")
        except SeatError:
            raise UsageError(f"--max-budget {printable(text)}: a budget is a number of iterations (up to "
                             f"{MAX_ITERATIONS}) or of seconds (up to {MAX_SECONDS:g}s)") from None  # fmt: skip
        if spec.seconds is not None:
            budget = dataclasses.replace(budget, seconds=spec.seconds)
        elif spec.iterations is not None:
            budget = dataclasses.replace(budget, iterations=spec.iterations)
    return budget
