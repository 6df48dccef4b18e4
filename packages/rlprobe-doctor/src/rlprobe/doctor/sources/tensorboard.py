"""TensorBoard event files (``events.out.tfevents.*``), read without TensorFlow or the
``tensorboard`` package: the TFRecord framing (``tfrecord``) and the few protobuf fields
scalars and text summaries use.

A log directory holds one run per folder that has event files (HF Trainer writes
``output_dir/runs/<date>_<host>/``); a root with several is addressed ``ROOT#FOLDER``.
Read: scalars (``Summary.Value.simple_value``, or a scalar ``tensor`` as newer writers log
them) by ``global_step``; tags ``train/<key>`` become ``<key>``, ``eval/<key>`` stay apart
under their name; the end-of-training summary the Trainer logs at the last step
(``train/train_runtime``, ...) becomes an event; the ``args`` and ``model_config`` text
summaries give the trainer config and model. Lost: samples (TensorBoard has none). A file
cut short or damaged (a killed writer, a run still going; a record whose CRC is wrong) is
read up to the damage, with a note, as the W&B reader reads its log.
"""
from __future__ import annotations

import json
import os
import re
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from rlprobe.records import EventKind
from rlprobe.storage import RunStatus

from . import tfrecord
from .base import CUT_SHORT, GrowingFile, ImportedRun, SourceError, SourceTail, columns_of, note_damage
from .protobuf import fields as _fields
from .trainer_logs import SUMMARY_KEYS as _SUMMARY_KEYS
from .trainer_logs import guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "follow"]

NAME = "tensorboard"
DESCRIPTION = "a TensorBoard log dir or event file"
#: No other names for a run, no status read apart from the run (see ``Reader``).
address = status = None

_MARKER = "tfevents"
_MAX_DEPTH = 4
_DOUBLE = struct.Struct("<d")
_FLOAT = struct.Struct("<f")
#: DataType enum values of a scalar tensor: DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64.
_FLOAT_TYPES = {1: "f", 2: "d"}


def _event_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if _MARKER in p.name and p.is_file())
    except OSError:
        return []


def _run_dirs(root: Path) -> list[Path]:
    """Folders at or below ``root`` (a few levels) holding event files."""
    found = []
    for folder, dirs, names in os.walk(root):
        depth = len(Path(folder).relative_to(root).parts)
        if depth >= _MAX_DEPTH:
            dirs[:] = []
        dirs.sort()
        if any(_MARKER in n for n in names):
            found.append(Path(folder))
    return found


def _is_event_file(path: Path) -> bool:
    """A TFRecord whose first record is an Event holding ``file_version``."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(tfrecord.HEADER.size)
            if len(head) < tfrecord.HEADER.size:
                return False
            length = tfrecord.HEADER.unpack(head)[0]
            if not 0 < length < 1 << 20:
                return False
            data = fh.read(length)
    except OSError:
        return False
    return b"brain.Event:" in data


def sniff(path: Path) -> bool:
    if path.is_file():
        return _is_event_file(path)
    if path.is_dir():
        for folder in _run_dirs(path)[:3]:
            if any(_is_event_file(f) for f in _event_files(folder)[:1]):
                return True
    return False


def _names(path: Path) -> dict[str, Path]:
    if path.is_file():
        return {}
    dirs = _run_dirs(path)
    return {str(d.relative_to(path)) if d != path else ".": d for d in dirs}


def runs(path: Path) -> list[str]:
    names = _names(path)
    return sorted(names) if len(names) > 1 else []


def files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return [f for d in _run_dirs(path) for f in _event_files(d)]


# -- TFRecord and protobuf -----------------------------------------------------------------

def _tensor(buf: bytes) -> tuple[float | None, bytes | None]:
    """A TensorProto's scalar value (float, double, int) or first string value."""
    dtype = None
    content = None
    floats: list[float] = []
    for number, wire, value in _fields(buf):
        if number == 1 and wire == 0:
            dtype = value
        elif number == 4 and wire == 2:
            content = value
        elif number == 5:  # float_val
            floats += [_FLOAT.unpack(value)[0]] if wire == 5 else list(struct.unpack(f"<{len(value) // 4}f", value))
        elif number == 6:  # double_val
            floats += [_DOUBLE.unpack(value)[0]] if wire == 1 else list(struct.unpack(f"<{len(value) // 8}d", value))
        elif number in (7, 10) and wire == 0:  # int_val, int64_val
            floats.append(float(value))
        elif number == 8 and wire == 2:  # string_val
            return None, value
    if floats:
        return floats[0], None
    if content is not None and dtype in _FLOAT_TYPES and len(content) in (4, 8):
        return struct.unpack("<" + _FLOAT_TYPES[dtype], content[:4 if dtype == 1 else 8])[0], None
    return None, None


#: A whole framed record holding one ``simple_value`` scalar, the shape nearly every event
#: of a scalar log has: length (< 128) and its CRC, Event{wall_time, step, summary{value{tag,
#: simple_value}}}, data CRC. Matches are checked against the framing before use; anything
#: else is parsed field by field.
_SCALAR_RECORD = re.compile(
    rb"([\x00-\x7f])\x00\x00\x00\x00\x00\x00\x00.{4}"
    rb"\x09(.{8})\x10([\x80-\xff]{0,9}[\x00-\x7f])\x2a([\x00-\x7f])\x0a([\x00-\x7f])\x0a([\x00-\x7f])"
    rb"([^\x15]{0,127}+)\x15(.{4}).{4}", re.S)


class _Scalars:
    """Scalars of one event file as columns: ``step``, ``wall``, ``value`` and ``tag`` (an
    index into ``tags``), in file order."""

    def __init__(self) -> None:
        self.tags: list[str] = []
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def tag_index(self, names: list[str]) -> np.ndarray:
        """Codes of ``names`` in ``self.tags`` (added where new)."""
        known = {t: i for i, t in enumerate(self.tags)}
        for name in names:
            if name not in known:
                known[name] = len(self.tags)
                self.tags.append(name)
        return np.array([known[n] for n in names], dtype=np.int64)

    def add(self, steps: np.ndarray, walls: np.ndarray, codes: np.ndarray, values: np.ndarray) -> None:
        if len(steps):
            self.parts.append((steps, walls, codes, values))

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if not self.parts:
            empty = np.array([], dtype=np.int64)
            return empty, empty.astype(float), empty, empty.astype(float)
        return tuple(np.concatenate(c) for c in zip(*self.parts, strict=False))  # type: ignore[return-value]


def _varint_value(raw: bytes) -> int:
    value = 0
    for shift, byte in enumerate(raw):
        value |= (byte & 0x7F) << (7 * shift)
    return value


class _Fast:
    """The records of an event file's bytes that the fast scan matched as one simple-value
    scalar each, kept where the record's framing and CRCs agree with the match: record
    ``i`` spans ``starts[i]:ends[i]``, in file order."""

    def __init__(self, data: bytes) -> None:
        found = [(m.start(), *m.groups()) for m in _SCALAR_RECORD.finditer(data)]
        if not found:
            self._keep = self.starts = self.ends = np.array([], np.int64)
            return
        starts, length, self._wall, self._step, summary_len, value_len, tag_len, self._tag, self._value = zip(
            *found, strict=True)
        u8 = np.uint8
        length_a = np.frombuffer(b"".join(length), u8).astype(np.int64)
        tag_n = np.frombuffer(b"".join(tag_len), u8).astype(np.int64)
        step_n = np.fromiter(map(len, self._step), np.int64, len(starts))
        framed = np.flatnonzero((np.fromiter(map(len, self._tag), np.int64, len(starts)) == tag_n)
                                & (np.frombuffer(b"".join(value_len), u8) == tag_n + 7)
                                & (np.frombuffer(b"".join(summary_len), u8) == tag_n + 9)
                                & (length_a == 21 + step_n + tag_n))
        start_a, length_a = np.array(starts, np.int64)[framed], length_a[framed]
        intact = tfrecord.intact(data, start_a, length_a)
        self._keep = framed[intact]
        self.starts = start_a[intact]
        self.ends = self.starts + tfrecord.HEADER.size + length_a[intact] + tfrecord.FOOTER

    def gaps(self, size: int) -> list[tuple[int, int]]:
        """The byte ranges of ``data[:size]`` between the records kept: other records."""
        after, before = np.concatenate([[0], self.ends]), np.concatenate([self.starts, [size]])
        apart = after != before
        return list(zip(after[apart].tolist(), before[apart].tolist(), strict=True))

    def add(self, out: _Scalars, before: int) -> int:
        """Add the scalars of the records kept that start before byte ``before`` to ``out``,
        decoded as columns; returns how many."""
        keep = self._keep[self.starts < before]
        if not len(keep):
            return 0
        every = len(keep) == len(self._step)
        wall, step_raw, tag, value = ((column if every else [column[i] for i in keep.tolist()])
                                      for column in (self._wall, self._step, self._tag, self._value))
        decoded = {raw: _varint_value(raw) for raw in set(step_raw)}
        steps = np.fromiter(map(decoded.__getitem__, step_raw), np.int64, len(keep))
        names = {raw: raw.decode("utf-8", "replace") for raw in set(tag)}
        codes_of = dict(zip(names, out.tag_index(list(names.values())), strict=True))
        codes = np.fromiter(map(codes_of.__getitem__, tag), np.int64, len(keep))
        walls = np.frombuffer(b"".join(wall), "<f8")
        values = np.frombuffer(b"".join(value), "<f4").astype(np.float64)
        out.add(steps, walls, codes, values)
        return len(keep)


def _scan(data: bytes, scalars: _Scalars, base: int = 0) -> tuple[list[bytes], int, str | None]:
    """An event file's bytes (``data``, from a record's start, at byte ``base`` of the file)
    read up to their first damage: the fast scan's scalars go into ``scalars``; returns the
    other records' data (for ``_read_slow``), how many records were read, and the damage
    (None: none). Every record's framing and CRCs are checked; the first that is wrong ends
    the reading, as does a record that ``data`` ends inside (``CUT_SHORT``)."""
    fast = _Fast(data)
    starts: list[np.ndarray] = []
    lengths: list[np.ndarray] = []
    stop, damage = len(data), None
    for start, end in fast.gaps(len(data)):
        framing = tfrecord.walk(data, start, end, base)
        starts.append(framing.starts)
        lengths.append(framing.lengths)
        if framing.damage is not None:
            stop = framing.end
            damage = (framing.damage if end == len(data) or not framing.damage.startswith(CUT_SHORT)
                      else f"damaged framing at byte {base + stop}")  # records overrun the next one
            break
    starts_a = np.concatenate(starts) if starts else np.array([], np.int64)
    lengths_a = np.concatenate(lengths) if lengths else np.array([], np.int64)
    bad = np.flatnonzero(~tfrecord.intact(data, starts_a, lengths_a))
    if len(bad):
        stop = int(starts_a[bad[0]])
        damage = tfrecord.damage_at(data, stop, base)
        starts_a, lengths_a = starts_a[:bad[0]], lengths_a[:bad[0]]
    read = fast.add(scalars, stop) + len(starts_a)
    head = tfrecord.HEADER.size
    records = [data[a + head:a + head + n] for a, n in zip(starts_a.tolist(), lengths_a.tolist(), strict=True)]
    return records, read, damage


def _values(record: bytes) -> list[tuple[int, float, str, float | None, bytes | None]]:
    """``(step, wall_time, tag, number, text)`` for each summary value of an Event record.
    Raises ``ValueError``, ``IndexError`` or ``struct.error`` for one that is not an Event."""
    step, wall, summary = 0, 0.0, None
    for number, wire, value in _fields(record):
        if number == 1 and wire == 1:
            wall = _DOUBLE.unpack(value)[0]
        elif number == 2 and wire == 0:
            step = value if value < 1 << 63 else value - (1 << 64)
        elif number == 5 and wire == 2:
            summary = value
    out: list[tuple[int, float, str, float | None, bytes | None]] = []
    for number, wire, value in _fields(summary) if summary is not None else ():
        if number != 1 or wire != 2:
            continue
        tag, scalar, text = "", None, None
        for f, w, v in _fields(value):
            if f == 1 and w == 2:
                tag = v.decode("utf-8", "replace")
            elif f == 2 and w == 5:
                scalar = _FLOAT.unpack(v)[0]
            elif f == 8 and w == 2:
                scalar, text = _tensor(v)
        if tag:
            out.append((step, wall, tag, scalar, text))
    return out


# -- to a run --------------------------------------------------------------------------------

def _read_slow(run: ImportedRun, records: Iterable[bytes], scalars: _Scalars) -> None:
    """The records the fast scalar scan left, decoded one by one: text summaries onto
    ``run``, scalars into ``scalars``. A record whose CRC is right but whose content is not
    an Event (a writer's fault, not damage) is skipped and counted."""
    slow: list[tuple[int, float, str, float]] = []
    for record in records:
        try:
            values = _values(record)
        except (ValueError, IndexError, struct.error):
            run.problems.add("TensorBoard: a record whose CRC is right but whose content is not an event; "
                             "skipped", None)
            continue
        for step, wall, tag, scalar, text in values:
            if text is not None:
                _text_summary(run, tag, text)
            elif scalar is not None:
                slow.append((step, wall, tag, scalar))
    if slow:
        steps, walls, tags, values_ = zip(*slow, strict=True)
        scalars.add(np.array(steps, np.int64), np.array(walls), scalars.tag_index(list(tags)),
                    np.array(values_, np.float64))


def read(path: Path, name: str | None = None) -> ImportedRun:
    label: str | None
    if path.is_file():
        event_files, label = [path], path.name
    else:
        names = _names(path)
        folder = names.get(name) if name is not None else next(iter(names.values()), None)
        if folder is None:
            raise SourceError(f"{path}: no TensorBoard event files found")
        event_files, label = _event_files(folder), (name if name not in (None, ".") else None)
    run = ImportedRun(source=str(path), format=NAME, name=label)
    scalars = _Scalars()
    damages = []
    for file in event_files:
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise SourceError(f"{file}: cannot read ({exc.strerror})") from None
        records, read, damage = _scan(data, scalars)
        _read_slow(run, records, scalars)
        if damage is not None:
            note_damage(run, file, damage, f"{read} records")
            damages.append(damage)
    steps, walls, codes, values = scalars.columns()
    if not len(steps):
        raise SourceError(f"{path}: the TensorBoard log holds no scalars"
                          + (f" before the damage ({damages[0]})" if damages else ""))
    run.step_table, summary = _pivot(steps, codes, values, scalars.tags, run)
    if summary:
        run.events.append((EventKind.TRAIN_SUMMARY, int(steps.max()), "end-of-training summary", summary))
    finite = walls[walls > 0]
    run.created_at = float(finite.min()) if len(finite) else None
    run.ended_at = float(finite.max()) if len(finite) else None
    run.algorithm = guess_algorithm(run.metric_names(), run.trainer_config.get("config_class"))
    run.note("read from TensorBoard: no samples (TensorBoard logs none)")
    return run


def _pivot(steps: np.ndarray, codes: np.ndarray, values: np.ndarray, tags: list[str],
           run: ImportedRun) -> tuple[pa.Table, dict[str, float]]:
    """One row a step, one column a metric (null where a tag was not logged at a step; a
    tag logged twice at one step keeps its last value). ``train/<key>`` is ``<key>``; the
    Trainer's end-of-training summary keys come back apart."""
    keys = [t[len("train/"):] if t.startswith("train/") else t for t in tags]
    columns = columns_of(tuple(keys), run)
    summary = {}
    order = np.argsort(steps, kind="stable")
    steps, codes, values = steps[order], codes[order], values[order]
    all_steps = np.unique(steps)
    table: dict[str, Any] = {"step": pa.array(all_steps, pa.int64())}
    filled: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    # Two tags of one field (TRL's completion_length beside completions/mean_length): the
    # later by name wins, whatever order the writer first logged them in.
    for code, key, column in sorted(zip(range(len(keys)), keys, columns, strict=False), key=lambda item: item[1]):
        chosen = codes == code
        if not chosen.any() or column is None:
            continue
        if key in _SUMMARY_KEYS:
            summary[key] = float(values[chosen][-1])
            continue
        at = np.searchsorted(all_steps, steps[chosen])
        data, present = filled.get(column) or (np.full(len(all_steps), np.nan), np.zeros(len(all_steps), bool))
        data[at] = values[chosen]  # in step order, so a step's last value wins
        present[at] = True
        filled[column] = (data, present)
    for column, (data, present) in filled.items():
        table[column] = pa.array(data, pa.float64(), mask=~present)
    rows = pa.table(table)
    keep = np.flatnonzero(np.any([p for _, p in filled.values()], axis=0)) if filled else np.array([], np.int64)
    return (rows.take(pa.array(keep)) if len(keep) != len(all_steps) else rows), summary


def _text_summary(run: ImportedRun, tag: str, text: bytes) -> None:
    try:
        data = json.loads(text.decode("utf-8", "replace"))
    except ValueError:
        return
    if not isinstance(data, dict):
        return
    if tag.startswith("args"):
        run.trainer_config.update(data)
    elif tag.startswith("model_config"):
        run.model_name = run.model_name or data.get("_name_or_path") or None


# -- a log still being written ---------------------------------------------------------------

class _Tail(SourceTail):
    """A TensorBoard run folder (or one event file) as it grows: each event file by byte
    offset, in whole records, and event files that appear later (a writer restarted) as
    they come. A step's time is the latest ``wall_time`` its scalars were logged at. The
    run ends with the Trainer's end-of-training summary (``train/train_loss``,
    ``train/total_flos``); a TensorBoard log holds no other end."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, name if name not in (None, ".") else None)
        self._run_name = name
        self._files: dict[Path, GrowingFile] = {}
        #: Event files read up to damage: nothing after it is read.
        self._damaged: set[Path] = set()

    def _event_files(self) -> list[Path]:
        if self.path.is_file():
            return [self.path]
        folder = _names(self.path).get(self._run_name) if self._run_name is not None else next(
            iter(_names(self.path).values()), None)
        return _event_files(folder) if folder is not None else []

    def read_into(self, run: ImportedRun) -> None:
        scalars = _Scalars()
        for file in self._event_files():
            if file in self._damaged:
                continue
            tail = self._files.setdefault(file, GrowingFile(file, tfrecord.whole))
            data = tail.read_new()
            records, _, damage = _scan(data, scalars, tail.offset - len(data)) if data else ([], 0, None)
            _read_slow(run, records, scalars)
            if damage is not None:  # not a record still being written (tfrecord.whole waits for those)
                note_damage(run, file, damage)
                self._damaged.add(file)
        self.saw(*self._files.values())
        steps, walls, codes, values = scalars.columns()
        if not len(steps):
            return
        table, summary = _pivot(steps, codes, values, scalars.tags, run)
        # The time of each row's step: the latest wall time among its scalars.
        unique, where = np.unique(steps, return_inverse=True)
        latest = np.full(len(unique), np.nan)
        np.fmax.at(latest, where, walls)
        at = np.searchsorted(unique, table.column("step").to_numpy())
        run.step_table = table.append_column("time", pa.array(latest[at], pa.float64()))
        if summary and self.status == RunStatus.RUNNING:  # said once, though its scalars may span two looks
            run.events.append((EventKind.TRAIN_SUMMARY, int(steps.max()), "end-of-training summary", summary))
            self.status = RunStatus.FINISHED
        finite = walls[walls > 0]
        run.created_at = float(finite.min()) if len(finite) else None
        run.algorithm = guess_algorithm(run.metric_names(), run.trainer_config.get("config_class"))


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
