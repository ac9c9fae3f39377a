"""``dvtui verify``: is each file a consistent game? One line per file, errors as ``FILE line N``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..engine import Game
from ..printable import printable
from ..store import GameFileError, LoadedGame, read_game
from ..store.codec import encode_line
from .errors import UsageError


def describe(loaded: LoadedGame) -> str:
    """``3 players (Ana, Bot 1, Bot 2), 6/6 rounds, scores 3,400,000 2,900,000 ..., winner Ana``"""
    game: Game = loaded.game
    names = [s.name for s in game.created.players]
    played = game.rounds if game.over else game.round - 1
    parts = [f"{game.n} players ({', '.join(names)})", f"{played}/{game.rounds} rounds played"]
    scores = game.scores()
    parts.append("scores " + " / ".join(f"{s:,}" for s in scores))
    outcome = game.outcome()
    if outcome is not None:
        winners = [names[p] for p in outcome.winners]
        parts.append(("shared victory " if outcome.shared else "winner ") + " & ".join(winners))
    else:
        parts.append(f"unfinished: round {game.round}, {names[game.to_move]} to move")
    if loaded.is_script:
        parts.append("game script")
    return ", ".join(parts)


def expand(paths: list[str]) -> list[str]:
    """Files as given; directories become their ``.dvr`` files (sorted). Errors are usage errors.

    Paths stay strings, written as ``pathlib`` writes them (``./games/`` is ``games``): a thousand
    ``Path`` objects cost ``verify DIR`` a few percent of its time and tell it nothing more."""
    out: list[str] = []
    for text in paths:
        p = Path(text)
        if p.is_dir():
            base = str(p)
            try:
                names = sorted(e.name for e in os.scandir(p) if e.name.endswith(".dvr"))
            except OSError as e:
                raise UsageError(f"{p}: cannot list the directory: {e.strerror or e}") from None
            if not names:
                raise UsageError(f"{p}: directory holds no .dvr file")
            out.extend(names if base == "." else [os.path.join(base, name) for name in names])
        else:
            out.append(str(p))
    return out


def run_verify(args: argparse.Namespace) -> int:
    if args.canonical:
        if args.files:
            raise UsageError("--canonical takes one FILE and no other files")
        return _print_canonical(Path(args.canonical))
    if not args.files:
        raise UsageError("verify needs at least one FILE or directory")
    status = 0
    out = sys.stdout
    for path in expand(args.files):
        try:
            loaded = read_game(path)
        except GameFileError as e:
            print(f"dvtui: error: {e}", file=sys.stderr)
            status = 1
            continue
        if loaded.torn is not None or loaded.missing_tail:
            # recoverable, but not consistent as it stands: say what a resume would keep
            print(f"dvtui: error: {printable(loaded.notices[0])}; 'dvtui resume' repairs it", file=sys.stderr)
            status = 1
            continue
        out.write(f"{printable(path)}: ok, {describe(loaded)}\n")  # names are checked by the reader
    return status


def _print_canonical(path: Path) -> int:
    loaded = read_game(path)
    for notice in loaded.notices:
        print(f"dvtui: warning: {printable(notice)}", file=sys.stderr)
    write = sys.stdout.buffer.write
    write(b"".join(encode_line(ev, i) for i, ev in enumerate(loaded.events)))
    sys.stdout.flush()
    return 0
