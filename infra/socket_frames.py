"""A socket frame read as one JSON object, or refused: the one decode of the sockets that
take free-form JSON (the status page's echo, an arena's; the room socket's typed schemas
are rooms/core/messages.py, which refuse the same frames the same way).

A frame is refused when it is not text, is longer than the socket's limit, is not JSON,
nests deeper than the decoder can follow (60,000 "[" made Python's own `json` raise a
RecursionError that closed the socket), or is not an object. msgspec decodes it: it
raises its own errors for all of these, and is several times faster than `json`.
"""

import msgspec

_decode = msgspec.json.Decoder().decode


def json_object(text: str | None, max_bytes: int) -> dict | None:
    """The frame's JSON object, or None when it is refused (the caller says why)."""
    # Characters first, so a huge frame is refused before it is encoded to count bytes.
    if text is None or len(text) > max_bytes or len(text.encode()) > max_bytes:
        return None
    try:
        value = _decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
