"""The language is chosen once, before anything is said: ``--lang`` anywhere on the line, then
``DVTUI_LANG``, the settings file's ``"language"``, the locale's variables, English; what programs
read (exit codes, --json, the files) is the same in every language."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.server.main import Server
from dvtui.server.registry import MAX_KEEP_DAYS
from dvtui.tables import close_table, open_table

from ..support.processes import REPO, dvtui, dvtui_cmd, env, one_error_line, run_main
from ..support.raw import ask, speaking_for

GAME = REPO / "replays" / "game.dvr"
N = "\u202f"
"""The narrow no-break space French writes amounts and percentages with."""


def test_replay_text_in_french_on_a_real_command() -> None:
    done = dvtui("--lang", "fr", "replay", str(GAME), "--text")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Joueurs, en sens horaire : Bot 1 (rouge, robot glouton), Bot 2 (jaune, robot glouton)")
    assert "6 manches · Bot 1 commence · graine de la donne 42" in lines
    assert "MANCHE 1 sur 6 · Bot 1 commence" in lines
    assert "    A  (Bot 1 : 3, Bot 2 : 4) Bot 2 prend la montre 400 ; Bot 1 prend la maison 300" in lines
    assert "       Bot 1 prend la maison 400 et rend la maison 300" in lines
    assert f"  Scores : Bot 1 : 1{N}700{N}000 · Bot 2 : 1{N}500{N}000 · Bot 3 : 300{N}000" in lines
    assert f"RÉSULTAT  Partie terminée : Bot 1 l’emporte avec 4{N}500{N}000" in lines
    for english in ("ROUND", "takes", "Scores:", "rounds", " and "):
        assert english not in done.stdout


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("data_dir")
def test_the_order_of_the_choice(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                 data_dir: Path) -> None:  # fmt: skip
    for name in ("DVTUI_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    verify = ["verify", str(GAME)]
    assert "winner Bot 1" in run(verify, capsys)[1]  # nothing chosen: English
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")  # (a locale this machine need not have installed)
    assert "victoire : Bot 1" in run(verify, capsys)[1]
    monkeypatch.setenv("LC_ALL", "C")  # LC_ALL over LANG, and the C locale is English
    assert "winner Bot 1" in run(verify, capsys)[1]
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "settings.json").write_text(json.dumps({"language": "fr", "bot_delay": 0.5}))
    assert "victoire : Bot 1" in run(verify, capsys)[1]  # the settings over the locale
    monkeypatch.setenv("DVTUI_LANG", "en")
    assert "winner Bot 1" in run(verify, capsys)[1]  # DVTUI_LANG over the settings
    assert "victoire : Bot 1" in run([*verify, "--lang", "fr"], capsys)[1]  # --lang first, after the command too
    assert "victoire : Bot 1" in run(["--lang=fr", *verify], capsys)[1]


def test_a_language_dvtui_lacks_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--lang", "xx", "verify", str(GAME)], capsys)
    assert (code, out) == (2, "")
    assert one_error_line(err) == "--lang xx: dvtui speaks en, fr"


def untimed(value: object) -> object:
    """``value`` without what the clock measured (seconds, rates), which differs from run to run."""
    if isinstance(value, dict):
        return {key: untimed(v) for key, v in value.items() if "second" not in key}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def test_what_programs_read_is_the_same_in_every_language(tmp_path: Path) -> None:
    said = {}
    for lang in ("en", "fr"):
        done = subprocess.run(
            dvtui_cmd("--lang", lang, "sim", "--players", "bot:random,bot:greedy,bot:random", "--games", "2", "--json"),
            capture_output=True, text=True, env=env(tmp_path), check=False, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        said[lang] = untimed(json.loads(done.stdout))
    assert said["en"] == said["fr"]


def test_help_and_argparses_own_words_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    helped = dvtui("--lang", "fr", "replay", "--help")
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("utilisation : dvtui replay [-h] [--text] [--plain] [--lang CODE] file\n")
    assert "arguments positionnels :" in helped.stdout and "affiche cette aide et quitte" in helped.stdout
    assert "fichier de partie (.dvr)" in helped.stdout and "affiche plutôt la partie en texte" in helped.stdout
    refused = run_main(capsys, "--lang", "fr", "sim")
    assert refused.returncode == 2
    assert refused.stderr == (
        "dvtui : erreur : les arguments suivants sont requis : --players (voir « dvtui sim --help »)\n"
    )
    english = run_main(capsys, "sim")
    assert english.stderr == "dvtui: error: the following arguments are required: --players (see 'dvtui sim --help')\n"


def test_sim_speaks_french_and_writes_numbers_the_french_way(tmp_path: Path) -> None:
    done = dvtui("--lang", "fr", "sim", "--players", "bot:random,bot:greedy,bot:random", "--games", "3", data=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "3 parties, graines 0..2"
    assert lines[1].split() == ["robot", "places", "victoires", "des", "parties", "par", "place", "intervalle", "95",
                                "%", "score", "moyen", "rang"]  # fmt: skip
    assert f"intervalle 95{N}%" in lines[1]
    assert lines[3].startswith(
        f"greedy                1      3,00     100,0{N}%   100,0{N}% [43,9{N}%, 100,0{N}%]    5{N}766{N}667"
    )
    assert " parties/s, " in lines[-1] and " coups/s (" in lines[-1]


def test_resuming_a_finished_game_says_so_in_french() -> None:
    done = dvtui("--lang", "fr", "resume", str(GAME))
    assert done.returncode == 1
    assert done.stderr == (
        f"{GAME} : Partie terminée : Bot 1 l’emporte avec 4{N}500{N}000 "
        f"(joueurs Bot 1, Bot 2 et Bot 3).\nPour la revoir : dvtui replay {GAME}\n"
    )


def test_a_bad_file_is_one_line_in_french(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dvr"
    first, second, *_ = GAME.read_bytes().splitlines(keepends=True)
    bad.write_bytes(first + b"\n" + second)
    done = dvtui("--lang", "fr", "verify", str(bad), str(tmp_path / "none.dvr"))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"dvtui : erreur : {bad} ligne 2 : ligne vide (un événement par ligne)",
        f"dvtui : erreur : {tmp_path / 'none.dvr'} : fichier introuvable",
    ]


def test_the_tables_listing_in_french(
    in_process: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    place = in_process.place
    asyncio.run(open_table(place, "salle", ["Ana", "Bob", "bot:greedy"], hints=False, move_time=300))
    asyncio.run(open_table(place, "jeu", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, wait=False))
    srv = str(place.directory)
    done = dvtui("--lang", "fr", "tables", "--server", srv, data=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = {line.split("  ")[0]: line for line in done.stdout.splitlines()}
    seats = "[Ana : libre ; Bob : libre ; Bot 1 : robot]"
    assert listed["jeu"] == f"jeu  manche 1/6, à Ana de jouer  {seats}  spectateurs : 0"
    waiting = "salle  salle d’attente, en attente : Ana, Bob (ou « dvtui tables start salle »), reste "
    assert listed["salle"].startswith(waiting), listed["salle"]
    assert listed["salle"].endswith("  spectateurs : 0 ; sans conseils ; temps par coup 5m")
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))  # the runs below: in this process
    english = run_main(capsys, "tables", "--server", srv).stdout
    assert "jeu  round 1/6, Ana to move  [Ana: free; Bob: free; Bot 1: bot]  spectators: 0\n" in english
    ana = speaking_for(str(place.socket), "ana")
    ana.send({"type": "join", "table": "jeu", "seat": 0})
    assert ask(ana, {"type": "place", "seq": 1, "card": 1, "column": 0}, "card_placed")["type"] == "card_placed"
    ana.close()
    asyncio.run(close_table(place, "jeu"))  # its game kept (a person decided there): what --all lists after the tables
    kept = run_main(capsys, "--lang", "fr", "tables", "--all", "--server", srv).stdout.splitlines()
    (line,) = [line for line in kept if line.startswith("jeu.")]
    when = r"\d+ [a-zéû]+\.? 20\d\d, \d\d h \d\d"  # as French writes a date: 6 déc. 2026, 21 h 56
    stopped = rf"jeu\.\S+  conservée : arrêtée à la manche 1/6, dernière ligne {when}  \[Ana ; Bob ; Bot 1\]"
    assert re.fullmatch(stopped, line), line


def test_the_analysis_report_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / GAME.name
    game.write_bytes(GAME.read_bytes())
    done = dvtui("--lang", "fr", "analyse", str(game), "--budget", "30", data=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Analyse à 30 itérations par placement (chance de gagner : ")
    heading = "manche  place      placé   chances  perte  bruit  meilleur  annotation"
    assert lines[1] == heading  # as wide as its heading
    assert re.match(rf"     1  1 Bot 1    1→C        \d\d{N}%", lines[2]), lines[2]  # the chance: the calibration's
    assert re.fullmatch(r"1 Bot 1\s: \d+ imprécisions?, (\d+ erreurs?, )?\d+ gaffes?", lines[-3]), lines[-3]
    assert any(line.endswith("  gaffe") for line in lines[2:-4])
    for english in ("blunder", "mistake", "inaccurac", "round", "Analysis"):
        assert english not in done.stdout
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))
    refused = run_main(capsys, "--lang", "fr", "analyse", str(game), "--budget", "0")
    assert (refused.returncode, refused.stderr) == (2, "dvtui : erreur : --budget vaut 1 itération ou plus, pas 0\n")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["fetch", "t"], "aucun serveur de tables dans {d} (lancez-en un avec « dvtui serve --dir {d} »)"),
        (
            ["new", "--table", "t", "--players", "Ana,Bob,Cy", "--move-time", "5x"],
            "--move-time 5x : un temps par coup est un nombre et une unité : 45s, 2m, 1h ou 3j (de 1s à 30j)",
        ),
    ],
)
def test_the_table_commands_errors_in_french(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    d = tmp_path / "nobody"
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))
    done = run_main(capsys, "--lang", "fr", *args, "--server", str(d))
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr == "dvtui : erreur : " + said.format(d=d) + "\n"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--limit", "conn-rate=x"], "--limit conn-rate=x : ce n’est pas un nombre"),
        (["--limit", "conn-rate=0"], "--limit conn-rate=0 : une limite est un nombre supérieur à 0"),
        (["--keep-days", "0"], f"--keep-days 0 : donnez de 1 à {MAX_KEEP_DAYS} jours"),
    ],
)
def test_the_servers_usage_errors_in_french(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))
    done = run_main(capsys, "--lang", "fr", "serve", "--dir", str(tmp_path / "srv"), *args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "dvtui : erreur : " + said + "\n")


def test_resume_list_in_french_writes_the_date_as_french_does(tmp_path: Path) -> None:
    from ..support.files import write_game

    (tmp_path / "games").mkdir(mode=0o700)
    write_game(tmp_path / "games" / "half.dvr", "Éloïse,bot:greedy,bot:greedy", 7, upto=2)
    done = dvtui("--lang", "fr", "resume", "--list", data=tmp_path)
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()[1]
    when = r"\d+ [a-zéû]+\.? 20\d\d, \d\d h \d\d"
    assert re.fullmatch(rf"    Éloïse, Bot 1, Bot 2 · manche 1 sur 6 · dernier coup le {when}", said), said
