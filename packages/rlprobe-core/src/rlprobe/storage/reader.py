"""RunReader: typed access to a run directory, whatever state it was left in.

Reads any mix of compacted files and part files (a run killed with SIGKILL is readable
up to its last flush), tolerates a torn last line in ``events.jsonl``, and merges the
per-rank sub-directories of a run recorded by every rank, adding a ``rank`` column.
Safe to use while the run is being written and compacted.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Mapping, NamedTuple

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..records import canonical_metric
from .layout import (
    EVENTS,
    KINDS,
    MANIFEST,
    PART_COLUMN,
    compacted_path,
    list_parts,
    rank_dirs,
)
from .manifest import load_manifest
from .schema import order_steps, samples_table, unify
from .watermark import read_watermark

__all__ = ["RunFile", "RunReader", "list_runs"]

_RETRIES = 5


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
    watermark = read_watermark(compacted_path(source, kind))
    files = [RunFile(rank, compacted_path(source, kind), after, watermark)] if watermark > after else []
    last = max(watermark, after)
    files += [RunFile(rank, path, seq - 1, seq) for seq, path in parts if seq > last]
    return files, max([last] + [seq for seq, _ in parts])


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
    number seen. Retries when compaction removes a part mid-read."""
    for attempt in range(_RETRIES):
        try:
            files, top = _source_files(rank, source, kind, after)
            tables = [_read_rows(file) for file in files]
            return (unify(tables) if tables else None), top
        except FileNotFoundError:
            if attempt == _RETRIES - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")


def _fold_aliases(table: pa.Table) -> pa.Table:
    """Steps recorded before a trainer spelling became an alias of a known field (a PPO
    run's ``objective/scores`` before it meant ``reward_mean``): the spelling's values fill
    the field where that is null, and the spelling's own column goes."""
    for name in [n for n in table.column_names if canonical_metric(n) != n]:
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


def _read_events(run_dir: Path) -> list[dict[str, Any]]:
    try:
        lines = (run_dir / EVENTS).read_bytes().splitlines()
    except FileNotFoundError:
        return []
    events = []
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a line torn by a kill or a full disk mid-write, maybe inside a UTF-8 character
        if isinstance(event, dict):
            events.append(event)
    return events


class RunReader:
    """Read one recorded run. Raises ``FileNotFoundError`` for a directory with no
    recording and ``ValueError`` for an unreadable manifest or unknown format version.

    The manifest and the list of recorded ranks are read once, at construction; every
    other read looks at the directory afresh. Holds no other state, so threads may share
    one. Reads raise ``pyarrow.ArrowInvalid`` for a file that is not Parquet and
    ``OSError`` when the disk does.
    """

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.run_dir = Path(run_dir)
        self.manifest = load_manifest(self.run_dir)
        per_rank = rank_dirs(self.run_dir)
        #: (rank, directory) of each recorded rank, by rank.
        self.sources: list[tuple[int, Path]]
        if per_rank and not (self.run_dir / MANIFEST).exists():
            self.sources = per_rank
        else:
            self.sources = [(int(self.manifest.get("rank") or 0), self.run_dir)]

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
        Costs a directory listing and a ``stat`` per rank once the compacted file is known.
        Raises ``ValueError`` for another ``kind``."""
        _check_kind(kind)
        after = after or {}
        files: list[RunFile] = []
        for rank, path in self.sources:
            files += _source_files(rank, path, kind, after.get(rank, 0))[0]
        return files

    def read_new(self, kind: str, after: Mapping[int, int] | None = None) -> tuple[pa.Table | None, dict[int, int]]:
        """Rows of ``kind`` written since ``after`` (per-rank part numbers returned by a
        previous call), for incremental tailing, with the hidden ``_part`` column. Rows are
        never missed or repeated across calls, even when the run compacts in between. When
        nothing is new the cost does not grow with the run: a compacted file already seen
        is not opened again. Raises ``ValueError`` for a ``kind`` other than ``"steps"`` or
        ``"samples"``."""
        _check_kind(kind)
        cursor = dict(after or {})
        tables = []
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
            table = table.add_column(1, "rank", pa.array([rank] * table.num_rows, pa.int64()))
        return table


def list_runs(root: str | os.PathLike[str], max_depth: int = 4) -> list[dict[str, Any]]:
    """Manifests of every recording under ``root`` (``root`` itself included), each with
    a ``path`` key, sorted by creation time. Unreadable manifests are skipped."""
    root = Path(root)
    found: list[dict[str, Any]] = []

    def visit(path: Path, depth: int) -> None:
        try:
            manifest = load_manifest(path)
        except (FileNotFoundError, ValueError, OSError):
            manifest = None
        if manifest is not None:
            manifest["path"] = str(path)
            found.append(manifest)
            return
        if depth >= max_depth:
            return
        try:
            children = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
        except OSError:
            return
        for child in children:
            visit(child, depth + 1)

    visit(root, 0)
    found.sort(key=lambda m: (m.get("created_at") or 0.0))
    return found


