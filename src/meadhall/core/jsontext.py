"""The kernel's canonical JSON text of a position, and how a game writes it faster.

:meth:`meadhall.core.protocol.GameState.repetition_text` is ``[decision, view(None)]`` encoded
by :data:`ENCODE` (sorted keys, compact). A game whose view holds large parts that rarely
change may build the view with a mark (:func:`mark`) in place of each such part, encode that,
and put each part's remembered text where its mark was written (:func:`splice`): with sorted
keys the text of a dict is its sorted ``"key":value`` pairs, so the result is the very same
text.

>>> splice([None, {"b": mark("x"), "a": 1}], {"x": '{"big":true}'})
'[null,{"a":1,"b":{"big":true}}]'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

ENCODE = json.JSONEncoder(sort_keys=True, default=str, separators=(",", ":"),
                          check_circular=False).encode
"""``json.dumps`` with the repetition text's options (made once)."""
STRING_TEXT = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]
"""The JSON text of one string, as :data:`ENCODE` writes it."""
_MARK_OPEN = '"\\u0000'
"""How JSON writes the start of a mark (a NUL character cannot come from the rules: names
and ids are printable)."""


def mark(name: str) -> str:
    """The placeholder for the part named ``name`` (no ``"`` in it)."""
    return "\0" + name


def splice(obj: Any, parts: Mapping[str, str]) -> str | None:
    """The :data:`ENCODE` text of ``obj`` with each mark replaced by its part's text;
    ``None`` when the text does not hold exactly one mark per part (a string of the rules
    that starts with NUL: the caller then writes the plain text)."""
    chunks = ENCODE(obj).split(_MARK_OPEN)
    if len(chunks) != len(parts) + 1:
        return None
    out = [chunks[0]]
    for c in chunks[1:]:
        name, rest = c.split('"', 1)  # the mark's name, then what follows the mark
        out.append(parts[name])
        out.append(rest)
    return "".join(out)
