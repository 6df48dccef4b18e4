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
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .layout import (
    EVENTS,
    MANIFEST,
    PART_COLUMN,
    WATERMARK_KEY,
    compacted_path,
    list_parts,
    rank_dirs,
)
from .manifest import load_manifest
from .schema import order_steps, samples_table, unify

__all__ = ["RunReader", "list_runs"]

_RETRIES = 5


def _read_compacted(path: Path, after_part: int) -> tuple[pa.Table | None, int]:
    """Rows of a compacted file first written in a part above ``after_part``, and its
    watermark, both from one open file: compaction may rename a newer file over ``path``
    at any moment, and the rows must match the watermark they are counted against."""
    try:
        pf = pq.ParquetFile(path)
    except FileNotFoundError:
        return None, 0
    with pf:
        watermark = int((pf.metadata.metadata or {}).get(WATERMARK_KEY, b"0"))
        if watermark <= after_part:
            return None, watermark
        if not after_part:
            return pf.read(), watermark
        wanted = [i for i in range(pf.num_row_groups) if _max_part(pf, i) > after_part]
        table = pf.read_row_groups(wanted) if wanted else pf.schema_arrow.empty_table()
    return table.filter(pc.greater(table.column(PART_COLUMN), after_part)), watermark


def _max_part(pf: pq.ParquetFile, row_group: int) -> float:
    """The highest part number in a row group (from its statistics; +inf when unknown)."""
    group = pf.metadata.row_group(row_group)
    for i in range(group.num_columns):
        column = group.column(i)
        if column.path_in_schema == PART_COLUMN:
            stats = column.statistics
            if stats is not None and stats.has_min_max:
                return stats.max
    return float("inf")


def _read_kind(run_dir: Path, kind: str, after_part: int = 0) -> tuple[pa.Table | None, int]:
    """Rows of ``kind`` first written in a part numbered above ``after_part``, and the
    highest part number seen. Retries when compaction removes a part mid-read."""
    for attempt in range(_RETRIES):
        parts = list_parts(run_dir, kind)
        try:
            compacted, watermark = _read_compacted(compacted_path(run_dir, kind), after_part)
            tables = [compacted] if compacted is not None else []
            last = max(watermark, after_part)
            for seq, path in parts:
                if seq > last:
                    tables.append(pq.read_table(path))
            top = max([last] + [seq for seq, _ in parts])
            return (unify(tables) if tables else None), top
        except FileNotFoundError:
            if attempt == _RETRIES - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")


def _read_events(run_dir: Path) -> list[dict[str, Any]]:
    try:
        lines = (run_dir / EVENTS).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    events = []
    for line in lines:
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by a kill mid-write
        if isinstance(event, dict):
            events.append(event)
    return events


class RunReader:
    """Read one recorded run. Raises ``FileNotFoundError`` for a directory with no
    recording and ``ValueError`` for an unreadable manifest or unknown format version."""

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.run_dir = Path(run_dir)
        self.manifest = load_manifest(self.run_dir)
        per_rank = rank_dirs(self.run_dir)
        if per_rank and not (self.run_dir / MANIFEST).exists():
            self.sources = per_rank
        else:
            self.sources = [(int(self.manifest.get("rank") or 0), self.run_dir)]

    @property
    def merged(self) -> bool:
        return len(self.sources) > 1 or self.sources[0][1] != self.run_dir

    def steps(self) -> pa.Table:
        """All steps, in the order logged (per rank), with a ``rank`` column."""
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

    def read_new(self, kind: str, after: dict[int, int] | None = None) -> tuple[pa.Table | None, dict[int, int]]:
        """Rows of ``kind`` written since ``after`` (per-rank part numbers returned by a
        previous call), for incremental tailing. Rows are never missed or repeated across
        calls, even when the run compacts in between."""
        after = dict(after or {})
        tables = []
        for rank, path in self.sources:
            table, top = _read_kind(path, kind, after.get(rank, 0))
            after[rank] = top
            if table is not None and table.num_rows:
                tables.append(self._with_rank(table, rank, kind))
        return (unify(tables) if tables else None), after

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


