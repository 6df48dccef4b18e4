"""RunWriter: the synchronous writer of a run directory (the Recorder's writer thread wraps
it), crash-safe compaction of part files, and what happens when a second session records
into a directory that already holds a run (a re-run, or a resume from a checkpoint)."""
from __future__ import annotations

import itertools
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..records import EventKind
from .atomic import atomic_path, discard, temp_owner
from .layout import (
    EVENTS,
    FORMAT_VERSION,
    KINDS,
    MANIFEST,
    PARTS_DIR,
    WATERMARK_KEY,
    compacted_path,
    list_parts,
    part_path,
)
from .manifest import RunStatus, json_safe, write_manifest
from .schema import samples_table, steps_table, with_part
from .watermark import read_watermark

__all__ = ["RunWriter", "compact_run", "event_line"]

#: Rows per row group of a compacted file (the last one holds the rest).
_ROW_GROUP = 65536
#: A row group is cut short once its rows hold this much data (long sample texts).
_ROW_GROUP_BYTES = 64 * 2**20
_DICTIONARY_COLUMNS = ("prompt", "prompt_id", "group_id")
#: Compaction decodes on the calling thread alone: it runs beside training (the recorder's
#: writer thread), and for part-sized reads a thread pool costs more than it saves.
_THREADS = False
#: Counts that a session adds to the ones its directory held before (see ``RunWriter.carried``).
CARRIED_COUNTS = ("dropped", "bad_records", "storage_errors", "lost")


def _write_atomic_parquet(tables: Iterable[pa.Table], path: Path, schema: pa.Schema,
                          metadata: dict[bytes, bytes] | None = None) -> None:
    """Write ``tables`` (each of ``schema``; each its own row groups, of at most ``_ROW_GROUP``
    rows) as one Parquet file at ``path``, atomically (``atomic_path``)."""
    schema = schema.with_metadata(metadata) if metadata else schema
    with atomic_path(path) as tmp:
        with pq.ParquetWriter(tmp, schema, compression="zstd", use_dictionary=_dictionary_columns(schema)) as out:
            for table in tables:
                out.write_table(table, row_group_size=_ROW_GROUP)


def _dictionary_columns(schema: pa.Schema) -> list[str]:
    """Columns worth dictionary-encoding: repeated text (a prompt recurs across its group).
    Metrics are floats that rarely repeat, where a dictionary only costs time."""
    return [name for name in _DICTIONARY_COLUMNS if name in schema.names]


def _stream_compacted(path: Path) -> Iterator[pa.Table]:
    """Row groups of an existing compacted file, one table at a time (bounded memory)."""
    with pq.ParquetFile(path) as pf:
        for i in range(pf.num_row_groups):
            yield pf.read_row_group(i, use_threads=_THREADS)


class _PartRows:
    """The tables of part files, read one at a time as iterated; ``rows`` counts them."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        self.rows = 0

    def __iter__(self) -> Iterator[pa.Table]:
        for path in self.paths:
            with pq.ParquetFile(path) as pf:
                table = pf.read(use_threads=_THREADS)
            self.rows += table.num_rows
            yield table


def _sweep_temp_files(run_dir: Path) -> None:
    """Remove temp files left by writers that were killed mid-write (their pid is gone)."""
    for folder in (run_dir, run_dir / PARTS_DIR):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            owner = temp_owner(name)
            if owner is not None and owner != os.getpid() and not _alive(owner):
                discard(folder / name)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def compact_run(run_dir: str | os.PathLike[str]) -> dict[str, int]:
    """Fold part files into ``steps.parquet``/``samples.parquet``; returns rows added per kind.

    Crash-safe and idempotent: the new compacted file is written beside the old one and
    renamed over it; its metadata names the last part it holds, and readers ignore parts at
    or below that watermark, so a crash before or after the rename never loses or doubles a
    row. Parts are deleted only after the rename. Rows are re-cut into row groups of
    ``_ROW_GROUP`` rows (fewer when their data passes ``_ROW_GROUP_BYTES``), whatever the
    size of the parts, so the file's footer stays small; memory is bounded by one row group
    plus one part. Run it only where no other process is compacting the same directory (the
    recorder compacts its own run). Raises ``OSError`` when the disk does.
    """
    run_dir = Path(run_dir)
    _sweep_temp_files(run_dir)
    return {kind: _compact_kind(run_dir, kind)[0] for kind in KINDS}


def _compact_kind(run_dir: Path, kind: str, drop_from: int | None = None) -> tuple[int, int]:
    """Compact the rows of ``kind`` (see ``compact_run``), leaving out those whose step is
    ``drop_from`` or more (the rows a later session supersedes) when it is given. Returns
    the rows added from parts and the rows left out. A compacted file holding no row to
    leave out (by its statistics) is rewritten only when there are parts to fold into it."""
    target = compacted_path(run_dir, kind)
    watermark = read_watermark(target)
    parts = list_parts(run_dir, kind)
    fresh = [(seq, p) for seq, p in parts if seq > watermark]
    added = dropped = 0
    if fresh or (drop_from is not None and _may_hold_steps_from(target, drop_from)):
        # Part footers first: the writer needs the whole run's schema before the first row.
        schemas = [pq.read_schema(p) for _, p in fresh]
        if target.exists():
            schemas.insert(0, pq.read_schema(target).remove_metadata())
        schema = pa.unify_schemas(schemas, promote_options="permissive")
        fresh_rows = _PartRows([p for _, p in fresh])
        sources: list[Iterable[pa.Table]] = [_stream_compacted(target)] if target.exists() else []
        sources.append(fresh_rows)
        kept = _Kept(itertools.chain.from_iterable(sources), drop_from)
        if fresh:
            watermark = fresh[-1][0]
        _write_atomic_parquet(_coalesced(_conformed(kept, schema), _ROW_GROUP, _ROW_GROUP_BYTES), target, schema,
                              {WATERMARK_KEY: str(watermark).encode()})
        added, dropped = fresh_rows.rows, kept.dropped
    for seq, p in parts:
        if seq <= watermark:
            discard(p)
    return added, dropped


def _may_hold_steps_from(path: Path, step: int) -> bool:
    """Whether the compacted file at ``path`` may hold a row whose step is ``step`` or more
    (True where a row group's statistics do not say)."""
    try:
        with pq.ParquetFile(path) as pf:
            for i in range(pf.num_row_groups):
                group = pf.metadata.row_group(i)
                columns = [group.column(c) for c in range(group.num_columns)]
                stats = next((c.statistics for c in columns if c.path_in_schema == "step"), None)
                if stats is None or not stats.has_min_max or stats.max >= step:
                    return True
    except FileNotFoundError:
        return False
    return False


class _Kept:
    """The rows of ``tables`` whose step is below ``drop_from`` (all of them when it is
    None), table by table as iterated; ``dropped`` counts the others."""

    def __init__(self, tables: Iterable[pa.Table], drop_from: int | None) -> None:
        self.tables = tables
        self.drop_from = drop_from
        self.dropped = 0

    def __iter__(self) -> Iterator[pa.Table]:
        for table in self.tables:
            if self.drop_from is not None:
                kept = table.filter(pc.less(table.column("step"), self.drop_from))
                self.dropped += table.num_rows - kept.num_rows
                table = kept
            yield table


def _conformed(tables: Iterable[pa.Table], schema: pa.Schema) -> Iterator[pa.Table]:
    """Each table as ``schema``: the columns it lacks added as nulls, in ``schema`` order."""
    for table in tables:
        if table.schema.equals(schema):
            yield table
            continue
        names = set(table.column_names)
        for field in schema:
            if field.name not in names:
                table = table.append_column(field, pa.nulls(table.num_rows, field.type))
        yield table.select(schema.names).cast(schema)


def _coalesced(tables: Iterable[pa.Table], rows: int, max_bytes: int) -> Iterator[pa.Table]:
    """The rows of ``tables`` (one schema), in order, re-cut into tables of ``rows`` rows,
    each cut short once it holds ``max_bytes`` of data; the last holds what is left. Small
    part files become one row group, and an existing file's full row groups pass through."""
    pending: list[pa.Table] = []
    held = size = 0
    for table in tables:
        per_row = max(1, table.nbytes // max(1, table.num_rows))
        while table.num_rows:
            take = min(rows - held, max(1, (max_bytes - size) // per_row))
            head = table if take >= table.num_rows else table.slice(0, take)
            table = table.slice(head.num_rows)
            pending.append(head)
            held += head.num_rows
            size += head.num_rows * per_row
            if held >= rows or size >= max_bytes:
                yield pa.concat_tables(pending)
                pending, held, size = [], 0, 0
    if pending:
        yield pa.concat_tables(pending)


def event_line(kind: str, step: int | None, message: str, data: Mapping[str, Any] | None,
               when: float | None = None) -> str:
    """One ``events.jsonl`` line (strict JSON and a newline); ``when`` defaults to now."""
    return json.dumps(json_safe({
        "kind": str(kind),
        "step": step,
        "time": time.time() if when is None else when,
        "message": str(message),
        "data": dict(data) if data else {},
    })) + "\n"


class RunWriter:
    """Writes one run directory: manifest, events, part files, compaction.

    ``manifest`` holds the run's metadata (run_id, algorithm, ...); the writer adds
    ``format_version``, ``status``, ``counts`` and timestamps.

    A directory that already holds a recording is resumed, as trainers resume from a
    checkpoint: part numbers carry on after the highest one there, and the first part this
    writer writes supersedes the earlier sessions' rows from its lowest step on — before
    that part lands, those rows are compacted away (crash-safe, as any compaction) and a
    ``run_resumed`` event says from which step, how many rows went and how the earlier
    session had ended. So no reader ever sees a step of both sessions. The manifest keeps
    the first session's ``created_at``; its ``counts`` are what a reader sees (``steps``,
    ``samples``, ``events``) and totals over all sessions (``CARRIED_COUNTS``).

    Not thread-safe except ``append_event``/``append_events``/``append_lines``, which any
    thread may call. Every method may raise ``OSError`` (disk full, read-only, directory
    gone).
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
        #: What the earlier sessions in this directory counted of ``CARRIED_COUNTS``; the
        #: Recorder adds its own to these.
        self.carried: dict[str, int] = {}
        self._events_lock = threading.RLock()
        self.prepare()
        earlier = _read_earlier_manifest(self.run_dir)
        top = max([read_watermark(compacted_path(self.run_dir, k)) for k in KINDS]
                  + [seq for k in KINDS for seq, _ in list_parts(self.run_dir, k)])
        self._next_part = top + 1
        #: The earlier session whose rows the first part written supersedes (None: no such rows).
        self._earlier: dict[str, Any] | None = None
        #: The step the first part resumes from, and the rows superseded so far per kind (a
        #: failed supersede is retried with the next part, kind by kind where it left off).
        self._resume_from: int | None = None
        self._superseded: dict[str, int] = {}
        self._resumed_line: str | None = None
        #: The highest step of the rows the directory held when this writer started (None:
        #: none): a session restoring what an earlier one lost restores only after it.
        self.last_step: int | None = _last_step_on_disk(self.run_dir) if top else None
        if earlier is not None or top:
            earlier = earlier or {}
            self._earlier = earlier if top else None
            if isinstance(earlier.get("created_at"), (int, float)):
                self.manifest["created_at"] = earlier["created_at"]
            counts = earlier["counts"] if isinstance(earlier.get("counts"), dict) else {}
            self.carried = {k: counts[k] for k in CARRIED_COUNTS if type(counts.get(k)) is int}
            self.counts.update({k: v for k, v in self.carried.items() if k in self.counts})
            for kind in KINDS:
                self.counts[kind] = _rows_on_disk(self.run_dir, kind)
            self.counts["events"] = _events_on_disk(self.run_dir)
        self.write_manifest()

    def prepare(self) -> None:
        """Create the run directory (again, if something deleted it)."""
        self.run_dir.mkdir(parents=True, exist_ok=True)

    def write_manifest(self, **changes: Any) -> None:
        """Rewrite ``manifest.json`` atomically with the current counts and ``changes``."""
        self.manifest.update(json_safe(changes))
        self.manifest["counts"] = dict(self.counts)
        self.manifest["updated_at"] = time.time()
        write_manifest(self.run_dir, self.manifest)

    def write_part(self, steps: Sequence[Mapping[str, Any]] | pa.Table | None,
                   samples: Sequence[Mapping[str, Any]] | pa.Table | None = None) -> int:
        """Write one part of each non-empty kind atomically; returns the part number used.

        ``steps`` and ``samples`` are rows (dicts as ``schema.steps_table`` and
        ``schema.samples_table`` take them) or tables. If writing fails nothing is counted
        and the same part number is used again next time. The first part written into a
        resumed directory first supersedes the earlier rows (see the class docstring).
        """
        part = self._next_part
        tables = {}
        for kind, rows, build in (("steps", steps, steps_table), ("samples", samples, samples_table)):
            if rows is not None and len(rows) != 0:
                tables[kind] = with_part(rows if isinstance(rows, pa.Table) else build(rows), part)
        if tables and self._earlier is not None:
            if self._resume_from is None:
                self._resume_from = min(pc.min(table.column("step")).as_py() for table in tables.values())
            self._supersede(self._resume_from)
        if self._resumed_line is not None:
            self.append_lines([self._resumed_line])
            self._resumed_line = None
        for kind, table in tables.items():
            path = part_path(self.run_dir, kind, part)
            path.parent.mkdir(exist_ok=True)  # close() removed it; a vanished run dir stays an error
            _write_atomic_parquet([table], path, table.schema)
        for kind, table in tables.items():
            self.counts[kind] += table.num_rows
        self._next_part += 1
        return part

    def _supersede(self, from_step: int) -> None:
        """Compact the earlier sessions' rows without those at ``from_step`` or later, and
        keep the ``run_resumed`` event that says so for ``write_part`` to write."""
        _sweep_temp_files(self.run_dir)
        for kind in KINDS:
            if kind not in self._superseded:
                self._superseded[kind] = _compact_kind(self.run_dir, kind, drop_from=from_step)[1]
                self.counts[kind] -= self._superseded[kind]
        self.write_manifest()  # its counts say what a reader now sees, even if we die right here
        earlier, self._earlier = self._earlier or {}, None
        dropped = self._superseded
        status = earlier.get("status")
        superseded = " and ".join(f"{n} {kind[:-1]} row{'s' * (n != 1)}" for kind, n in dropped.items() if n)
        self._resumed_line = event_line(
            EventKind.RUN_RESUMED, from_step,
            f"resumed at step {from_step} by a new session: "
            + (f"the earlier session's {superseded} from step {from_step} on are superseded" if superseded
               else f"the earlier session had no rows from step {from_step} on")
            + (f" (its status was {status!r})" if status else " (it left no readable manifest)"),
            {"from_step": from_step, "prior_status": status, "prior_run_id": earlier.get("run_id"),
             "superseded_steps": dropped["steps"], "superseded_samples": dropped["samples"]})

    def append_event(self, kind: str, step: int | None = None, message: str = "",
                     data: Mapping[str, Any] | None = None, when: float | None = None) -> None:
        """Append one event line and fsync it before returning. Thread-safe."""
        self.append_lines([event_line(kind, step, message, data, when)])

    def append_events(self, events: Sequence[tuple[str, int | None, str, Mapping[str, Any] | None,
                                                   float | None]]) -> None:
        """Append ``(kind, step, message, data, time)`` lines with one write and one fsync.
        Thread-safe."""
        self.append_lines([event_line(*event) for event in events])

    def append_lines(self, lines: Sequence[str]) -> None:
        """Append ``event_line`` lines with one write and one fsync. Thread-safe. All land
        or none: a write the disk cuts short is truncated away before the error is raised,
        so a full disk leaves no torn line (a line torn by a kill stays alone on its line:
        the next write starts on a fresh one)."""
        if not lines:
            return
        with self._events_lock:
            fd = os.open(self.run_dir / EVENTS, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                size = os.fstat(fd).st_size
                text = "".join(lines)
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    text = "\n" + text
                view = memoryview(text.encode("utf-8"))
                try:
                    while view:
                        view = view[os.write(fd, view):]
                    os.fsync(fd)
                except OSError:
                    try:
                        os.ftruncate(fd, size)
                    except OSError:
                        pass  # the torn end stays; the next write starts on a fresh line
                    raise
            finally:
                os.close(fd)
            self.counts["events"] += len(lines)

    def uncompacted_parts(self) -> int:
        """Part files on disk not yet folded into the compacted files."""
        return len(list_parts(self.run_dir, "steps")) + len(list_parts(self.run_dir, "samples"))

    def compact(self) -> None:
        """Fold the part files into the compacted files (see ``compact_run``)."""
        compact_run(self.run_dir)

    def close(self, status: str = RunStatus.FINISHED) -> None:
        """Compact, remove ``parts/`` if that left it empty, and mark the manifest closed
        with ``status``. Writing another part afterwards recreates ``parts/``."""
        self.compact()
        try:
            os.rmdir(self.run_dir / PARTS_DIR)
        except OSError:
            pass  # not empty (a part a concurrent writer added, a live temp file) or already gone
        self.write_manifest(status=status, closed_at=time.time())


def _read_earlier_manifest(run_dir: Path) -> dict[str, Any] | None:
    """The manifest an earlier session left in ``run_dir`` (None if there is none, or none
    that parses: its rows are still resumed, only what it said is unknown)."""
    try:
        manifest = json.loads((run_dir / MANIFEST).read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _rows_on_disk(run_dir: Path, kind: str) -> int:
    """The rows of ``kind`` a reader sees: the compacted file's and those of the parts above
    its watermark (from the files' footers)."""
    target = compacted_path(run_dir, kind)
    watermark = read_watermark(target)
    files = [p for seq, p in list_parts(run_dir, kind) if seq > watermark] + [target] * target.exists()
    rows = 0
    for path in files:
        try:
            rows += pq.read_metadata(path).num_rows
        except (OSError, pa.ArrowInvalid):
            pass  # damaged or compacted away meanwhile: no rows a reader could count on
    return rows


def _last_step_on_disk(run_dir: Path) -> int | None:
    """The highest step of the step rows a reader sees (None: none), from the files' row-group
    statistics where they have them, else from their ``step`` column."""
    target = compacted_path(run_dir, "steps")
    watermark = read_watermark(target)
    files = [p for seq, p in list_parts(run_dir, "steps") if seq > watermark] + [target] * target.exists()
    top: int | None = None
    for path in files:
        try:
            with pq.ParquetFile(path) as pf:
                column = pf.schema_arrow.get_field_index("step")
                highest = [pf.metadata.row_group(i).column(column).statistics for i in range(pf.num_row_groups)]
                if all(stats is not None and stats.has_min_max for stats in highest):
                    found = max((stats.max for stats in highest), default=None)
                else:
                    found = pc.max(pf.read(columns=["step"], use_threads=_THREADS).column("step")).as_py()
        except (OSError, pa.ArrowInvalid):
            continue  # damaged or compacted away meanwhile: no rows a reader could count on
        if found is not None and (top is None or found > top):
            top = int(found)
    return top


def _events_on_disk(run_dir: Path) -> int:
    """The event lines a reader sees (those that parse as JSON objects)."""
    try:
        lines = (run_dir / EVENTS).read_bytes().splitlines()
    except FileNotFoundError:
        return 0
    count = 0
    for line in lines:
        try:
            count += isinstance(json.loads(line), dict)
        except ValueError:
            pass
    return count
