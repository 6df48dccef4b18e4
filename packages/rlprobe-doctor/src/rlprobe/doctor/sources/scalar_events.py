"""TensorBoard's one-scalar events decoded as columns, many records at a time.

Nearly every record of a scalar log is one ``Event{wall_time, step, summary{value{tag,
simple_value}}}`` (what ``add_scalar`` writes, in tensorboardX and torch's writer alike): a
fixed layout around two variable parts, the step's varint and the tag. A 100k-step log of 30
tags holds 3 million of them, too many to decode one at a time in Python. Given where each
record is (``tfrecord.frame``), ``decode`` checks every byte of that layout for all records
at once with numpy and reads their fields as arrays; a record that does not have the layout
exactly (a text summary, a tensor, a histogram, a field order or a length of another writer)
is left to the field-by-field decoder (``tensorboard._values``), which gives the same values
for a record that has it (``tests/sources/test_tfrecord.py`` holds the two equal).

The layout, after the record's 12-byte header: ``09`` wall_time (8 bytes, double), ``10``
step (a varint of 1-10 bytes, int64), ``2a`` and the summary's length (tag length + 9),
``0a`` and the value's length (tag length + 7), ``0a`` and the tag's length, the tag (not
holding byte ``15``), ``15`` simple_value (4 bytes, float); every length under 128, so one
byte each, and the record's length is 21 + the step's bytes + the tag's.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .tfrecord import HEADER

__all__ = ["Decoded", "Scalars", "decode"]

I64 = NDArray[np.int64]
U8 = NDArray[np.uint8]
#: Bytes of the layout besides the step's varint and the tag.
_FIXED = 21
#: A multiplier for hashing a tag's 8-byte words (odd: a bijection on uint64).
_MIX = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class Scalars:
    """One-scalar records' fields, in file order: ``codes`` index ``tags``."""

    steps: I64
    walls: NDArray[np.float64]
    codes: I64
    values: NDArray[np.float64]
    tags: list[str]


@dataclass(frozen=True)
class Decoded:
    """``simple[i]``: whether record ``i`` has the one-scalar layout; the fields of those
    that have it (``record``: their record numbers)."""

    simple: NDArray[np.bool_]
    record: I64
    scalars: Scalars

    def among(self, count: int) -> Scalars:
        """The one-scalar records among the first ``count``."""
        upto = int(np.searchsorted(self.record, count))
        s = self.scalars
        return Scalars(s.steps[:upto], s.walls[:upto], s.codes[:upto], s.values[:upto], s.tags)


def _at(buf: U8, offsets: I64, width: int) -> U8:
    """``width`` bytes from each offset of ``buf``, a row each."""
    return np.lib.stride_tricks.sliding_window_view(buf, width)[offsets]


def decode(data: bytes, starts: I64, lengths: I64) -> Decoded:
    """The records at ``starts`` (``lengths`` bytes of data each, whole in ``data``) that have
    the one-scalar layout, decoded; their CRCs are not checked here (``tfrecord.intact``)."""
    buf = np.frombuffer(data, np.uint8)
    candidates = np.flatnonzero((lengths >= _FIXED + 1) & (lengths < 128))
    at = starts[candidates] + HEADER.size
    length = lengths[candidates]
    head = _at(buf, at, 20)  # wall_time's tag and bytes, the step's tag and varint: in a record of 22+ bytes
    size = np.ones(len(at), np.int64)  # the step's bytes: 1 + the continuation bytes before its last
    going = head[:, 10] >= 0x80
    for i in range(11, 20):
        if not going.any():
            break
        size += going
        going &= head[:, i] >= 0x80
    tag = length - _FIXED - size
    ok = ~going & (tag >= 1) & (head[:, 0] == 0x09) & (head[:, 9] == 0x10)
    size, tag = np.where(ok, size, 1), np.where(ok, tag, 0)  # elsewhere, offsets that stay in the record
    after = at + 10 + size  # the summary's field tag
    fields = _at(buf, after, 6)
    tag8 = tag.astype(np.uint8)  # under 107 where the record's length is under 128
    ok &= ((fields[:, 0] == 0x2A) & (fields[:, 1] == tag8 + 9) & (fields[:, 2] == 0x0A) & (fields[:, 3] == tag8 + 7)
           & (fields[:, 4] == 0x0A) & (fields[:, 5] == tag8) & (buf[after + 6 + tag] == 0x15))
    codes = np.full(len(candidates), -1, np.int64)
    names: list[str] = []
    laid = np.flatnonzero(ok)
    by_length = laid[np.argsort(tag8[laid], kind="stable")]  # a radix sort, on bytes
    bounds = np.flatnonzero(np.diff(tag[by_length])) + 1
    for rows in np.split(by_length, bounds) if len(by_length) else ():
        tag_length = int(tag[rows[0]])
        text = _at(buf, after[rows] + 6, tag_length) if tag_length else np.zeros((len(rows), 0), np.uint8)
        if (text == text[0]).all() and not (text[0] == 0x15).any():  # most often: one tag, one pass
            codes[rows] = len(names)
            names.append(bytes(text[0]).decode("utf-8", "replace"))
            continue
        clean = ~(text == 0x15).any(axis=1)  # a tag holding byte 15 is not this layout
        if not clean.all():
            ok[rows[~clean]] = False
            rows, text = rows[clean], text[clean]
        first, inverse = _distinct(text)
        codes[rows] = len(names) + inverse
        names += [bytes(text[i]).decode("utf-8", "replace") for i in first.tolist()]
    chosen = np.flatnonzero(ok)
    every = len(chosen) == len(ok)  # most often: no copies to make
    at, size, chosen_tag = (at, size, tag) if every else (at[chosen], size[chosen], tag[chosen])
    varint = head[:, 10:] if every else head[chosen, 10:]
    unsigned = np.zeros(len(chosen), np.uint64)
    for i in range(int(size.max()) if len(size) else 0):  # a byte of the varint a pass: most steps take 1-3
        digit = (varint[:, i] & 0x7F).astype(np.uint64) << np.uint64(7 * i)
        unsigned |= np.where(i < size, digit, np.uint64(0))
    steps: I64 = unsigned.view(np.int64)  # int64's two's complement, as protobuf's
    walls = _at(buf, at + 1, 8).copy().view("<f8").ravel()
    values = _at(buf, at + 10 + size + 7 + chosen_tag, 4).copy().view("<f4").ravel().astype(np.float64)
    simple = np.zeros(len(starts), bool)
    simple[candidates if every else candidates[chosen]] = True
    # Tags named apart but equal (the same tag in two lengths cannot be): merged by name.
    unique_names = list(dict.fromkeys(names))
    remap = np.array([unique_names.index(n) for n in names], np.int64) if names else np.zeros(0, np.int64)
    return Decoded(simple, candidates[chosen], Scalars(steps, walls, remap[codes[chosen]] if len(chosen) else
                                                       np.zeros(0, np.int64), values, unique_names))


def _distinct(rows: U8) -> tuple[I64, I64]:
    """For byte strings of one length (a row each): the first row of each distinct one, and
    each row's index among those. Rows are hashed to one word each and the hashes checked
    against the rows they stand for; a collision falls back to comparing whole rows."""
    count, width = rows.shape
    if count == 0 or (rows == rows[0]).all():  # most often, one tag has each length
        return np.zeros(min(count, 1), np.int64), np.zeros(count, np.int64)
    padded = np.zeros((count, -(-width // 8) * 8), np.uint8)
    padded[:, :width] = rows
    words = padded.view("<u8")
    hashed = np.full(count, np.uint64(width), np.uint64)
    for j in range(words.shape[1]):
        hashed = (hashed ^ words[:, j]) * _MIX
        hashed ^= hashed >> np.uint64(29)
    _, first, inverse = np.unique(hashed, return_index=True, return_inverse=True)
    if np.array_equal(rows, rows[first[inverse]]):
        return first.astype(np.int64), inverse.astype(np.int64)
    _, first, inverse = np.unique(np.ascontiguousarray(rows).view(np.dtype((np.void, width))).ravel(),
                                  return_index=True, return_inverse=True)
    return first.astype(np.int64), inverse.astype(np.int64)
