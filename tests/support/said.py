"""The rules' (and the seats') errors as a reader sees them: the engine raises a code and its values, and
:func:`dvtui.rulewords.rule_words` makes the sentence; a test that checks the sentence checks it
there, the way ``pytest.raises(match=...)`` checks an error's own text."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from dvtui.engine import CodedError
from dvtui.rulewords import rule_words


@contextlib.contextmanager
def raises_said(kind: type[CodedError], pattern: str) -> Iterator[pytest.ExceptionInfo[CodedError]]:
    """Expect a ``kind`` whose sentence, in the language spoken now, matches ``pattern``
    (``re.search``)."""
    with pytest.raises(kind) as info:
        yield info
    said = rule_words(info.value)
    assert re.search(pattern, said), f"{pattern!r} not in {said!r}"
