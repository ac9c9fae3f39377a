"""msgspec's reasons for refusing a value, said in our words and the reader's language.

msgspec writes its validation and parse errors in English ("Expected `int`, got `str` - at
`$.seq`", "JSON is malformed: invalid character (byte 7)"); a damaged file's explanation, the
analysis sidecar's and ``verify``'s lines are sentences in the user's language, so what msgspec
says goes through here. The English wording stays msgspec's own (tests and users already know it);
where it says the value went wrong (the key path, the byte) is kept as msgspec gives it. A message
these patterns do not know is returned as it is: msgspec's text, rather than none.
"""

from __future__ import annotations

import re

from ..i18n import N_, _, pgettext


def _types() -> dict[str, str]:
    """msgspec's names of JSON's kinds of value, in the reader's words (English: msgspec's)."""
    return {
        "int": pgettext("JSON value", "int"),
        "float": pgettext("JSON value", "float"),
        "str": pgettext("JSON value", "str"),
        "bool": pgettext("JSON value", "bool"),
        "null": pgettext("JSON value", "null"),
        "array": pgettext("JSON value", "array"),
        "object": pgettext("JSON value", "object"),
        "bytes": pgettext("JSON value", "bytes"),
    }


REASONS = {
    "invalid character": N_("invalid character"),
    "invalid character in unicode escape": N_("invalid character in unicode escape"),
    "invalid escape character in string": N_("invalid escape character in string"),
    "invalid escaped character": N_("invalid escaped character"),
    "invalid number": N_("invalid number"),
    "invalid utf-16 surrogate pair": N_("invalid utf-16 surrogate pair"),
    "object keys must be strings": N_("object keys must be strings"),
    "trailing characters": N_("trailing characters"),
    "trailing comma in array": N_("trailing comma in array"),
    "trailing comma in object": N_("trailing comma in object"),
    "expected ':'": N_("expected ':'"),
    "expected ','": N_("expected ','"),
    "expected ',' or ']'": N_("expected ',' or ']'"),
    "expected ',' or '}'": N_("expected ',' or '}'"),
    "expected '\"'": N_("expected '\"'"),
    "unexpected end of hex escape": N_("unexpected end of hex escape"),
    "unexpected end of escaped utf-16 surrogate pair": N_("unexpected end of escaped utf-16 surrogate pair"),
}
"""The reasons msgspec gives after "JSON is malformed: "."""

_AT = re.compile(r"^(?P<body>.*) - at `(?P<path>[^`]*)`$", re.DOTALL)
_MALFORMED = re.compile(r"^JSON is malformed: (?P<reason>.*) \(byte (?P<byte>\d+)\)$")
_GOT = re.compile(r"^Expected `(?P<expected>[^`]+)`, got `(?P<got>[^`]+)`$")
_BOUND = re.compile(r"^Expected `(?P<kind>\w+)` (?P<op><=|>=|<|>) (?P<bound>\S+)$")
_LENGTH = re.compile(r"^Expected `(?P<kind>\w+)` of length (?P<op><=|>=) (?P<bound>\d+)$")
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]*)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]*)`$")
_INVALID = re.compile(r"^Invalid (?:enum )?value (?P<value>.+)$", re.DOTALL)


def _kind(name: str) -> str:
    """``int | null`` in the reader's words (msgspec's name when it is not one of JSON's kinds)."""
    types = _types()
    return _(" | ").join(types.get(part, part) for part in name.split(" | "))


def _body(body: str) -> str:
    if found := _GOT.match(body):
        return _("Expected `{expected}`, got `{got}`").format(
            expected=_kind(found["expected"]), got=_kind(found["got"])
        )
    if found := _LENGTH.match(body):
        return _("Expected `{kind}` of length {op} {bound}").format(
            kind=_kind(found["kind"]), op=found["op"], bound=found["bound"]
        )
    if found := _BOUND.match(body):
        return _("Expected `{kind}` {op} {bound}").format(
            kind=_kind(found["kind"]), op=found["op"], bound=found["bound"]
        )
    if found := _MISSING.match(body):
        return _("Object missing required field `{field}`").format(field=found["field"])
    if found := _UNKNOWN.match(body):
        return _("Object contains unknown field `{field}`").format(field=found["field"])
    if found := _INVALID.match(body):
        return _("Invalid value {value}").format(value=found["value"])
    if body == "Integer value out of range":
        return _("Integer value out of range")
    if body == "Number out of range":
        return _("Number out of range")
    return body


def validation_words(message: str) -> str:
    """A :class:`msgspec.ValidationError`'s message in the reader's language, its key path kept."""
    if found := _AT.match(message):
        return _("{problem} - at `{path}`").format(problem=_body(found["body"]), path=found["path"])
    return _body(message)


def malformed_words(message: str) -> str:
    """A :class:`msgspec.DecodeError`'s message (not JSON) in the reader's language, without
    msgspec's "JSON is malformed: " (the sentence around it says so), its byte kept."""
    if message == "Input data was truncated":
        return _("input data was truncated")
    if found := _MALFORMED.match(message):
        reason = found["reason"]
        said = _(REASONS[reason]) if reason in REASONS else reason
        return _("{reason} (byte {byte})").format(reason=said, byte=found["byte"])
    return message
