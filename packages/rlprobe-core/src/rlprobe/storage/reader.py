"""RunReader: typed access to a run directory, whatever state it was left in.

Reads any mix of compacted files and part files (a run killed with SIGKILL is readable
up to its last flush), tolerates a torn last line in ``events.jsonl``, and merges the
per-rank sub-directories of a run recorded by every rank, adding a ``rank`` column.
Safe to use while the run is being written and compacted.
"""
from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import struct
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from ..records import canonical_metric
from .errors import RecordingError
from .layout import (
    EVENTS,
    KINDS,
    MANIFEST,
    PART_COLUMN,
    PARTS_DIR,
    compacted_path,
    is_url,
    list_parts,
    rank_dirs,
)
from .manifest import load_manifest, valid_text
from .schema import FLOAT, SAMPLE_TYPES, STEP_LEAD, order_steps, samples_table, unify
from .watermark import read_watermark

__all__ = ["RunFile", "RunReader", "list_runs", "parse_events"]

_RETRIES = 5
T = TypeVar("T")


class RunFile(NamedTuple):
    """One Parquet file holding rows of a run, and which of its rows to take: those whose
    hidden ``_part`` column is in ``(after, upto]``."""

    rank: int
    path: Path
    after: int
    upto: int


def _source_files(rank: int, source: Path, kind: str, after: int) -> tuple[list[RunFile], int]:
    """The files holding the rows of ``kind`` in ``source`` first written in a part above
    ``after``, and the highest part number seen.

    Parts are listed before the compacted file's watermark is read: a compaction in
    between only moves parts into the file (their rows are then taken from it, and the
    parts at or below its watermark are skipped), so no row is missed or taken twice."""
    parts = list_parts(source, kind)
    watermark = _watermark(source, kind)
    files = [RunFile(rank, compacted_path(source, kind), after, watermark)] if watermark > after else []
    last = max(watermark, after)
    files += [RunFile(rank, path, seq - 1, seq) for seq, path in parts if seq > last]
    return files, max([last] + [seq for seq, _ in parts])


def _watermark(source: Path, kind: str) -> int:
    """The watermark of the compacted file of ``kind`` (0 when there is none). Raises
    ``RecordingError`` for a file that is not Parquet or whose watermark is missing or not
    a part number: rlprobe writes one ≥ 1 into every compacted file, and without it the
    file's rows would be silently left out."""
    path = compacted_path(source, kind)
    looked_again = False
    try:
        watermark = read_watermark(path)
        if watermark == 0 and path.exists():
            # Compaction may have made the file since the first look. Judge the second look
            # alone: asking exists() once more could race the first compaction (absent when
            # the first look was taken, there by the time it is judged).
            looked_again = True
            watermark = read_watermark(path)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(source, path, exc) from None
    except ValueError:
        raise RecordingError(source, path, "its watermark (the last part it holds) is not a part number") from None
    # (0 is also the answer for no file; a compacted file, once made, never goes away)
    if watermark < 0 or (looked_again and watermark == 0 and path.exists()):
        raise RecordingError(source, path, "holds no valid rlprobe watermark (the last part it holds); "
                                           "it was not written by rlprobe's compaction")
    return watermark


def _damaged(source: Path, path: Path, problem: str) -> RecordingError:
    """The error for a damaged data file. A part file is written atomically, so a damaged
    one was damaged from outside; the rest of the run reads once it is moved away (and
    RECORDING_GAPS then reports the steps it held), a choice left to the user."""
    hint = f"; move it out of {PARTS_DIR}/ to read the rest of the run" if path.parent.name == PARTS_DIR else ""
    return RecordingError(source, path, problem + hint)


def _unreadable(source: Path, path: Path, exc: BaseException) -> RecordingError:
    """The error for a file pyarrow or the disk cannot read."""
    return _damaged(source, path, f"unreadable: {str(exc) or type(exc).__name__}")


def _type_fits(actual: pa.DataType, expected: pa.DataType) -> bool:
    """A column of type ``actual`` can stand for one of ``expected`` without changing a
    value's meaning: null, the same type, integers for floats, either string width."""
    if pa.types.is_null(actual) or actual == expected:
        return True
    if pa.types.is_floating(expected):
        return bool(pa.types.is_floating(actual) or pa.types.is_integer(actual))
    if pa.types.is_integer(expected):
        return bool(pa.types.is_integer(actual))
    if pa.types.is_string(expected) or pa.types.is_large_string(expected):
        if pa.types.is_dictionary(actual):
            actual = actual.value_type
        return bool(pa.types.is_string(actual) or pa.types.is_large_string(actual))
    if pa.types.is_map(expected):
        return bool(pa.types.is_map(actual))
    return False


def _expected_type(kind: str, column: str) -> pa.DataType | None:
    """The type rlprobe writes ``column`` of a ``kind`` file with (None: any)."""
    if column == PART_COLUMN or column == "rank":
        return pa.int64()
    if kind == "steps":
        return STEP_LEAD.get(column, FLOAT)  # every other steps column is a float64 metric
    return SAMPLE_TYPES.get(column)


def _check_schema(source: Path, kind: str, path: Path) -> None:
    """Raise ``RecordingError`` unless the file at ``path`` is a ``kind`` file as rlprobe
    writes it: Parquet, with a ``step`` and a ``_part`` column, every column of the type it
    is written with. Reads the footer alone, before any row is used, so corrupt data is
    refused, never sorted or diagnosed. ``FileNotFoundError`` for a part compacted away."""
    try:
        schema = pq.read_schema(path)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(source, path, exc) from None
    for required in ("step", PART_COLUMN):
        if required not in schema.names:
            raise _damaged(source, path, f"not a {kind} file of an rlprobe recording: no {required!r} column")
    for field in schema:
        expected = _expected_type(kind, field.name)
        if expected is not None and not _type_fits(field.type, expected):
            raise _damaged(source, path, f"column {field.name!r} holds {field.type}, not {expected}: "
                                         f"not a {kind} file of an rlprobe recording")


def _checked_rows(source: Path, kind: str, file: RunFile) -> pa.Table:
    """``_read_rows(file)`` once the file passed ``_check_schema``; ``RecordingError`` for
    one damaged past its footer, ``FileNotFoundError`` for one compacted away meanwhile."""
    _check_schema(source, kind, file.path)
    try:
        table = _read_rows(file)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(source, file.path, exc) from None
    if table.column("step").null_count:
        raise _damaged(source, file.path, "rows without a step: not a file of an rlprobe recording")
    return table


def _checked_files(rank: int, source: Path, kind: str, after: int) -> list[RunFile]:
    """``_source_files`` with each file passed through ``_check_schema``."""
    files = _source_files(rank, source, kind, after)[0]
    for file in files:
        _check_schema(source, kind, file.path)
    return files


def _retried(read: Callable[[], T]) -> T:
    """``read()``, again after a short wait when compaction removed a part mid-read."""
    for attempt in range(_RETRIES):
        try:
            return read()
        except FileNotFoundError:
            if attempt == _RETRIES - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")


def _read_rows(file: RunFile) -> pa.Table:
    """The rows of ``file`` in its ``(after, upto]`` range. A compacted file renamed over
    in the meantime holds those rows and newer ones; the range keeps just the former.
    Row groups wholly outside the range are skipped by their statistics."""
    with pq.ParquetFile(file.path) as pf:
        spans = [_part_span(pf, i) for i in range(pf.num_row_groups)]
        wanted = [i for i, (lo, hi) in enumerate(spans) if hi > file.after and lo <= file.upto]
        table = pf.read_row_groups(wanted) if wanted else pf.schema_arrow.empty_table()
    if all(spans[i][0] > file.after and spans[i][1] <= file.upto for i in wanted):
        return table
    import pyarrow.compute as pc  # imported where a read needs it: ~40 ms that most reads do without

    part = table.column(PART_COLUMN)
    return table.filter(pc.and_(pc.greater(part, file.after), pc.less_equal(part, file.upto)))


def _part_span(pf: pq.ParquetFile, row_group: int) -> tuple[float, float]:
    """The lowest and highest part number in a row group, from its statistics
    (-inf, +inf when unknown)."""
    group = pf.metadata.row_group(row_group)
    for i in range(group.num_columns):
        column = group.column(i)
        if column.path_in_schema == PART_COLUMN:
            stats = column.statistics
            if stats is not None and stats.has_min_max:
                return stats.min, stats.max
    return float("-inf"), float("inf")


def _read_kind(rank: int, source: Path, kind: str, after: int) -> tuple[pa.Table | None, int]:
    """Rows of ``kind`` first written in a part above ``after``, and the highest part
    number seen. Retries when compaction removes a part mid-read; raises ``RecordingError``
    for a file that is damaged or not one rlprobe writes."""
    def read() -> tuple[pa.Table | None, int]:
        files, top = _source_files(rank, source, kind, after)
        tables = [_checked_rows(source, kind, file) for file in files]
        return (unify(tables) if tables else None), top

    return _retried(read)


def _fold_aliases(table: pa.Table) -> pa.Table:
    """Steps recorded before a trainer spelling became an alias of a known field (a PPO
    run's ``objective/scores`` before it meant ``reward_mean``): the spelling's values fill
    the field where that is null, and the spelling's own column goes."""
    for name in [n for n in table.column_names if canonical_metric(n) != n]:
        import pyarrow.compute as pc  # as in _read_rows

        field = canonical_metric(name)
        values = table.column(name)
        if field in table.column_names:
            index = table.schema.get_field_index(field)
            table = table.set_column(index, field, pc.coalesce(table.column(field), values))
        else:
            table = table.append_column(field, values)
        table = table.drop_columns([name])
    return table


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(map(repr, KINDS))}, got {kind!r}")


#: The fields of an event line and their types, as ``RunWriter.append_events`` writes them.
_EVENT_TYPES: dict[str, tuple[type, ...]] = {
    "kind": (str,), "step": (int, type(None)), "time": (int, float), "message": (str,), "data": (dict,),
}


def parse_events(data: bytes) -> list[dict[str, Any]]:
    """The events in ``data`` (whole lines of ``events.jsonl``), in file order, their text
    valid Unicode (``valid_text``). A line that is not an event as rlprobe writes it is
    skipped: one torn by a kill or a full disk (maybe inside a UTF-8 character), one that
    is not JSON, and JSON lacking a field or holding one of the wrong type (``time`` must
    be a finite number, ``step`` a whole number or null)."""
    events = []
    for line in data.splitlines():
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if _is_event(event):
            events.append(valid_text(event))
    return events


def _is_event(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    for key, types in _EVENT_TYPES.items():
        field = value.get(key, ...)
        if not isinstance(field, types) or isinstance(field, bool):
            return False
    return math.isfinite(value["time"])


def _read_events(run_dir: Path) -> list[dict[str, Any]]:
    try:
        return parse_events((run_dir / EVENTS).read_bytes())
    except FileNotFoundError:
        return []


class RunReader:
    """Read one recorded run. Raises ``FileNotFoundError`` for a directory with no
    recording and ``RecordingError`` (a ``ValueError``) for an unreadable manifest or
    unknown format version.

    The manifest and the list of recorded ranks are read once, at construction; every
    other read looks at the directory afresh. Holds no other state, so threads may share
    one. Every file is checked before its rows are used: reads raise ``RecordingError``
    naming the file for one that is not Parquet (truncated, overwritten), lacks or garbles
    a compacted file's watermark, or holds a column of a type rlprobe does not write it
    with — never a table of corrupt data. Event lines that are not events are skipped
    (``parse_events``). ``OSError`` when the disk fails.

    ``run_dir`` may be a URL (``s3://bucket/runs/my-run``, ``gs://…``, ``abfs://…``): the run
    is then read through a local copy (``run_dir``; ``url`` holds the URL) that each read
    first brings up to date, fetching only what changed (``storage.location``); ``OSError``
    when the store fails, ``ValueError`` for a URL that cannot be opened.
    """

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        #: The URL of a run in object storage (read through a local copy brought up to
        #: date before each read, see ``storage.location``); None for a local run.
        self.url = os.fspath(run_dir) if is_url(run_dir) else None
        self.run_dir = self._copy() if self.url is not None else Path(run_dir)
        with self._remote_names():
            self.manifest = load_manifest(self.run_dir)
        per_rank = rank_dirs(self.run_dir)
        #: (rank, directory) of each recorded rank, by rank.
        self.sources: list[tuple[int, Path]]
        if per_rank and not (self.run_dir / MANIFEST).exists():
            self.sources = per_rank
        else:
            self.sources = [(int(self.manifest.get("rank") or 0), self.run_dir)]

    def _copy(self) -> Path:
        from .location import local_copy  # pyarrow.fs only where a URL needs it

        assert self.url is not None
        return local_copy(self.url)

    @contextlib.contextmanager
    def _remote_names(self) -> Iterator[None]:
        """For a run at a URL, a ``RecordingError`` names the damaged file by its URL, not by
        its path in the local copy (which means nothing to whoever reads the message)."""
        try:
            yield
        except RecordingError as exc:
            if self.url is None:
                raise
            try:
                rel = exc.path.relative_to(self.run_dir).as_posix()
            except ValueError:
                raise exc from None
            raise RecordingError(self.url, f"{self.url.rstrip('/')}/{rel}", exc.problem) from None

    @property
    def merged(self) -> bool:
        """True for a run recorded by every rank (one sub-directory per rank)."""
        return len(self.sources) > 1 or self.sources[0][1] != self.run_dir

    def steps(self) -> pa.Table:
        """All steps, in the order logged (per rank), with a ``rank`` column. A trainer
        spelling recorded before it became an alias of a known field is read as that field."""
        return self._table("steps")

    def samples(self) -> pa.Table:
        """All captured samples, in the order logged (per rank)."""
        return self._table("samples")

    def events(self) -> list[dict[str, Any]]:
        """Events as dicts (``kind``, ``step``, ``time``, ``message``, ``data``; ``rank`` when merged),
        ordered by time."""
        if self.url is not None:
            self._copy()
        out = []
        for rank, path in self.sources:
            for event in _read_events(path):
                if self.merged:
                    event["rank"] = rank
                out.append(event)
        out.sort(key=lambda e: (e.get("time") or 0.0))
        return out

    def files(self, kind: str, after: Mapping[int, int] | None = None) -> list[RunFile]:
        """The Parquet files holding the rows of ``kind`` (``"steps"`` or ``"samples"``), for
        readers of their own (Polars, DuckDB, pyarrow datasets): per rank, in order, the
        compacted file and the part files written after it. Taking each file's rows whose
        ``_part`` is in ``(after, upto]`` gives every row exactly once — also after the run
        compacts again, since a compacted file is only ever replaced by one holding the same
        rows and newer ones. A part file compacted away in the meantime raises
        ``FileNotFoundError`` when opened: call ``files`` again. With ``after`` (per-rank
        part numbers, as ``read_new`` returns them) only rows written since are covered.
        Costs a directory listing per rank and a footer read per file: each file's columns
        are checked as ``read_new`` checks them (``RecordingError``). Raises ``ValueError``
        for another ``kind``."""
        _check_kind(kind)
        if self.url is not None:
            self._copy()
        after = after or {}
        files: list[RunFile] = []
        with self._remote_names():
            for rank, path in self.sources:
                files += _retried(functools.partial(_checked_files, rank, path, kind, after.get(rank, 0)))
        return files

    def read_new(self, kind: str, after: Mapping[int, int] | None = None) -> tuple[pa.Table | None, dict[int, int]]:
        """Rows of ``kind`` written since ``after`` (per-rank part numbers returned by a
        previous call), for incremental tailing, with the hidden ``_part`` column. Rows are
        never missed or repeated across calls, even when the run compacts in between. When
        nothing is new the cost does not grow with the run: a compacted file already seen
        is not opened again. Raises ``ValueError`` for a ``kind`` other than ``"steps"`` or
        ``"samples"``."""
        _check_kind(kind)
        if self.url is not None:
            self._copy()
        cursor = dict(after or {})
        tables = []
        with self._remote_names():
            for rank, path in self.sources:
                table, cursor[rank] = _read_kind(rank, path, kind, cursor.get(rank, 0))
                if table is not None and table.num_rows:
                    tables.append(self._with_rank(table, rank, kind))
        if not tables:
            return None, cursor
        table = unify(tables)
        return (_fold_aliases(table) if kind == "steps" else table), cursor

    def _table(self, kind: str) -> pa.Table:
        table, _ = self.read_new(kind)
        if table is None:
            table = self._with_rank(order_steps(pa.table({})) if kind == "steps" else samples_table([]), 0, kind)
        return table.drop_columns([PART_COLUMN]) if PART_COLUMN in table.column_names else table

    def _with_rank(self, table: pa.Table, rank: int, kind: str) -> pa.Table:
        if kind == "steps" and "rank" not in table.column_names:
            table = table.add_column(1, "rank", _constant_int64(rank, table.num_rows))
        return table


def _constant_int64(value: int, n: int) -> pa.Array:
    """``n`` copies of ``value``, built from its bytes: converting a Python int or list imports
    pandas inside pyarrow (0.3 s, a third of a ``rlprobe doctor`` process at 100k steps)."""
    one = pa.Array.from_buffers(pa.int64(), 1, [None, pa.py_buffer(struct.pack("<q", value))])
    return pa.repeat(one[0], n)


def list_runs(root: str | os.PathLike[str], max_depth: int = 4, *,
              include_unreadable: bool = False) -> list[dict[str, Any]]:
    """Manifests of every recording under ``root`` (``root`` itself included), each with
    a ``path`` key, sorted by creation time. A recording whose manifest cannot be read is
    left out, or with ``include_unreadable`` listed after the others as ``{"path": ...,
    "error": "<one line naming the file and what is wrong>"}``. Never raises for what it
    finds under ``root``.

    ``root`` may be a URL (``s3://bucket/runs``): one recursive listing, the manifests
    fetched in parallel; ``path`` is then each run's URL. Raises ``ValueError`` for a URL
    that cannot be opened, ``FileNotFoundError`` when its bucket does not exist (an existing
    one holding no run lists nothing) and ``OSError`` when the store fails."""
    if is_url(root):
        from .location import list_remote_runs

        return list_remote_runs(os.fspath(root), max_depth, include_unreadable)
    root = Path(root)
    found: list[dict[str, Any]] = []
    unreadable: list[dict[str, Any]] = []

    def visit(path: Path, depth: int) -> None:
        ranks: set[str] = set()
        try:
            manifest = load_manifest(path)
        except FileNotFoundError:
            manifest = None
        except (ValueError, OSError) as exc:  # a recording, but not one that can be read
            unreadable.append({"path": str(path), "error": str(exc)})
            manifest = None
            ranks = {p.name for _, p in rank_dirs(path)}  # its own, not runs; a stray manifest must not hide others
        if manifest is not None:
            manifest["path"] = str(path)
            found.append(manifest)
            return
        if depth >= max_depth:
            return
        try:
            children = sorted(p for p in path.iterdir()
                              if p.is_dir() and not p.name.startswith(".") and p.name not in ranks)
        except OSError:
            return
        for child in children:
            visit(child, depth + 1)

    visit(root, 0)
    found.sort(key=lambda m: (m.get("created_at") or 0.0))
    return found + (sorted(unreadable, key=lambda m: m["path"]) if include_unreadable else [])


