"""Write the example games in ``replays/``: real outputs of the engine, byte-for-byte reproducible.

    python replays/generate.py [DIR]

``tests/test_replays.py`` regenerates them and compares, so they never drift from the engine.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dvtui.engine import DERIVED_TYPES, CardPlaced, Event, Game, Placement, new_game
from dvtui.play.autoplay import bot_players, play_game
from dvtui.play.seats import parse_players
from dvtui.store.codec import encode_line

EXAMPLES: dict[str, tuple[str, int, int]] = {
    # file: (players, seed, first player)
    "game-3p.dvr": ("bot:greedy,bot:greedy,bot:random", 2026, 0),
    "game-4p.dvr": ("bot:greedy,bot:random,bot:greedy,bot:random", 7, 1),
    "game-5p.dvr": ("bot:greedy,bot:greedy,bot:random,bot:greedy,bot:random", 1999, 2),
}


def with_an_undo(players: str, seed: int, first: int) -> list[Event]:
    """A greedy game in which the first player of round 2 places a 1, takes it back (R4 undo) and
    plays on: the main example shows every event type."""
    game = Game(new_game(parse_players(players), first_player=first, seed=seed))
    events: list[Event] = [game.created]
    bots = bot_players(game)
    undone = False
    while not game.over:
        who = bots[game.to_move]
        assert who is not None
        if not undone and game.round == 2 and not game.placements:
            events.extend(game.place(Placement(card=1, column=3)))
            events.append(game.undo())
            undone = True
        fn, bot_seed = who
        events.extend(game.place(fn(game, bot_seed)))
    return events


def script_of(events: list[Event]) -> list[Event]:
    """Decisions only: a game script, as a person would write one by hand (like a PGN's moves)."""
    return [ev for ev in events if not isinstance(ev, DERIVED_TYPES)]


def render(events: list[Event]) -> bytes:
    return b"".join(encode_line(ev, i) for i, ev in enumerate(events))


def build() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    main = with_an_undo("bot:greedy,bot:greedy,bot:random", 42, 0)
    files["game.dvr"] = render(main)
    for name, (players, seed, first) in EXAMPLES.items():
        _, events = play_game(parse_players(players), seed, first)
        files[name] = render(events)
    _, events = play_game(parse_players("bot:greedy,bot:random,bot:random"), 5, 0)
    files["script-3p.dvr"] = render(script_of(events))
    assert all(isinstance(ev, CardPlaced) for ev in script_of(events)[1:])
    return files


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).parent
    out.mkdir(parents=True, exist_ok=True)
    for name, data in build().items():
        (out / name).write_bytes(data)
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
