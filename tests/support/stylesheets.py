"""The stylesheet parsed once per test process, not once per app. Each Textual app parses the
whole of its CSS when it starts (dvtui.tcss and every widget's default CSS: about fifteen
milliseconds of each start, where the table's whole start takes fifty or sixty), and keeps the parse for itself alone; a
test process starts the app a few hundred times, over the same CSS with the same theme. Here each
source is parsed the first time an app reads it with those variables, and every later app is given
the same rules: what the parser makes of a source depends on the source, where it was read from,
its scope and precedence, and the variables, all of which the cache's key holds.

A ``dvtui`` process runs one app, whose parse is its own as ever; what a test may not lean on is a
parse it did not do (tests/app/test_app_menu.py counts parses with the cache in place: one a
started app does not do is not done here either)."""

from __future__ import annotations

from collections.abc import Iterable

import textual.css.stylesheet
from textual.css.model import RuleSet
from textual.css.tokenizer import Token
from textual.css.types import CSSLocation

_parse = textual.css.stylesheet.parse
_parsed: dict[tuple[object, ...], list[RuleSet]] = {}
_variables: list[tuple[dict[str, list[Token]] | None, tuple[object, ...]]] = [(None, ())]
"""The variables last parsed with, and their part of the key (the same dict for a whole app)."""


def _variables_key(tokens: dict[str, list[Token]] | None) -> tuple[object, ...]:
    last, key = _variables[0]
    if tokens is last:
        return key
    key = () if tokens is None else tuple((name, tuple(value)) for name, value in tokens.items())
    _variables[0] = (tokens, key)
    return key


def _parse_once(
    scope: str,
    css: str,
    read_from: CSSLocation,
    variables: dict[str, str] | None = None,
    variable_tokens: dict[str, list[Token]] | None = None,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
) -> Iterable[RuleSet]:
    """Textual's parse of ``css``, made once for each source and set of variables."""
    key = (
        scope,
        css,
        read_from,
        None if variables is None else tuple(variables.items()),
        _variables_key(variable_tokens),
        is_default_rules,
        tie_breaker,
    )
    rules = _parsed.get(key)
    if rules is None:
        rules = list(_parse(scope, css, read_from, variables, variable_tokens, is_default_rules, tie_breaker))
        if not any(rule.errors for rule in rules):  # (a source in error is parsed again, and says so again)
            _parsed[key] = rules
    return list(rules)


def parse_each_stylesheet_once() -> None:
    """From now on, in this process, each source of CSS is parsed once (see the module's docstring)."""
    textual.css.stylesheet.parse = _parse_once  # type: ignore[assignment]
