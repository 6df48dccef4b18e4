"""RunWriter: the synchronous writer of a run directory (the Recorder's writer thread wraps it).

Not thread-safe except ``append_event``, which may be called from any thread.
Every method may raise ``OSError`` (disk full, read-only, directory gone); the
Recorder turns those into a warning and a counter.
"""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from .layout import (
    EVENTS,
    FORMAT_VERSION,
    KINDS,
    PARTS_DIR,
    WATERMARK_KEY,
    compacted_path,
    fsync_dir,
    list_parts,
    part_path,
)
from .manifest import RunStatus, json_safe, write_manifest
from .schema import samples_table, steps_table

__all__ = ["RunWriter", "compact_run", "read_watermark"]


def read_watermark(path: Path) -> int:
    """The last part number a compacted file holds (0 when it does not exist)."""
    try:
        meta = pq.read_metadata(path).metadata or {}
    except FileNotFoundError:
        return 0
    return int(meta.get(WATERMARK_KEY, b"0"))


def _write_atomic_parquet(table_or_tables: Sequence[pa.Table] | pa.Table, path: Path, schema: pa.Schema,
                          metadata: dict[bytes, bytes] | None = None) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    schema = schema.with_metadata(metadata) if metadata else schema
    tables = [table_or_tables] if isinstance(table_or_tables, pa.Table) else table_or_tables
    with pq.ParquetWriter(tmp, schema, compression="zstd") as out:
        for table in tables:
            out.write_table(table.select(schema.names).cast(schema), row_group_size=65536)
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def _stream_compacted(path: Path):
    """Row groups of an existing compacted file, one table at a time (bounded memory)."""
    pf = pq.ParquetFile(path)
    for i in range(pf.num_row_groups):
        yield pf.read_row_group(i)


def compact_run(run_dir: str | os.PathLike[str]) -> dict[str, int]:
    """Fold part files into ``steps.parquet``/``samples.parquet``; returns rows added per kind.

    Crash-safe and idempotent: the new compacted file is written beside the old one and
    renamed over it; its metadata names the last part it holds, and readers ignore parts at
    or below that watermark, so a crash before or after the rename never loses or doubles a
    row. Parts are deleted only after the rename.
    """
    run_dir = Path(run_dir)
    added = {}
    for kind in KINDS:
        target = compacted_path(run_dir, kind)
        watermark = read_watermark(target)
        parts = list_parts(run_dir, kind)
        fresh = [(seq, p) for seq, p in parts if seq > watermark]
        if fresh:
            part_tables = [pq.read_table(p) for _, p in fresh]
            schemas = [t.schema for t in part_tables]
            if target.exists():
                schemas.insert(0, pq.read_schema(target).remove_metadata())
            schema = pa.unify_schemas(schemas, promote_options="permissive")
            sources: list[Any] = list(_stream_compacted(target)) if target.exists() else []
            sources.extend(part_tables)
            _write_atomic_parquet(_padded(sources, schema), target, schema,
                                  {WATERMARK_KEY: str(fresh[-1][0]).encode()})
            added[kind] = sum(t.num_rows for t in part_tables)
            watermark = fresh[-1][0]
        else:
            added[kind] = 0
        for seq, p in parts:
            if seq <= watermark:
                try:
                    p.unlink()
                except FileNotFoundError:
                    pass
    return added


def _padded(tables: Sequence[pa.Table], schema: pa.Schema):
    """Each table with the columns it lacks added as nulls, in ``schema`` order."""
    for table in tables:
        for field in schema:
            if field.name not in table.column_names:
                table = table.append_column(field, pa.nulls(table.num_rows, field.type))
        yield table


class RunWriter:
    """Writes one run directory: manifest, events, part files, compaction.

    ``manifest`` holds the run's metadata (run_id, algorithm, ...); the writer adds
    ``format_version``, ``status``, ``counts`` and timestamps. A directory that already
    holds a recording is continued: part numbers carry on after the highest one there.
    """

    def __init__(self, run_dir: str | os.PathLike[str], manifest: Mapping[str, Any]) -> None:
        self.run_dir = Path(run_dir)
        self.manifest: dict[str, Any] = {
            "format_version": FORMAT_VERSION,
            "created_at": time.time(),
            "closed_at": None,
            "status": RunStatus.RUNNING,
            **json_safe(dict(manifest)),
        }
        self.counts = {"steps": 0, "samples": 0, "events": 0, "dropped": 0, "bad_records": 0}
        self._events_lock = threading.Lock()
        self._next_part = 1
        self.prepare()
        self._next_part = 1 + max(
            [read_watermark(compacted_path(self.run_dir, k)) for k in KINDS]
            + [seq for k in KINDS for seq, _ in list_parts(self.run_dir, k)]
        )
        self.write_manifest()

    def prepare(self) -> None:
        """Create the run directory and ``parts/`` (again, if something deleted them)."""
        (self.run_dir / PARTS_DIR).mkdir(parents=True, exist_ok=True)

    def write_manifest(self, **changes: Any) -> None:
        self.manifest.update(json_safe(changes))
        self.manifest["counts"] = dict(self.counts)
        self.manifest["updated_at"] = time.time()
        write_manifest(self.run_dir, self.manifest)

    def write_part(self, steps: Sequence[Mapping[str, Any]], samples: Sequence[Mapping[str, Any]]) -> int:
        """Write one part of each non-empty kind atomically; returns the part number used."""
        part = self._next_part
        for kind, rows, build in (("steps", steps, steps_table), ("samples", samples, samples_table)):
            if rows:
                table = build(rows, part)
                _write_atomic_parquet(table, part_path(self.run_dir, kind, part), table.schema)
                self.counts[kind] += len(rows)
        self._next_part += 1
        return part

    def append_event(self, kind: str, step: int | None = None, message: str = "",
                     data: Mapping[str, Any] | None = None, when: float | None = None) -> None:
        """Append one event line and fsync it before returning. Thread-safe."""
        line = json.dumps(json_safe({
            "kind": str(kind),
            "step": step,
            "time": time.time() if when is None else when,
            "message": str(message),
            "data": dict(data) if data else {},
        })) + "\n"
        with self._events_lock:
            with open(self.run_dir / EVENTS, "a", encoding="utf-8") as fh:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
            self.counts["events"] += 1

    def uncompacted_parts(self) -> int:
        return len(list_parts(self.run_dir, "steps")) + len(list_parts(self.run_dir, "samples"))

    def compact(self) -> None:
        compact_run(self.run_dir)

    def close(self, status: str = RunStatus.FINISHED) -> None:
        """Compact and mark the manifest closed with ``status``."""
        self.compact()
        self.write_manifest(status=status, closed_at=time.time())
