"""The ``.dvr`` file: append durably, read with torn-tail recovery, the saves directory.

Knows the engine's events, not the UI.
"""

from .codec import encode_line
from .errors import GameFileError, SaveError
from .reader import LoadedGame, TornTail, parse_game, read_game
from .saves import data_dir, latest_unfinished, list_games, new_save_path
from .writer import GameWriter

__all__ = [
    "GameFileError",
    "GameWriter",
    "LoadedGame",
    "SaveError",
    "TornTail",
    "data_dir",
    "encode_line",
    "latest_unfinished",
    "list_games",
    "new_save_path",
    "parse_game",
    "read_game",
]
