"""What the writer thread holds between two flushes, and how it becomes Arrow tables.

The writer shares the GIL with training, so per-value Python work is what limits it.
Consecutive ``log_step`` calls almost always pass the same metric names, so steps are
kept grouped by their tuple of names, each step as one tuple of values; at flush time a
group is transposed in C (``zip``) and each column handed to pyarrow in one call. Only a
column pyarrow refuses (a string, a nested dict, an array...) takes the per-value path of
``cleaning``, which keeps what it can and reports the rest as problems.
"""
from __future__ import annotations

from typing import Any, Mapping

import pyarrow as pa
import pyarrow.compute as pc

from .cleaning import INDEX_COLUMN as _INDEX
from .cleaning import Problems, clean_sample, flatten_metric, metric_column, preview
from .sampling import SamplingConfig, select_samples
from .storage.schema import FLOAT, order_steps, samples_table, unify

__all__ = ["StepBuffer", "SampleBuffer"]

#: Distinct sets of metric names grouped per flush; rows with yet other sets go row by row.
_MAX_GROUPS = 32
_CONVERSION_ERRORS = (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError)
_UNSET = object()


class _Group:
    __slots__ = ("keys", "index", "steps", "times", "values")

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys = keys
        self.index: list[int] = []
        self.steps: list[int] = []
        self.times: list[float] = []
        self.values: list[tuple[Any, ...]] = []


class StepBuffer:
    """Steps logged since the last flush. Not thread-safe (the writer thread owns it)."""

    __slots__ = ("rows", "_groups", "_loose", "_columns")

    def __init__(self) -> None:
        self.rows = 0
        self._groups: dict[tuple[str, ...], _Group] = {}
        self._loose: list[tuple[int, int, float, Mapping[Any, Any]]] = []
        #: metric name → column name, for names already validated.
        self._columns: dict[str, str | None] = {}

    def add(self, step: int, when: float, metrics: Mapping[str, Any]) -> None:
        """Buffer one step (``step`` already validated). Takes ownership of ``metrics``."""
        keys = tuple(metrics)
        group = self._groups.get(keys)
        if group is None:
            if len(self._groups) >= _MAX_GROUPS:
                self._loose.append((self.rows, step, when, metrics))
                self.rows += 1
                return
            group = self._groups[keys] = _Group(keys)
        group.index.append(self.rows)
        group.steps.append(step)
        group.times.append(when)
        group.values.append(tuple(metrics.values()))
        self.rows += 1

    def take(self, problems: Problems) -> pa.Table | None:
        """Everything buffered as one steps table in logged order (no ``_part`` column),
        and an empty buffer. Bad values are left out and reported to ``problems``."""
        if not self.rows:
            return None
        tables = []
        for group in self._groups.values():
            try:
                tables.append(self._group_table(group, problems))
            except Exception:  # noqa: BLE001 - unforeseen input: fall back to value by value
                self._loose.extend(zip(group.index, group.steps, group.times,
                                       (dict(zip(group.keys, values)) for values in group.values)))
        if self._loose:
            tables.append(self._loose_table(problems))
        self._groups = {}
        self._loose = []
        self.rows = 0
        table = unify(tables)
        if len(tables) > 1:
            table = table.take(pc.sort_indices(table.column(_INDEX)))
        return order_steps(table.drop_columns([_INDEX]))

    def _column(self, name: str) -> str | None:
        try:
            return self._columns[name]
        except KeyError:
            pass
        try:
            key: str | None = metric_column(name)
        except TypeError:
            key = None
        self._columns[name] = key
        return key

    def _group_table(self, group: _Group, problems: Problems) -> pa.Table:
        n = len(group.index)
        columns: dict[str, Any] = {
            _INDEX: pa.array(group.index, pa.int64()),
            "step": pa.array(group.steps, pa.int64()),
            "time": pa.array(group.times, FLOAT),
        }
        slow: list[tuple[str, tuple[Any, ...]]] = []
        for name, values in zip(group.keys, zip(*group.values)):
            key = self._column(name)
            if key is not None and key not in columns:
                try:
                    columns[key] = pa.array(values, FLOAT)
                    continue
                except _CONVERSION_ERRORS:
                    pass
            slow.append((name, values))
        if slow:
            pending: dict[str, list[Any]] = {}
            for name, values in slow:
                for i, value in enumerate(values):
                    out: dict[str, float | None] = {}
                    flatten_metric(name, value, out, problems, group.steps[i])
                    for key, number in out.items():
                        pending.setdefault(key, [_UNSET] * n)[i] = number
            _merge(columns, pending, n)
        return pa.table(columns)

    def _loose_table(self, problems: Problems) -> pa.Table:
        n = len(self._loose)
        pending: dict[str, list[Any]] = {}
        for i, (_, step, _when, metrics) in enumerate(self._loose):
            out: dict[str, float | None] = {}
            for name, value in metrics.items():
                flatten_metric(name, value, out, problems, step)
            for key, number in out.items():
                pending.setdefault(key, [_UNSET] * n)[i] = number
        columns: dict[str, Any] = {
            _INDEX: pa.array([row[0] for row in self._loose], pa.int64()),
            "step": pa.array([row[1] for row in self._loose], pa.int64()),
            "time": pa.array([row[2] for row in self._loose], FLOAT),
        }
        _merge(columns, pending, n)
        return pa.table(columns)


def _merge(columns: dict[str, Any], pending: dict[str, list[Any]], n: int) -> None:
    """Add per-value results to ``columns``; where a column already exists (two spellings
    of one metric in a step), the later-converted value wins where it was given."""
    for key, values in pending.items():
        if key in columns:
            base = columns[key].to_pylist()
            values = [b if v is _UNSET else v for b, v in zip(base, values)]
        else:
            values = [None if v is _UNSET else v for v in values]
        columns[key] = pa.array(values, FLOAT)


class SampleBuffer:
    """Samples kept since the last flush (already cleaned and selected). Not thread-safe."""

    __slots__ = ("rows", "chars", "_serial", "_rank", "_sampling")

    def __init__(self, rank: int, sampling: SamplingConfig) -> None:
        self.rows: list[dict[str, Any]] = []
        #: Rough size of the buffered text, to bound memory.
        self.chars = 0
        self._serial = 0
        self._rank = rank
        self._sampling = sampling

    def add(self, step: int, batch: Any, select: bool, problems: Problems) -> None:
        """Clean one ``log_samples`` batch, apply the sampling policy and keep the result."""
        try:
            raw_rows = list(batch)
        except Exception as exc:  # noqa: BLE001 - any iterable the user passed may fail
            problems.add(f"log_samples: samples are a {type(batch).__name__}, not a list ({preview(exc)}); "
                         "dropped", step)
            return
        rows = []
        for raw in raw_rows:
            row = clean_sample(raw, step, self._rank, problems)
            if row is None:
                continue
            if row.get("sample_id") is None:
                row["sample_id"] = f"{step}-{self._rank}-{self._serial}"
            self._serial += 1
            rows.append(row)
        if select:
            rows = select_samples(rows, [r.get("reward") for r in rows], step, self._sampling)
        for row in rows:
            self.chars += len(row.get("prompt") or "") + len(row.get("completion") or "")
        self.rows.extend(rows)

    def take(self, problems: Problems) -> pa.Table | None:
        """Everything buffered as one samples table (no ``_part`` column), and an empty buffer."""
        if not self.rows:
            return None
        rows, self.rows, self.chars = self.rows, [], 0
        try:
            return samples_table(rows)
        except (UnicodeEncodeError, pa.ArrowInvalid):
            return samples_table([_valid_unicode(row, problems) for row in rows])


def _valid_unicode(row: dict[str, Any], problems: Problems) -> dict[str, Any]:
    for key, value in row.items():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                row[key] = value.encode("utf-8", "replace").decode("utf-8")
                problems.add(f"log_samples: sample field {key!r} is not valid Unicode (lone surrogates); "
                             "replaced with '?'", row.get("step"))
    components = row.get("reward_components")
    if components:
        row["reward_components"] = [(name.encode("utf-8", "replace").decode("utf-8"), v) for name, v in components]
    return row
