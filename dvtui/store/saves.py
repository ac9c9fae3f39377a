"""Where games are saved: the user data directory (platformdirs), and what is in it."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from ..engine import GameCreated
from ..i18n import _
from .errors import GameFileError, SaveError
from .lock import user_name
from .reader import LoadedGame, read_game


def data_dir() -> Path:
    """``$DVTUI_DATA_DIR/games`` if set (tests, portable installs), else ``games`` in the platform's
    user data dir. Not checked here: see :func:`saves_dir`."""
    env = os.environ.get("DVTUI_DATA_DIR")
    base = Path(env) if env else platformdirs.user_data_path("dvtui", appauthor=False)
    return base / "games"


PEOPLE = "people"
"""The folder of a data directory that holds, one folder each, the data directories of the people
``dvtui web`` serves behind a login proxy."""
MAX_SLUG_CHARS = 32


def person_data_dir(person: str) -> Path:
    """The data directory of ``person`` (a login proxy's user that ``dvtui web`` serves): a folder
    of its own under this account's data directory, so that each person sees and opens their own
    games only. Absolute, as the tab's dvtui may not share the working directory's meaning."""
    base = data_dir().parent
    return base.absolute() / PEOPLE / person_dir_name(person)


def person_dir_name(person: str) -> str:
    """``person`` as one safe path component: a readable slug of it (lower-case letters, digits and
    ``-``, never ``.`` or ``/``) and a digest of the whole name, so that two names that make the
    same slug (``Ana``, ``ana``, ``../ana``) still get folders of their own, and no name is too
    long for the file system."""
    digest = hashlib.sha256(person.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    slug = _slug(person)[:MAX_SLUG_CHARS].strip("-")
    return f"{slug}-{digest}" if slug else digest


def game_in(directory: Path, text: str) -> Path:
    """The game file ``text`` names inside ``directory``, for a screen that may open only the games
    there (a browser tab's): a name or a relative path in it, never an absolute path, a ``~``, a
    ``..``, or a symbolic link that leads out of it. Raises :class:`SaveError`, in words (which
    do not quote ``directory``: the person at the screen has no other)."""
    if not text or text.startswith(("/", "~")):
        raise SaveError("only your own saved games open here: give the name of one, not a path")
    relative = Path(text)
    if ".." in relative.parts:
        raise SaveError("only your own saved games open here: a name without ..")
    root = directory.resolve()
    path = (root / relative).resolve()
    if not path.is_relative_to(root):
        raise SaveError(f"{text}: leads out of your saved games; only they open here")
    return path


def saves_dir() -> Path:
    """The saves directory, once it is known to be the user's own (it may not exist yet).

    A bare ``dvtui resume`` opens the newest game it finds there, and new games are saved there:
    on a shared host (``DVTUI_DATA_DIR`` in a directory others write to) another user could have
    made it, or could put a game of their choosing in it. So it is refused, with
    :class:`SaveError`, unless it (where a symbolic link leads) is a directory owned by the user
    that no one else may write to, in a data directory that no one else can replace it in (owned
    by the user or root, and writable by others only if sticky, like ``/tmp``).
    """
    d = data_dir()
    why = _unsafe(d)
    if why is not None:
        raise SaveError(f"{d}: not a safe saves directory: {why}")
    return d


def _unsafe(d: Path) -> str | None:
    """Why ``d`` may not be used as the saves directory (see :func:`saves_dir`), or None."""
    me = os.geteuid()
    base = d.parent
    try:
        bst = os.stat(base)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"{base}: {e.strerror}"
    if bst.st_uid not in (me, 0):
        said = _("{base} belongs to user {user}, who could put another directory in its place")
        return said.format(base=base, user=user_name(bst.st_uid))
    if bst.st_mode & 0o022 and not bst.st_mode & stat.S_ISVTX:
        said = _("{base} can be written by other users (mode {mode}), who could put another directory in its "
                 "place; set DVTUI_DATA_DIR to a directory only you can write to")  # fmt: skip
        return said.format(base=base, mode=f"{stat.S_IMODE(bst.st_mode):o}")
    try:
        lst = os.lstat(d)
        st = os.stat(d)
    except FileNotFoundError:
        return _("it is a symbolic link to nothing") if os.path.lexists(d) else None
    except OSError as e:
        return e.strerror or str(e)
    if stat.S_ISLNK(lst.st_mode) and lst.st_uid not in (me, 0):
        return _("it is a symbolic link made by user {user}, not by you").format(user=user_name(lst.st_uid))
    if not stat.S_ISDIR(st.st_mode):
        return _("it is not a directory")
    if st.st_uid != me:
        said = _("it belongs to user {user}, not to you, and may hold games they put there; set DVTUI_DATA_DIR to "
                 "a directory of yours")  # fmt: skip
        return said.format(user=user_name(st.st_uid))
    if st.st_mode & 0o022:
        said = _("other users can write to it (mode {mode}) and may have put games in it; make it private: "
                 "chmod 700 {directory}")  # fmt: skip
        return said.format(mode=f"{stat.S_IMODE(st.st_mode):o}", directory=d)
    return None


def make_private_dirs(d: Path) -> None:
    """Make ``d`` and any missing parent with mode 0700 whatever the umask (an existing one is left
    as it is: the caller checks it). Raises OSError."""
    missing = []
    p = d
    while not os.path.lexists(p) and p != p.parent:
        missing.append(p)
        p = p.parent
    for p in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(p, 0o700)


def ensure_data_dir() -> Path:
    """The saves directory, made if missing: it and any missing parent private to the user (0700,
    whatever the umask), then checked like :func:`saves_dir`."""
    d = data_dir()
    try:
        make_private_dirs(d)
    except OSError as e:
        why = _("the file system is read-only") if e.errno == errno.EROFS else e.strerror or str(e)
        said = _("{directory}: cannot make the saves directory: {why} (set DVTUI_DATA_DIR, or use -o FILE)")
        raise SaveError(said.format(directory=d, why=why)) from None
    return saves_dir()


def new_save_path(created: GameCreated, now: datetime | None = None) -> Path:
    """A fresh, readable file name: ``2026-11-21_19-40-02_ana-ben-bot.dvr``."""
    now = now or datetime.now(UTC)
    names = "-".join(_slug(s.name) for s in created.players)[:60] or "game"
    stem = f"{now:%Y-%m-%d_%H-%M-%S}_{names}"
    d = ensure_data_dir()
    path = d / f"{stem}.dvr"
    n = 2
    while path.exists():
        path = d / f"{stem}_{n}.dvr"
        n += 1
    return path


_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss"})
"""Letters that NFKD does not take apart, written as French and German spell them out."""


def _slug(text: str) -> str:
    """``"Éloïse, Bot 1"`` -> ``"eloise-bot-1"``: accents taken off the letters (NFKD, then ASCII),
    so that a name stays readable in a file name, and anything else a hyphen."""
    plain = unicodedata.normalize("NFKD", text.translate(_LIGATURES)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


@dataclass(slots=True)
class SavedGame:
    path: Path
    loaded: LoadedGame
    modified: float

    @property
    def finished(self) -> bool:
        return self.loaded.game.over


def list_games(directory: Path | None = None) -> tuple[list[SavedGame], list[GameFileError]]:
    """Every readable game in ``directory`` (the saves directory, checked, by default), newest
    first, and the files that are not."""
    d = directory or saves_dir()
    games: list[SavedGame] = []
    bad: list[GameFileError] = []
    if not d.is_dir():
        return games, bad
    for path in d.glob("*.dvr"):
        try:
            loaded = read_game(path)
            games.append(SavedGame(path, loaded, path.stat().st_mtime))
        except GameFileError as e:
            bad.append(e)
        except OSError:
            continue
    games.sort(key=lambda g: g.modified, reverse=True)
    return games, bad


def latest_unfinished(directory: Path | None = None) -> SavedGame | None:
    games, _unread = list_games(directory)
    return next((g for g in games if not g.finished), None)
