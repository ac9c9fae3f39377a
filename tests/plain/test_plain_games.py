"""Whole games played and followed from the plain mode's lines alone, through a pseudo-terminal
(a new game, a resumed one, a replay), in English and in French: every line is words, and none
carries an escape sequence."""

from __future__ import annotations

from pathlib import Path

from dvtui.bots import bot_fn, bot_seed, parse_bot
from dvtui.engine import Game, Placement, new_game
from dvtui.play.seats import parse_players
from dvtui.store import GameWriter, read_game

from ..support.plain import PlainPlayer, no_escape, play_to_the_end
from ..support.processes import dvtui

PLAYERS = "Ana,bot:greedy,bot:greedy"


def test_a_whole_game_is_played_and_its_ends_read_out(tmp_path: Path) -> None:
    game = tmp_path / "g.dvr"
    player = PlainPlayer("new", "--plain", "--players", PLAYERS, "--seed", "5", "-o", game, data=tmp_path)
    player.expect("New game: Ana, Bot 1 and Bot 2; Ana starts; 6 rounds")
    made = play_to_the_end(player)
    assert player.finish() == 0
    assert made == 6 * 5  # every placement of Ana's, one per prompt
    no_escape(player.said)
    lines = player.lines()
    # the round's end column by column, as the rules resolve it, then each player's totals
    first_end = lines.index("Round 1 is over; Bot 1 starts the next round")
    assert [line[:9] for line in lines[first_end - 7 : first_end]] == [f"Column {c}:" for c in "ABCDEFG"]
    assert [line.split(":")[0] for line in lines[first_end + 1 : first_end + 4]] == ["Ana", "Bot 1", "Bot 2"]
    assert "this round" in lines[first_end + 1]
    # the game's end: the result, then the standings
    loaded = read_game(game)
    outcome = loaded.game.outcome()
    assert outcome is not None
    over = next(i for i, line in enumerate(lines) if line.startswith("Game over: "))
    assert [line.startswith("Place ") for line in lines[over + 1 : over + 4]] == [True] * 3
    assert lines[over + 4] == f"Game over. Watch it again: dvtui replay {game}"


def test_the_same_lines_make_the_same_file(tmp_path: Path) -> None:
    """Determinism: the same seed, seats and typed decisions give the same file (but its time stamps)."""
    files = []
    for name in ("one.dvr", "two.dvr"):
        path = tmp_path / name
        player = PlainPlayer("new", "--plain", "--players", PLAYERS, "--seed", "9", "-o", path, data=tmp_path)
        play_to_the_end(player, column="d")
        assert player.finish() == 0
        files.append(read_game(path).events)
    assert files[0] == files[1]


def test_a_french_game_speaks_french_to_its_end(tmp_path: Path) -> None:
    game = tmp_path / "f.dvr"
    player = PlainPlayer("--lang", "fr", "new", "--plain", "--players", PLAYERS, "--seed", "5", "-o", game,
                         data=tmp_path)  # fmt: skip
    player.expect(r"Nouvelle partie\s: Ana, Robot 1 et Robot 2\s; Ana commence\s; 6 manches")  # (bots named in French)
    player.expect(r"Robots\s: Robot 1\s: glouton, Robot 2\s: glouton\.")
    hand = player.turn()
    assert hand == [1, 2, 3, 4, 5, 6]
    player.send("plateau")  # the French word of board: the columns' cards in French
    player.expect(r"(la|le) (maison|voiture|bateau|cheval|bijou|montre|vacances|carte argent) [1-7]00")
    player.send("1 b")
    player.expect("Ana a placé le 1 sous la colonne B")
    play_to_the_end(player)
    assert player.finish() == 0
    no_escape(player.said)
    assert "Colonne A\u00a0: " in player.said
    assert "Partie terminée\u00a0: " in player.said


def test_a_game_left_is_resumed_where_it_stopped(tmp_path: Path) -> None:
    game = tmp_path / "r.dvr"
    player = PlainPlayer("new", "--plain", "--players", PLAYERS, "--seed", "5", "-o", game, data=tmp_path)
    assert player.turn() is not None
    player.send("3 c")
    assert player.turn() is not None
    player.send("1 a")
    assert player.turn() is not None
    player.send("quit")
    player.expect("Game saved in ")
    assert player.finish() == 0
    assert len(read_game(game).game.placements) == 6  # Ana's two and the bots' answers

    again = PlainPlayer("resume", game, "--plain", data=tmp_path)
    again.expect("Resumed at round 1 of 6, 6 of 15 cards placed this round.")
    assert again.turn() == [2, 4, 5, 6]  # the hand as the file left it
    again.send("hand")
    again.expect("You hold 2, 4, 5 and 6.")
    again.send("c")  # a column's letter alone reads the column
    again.expect("Column C, top to bottom: .*Under it: Ana 3")
    again.send("")  # an empty line says the turn's prompt again
    assert again.turn() == [2, 4, 5, 6]
    again.send("2 b")
    play_to_the_end(again)
    assert again.finish() == 0
    no_escape(again.said)
    assert read_game(game).game.over


def _played(path: Path) -> None:
    """At ``path``, the file of a whole game where Ana plays as :func:`play_to_the_end` does (her
    lowest card under column B each turn) and the bots as a table's: what a replay steps through,
    written here rather than by a player's process typing the whole game first (the tests above)."""
    created = new_game(parse_players(PLAYERS), first_player=0, seed=5)
    movers = [None, *((bot_fn(parse_bot("greedy")), bot_seed(5, i)) for i in (1, 2))]
    with GameWriter.create(path, created) as writer:
        game = Game(created)
        while True:
            game.play(movers, writer.append)  # the bots, until Ana is to move
            if game.over:
                return
            writer.append(game.place(Placement(min(game.hands[0]), 1)))


def test_a_replay_is_stepped_through_event_by_event(tmp_path: Path) -> None:
    game = tmp_path / "p.dvr"
    _played(game)

    viewer = PlainPlayer("replay", game, "--plain", data=tmp_path)
    viewer.expect("New game: Ana, Bot 1 and Bot 2")
    viewer.send("next")
    viewer.expect("Ana placed [1-6] under column B")
    viewer.send("")  # an empty line is next
    viewer.expect("Bot 1 placed [1-6] under column [A-G]")
    viewer.send("back")
    viewer.expect("Back to: Ana placed")
    viewer.send("round 2")
    viewer.expect("Round 2 begins.")
    viewer.send("n")
    viewer.expect("Bot 1 placed [1-6] under column")  # Bot 1 starts round 2
    viewer.send("scores")
    viewer.expect("Bot 2: [0-9,]+ in all")
    viewer.send("round 9")
    viewer.expect("Which round\\? Type round and a number from 1 to 6")
    viewer.send("quit")
    assert viewer.finish() == 0
    no_escape(viewer.said)

    french = PlainPlayer("--lang", "fr", "replay", game, "--plain", data=tmp_path)
    french.expect("Nouvelle partie\u00a0: Ana, Bot 1 et Bot 2")
    french.send("suivant")
    french.expect("Ana a placé le [1-6] sous la colonne B")
    french.send("manche 6")
    french.send("plateau")
    french.expect("(la|le|les) (maison|voiture|bateau|cheval|bijou|montre|vacances|carte argent) [1-7]00")
    french.send("quitter")
    assert french.finish() == 0
    no_escape(french.said)


def test_plain_mode_needs_no_terminal_and_is_chosen_by_the_environment(tmp_path: Path) -> None:
    """Through a pipe (no terminal at all), ``DVTUI_PLAIN=1`` plays the game as lines."""
    import subprocess

    from ..support.processes import dvtui_cmd, env

    game = tmp_path / "e.dvr"
    done = subprocess.run(
        dvtui_cmd("new", "--players", PLAYERS, "--seed", "5", "-o", game), input="2 a\nzz\nquit\n",
        capture_output=True, text=True, env={**env(tmp_path), "DVTUI_PLAIN": "1"}, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Ana placed 2 under column A" in done.stdout
    assert "Type a card you hold (1, 3, 4, 5, 6) and a column from a to g" in done.stdout
    no_escape(done.stdout)
    refused = dvtui("new", "--players", PLAYERS, "-o", tmp_path / "x.dvr", data=tmp_path, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2  # without the plain mode, no terminal is still refused
