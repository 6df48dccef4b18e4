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
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from rlprobe.records import EventKind
from rlprobe.storage import RunStatus

from .. import progress
from . import scalar_events, tfrecord
from .base import GrowingFile, ImportedRun, SourceError, SourceTail, columns_of, note_damage, read_file
from .columns import float_column, int_column
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


#: Records this many or more are decoded with the CRCs checked on a second thread meanwhile
#: (numpy releases the GIL): a scalar log's millions of records on two cores.
_THREADED = 50_000


def _scan(data: bytes, scalars: _Scalars, base: int = 0) -> tuple[list[bytes], int, str | None]:
    """An event file's bytes (``data``, from a record's start, at byte ``base`` of the file)
    read up to their first damage: the one-scalar records (``scalar_events``) go into
    ``scalars``; returns the other records' data (for ``_read_slow``), how many records were
    read, and the damage (None: none). Every record's framing and CRCs are checked; the first
    that is wrong ends the reading, as does a record that ``data`` ends inside (``CUT_SHORT``)."""
    framing = tfrecord.frame(data, 0, len(data), base)
    starts, lengths = framing.starts, framing.lengths
    if len(starts) >= _THREADED:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1, thread_name_prefix="rlprobe-crc") as pool:
            checked = pool.submit(tfrecord.intact, data, starts, lengths)
            decoded = scalar_events.decode(data, starts, lengths)
            ok = checked.result()
    else:
        ok = tfrecord.intact(data, starts, lengths)
        decoded = scalar_events.decode(data, starts, lengths)
    read, damage = len(starts), framing.damage
    bad = np.flatnonzero(~ok)
    if len(bad):
        read = int(bad[0])
        damage = tfrecord.damage_at(data, int(starts[read]), base)
    fast = decoded.among(read)
    if len(fast.steps):
        scalars.add(fast.steps, fast.walls, scalars.tag_index(fast.tags)[fast.codes], fast.values)
    head = tfrecord.HEADER.size
    others = np.flatnonzero(~decoded.simple[:read])
    records = [data[a + head:a + head + n] for a, n in zip(starts[others].tolist(), lengths[others].tolist(),
                                                           strict=True)]
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
            data = read_file(file)
        except OSError as exc:
            raise SourceError(f"{file}: cannot read ({exc.strerror})") from None
        report = progress.current()
        report.task(f"decoding {file.name}", len(data))
        records, read, damage = _scan(data, scalars)
        report.advance(len(data))
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
    if len(steps) > 1 and (np.diff(steps) < 0).any():  # a log is written in step order, mostly
        order = np.argsort(steps, kind="stable")
        steps, codes, values = steps[order], codes[order], values[order]
    all_steps = steps[np.r_[True, steps[1:] != steps[:-1]]] if len(steps) else steps
    # Each tag's scalars, in step order: one stable sort by tag instead of a pass a tag.
    by_code = np.argsort(codes.astype(np.uint16) if len(tags) < 1 << 16 else codes, kind="stable")
    bounds = np.searchsorted(codes[by_code], np.arange(len(tags) + 1))
    table: dict[str, Any] = {"step": int_column(all_steps)}
    filled: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    # Two tags of one field (TRL's completion_length beside completions/mean_length): the
    # later by name wins, whatever order the writer first logged them in.
    for code, key, column in sorted(zip(range(len(keys)), keys, columns, strict=False), key=lambda item: item[1]):
        chosen = by_code[bounds[code]:bounds[code + 1]]
        if not len(chosen) or column is None:
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
        table[column] = float_column(data, present)
    rows = pa.table(table)
    keep = np.flatnonzero(np.any([p for _, p in filled.values()], axis=0)) if filled else np.array([], np.int64)
    return (rows.take(int_column(keep)) if len(keep) != len(all_steps) else rows), summary


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
        run.step_table = table.append_column("time", float_column(latest[at]))  # NaN, not null, where no time
        if summary and self.status == RunStatus.RUNNING:  # said once, though its scalars may span two looks
            run.events.append((EventKind.TRAIN_SUMMARY, int(steps.max()), "end-of-training summary", summary))
            self.status = RunStatus.FINISHED
        finite = walls[walls > 0]
        run.created_at = float(finite.min()) if len(finite) else None
        run.algorithm = guess_algorithm(run.metric_names(), run.trainer_config.get("config_class"))


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
