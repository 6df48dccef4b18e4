"""The protobuf wire format, decoded without the ``protobuf`` package: enough for the
readers of TensorBoard event files and W&B run logs, which know their field numbers."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["varint", "fields"]


def varint(buf: bytes, pos: int) -> tuple[int, int]:
    """The varint at ``buf[pos]`` and the position after it. Raises ``IndexError`` when
    ``buf`` ends inside it."""
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def fields(buf: bytes) -> Iterator[tuple[int, int, Any]]:
    """(field number, wire type, value) of a protobuf message: ints for varints, bytes for
    length-delimited fields, raw 4/8 bytes for fixed32/fixed64. Raises ``ValueError`` for a
    wire type no message has (a damaged buffer) and ``IndexError`` for one cut short."""
    pos, end = 0, len(buf)
    value: Any
    while pos < end:
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            length, pos = varint(buf, pos)
            if pos + length > end:
                raise IndexError("length-delimited field past the end of the message")
            value = buf[pos:pos + length]
            pos += length
        elif wire == 1:
            value = buf[pos:pos + 8]
            pos += 8
        elif wire == 5:
            value = buf[pos:pos + 4]
            pos += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        if pos > end:
            raise IndexError("fixed-width field past the end of the message")
        yield number, wire, value
