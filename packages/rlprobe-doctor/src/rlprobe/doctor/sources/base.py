"""What every source reader produces (an ``ImportedRun``) and how it becomes a recording.

A reader turns a foreign log into plain rows; ``write_recording`` writes them with core's
``RunWriter`` as a format-v1 recording, so the doctor reads every source the same way.
"""
from __future__ import annotations

import functools
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from rlprobe.cleaning import Problems, clean_sample, flatten_metric, metric_column
from rlprobe.storage import RunStatus, RunWriter
from rlprobe.storage.layout import MANIFEST
from rlprobe.storage.schema import order_steps

from ..errors import UnusableInput

__all__ = ["ImportedRun", "SourceError", "number", "metrics_row", "columns_of", "write_recording"]

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
    status: str = RunStatus.FINISHED
    problems: Problems = field(default_factory=Problems)
    #: Steps already as a table (``step`` and metric columns named as the recording names
    #: them), for readers that decode columns at once; written after ``steps``.
    step_table: Any = None

    def add_step(self, step: int, metrics: Mapping[str, Any], prefix: str = "") -> None:
        """Append one row of metrics at ``step`` (names folded as ``metrics_row`` says)."""
        self.steps.append(metrics_row(step, metrics, self.problems, prefix))

    def metric_names(self) -> set[str]:
        names = {k for row in self.steps for k in row if k != "step"}
        if self.step_table is not None:
            names.update(c for c in self.step_table.column_names if c != "step")
        return names

    def note(self, message: str, step: int | None = None, **data: Any) -> None:
        """Record how the source was read (an ``import_note`` event), e.g. how steps were inferred."""
        self.events.append(("import_note", step, message, data))


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


def columns_of(keys: tuple[str, ...], run: ImportedRun) -> tuple[str | None, ...]:
    """The recording's column for each metric name (``None``: the name cannot be one, and
    ``run.problems`` says so), folded as ``metrics_row`` folds them."""
    columns = _columns(keys, "")
    for key, column in zip(keys, columns):
        if column is None:
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
    for column, (key, value) in zip(_columns(tuple(metrics), prefix), metrics.items()):
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
            problems.add(f"import: metric name {str(key)[:60]!r} cannot be a column; dropped", step)
            continue
        out[column] = as_number
    out["step"] = step
    return out


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
    tmp = out.with_name(f".{out.name}.{os.getpid()}.importing")
    shutil.rmtree(tmp, ignore_errors=True)
    problems = run.problems
    manifest = {
        "run_id": run.name or Path(run.source.rstrip("/")).name or "imported",
        "algorithm": run.algorithm,
        "model_name": run.model_name,
        "trainer_config": run.trainer_config,
        "world_size": 1,
        "rank": 0,
        "recorded_ranks": [0],
        "imported_from": {"source": run.source, "format": run.format, "name": run.name},
    }
    try:
        writer = RunWriter(tmp, manifest)
        if run.created_at is not None:
            writer.manifest["created_at"] = run.created_at
        steps = _sorted_steps(run.steps)
        samples = _clean_samples(run.samples, problems)
        for start in range(0, max(len(steps), len(samples), 1), _ROWS_PER_PART):
            chunk_steps = steps[start:start + _ROWS_PER_PART]
            chunk_samples = samples[start:start + _ROWS_PER_PART]
            if chunk_steps or chunk_samples:
                writer.write_part(chunk_steps, chunk_samples)
        if run.step_table is not None:
            table = order_steps(run.step_table)
            for start in range(0, table.num_rows, _ROWS_PER_PART):
                writer.write_part(table.slice(start, _ROWS_PER_PART))
        events = [(kind, step, message, data, None) for kind, step, message, data in run.events]
        events += [("bad_record", step, message, data, None) for message, step, data in problems.events()]
        if events:
            writer.append_events(events)
        writer.counts["bad_records"] = problems.total()
        writer.close(status=run.status)
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


def _clean_samples(rows: Iterable[Mapping[str, Any]], problems: Problems) -> list[dict[str, Any]]:
    out = []
    for serial, raw in enumerate(rows):
        step = int(raw.get("step", 0))
        row = clean_sample({k: v for k, v in raw.items() if k != "step"}, step, 0, problems)
        if row is None:
            continue
        if row.get("sample_id") is None:
            row["sample_id"] = f"{step}-0-{serial}"
        out.append(row)
    return out

