"""One event <-> one line of a ``.dvr`` file (format v1: UTF-8 JSON Lines).

The writer is strict and canonical: ``type`` first, then ``seq``, then the fields in the order of
the spec, then ``at`` when stamped. The reader is lax where the format allows (key order, unknown
keys, missing ``seq``/``at``) and strict everywhere else.
"""

from __future__ import annotations

import msgspec

from ..engine import AnyEvent, Event

_encoder = msgspec.json.Encoder()
line_decoder: msgspec.json.Decoder[AnyEvent] = msgspec.json.Decoder(AnyEvent)


def encode_line(event: Event, seq: int, at: str | None = None) -> bytes:
    """The file line for ``event`` at position ``seq``, ending in ``\\n``.

    msgspec always writes the tag first, so ``seq`` is spliced in right after it; the event itself
    carries no ``seq`` (the engine never sees file positions).
    """
    if event.seq is not None:
        event.seq = None
    body = _encoder.encode(event)
    cut = body.index(b",") + 1  # just after "type":"..." (tags hold no comma)
    line = body[:cut] + b'"seq":%d,' % seq + body[cut:]
    if at is not None:
        line = line[:-1] + b',"at":' + _encoder.encode(at) + b"}"
    return line + b"\n"
