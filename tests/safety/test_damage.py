"""Torn and damaged files: resuming a file cut anywhere cuts the torn tail (keeping the original) and
ends the game as if never cut; random damage (hypothesis) always ends in a one-line error or a
recovered prefix, never a traceback, never a complete line dropped. (That a file cut at every byte
gives back every complete line before the cut, and the events they hold, is tests/store/test_reader.py's
``test_torn_tail_at_every_byte_offset``.)"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvtui.cli import main
from dvtui.store import GameFileError, LoadedGame, parse_game, read_game

from ..support.files import complete_lines, reference, strip_at
from ..support.positions import BOTS3, BOTS4

GAMES = {3: reference(BOTS3, seed=5), 4: reference(BOTS4, seed=9, first=2)}


def _line_ends(data: bytes) -> list[int]:
    return [i + 1 for i, b in enumerate(data) if b == 0x0A]


@pytest.mark.long
def test_resuming_a_truncated_game_keeps_the_original_and_ends_as_the_uninterrupted_game(tmp_path: Path) -> None:
    """A sample of cut points across the whole file, torn and clean, through the command line."""
    data = GAMES[3]
    want = strip_at(data)
    ends = _line_ends(data)
    rng = random.Random(5)
    cuts = sorted({*rng.sample(range(ends[0] + 1, len(data)), 24), *ends[1::10], ends[15] + 7, len(data) - 1})
    for n, k in enumerate(cuts):
        path = tmp_path / f"cut-{n}.dvr"
        path.write_bytes(data[:k])
        good = max(e for e in ends if e <= k)
        # verify reports (a cut inside a round's resolution owes derived events), never repairs
        whole = k == good and not parse_game(data[:k], "g").missing_tail
        assert main(["verify", str(path)]) == (0 if whole else 1), k
        assert path.read_bytes() == data[:k]
        assert main(["resume", str(path), "--headless"]) == 0, k
        assert strip_at(path.read_bytes()) == want, k
        assert path.read_bytes()[:good] == data[:good], k  # the complete lines are kept as they were
        kept = sorted(p for p in os.listdir(tmp_path) if p.startswith(f"cut-{n}.dvr.torn-"))
        if k == good:
            assert kept == [], k
        else:
            assert len(kept) == 1, k
            assert (tmp_path / kept[0]).read_bytes() == data[:k]  # the original, torn tail and all
            assert (os.stat(tmp_path / kept[0]).st_mode & 0o777) == 0o600
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".lock")]


# -- hypothesis: random damage ------------------------------------------------------------------

_CHARACTERS = st.characters(exclude_categories=("Cs",))
"""Every character UTF-8 can encode (all but the surrogates), as ``st.text()``'s own default
alphabet, ``st.characters(codec="utf-8")``, but read from Hypothesis's table of categories: the
codec's is worked out by trying each of the 1.1 million code points (3 s of CPU per process that
finds no ``.hypothesis`` directory, as on a fresh clone)."""

_WRONG_VALUES = st.one_of(
    st.text(_CHARACTERS, max_size=5),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(-3, 9), max_size=3),
    st.dictionaries(st.text(_CHARACTERS, max_size=3), st.integers(), max_size=2),
    st.integers(min_value=-(10**30), max_value=10**30),
)


@st.composite
def _damage(draw: st.DrawFn) -> tuple[bytes, list[str]]:
    """A real game, damaged 1 to 3 times; returns the bytes and what was done (hypothesis shows it
    with a failing example)."""
    lines = complete_lines(GAMES[draw(st.sampled_from([3, 4]))])
    done: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        kind = draw(
            st.sampled_from(
                [
                    "bitflip",
                    "delete",
                    "duplicate",
                    "swap",
                    "wrong-type",
                    "huge-number",
                    "huge-string",
                    "bad-utf8",
                    "cut",
                ]
            )
        )
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if kind == "bitflip":
            pos = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:pos] + bytes([line[pos] ^ (1 << draw(st.integers(0, 7)))]) + line[pos + 1 :]
        elif kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, line)
        elif kind == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], line
        elif kind in ("wrong-type", "huge-number", "huge-string"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not isinstance(obj, dict):
                continue
            key = draw(st.sampled_from([*sorted(obj), "extra"]))
            if kind == "wrong-type":
                value = draw(_WRONG_VALUES)
                obj[key] = value
                lines[i] = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
            elif kind == "huge-number":
                digits = b"9" * draw(st.integers(19, 30000))
                obj[key] = 0
                body = json.dumps(obj, separators=(",", ":")).encode()
                lines[i] = (
                    body.replace(
                        b'"' + json.dumps(key)[1:-1].encode() + b'":0',
                        b'"' + json.dumps(key)[1:-1].encode() + b'":' + digits,
                        1,
                    )
                    + b"\n"
                )
            else:
                obj[key] = "x" * draw(st.integers(100, 70000))
                lines[i] = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
        elif kind == "bad-utf8":
            pos = draw(st.integers(0, len(line) - 1))
            lines[i] = (
                line[:pos]
                + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]))
                + line[pos:]
            )
        elif kind == "cut":
            data = b"".join(lines)
            k = draw(st.integers(0, len(data)))
            lines = data[:k].splitlines(keepends=True)
        done.append(f"{kind}@{i}")
    return b"".join(lines), done


STATS = {"examples": 0, "errors": 0, "recovered": 0, "torn": 0}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_damage())
def test_random_damage_is_an_error_or_a_recovered_prefix(damaged: tuple[bytes, list[str]]) -> None:
    data, _ = damaged
    STATS["examples"] += 1
    complete = data.count(b"\n")
    loaded: LoadedGame | None = None
    try:
        loaded = parse_game(data, "g.dvr")
    except GameFileError as e:  # anything else fails the test: no traceback, ever
        STATS["errors"] += 1
        text = str(e)
        assert text.isprintable() and len(text) < 500
        assert e.line is None or 1 <= e.line <= complete + 1
    if loaded is not None:
        STATS["recovered"] += 1
        kept = data[: loaded.good_bytes]
        assert data.startswith(kept) and kept.count(b"\n") == loaded.file_lines
        if loaded.torn is None:
            assert loaded.file_lines == complete and loaded.good_bytes == len(data)
        else:
            STATS["torn"] += 1
            # only the last line may go: an incomplete one, or a last complete line that is not JSON
            assert loaded.file_lines in (complete, complete - 1)
            if loaded.file_lines == complete - 1:
                assert loaded.torn.reason in ("does not parse", "not valid UTF-8")
    # the command line says the same, in one line, and changes nothing
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "g.dvr"
        path.write_bytes(data)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["verify", str(path)])
        if loaded is not None and loaded.torn is None and not loaded.missing_tail:
            assert code == 0, err.getvalue()
        else:
            assert code == 1
            lines = err.getvalue().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"dvtui: error: {path}"), err.getvalue()
        assert path.read_bytes() == data
        if loaded is not None:
            assert read_game(path).file_lines == loaded.file_lines


def teardown_module() -> None:
    """The hypothesis run's figures: how many damaged files were read, refused, recovered and found
    torn, so a run that never reached one of those cases is seen (with ``pytest -s``)."""
    print(f"\ndamage test: {STATS}")
