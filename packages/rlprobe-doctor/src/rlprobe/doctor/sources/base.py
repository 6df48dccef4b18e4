"""What every source reader produces (an ``ImportedRun``) and how it becomes a recording.

A reader turns a foreign log into plain rows; ``write_recording`` writes them with core's
``RunWriter`` as a format-v1 recording, so the doctor reads every source the same way.
"""
from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from rlprobe.cleaning import RESERVED_METRICS, Problems, clean_sample, flatten_metric, metric_column
from rlprobe.records import EventKind, canonical_metric
from rlprobe.storage.layout import MANIFEST
from rlprobe.storage.manifest import RunStatus, write_manifest

from .. import progress
from ..errors import UnusableInput
from .columns import StepColumns

__all__ = ["ImportedRun", "SourceError", "number", "metrics_row", "columns_of", "write_recording",
           "recording_manifest", "clean_samples", "GrowingFile", "last_newline", "SourceTail", "FailureStreak",
           "CUT_SHORT", "note_damage", "read_file"]

#: Rows per part file when writing an imported run (compaction re-cuts them anyway).
_ROWS_PER_PART = 50_000


class SourceError(UnusableInput):
    """A source the doctor recognised but cannot read (bad or partial file); one line that
    names the file and what is wrong."""


@dataclass
class ImportedRun:
    """One run read from a foreign source, in the shapes ``RunWriter`` takes.

    ``steps``: rows of ``{"step": int, metric: float | None}`` with metric names as the
    source spelled them (known spellings are folded by ``metrics_row``); ``samples``: raw
    sample dicts with a ``step`` key; ``events``: ``(kind, step, message, data)``."""

    source: str
    format: str
    name: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[str, int | None, str, dict[str, Any]]] = field(default_factory=list)
    algorithm: str | None = None
    model_name: str | None = None
    trainer_config: dict[str, Any] = field(default_factory=dict)
    created_at: float | None = None
    #: For a run the source still marks running: its last sign of life (Unix seconds),
    #: written as the manifest's ``updated_at``, the heartbeat a recording's manifest carries.
    updated_at: float | None = None
    #: When the source says the run started and last logged (Unix seconds); None where it
    #: keeps no clock (a console log, trainer_state.json).
    ended_at: float | None = None
    status: str = RunStatus.FINISHED
    problems: Problems = field(default_factory=Problems)
    #: Steps already as a table (``step`` and metric columns named as the recording names
    #: them), for readers that decode columns at once; written after ``steps``.
    step_table: Any = None

    def add_step(self, step: int, metrics: Mapping[str, Any], prefix: str = "") -> None:
        """Append one row of metrics at ``step`` (names folded as ``metrics_row`` says)."""
        self.steps.append(metrics_row(step, metrics, self.problems, prefix))

    def add_columns(self, columns: StepColumns) -> None:
        """Take the rows gathered in ``columns`` as the run's steps (its step table): for a
        reader that read the whole log at once, into a run holding no steps yet."""
        if self.steps or self.step_table is not None:
            raise ValueError("add_columns: the run holds steps already")
        self.step_table = columns.table()

    def has_steps(self) -> bool:
        return bool(self.steps) or (self.step_table is not None and self.step_table.num_rows > 0)

    def latest(self, column: str) -> float | None:
        """The largest value of ``column`` (``step``, ``time``) over the run's steps; None
        where it has none."""
        found = [row[column] for row in self.steps if row.get(column) is not None]
        if self.step_table is not None and column in self.step_table.column_names:
            import pyarrow.compute as pc

            top = pc.max(self.step_table.column(column)).as_py()
            found += [top] if top is not None else []
        return max(found, default=None)

    def steps_with(self, prefix: str | None = None) -> set[int]:
        """The steps that hold a metric whose name starts with ``prefix`` (every step: None)."""
        out = {row["step"] for row in self.steps
               if prefix is None or any(k.startswith(prefix) for k in row if k != "step")}
        table = self.step_table
        if table is not None:
            names = [c for c in table.column_names if c != "step" and (prefix is None or c.startswith(prefix))]
            if prefix is None:
                out.update(table.column("step").to_pylist())
            elif names:
                import pyarrow.compute as pc

                held = functools.reduce(pc.or_, [pc.is_valid(table.column(c)) for c in names])
                out.update(table.column("step").filter(held).to_pylist())
        return out

    def metric_names(self) -> set[str]:
        names = {k for row in self.steps for k in row if k != "step"}
        if self.step_table is not None:
            names.update(c for c in self.step_table.column_names if c != "step")
        return names

    def note(self, message: str, step: int | None = None, **data: Any) -> None:
        """Record how the source was read (an ``import_note`` event), e.g. how steps were inferred."""
        self.events.append((EventKind.IMPORT_NOTE, step, message, data))

    def map_metrics(self, metrics: Mapping[str, str]) -> None:
        """Write the metrics logged as ``name`` under ``column`` (``{column: name}``, as
        ``config.metric_map`` gives them; the mapping wins over a column of that name), with a
        note. Raises ``UnusableInput`` for a name the run did not log."""
        have = self.metric_names()
        missing = [name for name in metrics.values() if name not in have]
        if missing:
            raise UnusableInput(f"{self.source}: logged no metric {missing[0]!r}; it logged: "
                                f"{', '.join(sorted(have)[:12])}")
        rename = {name: column for column, name in metrics.items() if name != column}
        for row in self.steps:
            for name, column in rename.items():
                row.pop(column, None)
                if name in row:
                    row[column] = row.pop(name)
        if self.step_table is not None:
            table = self.step_table.drop_columns([c for c in rename.values() if c in self.step_table.column_names])
            self.step_table = table.rename_columns([rename.get(c, c) for c in table.column_names])
        self.note("metrics read under the names given: " + ", ".join(f"{n} as {c}" for n, c in rename.items()),
                  metrics=dict(metrics))


#: How the binary logs' readers (W&B, TensorBoard) begin the damage of a file that ends inside
#: a record: its writer is still writing it, or was killed. A follower waits for the rest of
#: such a file; any other damage ends its reading.
CUT_SHORT = "cut short"


def note_damage(run: ImportedRun, file: Path, damage: str, read: str | None = None) -> None:
    """Say on ``run`` where a binary log stopped being read: ``damage`` (``CUT_SHORT ...``,
    ``bad CRC at byte N``, ...), and ``read``, what the whole read took from before it; without
    ``read`` (a follower, which waits out a record cut short), that nothing after it is read."""
    if read is None:
        run.note(f"{file.name}: {damage}; the records after it are not read", damage=damage)
        return
    cause = "a writer killed, or a run still going" if damage.startswith(CUT_SHORT) else "a damaged file"
    run.note(f"{file.name}: {damage} ({cause}); read the {read} before it", damage=damage)


def number(value: Any) -> float | None:
    """A logged value as a float: numbers, numeric strings (``'0.4'``, ``'nan'``,
    ``'Infinity'``), bools; ``None`` for anything else."""
    if value is None or isinstance(value, (bool, int, float)):
        return None if value is None else float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return None


@functools.lru_cache(maxsize=65536)
def _column(name: str) -> str | None:
    """The steps column of a metric name (known spellings folded), or None when the name
    cannot be a column (reserved, too long)."""
    try:
        return metric_column(name)
    except TypeError:
        return None


def _reserved(name: str) -> bool:
    """A name the recording keeps for itself (``step``, ``time``, ...): in a foreign log it is
    the source's own bookkeeping, left out quietly rather than counted as a rejected record."""
    return canonical_metric(name) in RESERVED_METRICS


def columns_of(keys: tuple[str, ...], run: ImportedRun) -> tuple[str | None, ...]:
    """The recording's column for each metric name (``None``: the name cannot be one, and
    ``run.problems`` says so), folded as ``metrics_row`` folds them."""
    columns = _columns(keys, "")
    for key, column in zip(keys, columns, strict=False):
        if column is None and not _reserved(key):
            run.problems.add(f"import: metric name {key[:60]!r} cannot be a column; dropped", None)
    return columns


@functools.lru_cache(maxsize=4096)
def _columns(keys: tuple[Any, ...], prefix: str) -> tuple[str | None, ...]:
    """The column of each key of a log dict; TRL < 0.16's per-function reward means
    ``rewards/<fn>`` are read as ``rewards/<fn>/mean`` (today's name) unless both are there."""
    present = set(keys)
    out = []
    for key in keys:
        name = key if type(key) is str else str(key)
        if name.startswith("rewards/") and name.count("/") == 1 and f"{name}/mean" not in present:
            name += "/mean"
        out.append(_column(prefix + name))
    return tuple(out)


def metrics_row(step: int, metrics: Mapping[str, Any], problems: Problems,
                prefix: str = "") -> dict[str, Any]:
    """``{"step": step, column: float}`` with the names folded onto the known fields as the
    recorder folds them; nested dicts flattened to ``a/b``; text that is not a number (a run
    name, a timestamp) is not a metric and is left out."""
    out: dict[str, Any] = {}
    for column, (key, value) in zip(_columns(tuple(metrics), prefix), metrics.items(), strict=False):
        kind = type(value)
        if kind is float:
            as_number = value
        elif isinstance(value, Mapping):
            flatten_metric(prefix + str(key), value, out, problems, step)
            continue
        else:
            as_number = number(value)
            if as_number is None:
                continue  # null, or text that is not a number
        if column is None:
            if not _reserved(prefix + str(key)):  # a source's own step or time: not a metric, not a loss
                problems.add(f"import: metric name {str(key)[:60]!r} cannot be a column; dropped", step)
            continue
        out[column] = as_number
    out["step"] = step
    return out


def recording_manifest(run: ImportedRun) -> dict[str, Any]:
    """The manifest fields of the recording ``run`` is written as (``RunWriter`` adds the rest)."""
    return {
        "run_id": run.name or Path(run.source.rstrip("/")).name or "imported",
        "algorithm": run.algorithm,
        "model_name": run.model_name,
        "trainer_config": run.trainer_config,
        "world_size": 1,
        "rank": 0,
        "recorded_ranks": [0],
        "imported_from": {"source": run.source, "format": run.format, "name": run.name,
                          "started_at": run.created_at, "ended_at": run.ended_at},
    }


def write_recording(run: ImportedRun, out_dir: str | os.PathLike[str]) -> Path:
    """Write ``run`` as a format-v1 recording at ``out_dir``, replacing the recording (or
    import) there; a directory that holds anything else is refused (``UnusableInput``), never
    emptied. The directory appears whole: it is written beside ``out_dir`` and renamed into
    place. Raises ``OSError`` when the disk does."""
    out = Path(out_dir)
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / MANIFEST).is_file())):
        raise UnusableInput(f"{out}: exists and is neither empty nor an rlprobe recording; "
                            "choose another OUT_DIR (importing replaces only a recording)")
    out.parent.mkdir(parents=True, exist_ok=True)
    # The writer (pyarrow's Parquet and compute modules) is imported only to write: a command
    # reading a cached import never pays for it.
    from rlprobe.storage.schema import order_steps
    from rlprobe.storage.writer import RunWriter

    tmp = out.with_name(f".{out.name}.{os.getpid()}.importing")
    shutil.rmtree(tmp, ignore_errors=True)
    problems = run.problems
    try:
        writer = RunWriter(tmp, recording_manifest(run))
        if run.created_at is not None:
            writer.manifest["created_at"] = run.created_at
        # The step table alone is written in the parts the rows would have been written in.
        table = order_steps(run.step_table) if run.step_table is not None else None
        steps: list[dict[str, Any]] | pa.Table = _sorted_steps(run.steps) if run.steps or table is None else table
        samples = clean_samples(run.samples, problems)
        for start in range(0, max(len(steps), len(samples), 1), _ROWS_PER_PART):
            chunk_steps = steps[start:start + _ROWS_PER_PART]
            chunk_samples = samples[start:start + _ROWS_PER_PART]
            if len(chunk_steps) or chunk_samples:
                writer.write_part(chunk_steps, chunk_samples)
        if table is not None and steps is not table:
            for start in range(0, table.num_rows, _ROWS_PER_PART):
                writer.write_part(table.slice(start, _ROWS_PER_PART))
        events = [(kind, step, message, data, None) for kind, step, message, data in run.events]
        events += [(EventKind.BAD_RECORD, step, message, data, None) for message, step, data in problems.events()]
        if events:
            writer.append_events(events)
        writer.counts["bad_records"] = problems.total()
        writer.close(status=run.status)
        if run.status == RunStatus.RUNNING:  # not closed; alive when the source last was, not at the import
            write_manifest(tmp, {**writer.manifest, "closed_at": None, "updated_at": run.updated_at})
        if out.is_dir() and not out.is_symlink():
            shutil.rmtree(out)
        os.replace(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _sorted_steps(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row a step, by step: the rows of one step (a train and an eval log) merged, a
    later value of a metric over an earlier one, as the doctor reads a recording."""
    if any(rows[i]["step"] > rows[i + 1]["step"] for i in range(len(rows) - 1)):
        rows = sorted(rows, key=lambda r: r["step"])  # stable: a step's rows keep their order
    merged: list[dict[str, Any]] = []
    for row in rows:
        if merged and merged[-1]["step"] == row["step"]:
            merged[-1].update({k: v for k, v in row.items() if v is not None})
        else:
            merged.append(dict(row))
    return merged


def clean_samples(rows: Iterable[Mapping[str, Any]], problems: Problems, first_serial: int = 0) -> list[dict[str, Any]]:
    """Raw sample dicts (with ``step``) as the recording's sample rows; one without a
    ``sample_id`` gets ``<step>-0-<serial>``, serials counted from ``first_serial`` (a
    source read in looks carries the count on, so ids never repeat)."""
    out = []
    for serial, raw in enumerate(rows, first_serial):
        step = int(raw.get("step", 0))
        row = clean_sample({k: v for k, v in raw.items() if k != "step"}, step, 0, problems)
        if row is None:
            continue
        if row.get("sample_id") is None:
            row["sample_id"] = f"{step}-0-{serial}"
        out.append(row)
    return out



#: Bytes read at a time by ``read_file`` (each a step of the progress bar).
_READ_CHUNK = 16 * 2**20


def read_file(path: Path, limit: int = -1) -> bytes:
    """The bytes of ``path`` (its first ``limit`` where given). Where a progress bar is shown
    (``progress.current()``), read in chunks that advance it (joined: twice the file's size
    for a moment), else at once. Raises ``OSError`` as ``open`` does."""
    report = progress.current()
    with open(path, "rb") as fh:
        if not report.shows:
            return fh.read(limit)
        size = os.fstat(fh.fileno()).st_size
        size = size if limit < 0 else min(size, limit)
        report.task(f"reading {path.name}", size)
        chunks = []
        left = size
        while left > 0:
            chunk = fh.read(min(_READ_CHUNK, left))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
            report.advance(len(chunk))
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def last_newline(data: bytes) -> int:
    """Bytes of ``data`` up to and including its last newline: the whole lines in it."""
    return data.rfind(b"\n") + 1


class GrowingFile:
    """A file that a writer is still appending to, read from where the last read stopped.

    ``read_new`` returns the bytes appended since, up to the end of the last whole record
    (``whole(data)`` says how many bytes of ``data`` those are; whole lines by default), so
    a record still being written waits for the next read. A file that shrank was replaced
    (a job started again over its log): it is read again from its start and ``restarted``
    is set. ``mtime`` is the file's modification time at the last read (None before one).
    Not thread-safe."""

    def __init__(self, path: Path, whole: Callable[[bytes], int] = last_newline, start: int = 0) -> None:
        self.path, self.whole = path, whole
        self.offset = start
        self.start = start
        self.mtime: float | None = None
        self.restarted = False

    def read_new(self) -> bytes:
        """What was appended since the last call, in whole records; ``b""`` when nothing
        (or the file is gone). Raises ``SourceError`` when the file cannot be read."""
        try:
            with open(self.path, "rb") as fh:
                st = os.fstat(fh.fileno())
                self.restarted = st.st_size < self.offset
                if self.restarted:
                    self.offset = self.start
                self.mtime = st.st_mtime
                if st.st_size == self.offset:
                    return b""
                fh.seek(self.offset)
                data = fh.read()
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise SourceError(f"{self.path}: cannot read ({exc.strerror})") from None
        done = self.whole(data)
        self.offset += done
        return data[:done]


class FailureStreak:
    """Failed reads in a row of a source still being written. A database its writer is
    creating or checkpointing reads as damaged for a moment, so a failure is an error only
    once the streak has lasted ``LOOKS`` looks and ``SECONDS`` seconds, whatever the poll."""

    LOOKS = 5
    SECONDS = 10.0

    def __init__(self) -> None:
        self._count = 0
        self._since: float | None = None

    def failed(self) -> bool:
        """Count a failed read; True when the streak has gone on too long (give up)."""
        now = time.monotonic()
        self._count += 1
        self._since = self._since if self._since is not None else now
        return self._count >= self.LOOKS and now - self._since >= self.SECONDS

    def ok(self) -> None:
        """A read succeeded: the streak is over."""
        self._count, self._since = 0, None


class SourceTail:
    """Reads a foreign source while it is still being written: each ``look()`` returns an
    ``ImportedRun`` holding only what was written since the last look (the first look
    reads what is there), with ``status`` ``running`` until the source shows its end
    (then ``finished``, or ``crashed`` where the source says so). ``last_write`` is when
    the source was last written (its newest file's modification time), None before a look
    saw it; ``restarted`` is True after a look that found the source replaced (a new job
    writing the log again from its start): what that look returned begins a new run. Each
    format's ``follow(path, name)`` returns one. Not thread-safe."""

    format = "source"

    def __init__(self, path: Path, name: str | None = None) -> None:
        self.path, self.name = path, name
        self.status = RunStatus.RUNNING
        self.last_write: float | None = None
        self.restarted = False
        self._failures = FailureStreak()

    def look(self) -> ImportedRun:
        """What is new; nothing, for a look that could not read the source (``SourceError``
        is raised once such looks have gone on as long as ``FailureStreak`` allows)."""
        run = ImportedRun(source=str(self.path), format=self.format, name=self.name, status=self.status)
        self.restarted = False
        try:
            self.read_into(run)
        except SourceError:
            if self._failures.failed():
                raise
            return ImportedRun(source=str(self.path), format=self.format, name=self.name, status=self.status)
        self._failures.ok()
        run.status = self.status
        return run

    def read_into(self, run: ImportedRun) -> None:
        raise NotImplementedError

    def saw(self, *files: GrowingFile) -> None:
        """Note the files' modification times as the source's last write."""
        times = [f.mtime for f in files if f.mtime is not None] + ([self.last_write] if self.last_write else [])
        self.last_write = max(times) if times else None


@contextlib.contextmanager
def read_only_sqlite(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection, closed on leaving (sqlite3's own context manager only ends a
    transaction: a connection left open keeps a stale view of a WAL database that its writer
    (trackio, MLflow) goes on appending to, and a follower reading through it sees no new rows)."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise SourceError(f"{path}: cannot open the SQLite database ({exc})") from None
    try:
        yield db
    finally:
        db.close()
