"""TensorBoard event files (``events.out.tfevents.*``), read without TensorFlow or the
``tensorboard`` package: the TFRecord framing and the few protobuf fields scalars and text
summaries use.

A log directory holds one run per folder that has event files (HF Trainer writes
``output_dir/runs/<date>_<host>/``); a root with several is addressed ``ROOT#FOLDER``.
Read: scalars (``Summary.Value.simple_value``, or a scalar ``tensor`` as newer writers log
them) by ``global_step``; tags ``train/<key>`` become ``<key>``, ``eval/<key>`` stay apart
under their name; the end-of-training summary the Trainer logs at the last step
(``train/train_runtime``, ...) becomes an event; the ``args`` and ``model_config`` text
summaries give the trainer config and model. Lost: samples (TensorBoard has none).
"""
from __future__ import annotations

import json
import os
import re
import struct
from pathlib import Path
from typing import Any, Iterator

from .base import ImportedRun, SourceError
from .trainer_logs import guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "read", "read_events"]

NAME = "tensorboard"
DESCRIPTION = "a TensorBoard log dir or event file"

_MARKER = "tfevents"
_MAX_DEPTH = 4
_HEADER = struct.Struct("<QI")
_DOUBLE = struct.Struct("<d")
_FLOAT = struct.Struct("<f")
_SUMMARY_KEYS = ("train_runtime", "train_samples_per_second", "train_steps_per_second", "train_loss", "total_flos")
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
            head = fh.read(12)
            if len(head) < 12:
                return False
            length = _HEADER.unpack(head)[0]
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

def _records(path: Path, data: bytes, pos: int, end: int) -> Iterator[bytes]:
    """The records of a TFRecord file's bytes ``data[pos:end]``. A record cut short at the
    file's end (a writer still running or killed) ends it quietly; a length that cannot be
    right is an error."""
    while pos + 12 <= end:
        length = _HEADER.unpack_from(data, pos)[0]
        start = pos + 12
        if start + length + 4 > end:
            if length > 1 << 31 or end != len(data):
                raise SourceError(f"{path}: not a TFRecord file (record length {length} at byte {pos})")
            return
        yield data[start:start + length]
        pos = start + length + 4


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, Any]]:
    """(field number, wire type, value) of a protobuf message: ints for varints, bytes for
    length-delimited fields, raw 4/8 bytes for fixed32/fixed64."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            length, pos = _varint(buf, pos)
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
        yield number, wire, value


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
    rb"(.*?)\x15(.{4}).{4}", re.S)


def _fast_scalars(data: bytes) -> tuple[list[tuple[int, float, str, float]], list[tuple[int, int]]]:
    """The simple-value scalar records of a whole event file, and the byte ranges between
    them that hold other records (parsed by ``read_events`` field by field)."""
    out = []
    gaps = []
    pos = 0
    unpack_double, unpack_float = _DOUBLE.unpack, _FLOAT.unpack
    for match in _SCALAR_RECORD.finditer(data):
        length, wall, step_bytes, summary_len, value_len, tag_len, tag, value = match.groups()
        n_step = len(step_bytes)
        tag_n = tag_len[0]
        if (len(tag) != tag_n or value_len[0] != tag_n + 7 or summary_len[0] != tag_n + 9
                or length[0] != 21 + n_step + tag_n):
            continue  # not a record boundary after all; the gap parser reads these bytes
        start = match.start()
        if start != pos:
            gaps.append((pos, start))
        pos = match.end()
        if n_step == 1:
            step = step_bytes[0]
        else:
            step = 0
            for shift, byte in enumerate(step_bytes):
                step |= (byte & 0x7F) << (7 * shift)
        out.append((step, unpack_double(wall)[0], tag, unpack_float(value)[0]))
    if pos != len(data):
        gaps.append((pos, len(data)))
    return out, gaps


def read_events(path: Path) -> Iterator[tuple[int, float, str, float | None, bytes | None]]:
    """``(step, wall_time, tag, number, text)`` for each summary value in an event file,
    in file order within each kind (scalar fast path first, then other records)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from None
    scalars, gaps = _fast_scalars(data)
    tags: dict[bytes, str] = {}
    for step, wall, tag, value in scalars:
        name = tags.get(tag)
        if name is None:
            name = tags[tag] = tag.decode("utf-8", "replace")
        yield step, wall, name, value, None
    for start, end in gaps:
        yield from _read_records(path, data, start, end)


def _read_records(path: Path, data: bytes, start: int, end: int
                  ) -> Iterator[tuple[int, float, str, float | None, bytes | None]]:
    for record in _records(path, data, start, end):
        step, wall, summary = 0, 0.0, None
        try:
            for number, wire, value in _fields(record):
                if number == 1 and wire == 1:
                    wall = _DOUBLE.unpack(value)[0]
                elif number == 2 and wire == 0:
                    step = value if value < 1 << 63 else value - (1 << 64)
                elif number == 5 and wire == 2:
                    summary = value
            if summary is None:
                continue
            for number, wire, value in _fields(summary):
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
                    yield step, wall, tag, scalar, text
        except (ValueError, IndexError, struct.error) as exc:
            raise SourceError(f"{path}: damaged event record ({exc})") from None


# -- to a run --------------------------------------------------------------------------------

def read(path: Path, name: str | None = None) -> ImportedRun:
    if path.is_file():
        event_files, label = [path], path.name
    else:
        names = _names(path)
        folder = names.get(name) if name is not None else next(iter(names.values()), None)
        if folder is None:
            raise SourceError(f"{path}: no TensorBoard event files found")
        event_files, label = _event_files(folder), (name if name not in (None, ".") else None)
    run = ImportedRun(source=str(path), format=NAME, name=label)
    by_step: dict[int, dict[str, float]] = {}
    summary: dict[str, float] = {}
    first_wall = None
    for file in event_files:
        for step, wall, tag, scalar, text in read_events(file):
            if first_wall is None and wall:
                first_wall = wall
            if text is not None:
                _text_summary(run, tag, text)
                continue
            if scalar is None:
                continue
            key = tag[len("train/"):] if tag.startswith("train/") else tag
            if key in _SUMMARY_KEYS:
                summary[key] = scalar
                continue
            by_step.setdefault(step, {})[key] = scalar
    if not by_step:
        raise SourceError(f"{path}: the TensorBoard log holds no scalars")
    for step in sorted(by_step):
        run.add_step(step, by_step[step])
    if summary:
        run.events.append(("train_summary", max(by_step), "end-of-training summary", summary))
    run.created_at = first_wall
    run.algorithm = guess_algorithm(run.metric_names(), run.trainer_config.get("config_class"))
    run.note("read from TensorBoard: no samples (TensorBoard logs none)")
    return run


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
