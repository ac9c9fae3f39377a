"""Every numeric option says what it wants in the language spoken: argparse's ``int`` and
``float`` would name the Python type (« valeur int invalide »), a word of English in French and
of Python in any language."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from dvtui.cli import build_parser, main

from ..support.processes import dvtui, one_error_line

NBSP = "\u00a0"
NUMBERS = "dvtui.cli.numbers"
"""The module of the command line's own numeric types."""


def numeric_options(
    parser: argparse.ArgumentParser, command: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, object]]:
    """Each option of ``parser`` and its commands that takes a number: the command's words, the
    option, its type."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from numeric_options(child, (*command, name))
        elif action.option_strings and (
            action.type in (int, float) or getattr(action.type, "__module__", "") == NUMBERS
        ):
            yield command, action.option_strings[-1], action.type


def test_no_option_takes_pythons_own_int_or_float() -> None:
    found = list(numeric_options(build_parser()))
    assert len(found) >= 15, found  # --seed, --first, --jobs, --port, --bot-delay, --idle, --keep-days...
    assert [(c, o) for c, o, kind in found if kind in (int, float)] == []


def test_every_numeric_option_refuses_a_word_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    found = list(numeric_options(build_parser()))
    for command, option, _kind in found:
        with pytest.raises(SystemExit) as ended:
            main(["--lang", "fr", *command, option, "x"])
        err = capsys.readouterr().err
        assert ended.value.code == 2, (command, option)
        assert err.startswith(
            f"dvtui{NBSP}: erreur{NBSP}: argument {option}{NBSP}: «{NBSP}x{NBSP}» n’est pas un nombre"
        ), err
        assert "int" not in err and "float" not in err and "invalide" not in err, err


@pytest.mark.parametrize("word", ["nan", "inf", "Infinity", "1e999"])
def test_a_delay_is_a_finite_number(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "en", "new", "--bot-delay", word])
    assert f"argument --bot-delay: '{word}' is not a number (e.g. 2 or 0.5)" in capsys.readouterr().err


def test_a_seed_that_is_a_word_in_french_on_a_real_command() -> None:
    done = dvtui("--lang", "fr", "new", "--seed", "x")
    assert done.returncode == 2 and done.stdout == ""
    said = one_error_line(done.stderr.replace(f"dvtui{NBSP}: erreur{NBSP}: ", "dvtui: error: "))
    assert (
        said
        == f"argument --seed{NBSP}: «{NBSP}x{NBSP}» n’est pas un nombre entier (voir «{NBSP}dvtui new --help{NBSP}»)"
    )
