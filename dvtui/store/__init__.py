"""The ``.dvr`` file: append durably, read with torn-tail recovery, one writer per game, the saves
directory.

Knows the engine's events, not the UI.
"""

from .codec import encode_line
from .errors import GameFileError, GameLocked, LockHolder, SaveError, SaveFailed
from .lock import GameLock, lock_path, not_own, read_holder, user_name
from .reader import MAX_FILE_BYTES, LoadedGame, TornTail, check_created, parse_game, read_game
from .saves import data_dir, latest_unfinished, list_games, make_private_dirs, new_save_path, saves_dir
from .writer import GameWriter, fsync_dir, write_whole

__all__ = [
    "MAX_FILE_BYTES",
    "GameFileError",
    "GameLock",
    "GameLocked",
    "GameWriter",
    "LoadedGame",
    "LockHolder",
    "SaveError",
    "SaveFailed",
    "TornTail",
    "check_created",
    "data_dir",
    "encode_line",
    "fsync_dir",
    "latest_unfinished",
    "list_games",
    "lock_path",
    "make_private_dirs",
    "new_save_path",
    "not_own",
    "parse_game",
    "read_game",
    "read_holder",
    "saves_dir",
    "user_name",
    "write_whole",
]
