"""TFRecord, the framing of TensorBoard event files, read with its CRCs checked.

A record is its data's length (uint64, little-endian), the masked CRC-32C of those 8 bytes,
the data, and the masked CRC-32C of the data. A file is read up to its first damage, as the
W&B reader reads its log (``base.CUT_SHORT``, ``base.note_damage``): a length or data whose
CRC is wrong, or a record that the file ends inside (a writer still writing, or killed).

The CRCs are computed for many records at once (``crc32c``): a scalar log holds millions of
records of a few dozen bytes, and a CRC computed byte by byte in Python would cost more than
the rest of its reading. CRC-32C without its initial and final inversion is linear over
GF(2): a record's is the XOR of one table entry per byte, the byte's contribution at its
distance from the record's end (``_Tables.at``), so each byte costs one table look-up,
vectorised over the records of one length. A record longer than ``_PIECE`` bytes is cut
into pieces of that length, whose CRCs are chained (``_Tables.shift``).
"""
from __future__ import annotations

import functools
import struct
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .base import CUT_SHORT

__all__ = ["HEADER", "FOOTER", "Framing", "walk", "frame", "intact", "damage_at", "whole", "crc32c", "masked"]

#: A record's length and that length's masked CRC; the data's masked CRC follows the data.
HEADER = struct.Struct("<QI")
FOOTER = 4
_POLY = 0x82F63B78  # CRC-32C (Castagnoli), reflected
_MASK_DELTA = 0xA282EAD8
_ONES = 0xFFFFFFFF
#: Records up to this long are one piece; longer ones are chained from pieces this long. Each
#: distinct piece length is one pass per byte over its records, so this bounds those passes.
_PIECE = 256
#: Bytes gathered at once: a block that stays in the CPU's cache while it is looked up.
_CHUNK = 1 << 18

U32 = NDArray[np.uint32]
I64 = NDArray[np.int64]


@dataclass(frozen=True)
class _Tables:
    """``at[d, b]``: the contribution of byte ``b`` followed by ``d`` bytes (``at[0]`` is the
    usual CRC-32C table); ``ones[n]``: the initial all-ones register carried through ``n``
    bytes; ``shift[i, b]``: byte ``i`` of a register, ``b``, carried through ``_PIECE`` bytes."""

    at: U32
    ones: U32
    shift: U32


@functools.cache
def _tables() -> _Tables:
    byte = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        byte = np.where(byte & 1, (byte >> 1) ^ np.uint32(_POLY), byte >> 1).astype(np.uint32)

    def advance(register: U32) -> U32:  # the register after one more zero byte
        return _u32(byte[register & 0xFF] ^ (register >> 8))

    at = np.empty((_PIECE, 256), np.uint32)
    at[0] = byte
    ones = np.empty(_PIECE + 1, np.uint32)
    ones[0] = _ONES
    shift = (np.arange(256, dtype=np.uint32) << (8 * np.arange(4, dtype=np.uint32))[:, None]).astype(np.uint32)
    for d in range(1, _PIECE + 1):
        if d < _PIECE:
            at[d] = advance(at[d - 1])
        ones[d] = advance(ones[d - 1 : d])[0]
        shift = advance(shift)
    return _Tables(at, ones, shift)


def _pieces_crc(buf: NDArray[np.uint8], starts: I64, lengths: I64) -> U32:
    """The linear CRC part (no initial register, no final inversion) of each span of at most
    ``_PIECE`` bytes, ``buf[start:start + length]``."""
    at = _tables().at
    out = np.zeros(len(starts), np.uint32)
    for length in np.unique(lengths).tolist():
        if length == 0:
            continue
        rows = np.flatnonzero(lengths == length)
        windows = np.lib.stride_tricks.sliding_window_view(buf, length)
        step = max(1, _CHUNK // length)
        for first in range(0, len(rows), step):
            chosen = rows[first:first + step]
            block = np.ascontiguousarray(windows[starts[chosen]].T)  # a row a byte position
            crc = np.zeros(len(chosen), np.uint32)
            for j in range(length):
                np.bitwise_xor(crc, at[length - 1 - j].take(block[j]), out=crc)
            out[chosen] = crc
    return out


def crc32c(data: bytes, starts: I64, lengths: I64) -> U32:
    """The CRC-32C of each span ``data[start:start + length]`` (the spans must lie in ``data``)."""
    tables = _tables()
    buf = np.frombuffer(data, np.uint8)
    starts, lengths = np.asarray(starts, np.int64), np.asarray(lengths, np.int64)
    if not len(lengths) or lengths.max() <= _PIECE:  # one piece each: nothing to chain
        return _u32(tables.ones[lengths] ^ _pieces_crc(buf, starts, lengths) ^ np.uint32(_ONES))
    count = np.maximum(1, -(-lengths // _PIECE))
    # Each span's first piece takes the remainder, so that every later piece is _PIECE long.
    first = lengths - (count - 1) * _PIECE
    head = np.cumsum(count) - count  # each span's first piece
    span = np.repeat(np.arange(len(starts)), count)
    index = np.arange(len(span)) - head[span]  # a piece's place in its span
    piece_start = starts[span] + np.where(index > 0, first[span] + (index - 1) * _PIECE, 0)
    piece_crc = _pieces_crc(buf, piece_start, np.where(index > 0, _PIECE, first[span]))
    out = tables.ones[first] ^ piece_crc[head]
    shift = tables.shift
    for i in np.flatnonzero(count > 1).tolist():
        register = int(out[i])
        for piece in piece_crc[head[i] + 1:head[i] + count[i]].tolist():
            register = int(shift[0, register & 0xFF] ^ shift[1, register >> 8 & 0xFF]
                           ^ shift[2, register >> 16 & 0xFF] ^ shift[3, register >> 24]) ^ piece
        out[i] = register
    return _u32(out ^ np.uint32(_ONES))


def _u32(values: object) -> U32:
    return np.asarray(values, np.uint32)


def masked(crc: U32) -> U32:
    """TFRecord's mask of a CRC (rotated right by 15 bits, plus a constant): a CRC of data
    that holds CRCs is no weaker for it."""
    return (((crc >> 15) | (crc << 17)) + np.uint32(_MASK_DELTA)).astype(np.uint32)


def _stored(buf: NDArray[np.uint8], offsets: I64) -> U32:
    """The little-endian uint32 at each offset of ``buf``."""
    return np.lib.stride_tricks.sliding_window_view(buf, 4)[offsets].copy().view("<u4").ravel()


def intact(data: bytes, starts: I64, lengths: I64) -> NDArray[np.bool_]:
    """Whether each record (at byte ``starts[i]``, ``lengths[i]`` bytes of data, whole in
    ``data``) has the length and the data its CRCs say."""
    starts, lengths = np.asarray(starts, np.int64), np.asarray(lengths, np.int64)
    if not len(starts):
        return np.ones(0, bool)
    buf = np.frombuffer(data, np.uint8)
    at = starts + HEADER.size
    small = lengths < len(_small_lengths())
    expected = np.empty(len(starts), np.uint32)
    expected[small] = _small_lengths()[lengths[small]]
    expected[~small] = masked(crc32c(data, starts[~small], np.full(int((~small).sum()), 8)))
    ok: NDArray[np.bool_] = expected == _stored(buf, starts + 8)
    ok &= masked(crc32c(data, at, lengths)) == _stored(buf, at + lengths)
    return ok


@functools.cache
def _small_lengths() -> U32:
    """The masked CRC of each length under 256 (most records of a scalar log are that short)."""
    headers = b"".join(struct.pack("<Q", n) for n in range(256))
    return masked(crc32c(headers, np.arange(256, dtype=np.int64) * 8, np.full(256, 8, np.int64)))


def damage_at(data: bytes, pos: int, base: int = 0) -> str:
    """The damage of the record at byte ``pos`` whose CRCs are wrong (``base``: where ``data``
    starts in its file, which the damage names the byte of)."""
    return f"bad {'' if _length_ok(data[pos:pos + HEADER.size]) else 'length '}CRC at byte {base + pos}"


@dataclass(frozen=True)
class Framing:
    """The records laid end to end from a start: each at byte ``starts[i]`` with ``lengths[i]``
    bytes of data; ``end``, where the last one ends; ``damage``, why no record was taken at
    ``end`` (``CUT_SHORT ...``: the bytes end inside it), None when the bytes end there. Only
    the length CRC of the record at ``end`` was checked: ``intact`` checks the others."""

    starts: I64
    lengths: I64
    end: int
    damage: str | None


def walk(data: bytes, start: int = 0, end: int | None = None, base: int = 0) -> Framing:
    """The records of ``data[start:end]`` (``start`` is a record's) by their lengths, up to
    the first that does not fit (damaged, or cut short; ``base`` as for ``damage_at``)."""
    end = len(data) if end is None else end
    starts: list[int] = []
    lengths: list[int] = []
    pos, damage = start, None
    while pos < end:
        if pos + HEADER.size > end:
            damage = f"{CUT_SHORT} at byte {base + pos}"
            break
        length = HEADER.unpack_from(data, pos)[0]
        if pos + HEADER.size + length + FOOTER > end:
            cut = _length_ok(data[pos:pos + HEADER.size])
            damage = f"{CUT_SHORT} at byte {base + pos}" if cut else damage_at(data, pos, base)
            break
        starts.append(pos)
        lengths.append(length)
        pos += HEADER.size + length + FOOTER
    return Framing(np.array(starts, np.int64), np.array(lengths, np.int64), pos, damage)


#: ``frame``: the longest run of records that repeat in lengths it looks for (a scalar log
#: writes the same tags, so the same lengths, at every logging step), how many records it
#: predicts at once, and how many it walks one by one before it looks for a period again.
_PERIOD = 256
_PREDICT = 1 << 16
_PATIENCE = 32


def frame(data: bytes, start: int = 0, end: int | None = None, base: int = 0) -> Framing:
    """``walk``, stopping also at a record whose length's CRC is wrong (``damage_at``): the
    records from ``start`` by their lengths, found many at a time. Walking millions of
    records one by one in Python costs more than the rest of their reading, but a scalar log
    repeats itself: once the last lengths walked repeat with a period, the next records are
    predicted to repeat it and each prediction is checked (the length at each predicted
    start, and its CRC), vectorised; the checked prefix is exactly what the walk would have
    found. Where a prediction fails, records are walked one by one until a period shows again."""
    end = len(data) if end is None else end
    buf = np.frombuffer(data, np.uint8)
    small = _small_lengths()
    starts: list[I64] = []
    lengths: list[I64] = []
    one_start: list[int] = []  # records walked one by one since the last prediction
    one_length: list[int] = []
    recent: list[int] = []  # the lengths of the last records walked, for the period
    pos, damage, alone = start, None, 0
    while pos < end:
        attempt = alone >= _PATIENCE or (alone == 0 and bool(recent))
        pattern = _period(recent) if attempt else None
        if attempt:
            alone = 1  # unless the whole prediction holds: the next try after _PATIENCE records
        if pattern is not None:
            count = min(_PREDICT, max(1, (end - pos) // (int(pattern.sum()) // len(pattern) + HEADER.size + FOOTER)))
            guess = np.resize(pattern, count)
            at = pos + np.concatenate(([0], np.cumsum(guess + HEADER.size + FOOTER)[:-1]))
            fits = at + HEADER.size + guess + FOOTER <= end
            first_out = int(np.argmin(fits)) if not fits.all() else count
            at, guess = at[:first_out], guess[:first_out]
            ok = (_stored_u64(buf, at) == guess) & (_stored(buf, at + 8) == small[guess])
            good = int(np.argmin(ok)) if not ok.all() else len(ok)
            if good:
                starts += [np.array(one_start, np.int64), at[:good]]
                lengths += [np.array(one_length, np.int64), guess[:good]]
                one_start, one_length = [], []
                pos = int(at[good - 1]) + HEADER.size + int(guess[good - 1]) + FOOTER
                recent = (recent + guess[max(0, good - 2 * _PERIOD):good].tolist())[-2 * _PERIOD:]
                alone = 0 if good == count else 1
                continue
        if pos + HEADER.size > end:
            damage = f"{CUT_SHORT} at byte {base + pos}"
            break
        header = data[pos:pos + HEADER.size]
        length = HEADER.unpack(header)[0]
        if pos + HEADER.size + length + FOOTER > end:
            damage = f"{CUT_SHORT} at byte {base + pos}" if _length_ok(header) else damage_at(data, pos, base)
            break
        if not _length_ok(header):
            damage = damage_at(data, pos, base)
            break
        one_start.append(pos)
        one_length.append(length)
        recent.append(length)
        del recent[:-2 * _PERIOD]
        alone += 1
        pos += HEADER.size + length + FOOTER
    starts.append(np.array(one_start, np.int64))
    lengths.append(np.array(one_length, np.int64))
    return Framing(np.concatenate(starts), np.concatenate(lengths), pos, damage)


def _period(recent: list[int]) -> I64 | None:
    """The shortest run of lengths (under 256 bytes each) that the last ones repeat twice."""
    lengths = np.array(recent, np.int64)
    if not len(lengths) or lengths.max() >= len(_small_lengths()):
        return None
    for size in range(1, min(_PERIOD, len(lengths) // 2) + 1):
        if np.array_equal(lengths[-size:], lengths[-2 * size:-size]):
            return lengths[-size:]
    return None


def _stored_u64(buf: NDArray[np.uint8], offsets: I64) -> NDArray[np.int64]:
    """The little-endian uint64 at each offset of ``buf``, as int64 (a length past 2**63 is
    negative there, and matches no length)."""
    return np.lib.stride_tricks.sliding_window_view(buf, 8)[offsets].copy().view("<i8").ravel()


@functools.lru_cache(maxsize=1024)
def _length_ok(header: bytes) -> bool:
    """Whether a record header's length (its 12 bytes) matches its CRC."""
    crc = masked(crc32c(header, np.zeros(1, np.int64), np.full(1, 8, np.int64)))[0]
    return bool(int(crc) == HEADER.unpack(header)[1])


def whole(data: bytes) -> int:
    """Bytes of ``data`` (starting at a record) worth reading now: its whole records, and
    damage after them, which waiting will not mend (a record still being written waits)."""
    framing = walk(data)
    damaged = framing.damage is not None and not framing.damage.startswith(CUT_SHORT)
    return len(data) if damaged else framing.end
