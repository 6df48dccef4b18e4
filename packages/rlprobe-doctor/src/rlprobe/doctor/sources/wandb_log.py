"""A W&B run's local log, ``wandb/<offline-run-|run->DATE-ID/run-<ID>.wandb``, which every
W&B run writes, offline or online; read without the ``wandb`` package.

The framing (wandb-core's LevelDB-style log; checked on wandb 0.31): a 7-byte header
(``:W&B``, 0xBEE1 little-endian, version 0), then 32 KiB blocks of chunks, each a 7-byte
header (CRC-32 of the type byte and the data, uint16 length, type FULL 1 / FIRST 2 /
MIDDLE 3 / LAST 4) and its data; a block's last bytes, too few for a chunk header, are
zeros. A whole record is a ``wandb_internal.Record``; read are ``history`` (items named by
``key`` or a ``nested_key`` path, valued by ``value_json``), ``summary`` and ``config``
updates and removals, ``run`` (id, name, start time, first config) and ``exit``.

Addressed as the file, its run folder, or a ``wandb/`` folder of runs (``rlprobe ls``;
``wandb/#NAME``: the run's name, or its id where it has none or the name repeats; the id is
always accepted). Rows are read as the Trainer logs them through a tracker
(``add_tracker_rows``): by ``train/global_step``, else the row's own ``step`` (a training
loop of one's own), else W&B's ``_step``; W&B's own ``_``-keys are not metrics. NaN and infinities (``NaN``,
``Infinity`` in the JSON) are kept. The config
(TRL's args) is the trainer config; a run that exited non-zero is ``crashed``. A file cut
short or damaged (a killed writer, a run still going) is read up to the damage, with a note.

Samples: TRL's ``log_completions=True`` logs a ``completions`` table at each logging step.
W&B writes it to ``files/media/table/completions_<_step>_<sha256[:20]>.table.json``
(``{"columns": [...], "data": [[...], ...]}``, NaN as a literal; TRL's columns: ``step``,
``prompt``, ``completion``, one per reward function, its extra columns, ``advantage``), and
in the history row a media value, one item per field (``completions/_type`` =
``table-file``, ``path`` relative to ``files/``, ``sha256``, ``size``, ``nrows``, ``ncols``,
…), folded back into one dict so none of them is a metric. Each table's rows become samples
as TRL's ``completions_*.parquet`` do (``add_completion_rows``), at the table's ``step``
column, else the logging row's step. TRL logs the last table again with the end-of-training
summary: a file whose content was read already is not read again. An eval's table (the row
before it holds ``eval/`` keys) is left out, with a note. A table file missing or not a
table is left out, with a note. Lost: images (W&B 0.31 writes a table cell holding
``wandb.Image`` objects as the text ``"Image"`` and saves no image file).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import add
from pathlib import Path
from typing import Any

from rlprobe.records import EventKind
from rlprobe.storage import RunStatus

from .. import progress
from .base import CUT_SHORT, ImportedRun, SourceError, SourceTail, note_damage, number, read_file
from .hf_trainer import add_completion_rows
from .protobuf import fields, varint
from .trainer_logs import SUMMARY_KEYS, TIME_KEY, TrackerRowsTail, add_tracker_rows, guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "records", "follow"]

NAME = "wandb"
DESCRIPTION = "a W&B run log (run-<id>.wandb, its run folder, or a wandb/ folder of runs)"

_FILE_HEADER = struct.pack("<4sHB", b":W&B", 0xBEE1, 0)
_CHUNK = struct.Struct("<IHB")
_BLOCK = 32 * 1024
_FULL, _FIRST, _MIDDLE, _LAST = 1, 2, 3, 4
#: How far below a folder run folders are looked for (``dir/wandb/run-…``).
_MAX_DEPTH = 2
#: Enough of a file to hold its ``run`` record (the second record), for listing runs.
_HEAD_BYTES = 4 * _BLOCK

# Field numbers, from wandb 0.31's wandb_internal.proto.
_RECORD_HISTORY, _RECORD_SUMMARY, _RECORD_CONFIG, _RECORD_RUN, _RECORD_EXIT = 2, 3, 5, 17, 18
#: StatsRecord (system metrics, sampled every few seconds while the run lives: its heartbeat)
#: and its ``timestamp`` field.
_RECORD_STATS, _STATS_TIMESTAMP = 7, 2
_HISTORY_ITEM, _HISTORY_STEP = 1, 2  # HistoryRecord; HistoryStep.num is 1
_ITEM_KEY, _ITEM_NESTED_KEY, _ITEM_VALUE_JSON = 1, 2, 16  # HistoryItem, SummaryItem, ConfigItem
#: HistoryItem's typed ``value`` oneof (newer writers may set one instead of value_json).
_ITEM_BOOL, _ITEM_INT, _ITEM_DOUBLE, _ITEM_JSON = 4, 5, 6, 8
_UPDATE, _REMOVE = 1, 2  # SummaryRecord, ConfigRecord
_RUN_ID, _RUN_CONFIG, _RUN_DISPLAY_NAME, _RUN_START_TIME = 1, 4, 8, 17  # RunRecord
_EXIT_CODE = 1  # RunExitRecord
#: Where a run folder keeps the tables its history rows point at (``path`` is relative to
#: ``files/``); TRL logs its completions table under this key.
_FILES, _TABLES, _COMPLETIONS = "files", "files/media/table", "completions"
#: Most records of a log: a Record's ``num``, then its history (field 2) or summary (field 3)
#: to the record's end; the field's tag and length are captured (the length is checked).
_ONE_FIELD = re.compile(rb"(?:\x08[\x80-\xff]{0,9}[\x00-\x7f])?([\x12\x1a])([\x80-\xff]{0,4}[\x00-\x7f])", re.S)
#: Records decoded between two reports to the progress bar.
_REPORT_EVERY = 4096
#: W&B writes a summary update after every history row; only these keys of it are read.
_SUMMARY_NEEDLES = re.compile(b"|".join(re.escape(key.encode()) for key in SUMMARY_KEYS))


# -- the log framing -------------------------------------------------------------------------

def records(data: bytes) -> tuple[list[bytes], str | None]:
    """The whole records of a ``.wandb`` file's bytes, up to any damage, and what the
    damage is and the byte it is at (``None`` for an intact file): a chunk or a record cut
    short, a bad CRC or chunk type."""
    found, _, damage = _framed(data, 0)
    return found, damage


def _framed(data: bytes, base: int) -> tuple[list[bytes], int, str | None]:
    """``records`` of the file's bytes from offset ``base`` (a record's start; the 32 KiB
    blocks are counted from the file's start), with the offset after the last whole record:
    where the next read of a file still being written starts."""
    out: list[bytes] = []
    pending: list[bytes] | None = None
    pos = max(base, len(_FILE_HEADER))
    begun = pos  # where the record being put together starts
    done = pos
    end = base + len(data)
    while pos < end:
        room = _BLOCK - pos % _BLOCK
        if room < _CHUNK.size:
            pos += room  # a block's tail, too short for a chunk header
            continue
        if pos + _CHUNK.size > end:
            return out, done, f"{CUT_SHORT} at byte {pos}"
        at = pos - base
        crc, length, kind = _CHUNK.unpack_from(data, at)
        if kind == 0 and length == 0 and crc == 0 and not any(data[at:at + room]):
            pos += room  # zeros to the block's end: space a writer kept and did not fill
            continue
        start = pos + _CHUNK.size
        if start + length > end:
            return out, done, f"{CUT_SHORT} at byte {pos}"
        chunk = data[at + _CHUNK.size:at + _CHUNK.size + length]
        if length > room - _CHUNK.size or kind not in (_FULL, _FIRST, _MIDDLE, _LAST):
            return out, done, f"damaged chunk header at byte {pos}"
        if zlib.crc32(chunk, zlib.crc32(bytes((kind,)))) != crc:
            return out, done, f"bad CRC at byte {pos}"
        if kind == _FULL:
            out.append(chunk)
            pending = None
            done = start + length
        elif kind == _FIRST:
            pending, begun = [chunk], pos
        elif pending is None:
            return out, done, f"a record's continuation without its start at byte {pos}"
        else:
            pending.append(chunk)
            if kind == _LAST:
                out.append(b"".join(pending))
                pending = None
                done = start + length
        pos = start + length
    return out, done, (f"{CUT_SHORT} inside the record at byte {begun}" if pending is not None else None)


def _is_log(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(_FILE_HEADER)) == _FILE_HEADER
    except OSError:
        return False


def _log_files(path: Path) -> list[Path]:
    """The W&B logs at ``path``: the file itself, or those in the run folders at or a few
    levels below it (the first folder on a path holding one is a run folder)."""
    if path.is_file():
        return [path] if _is_log(path) else []
    found: list[Path] = []
    for folder, dirs, names in os.walk(path):
        here = [Path(folder) / n for n in sorted(names) if _is_log(Path(folder) / n)]
        found += here
        depth = len(Path(folder).relative_to(path).parts)
        if here or depth >= _MAX_DEPTH:
            dirs[:] = []
        dirs.sort()
    return found


# -- protobuf --------------------------------------------------------------------------------

def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)  # NaN, Infinity and -Infinity are literals it takes
    except ValueError:
        return None


def _item(buf: bytes, decode: bool = True) -> tuple[str, Any]:
    """A History/Summary/ConfigItem's name (a nested key joined with ``/``) and value (its
    JSON text undecoded unless ``decode``)."""
    key, nested, value = "", [], None
    for tag, wire, raw in fields(buf):
        if tag == _ITEM_KEY and wire == 2:
            key = _text(raw)
        elif tag == _ITEM_NESTED_KEY and wire == 2:
            nested.append(_text(raw))
        elif tag in (_ITEM_VALUE_JSON, _ITEM_JSON) and wire == 2:
            value = _json(raw) if decode else raw
        elif tag == _ITEM_DOUBLE and wire == 1:
            value = struct.unpack("<d", raw)[0]
        elif tag == _ITEM_INT and wire == 0:
            value = (raw >> 1) ^ -(raw & 1)  # sint64: zigzag
        elif tag == _ITEM_BOOL and wire == 0:
            value = bool(raw)
    return key or "/".join(nested), value


def _items(buf: bytes, number_wanted: int) -> Iterator[tuple[str, Any]]:
    for tag, wire, raw in fields(buf):
        if tag == number_wanted and wire == 2:
            yield _item(raw)


@dataclass
class _Log:
    """What a W&B log holds, as far as it could be read."""

    run_id: str | None = None
    display_name: str | None = None
    start_time: float | None = None
    rows: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    #: The summary's JSON texts, undecoded: W&B writes it again at every step.
    summary: dict[str, Any] = field(default_factory=dict)
    exit_code: int | None = None
    #: The latest stats record's time (Unix seconds): the writer was alive then.
    heartbeat: float | None = None
    damage: str | None = None
    bad_records: int = 0

    def add(self, record: bytes) -> None:
        head = _ONE_FIELD.match(record)
        if head is not None:  # a history row or a summary, read without walking the record's fields
            start = head.end()
            if start + varint(head.group(2), 0)[0] == len(record):
                if head.group(1) == b"\x12":
                    self._history(record[start:])
                elif _SUMMARY_NEEDLES.search(record, start) is not None:
                    _apply(self.summary, record[start:], decode=False)
                return
        for tag, wire, raw in fields(record):
            if wire != 2:
                continue
            if tag == _RECORD_HISTORY:
                self._history(raw)
            elif tag == _RECORD_SUMMARY:
                if _SUMMARY_NEEDLES.search(raw) is not None:
                    _apply(self.summary, raw, decode=False)
            elif tag == _RECORD_CONFIG:
                _apply(self.config, raw)
            elif tag == _RECORD_RUN:
                self._run(raw)
            elif tag == _RECORD_STATS:
                self.heartbeat = _stats_time(raw) or self.heartbeat
            elif tag == _RECORD_EXIT:
                self.exit_code = 0  # proto3 leaves a 0 out: the record alone says the run ended
                for f, w, v in fields(raw):
                    if f == _EXIT_CODE and w == 0:
                        self.exit_code = v if v < 1 << 63 else v - (1 << 64)

    def _history(self, buf: bytes) -> None:
        fast = _fast_history(buf)
        if fast is not None:
            step, row = fast
        else:
            step, row = _history_fields(buf)
        if step is None and isinstance(row.get("_step"), int):
            step = row["_step"]
        self.rows.append((step, _media(row)))

    def _run(self, buf: bytes) -> None:
        for tag, wire, raw in fields(buf):
            if tag == _RUN_ID and wire == 2:
                self.run_id = _text(raw)
            elif tag == _RUN_DISPLAY_NAME and wire == 2:
                self.display_name = _text(raw) or None
            elif tag == _RUN_CONFIG and wire == 2:
                _apply(self.config, raw)
            elif tag == _RUN_START_TIME and wire == 2:
                self.start_time = _seconds(raw)


def _seconds(timestamp: bytes) -> float:
    """A google.protobuf.Timestamp as Unix seconds."""
    parts = {f: v for f, w, v in fields(timestamp) if w == 0}
    return float(parts.get(1, 0) + parts.get(2, 0) / 1e9)


def _stats_time(stats: bytes) -> float | None:
    """When a StatsRecord was sampled (Unix seconds), or None."""
    raw = next((v for f, w, v in fields(stats) if f == _STATS_TIMESTAMP and w == 2), None)
    return None if raw is None else _seconds(raw)


def _history_fields(buf: bytes) -> tuple[int | None, dict[str, Any]]:
    """A HistoryRecord's step and items, field by field (any shape the format allows)."""
    row: dict[str, Any] = {}
    step = None
    for tag, wire, raw in fields(buf):
        if tag == _HISTORY_ITEM and wire == 2:
            key, value = _item(raw)
            row[key] = value
        elif tag == _HISTORY_STEP and wire == 2:
            step = next((v for f, w, v in fields(raw) if f == 1 and w == 0), 0)
    return step, row


#: Tags of the fast path: HistoryRecord.item, HistoryItem.key, .nested_key, .value_json (16: two bytes).
_TAG_ITEM, _TAG_KEY, _TAG_NESTED, _TAG_VALUE_JSON = 0x0A, 0x0A, 0x12, b"\x82\x01"


def _fast_history(buf: bytes) -> tuple[int | None, dict[str, Any]] | None:
    """``_history_fields`` for the shape wandb writes a history row in (items of a key or
    nested key and a JSON value, every length under 128, a step), with the values decoded
    by one ``json.loads`` for the row; None for anything else, which is then read field by
    field. Most of a W&B log is these rows, so this is most of its reading time: a row with
    the keys of one read lately is matched whole by that row's pattern (``_RowPattern``),
    others are walked byte by byte (and their pattern kept)."""
    for pattern in tuple(_PATTERNS):  # a copy: another thread may read another log meanwhile
        match = pattern.regex.fullmatch(buf)
        if match is not None:
            got = pattern.read(match)
            if got is not None:
                return got
    got, keys = _walk_history(buf)
    if got is not None and keys is not None:
        _PATTERNS.insert(0, _RowPattern(keys, list(got[1]) if len(got[1]) == len(keys) else None))
        del _PATTERNS[_KEPT_PATTERNS:]
    return got


#: Row patterns kept, the most recently learnt first (a run logs a few kinds of rows).
_KEPT_PATTERNS = 8


class _RowPattern:
    """The bytes of a history row with given keys, as a regular expression: each item is
    ``0a <length> <its key fields> 82 01 <value's length> <value>``, a value never holding a
    control byte (JSON escapes them), then the step (``12 <length> 08 <varint>``, or ``12 00``
    for step 0) or nothing. A match's
    lengths are checked against what it captured (``read``), so a row it reads is exactly
    the row the byte walk reads."""

    __slots__ = ("regex", "names", "extra")

    def __init__(self, keys: list[bytes], names: list[str] | None) -> None:
        self.regex = re.compile(b"".join(b"\x0a([\x00-\x7f])" + re.escape(key) + b"\x82\x01([\x00-\x7f])([^\x00-\x1f]*)"
                                         for key in keys) + _STEP_PATTERN, re.S)
        self.names = names if names is not None else [_key_name(key) for key in keys]
        self.extra = bytes(len(key) + 3 for key in keys)  # an item's length past its value's

    def read(self, match: re.Match[bytes]) -> tuple[int | None, dict[str, Any]] | None:
        groups = match.groups()
        values = groups[2:-2:3]
        lengths = b"".join(groups[1:-2:3])
        step_length, step_field = groups[-2:]
        try:
            if lengths != bytes(map(len, values)) or b"".join(groups[0:-2:3]) != bytes(map(add, self.extra, lengths)):
                return None
            if step_length is not None and step_length[0] != len(step_field):
                return None
            decoded = json.loads(b"[" + b",".join(values) + b"]")  # NaN and Infinity are literals it takes
        except ValueError:  # a length past a byte, a value that is no JSON
            return None
        step = None if step_length is None else varint(step_field, 1)[0] if step_field else 0
        return step, dict(zip(self.names, decoded, strict=True))


def _key_name(fields_: bytes) -> str:
    """A HistoryItem's name from its key fields' bytes (as ``_walk_history`` reads them)."""
    key, nested, p = None, [], 0
    while p < len(fields_):
        part = fields_[p + 2:p + 2 + fields_[p + 1]]
        if fields_[p] == _TAG_KEY:
            key = part
        else:
            nested.append(part)
        p += 2 + fields_[p + 1]
    return _text(key if key else b"/".join(nested))


def _walk_history(buf: bytes) -> tuple[tuple[int | None, dict[str, Any]] | None, list[bytes] | None]:
    """``_fast_history`` byte by byte; with it, each item's key fields' bytes where the row
    has the layout of a ``_RowPattern`` (else None)."""
    names: list[str] = []
    values: list[bytes] = []
    keys: list[bytes] | None = []
    step = None
    pos, end = 0, len(buf)
    try:
        while pos < end:
            tag, length = buf[pos], buf[pos + 1]
            if length >= 0x80:
                return None, None
            start, pos = pos + 2, pos + 2 + length
            if keys is not None and step is not None:
                keys = None  # a field after the step: no pattern
            if tag == _TAG_ITEM:
                key, nested, value, p, at = None, [], None, start, 0
                while p < pos:
                    if buf[p] in (_TAG_KEY, _TAG_NESTED) and buf[p + 1] < 0x80:
                        part = buf[p + 2:p + 2 + buf[p + 1]]
                        if buf[p] == _TAG_KEY:
                            key = part
                        else:
                            nested.append(part)
                        p += 2 + buf[p + 1]
                        if value is not None:
                            keys = None  # a key after the value: no pattern
                    elif buf[p:p + 2] == _TAG_VALUE_JSON and buf[p + 2] < 0x80 and value is None:
                        value, at = buf[p + 3:p + 3 + buf[p + 2]], p
                        p += 3 + buf[p + 2]
                    else:
                        return None, None
                if p != pos or value is None:
                    return None, None
                names.append(_text(key if key else b"/".join(nested)))
                values.append(value)
                if keys is not None:
                    keys.append(buf[start:at])
            elif tag == 0x12 and length == 2 and buf[start] == 0x08 and buf[start + 1] < 0x80:
                step = buf[start + 1]  # HistoryStep{num}, a one-byte varint
            elif tag == 0x12:
                step = next((v for f, w, v in fields(buf[start:pos]) if f == 1 and w == 0), 0)
                if _STEP_FIELD.fullmatch(buf[start:pos]) is None:
                    keys = None
            else:
                return None, None
        if pos != end:
            return None, None
        decoded = json.loads(b"[" + b",".join(values) + b"]")  # NaN and Infinity are literals it takes
    except (IndexError, ValueError):
        return None, None
    row = dict(zip(names, decoded, strict=False))
    return (step, row), (keys if keys is not None and len(row) == len(names) else None)


_PATTERNS: list[_RowPattern] = []
#: A HistoryStep as wandb writes it (``num`` alone; nothing for step 0), and the step field
#: holding it: its length and content are captured, and checked against each other.
_STEP_FIELD = re.compile(rb"(?:\x08[\x80-\xff]{0,9}[\x00-\x7f])?", re.S)
_STEP_PATTERN = rb"(?:\x12([\x00-\x7f])((?:\x08[\x80-\xff]{0,9}[\x00-\x7f])?))?"


#: Rows' keys (none a media value's ``key/_type``) → the keys ``_media`` keeps of them; at
#: most this many kinds of rows are remembered.
_PLAIN_ROWS: dict[tuple[str, ...], tuple[str, ...]] = {}
_KEPT_ROW_KEYS = 64


def _media(row: dict[str, Any]) -> dict[str, Any]:
    """A history row without W&B's ``_``-keys but ``_timestamp`` (the row's time), each media
    value (W&B writes ``key/_type``, ``key/path``, ``key/nrows``, … as items of their own)
    folded back into one dict at ``key``, so its sizes and counts are not taken for metrics."""
    keys = tuple(row)
    kept = _PLAIN_ROWS.get(keys)
    if kept is not None:  # keys seen before, none of them a media value's
        return dict(zip(kept, map(row.__getitem__, kept), strict=True))
    prefixes = [k[:-len("/_type")] for k, v in row.items() if k.endswith("/_type") and isinstance(v, str)]
    if not prefixes:
        if not any(k.endswith("/_type") for k in keys) and len(_PLAIN_ROWS) < _KEPT_ROW_KEYS:
            _PLAIN_ROWS[keys] = tuple(key for key in keys if not key.startswith("_") or key == TIME_KEY)
        return {key: value for key, value in row.items() if not key.startswith("_") or key == TIME_KEY}
    out: dict[str, Any] = {}
    for key, value in row.items():
        head = next((p for p in prefixes if key.startswith(p + "/")), None)
        if head is not None:
            out.setdefault(head, {})[key[len(head) + 1:]] = value
        elif not key.startswith("_") or key == TIME_KEY:
            out[key] = value
    return out


def _apply(target: dict[str, Any], buf: bytes, decode: bool = True) -> None:
    """A Summary/ConfigRecord's updates and removals, applied to ``target``."""
    for tag, wire, raw in fields(buf):
        if wire == 2 and tag in (_UPDATE, _REMOVE):
            key, value = _item(raw, decode)
            if tag == _UPDATE:
                target[key] = value
            else:
                target.pop(key, None)


def _read_log(path: Path, head_only: bool = False) -> _Log:
    try:
        data = read_file(path, _HEAD_BYTES if head_only else -1)
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from None
    found, damage = records(data)
    log = _Log(damage=None if head_only else damage)
    report = progress.current()
    if not head_only:
        report.task(f"decoding {path.name}", len(found), "records")
    for count, record in enumerate(found, 1):
        try:
            log.add(record)
        except (ValueError, IndexError, struct.error):
            log.bad_records += 1
        if head_only and log.run_id is not None:
            break
        if not count % _REPORT_EVERY:
            report.advance(_REPORT_EVERY)
    report.advance(len(found) % _REPORT_EVERY)
    return log


# -- runs ------------------------------------------------------------------------------------

def _named(path: Path) -> dict[str, tuple[Path, set[str]]]:
    """Each run's address → (its log, the other names it answers to), oldest first: the
    run's name, or its id where it has none or the name repeats, or its folder where the id
    repeats too (a resumed run writes a new folder under the same id)."""
    heads = [(file, _read_log(file, head_only=True)) for file in _log_files(path)]
    heads.sort(key=lambda item: (item[1].start_time or 0.0, str(item[0])))  # oldest first
    ids = [h.run_id or file.stem for file, h in heads]
    names = [h.display_name for _, h in heads]
    out: dict[str, tuple[Path, set[str]]] = {}
    for (file, _head), run_id, name in zip(heads, ids, names, strict=False):
        if name and names.count(name) == 1:
            chosen = name
        elif ids.count(run_id) == 1:
            chosen = run_id
        else:
            chosen = file.parent.name
        out[chosen] = (file, {run_id} if ids.count(run_id) == 1 else set())
    return out


def sniff(path: Path) -> bool:
    if path.is_file():
        return _is_log(path)
    return path.is_dir() and bool(_log_files(path))


def files(path: Path) -> list[Path]:
    logs = _log_files(path)
    return logs + [table for log in logs for table in sorted((log.parent / _TABLES).glob("*.table.json"))]


def runs(path: Path) -> list[str]:
    names = list(_named(path)) if path.is_dir() else []
    return names if len(names) > 1 else []


def _listed(named: dict[str, tuple[Path, set[str]]], name: str) -> str:
    for listed, (_, aliases) in named.items():
        if name == listed or name in aliases:
            return listed
    return name


def address(path: Path, name: str) -> str:
    """The name ``runs`` lists for the run ``name`` addresses (its name or its id)."""
    return _listed(_named(path), name) if path.is_dir() else name


def _log_file(path: Path, name: str | None) -> tuple[Path, str | None]:
    """The log of the run ``name`` addresses at ``path`` (the first where None), and the name
    to give the run where ``path`` holds several."""
    if not path.is_dir():
        return path, None
    named = _named(path)
    if not named:
        raise SourceError(f"{path}: no W&B run log (run-<id>.wandb) found")
    label = _listed(named, name) if name is not None else next(iter(named))
    file = named[label][0] if label in named else next(iter(named.values()))[0]
    return file, label if len(named) > 1 else None


def _status(file: Path, exit_code: int | None, last_seen: float | None) -> tuple[str, float | None]:
    """The run's status and, for one still marked running, its last sign of life. W&B writes
    an exit record when the run ends; without one it is running, or its writer was killed
    (wandb-core writes the log a 32 KiB block at a time, so a kill leaves a prefix and no
    exit record). Which of the two, the last sign of life says, as a recording's heartbeat
    does: the later of the file's last write and ``last_seen``, the last record's own time (a
    history row's ``_timestamp``, a stats record's)."""
    if exit_code is not None:
        return (RunStatus.FINISHED if exit_code == 0 else RunStatus.CRASHED), None
    try:
        seen = [file.stat().st_mtime]
    except OSError:
        seen = []
    seen += [last_seen] if last_seen is not None else []
    return RunStatus.RUNNING, max(seen, default=None)


def status(path: Path, name: str | None = None) -> tuple[str, float | None]:
    """``_status`` of the run at ``path`` (for ``rlprobe ls``) without decoding its history:
    from the exit record, the last stats record and the last history row's ``_timestamp``."""
    file, _ = _log_file(path, name)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise SourceError(f"{file}: cannot read ({exc.strerror})") from None
    exit_code = last_history = heartbeat = None
    for record in records(data)[0]:
        try:
            for field_number, wire, raw in fields(record):
                if field_number == _RECORD_HISTORY and wire == 2:
                    last_history = raw
                elif field_number == _RECORD_STATS and wire == 2:
                    heartbeat = _stats_time(raw) or heartbeat
                elif field_number == _RECORD_EXIT and wire == 2:
                    exit_code = next((v for f, w, v in fields(raw) if f == _EXIT_CODE and w == 0), 0)
        except (ValueError, IndexError):
            continue  # a record whose content is not one: read() reports it
    stamp = number(_history_fields(last_history)[1].get(TIME_KEY)) if last_history is not None else None
    seen = [t for t in (stamp, heartbeat) if t is not None]
    return _status(file, exit_code, max(seen, default=None))


def read(path: Path, name: str | None = None) -> ImportedRun:
    file, label = _log_file(path, name)
    log = _read_log(file)
    run = ImportedRun(source=str(path), format=NAME, name=label or log.display_name or log.run_id)
    tables: list[tuple[dict[str, Any], int]] = []
    add_tracker_rows(run, log.rows, "W&B", lambda table, step: tables.append((table, step)))
    if not run.has_steps():
        raise SourceError(f"{file}: the W&B run logged no metrics"
                          + (f" before the damage ({log.damage})" if log.damage else ""))
    decoded = {k: _json(log.summary[k]) for k in SUMMARY_KEYS if isinstance(log.summary.get(k), bytes)}
    summary = {k: v for k, v in decoded.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if summary and not any(kind == EventKind.TRAIN_SUMMARY for kind, *_ in run.events):
        top = run.latest("step")
        last = int(top) if top is not None else None
        run.events.append((EventKind.TRAIN_SUMMARY, last, "end-of-training summary", summary))
    run.model_name = log.config.get("_name_or_path") or log.config.get("model_name_or_path") or None
    run.trainer_config.update({k: v for k, v in log.config.items() if not k.startswith("_")})
    run.created_at = log.start_time
    seen = [t for t in (run.latest("time"), log.heartbeat) if t is not None]
    run.status, run.updated_at = _status(file, log.exit_code, max(seen, default=None))
    if log.damage:
        note_damage(run, file, log.damage, f"{len(log.rows)} history rows")
    if log.bad_records:
        run.problems.add(f"W&B: {log.bad_records} records whose CRC is right but whose content "
                         "is not a record; skipped", None)
    _add_tables(run, file.parent, tables, _eval_tables(log.rows))
    if not tables:
        run.note("the W&B run logged no completions tables (GRPOConfig(log_completions=True)): no samples")
    run.algorithm = guess_algorithm(run.metric_names())
    return run


# -- completions tables ----------------------------------------------------------------------

def _eval_tables(rows: list[tuple[int | None, dict[str, Any]]]) -> set[int]:
    """The ``completions`` tables (by ``id``) an evaluation logged: TRL logs the table in
    the history row right after the metrics row it belongs to, which for an eval holds
    ``eval/`` keys."""
    out = set()
    for (_, before), (_, row) in zip(rows, rows[1:], strict=False):
        table = row.get(_COMPLETIONS)
        if isinstance(table, dict) and any(key.startswith("eval/") for key in before):
            out.add(id(table))
    return out


def _table_rows(data: bytes) -> list[dict[str, Any]]:
    """A ``.table.json`` file's rows as dicts by column; ``ValueError`` when it is not one."""
    table = json.loads(data)  # NaN literals, as W&B writes them
    columns, cells = (table.get("columns"), table.get("data")) if isinstance(table, dict) else (None, None)
    if not isinstance(columns, list) or not isinstance(cells, list):
        raise ValueError("not a W&B table (columns and data)")
    return [dict(zip(columns, row, strict=True)) for row in cells
            if isinstance(row, list) and len(row) == len(columns)]


def _add_tables(run: ImportedRun, run_dir: Path, tables: list[tuple[dict[str, Any], int]],
                eval_ids: set[int], seen: set[bytes] | None = None) -> None:
    """TRL's completions tables as samples, each at its ``step`` column (else the step of
    the history row that logged it). A table repeated (TRL logs the last one again with the
    end-of-training summary) is read once (``seen``: the digests of the tables read, kept
    across calls by a reader of a log still being written); an eval's is left out, as are
    tables whose file is missing or unreadable (with a note)."""
    weights = run.trainer_config.get("reward_weights")
    files_dir = (run_dir / _FILES).resolve()
    seen = set() if seen is None else seen
    lost: list[str] = []
    evals: list[int] = []
    for table, step in tables:
        name = table.get("path")
        if table.get("_type") != "table-file" or not isinstance(name, str):
            continue
        file = (files_dir / name).resolve()
        try:
            if not file.is_relative_to(files_dir):
                raise ValueError("outside the run folder")
            data = file.read_bytes()
            rows = _table_rows(data)
        except (OSError, ValueError):
            lost.append(name)
            continue
        digest = hashlib.sha256(data).digest()
        if digest in seen:
            continue
        seen.add(digest)
        first = number(rows[0].get("step")) if rows else None
        step = int(first) if first is not None and math.isfinite(first) else step
        if id(table) in eval_ids:
            evals.append(step)
        else:
            add_completion_rows(run, rows, step, weights)
    if lost:
        run.note(f"{len(lost)} completions table file{'s' if len(lost) > 1 else ''} missing or unreadable, "
                 f"their samples left out: {', '.join(lost[:5])}{' …' if len(lost) > 5 else ''}", files=lost[:100])
    if evals:
        run.note(f"eval completions tables at steps {', '.join(map(str, evals[:10]))}"
                 f"{' …' if len(evals) > 10 else ''} left out (samples are the train completions)")


# -- a log still being written ---------------------------------------------------------------

class _Tail(SourceTail):
    """A W&B run log as wandb writes it: by byte offset, in whole records (wandb-core writes
    its 32 KiB blocks as they fill, so rows arrive a block at a time; a record cut short
    waits). Damage other than a cut-short end stops the reading, with a note. The run ends
    with its exit record: finished, or crashed for a non-zero exit code."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, name)
        self._file: Path | None = None
        self._offset = 0
        self._log = _Log()
        self._rows = TrackerRowsTail("W&B")
        self._last_row: tuple[int | None, dict[str, Any]] | None = None
        self._tables: set[bytes] = set()
        self._config: dict[str, Any] = {}
        self._damage: str | None = None
        self._summary_said = False

    def read_into(self, run: ImportedRun) -> None:
        if self._file is None:
            try:
                self._file, label = _log_file(self.path, self.name)
            except SourceError:
                return  # no log in the folder yet
            self.name = label
        run.name = self.name or self._log.display_name or self._log.run_id
        if self._damage is None:
            try:
                with open(self._file, "rb") as fh:
                    fh.seek(self._offset)
                    data = fh.read()
                self.last_write = max(self.last_write or 0.0, os.stat(self._file).st_mtime)
            except OSError as exc:
                raise SourceError(f"{self._file}: cannot read ({exc.strerror})") from None
            found, self._offset, damage = _framed(data, self._offset)
            if damage and not damage.startswith(CUT_SHORT):
                self._damage = damage
                note_damage(run, self._file, damage)
            for record in found:
                try:
                    self._log.add(record)
                except (ValueError, IndexError, struct.error):
                    run.problems.add("W&B: a record whose CRC is right but whose content is not a record; skipped",
                                     None)
        log = self._log
        rows, log.rows = log.rows, []
        tables: list[tuple[dict[str, Any], int]] = []
        self._rows.add(run, rows, lambda table, step: tables.append((table, step)))
        if tables:
            seen = ([self._last_row] if self._last_row else []) + rows
            _add_tables(run, self._file.parent, tables, _eval_tables(seen), self._tables)
        self._last_row = rows[-1] if rows else self._last_row
        times = [row["time"] for row in run.steps if row.get("time") is not None]
        self.last_write = max([self.last_write or 0.0, *times, log.heartbeat or 0.0])
        if log.config != self._config:
            self._config = dict(log.config)
            run.model_name = log.config.get("_name_or_path") or log.config.get("model_name_or_path") or None
            run.trainer_config.update({k: v for k, v in log.config.items() if not k.startswith("_")})
        run.created_at = log.start_time
        if log.exit_code is not None:
            decoded = {k: _json(log.summary[k]) for k in SUMMARY_KEYS if isinstance(log.summary.get(k), bytes)}
            summary = {k: v for k, v in decoded.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            if summary and not self._rows.ended and not self._summary_said:
                run.events.append((EventKind.TRAIN_SUMMARY, self._rows.last_step, "end-of-training summary", summary))
            self._summary_said = True
            self.status = RunStatus.FINISHED if log.exit_code == 0 else RunStatus.CRASHED
        run.algorithm = guess_algorithm(run.metric_names())


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
