"""``dvtui verify``: is each file a consistent game? One line per file, errors as ``FILE line N``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..describe import amount
from ..engine import Game
from ..i18n import _, ngettext
from ..printable import printable
from ..store import GameFileError, LoadedGame, read_game
from ..store.codec import encode_line
from .errors import UsageError


def describe(loaded: LoadedGame) -> str:
    """``3 players (Ana, Bot 1, Bot 2), 6/6 rounds, scores 3,400,000 2,900,000 ..., winner Ana``"""
    game: Game = loaded.game
    names = [s.name for s in game.created.players]
    played = game.rounds if game.over else game.round - 1
    comma = _(", ")
    parts = [
        ngettext("{count} player ({names})", "{count} players ({names})", game.n).format(
            count=game.n, names=comma.join(names)),
        # (n is the rounds played: English reads "1/4 rounds played", French "1 manche jouée sur 4")
        ngettext("{played}/{rounds} rounds played", "{played}/{rounds} rounds played", played).format(
            played=played, rounds=game.rounds),
        _("scores {scores}").format(scores=" / ".join(amount(s) for s in game.scores())),
    ]  # fmt: skip
    outcome = game.outcome()
    if outcome is not None:
        winners = " & ".join(names[p] for p in outcome.winners)
        said = _("shared victory {names}") if outcome.shared else _("winner {names}")
        parts.append(said.format(names=winners))
    else:
        parts.append(_("unfinished: round {round}, {name} to move").format(round=game.round, name=names[game.to_move]))
    if loaded.is_script:
        parts.append(_("game script"))
    return comma.join(parts)


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
                said = _("{path}: cannot list the directory: {error}").format(path=p, error=e.strerror or e)
                raise UsageError(said) from None
            if not names:
                raise UsageError(_("{path}: directory holds no .dvr file").format(path=p))
            out.extend(names if base == "." else [os.path.join(base, name) for name in names])
        else:
            out.append(str(p))
    return out


def run_verify(args: argparse.Namespace) -> int:
    if args.canonical:
        if args.files:
            raise UsageError(_("--canonical takes one FILE and no other files"))
        return _print_canonical(Path(args.canonical))
    if not args.files:
        raise UsageError(_("verify needs at least one FILE or directory"))
    status = 0
    out = sys.stdout
    for path in expand(args.files):
        try:
            loaded = read_game(path)
        except GameFileError as e:
            print(_("dvtui: error: {message}").format(message=e), file=sys.stderr)
            status = 1
            continue
        if loaded.torn is not None or loaded.missing_tail:
            # recoverable, but not consistent as it stands: say what a resume would keep
            said = _("{notice}; 'dvtui resume' repairs it").format(notice=printable(loaded.notices[0]))
            print(_("dvtui: error: {message}").format(message=said), file=sys.stderr)
            status = 1
            continue
        said = _("{file}: ok, {summary}").format(file=printable(path), summary=describe(loaded))
        out.write(said + "\n")  # names are checked by the reader
    return status


def _print_canonical(path: Path) -> int:
    loaded = read_game(path)
    for notice in loaded.notices:
        print(_("dvtui: warning: {message}").format(message=printable(notice)), file=sys.stderr)
    write = sys.stdout.buffer.write
    write(b"".join(encode_line(ev, i) for i, ev in enumerate(loaded.events)))
    sys.stdout.flush()
    return 0
