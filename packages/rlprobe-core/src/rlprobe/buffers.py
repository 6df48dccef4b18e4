"""What the writer thread holds between two flushes, and how it becomes Arrow tables.

The writer shares the GIL with training, so per-value Python work is what limits it.
Steps are buffered as the queue handed them over and converted at flush time in bulk:
list comprehensions pull out steps, times and each step's tuple of metric names;
consecutive ``log_step`` calls almost always pass the same names, so the steps of one
name tuple are transposed in C (``zip``) and each column handed to pyarrow in one call.
Only what pyarrow refuses (a string, a nested dict, an array, a bad step...) takes the
per-value path of ``cleaning``, which keeps what it can and reports the rest as problems.

Isolation is per value, never per flush: a bad value costs that value, a bad step that
row, a bad sample that sample. Should conversion still fail in a way ``cleaning`` did not
foresee, the flush is converted again record by record, so that the failure costs the
records it happens on and none beside them.
"""
from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from .cleaning import INDEX_COLUMN as _INDEX
from .cleaning import Problems, clean_sample, describe_error, flatten_metric, metric_column, preview, to_step
from .sampling import SamplingConfig, select_samples
from .storage.schema import FLOAT, order_steps, samples_table, unify

__all__ = ["NO_STEP", "StepBuffer", "SampleBuffer"]

#: ``log_step``'s step when it was passed by keyword (it is then among the metrics).
NO_STEP: Any = object()
#: Distinct sets of metric names converted column-wise per flush; steps with yet other
#: sets are converted value by value.
_MAX_GROUPS = 32
_CONVERSION_ERRORS = (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError)
_UNSET = object()


class StepBuffer:
    """Steps logged since the last flush. Not thread-safe (the writer thread owns it)."""

    __slots__ = ("rows", "_items", "_columns")

    def __init__(self) -> None:
        self.rows = 0
        #: Queue items ``(kind, step, time, metrics)``, in logged order.
        self._items: list[tuple[Any, ...]] = []
        #: metric name → column name (None: not a valid column), for names seen before.
        self._columns: dict[str, str | None] = {}

    def extend(self, items: list[tuple[Any, ...]]) -> None:
        """Buffer ``log_step`` queue items as they are. Takes ownership of their metrics."""
        self._items += items
        self.rows += len(items)

    def take(self, problems: Problems) -> pa.Table | None:
        """Everything buffered as one steps table in logged order (no ``_part`` column),
        and an empty buffer. Bad values are left out and reported to ``problems``. Never
        raises: a row whose conversion fails unforeseeably is dropped and reported."""
        items = self._items
        if not items:
            return None
        self._items = []
        self.rows = 0
        scratch = Problems()
        try:
            table = self._table(items, scratch)
        except Exception:  # noqa: BLE001 - unforeseen input: convert each row alone
            scratch = Problems()
            tables = [self._row_alone(item, scratch) for item in items]
            table = unify(tables) if any(t is not None for t in tables) else None
            table = None if table is None else order_steps(table)
        problems.merge(scratch)
        return table

    def _row_alone(self, item: tuple[Any, ...], problems: Problems) -> pa.Table | None:
        scratch = Problems()
        try:
            table = self._table([item], scratch)
        except Exception as exc:  # noqa: BLE001
            problems.add(f"log_step: a row could not be converted ({describe_error(exc)}); row dropped",
                         item[1] if type(item[1]) is int else None)
            return None
        problems.merge(scratch)
        return table

    def _table(self, items: list[tuple[Any, ...]], problems: Problems) -> pa.Table | None:
        steps = [item[1] for item in items]
        try:
            if not all(type(step) is int for step in steps):
                raise TypeError("not all steps are ints")
            step_array = pa.array(steps, pa.int64())
        except _CONVERSION_ERRORS:
            items, steps = _valid_steps(items, problems)
            if not items:
                return None
            step_array = pa.array(steps, pa.int64())
        times = pa.array([item[2] for item in items], FLOAT)
        names = [tuple(item[3]) for item in items]
        if names.count(names[0]) == len(names):
            return order_steps(self._convert(names[0], items, None, step_array, times, problems))
        groups: dict[tuple[str, ...], list[int]] = {}
        loose: list[int] = []
        for i, key in enumerate(names):
            rows = groups.get(key)
            if rows is None:
                if len(groups) >= _MAX_GROUPS:
                    loose.append(i)
                    continue
                rows = groups[key] = []
            rows.append(i)
        tables = []
        for key, rows in groups.items():
            index = pa.array(rows, pa.int64())
            tables.append(self._convert(key, [items[i] for i in rows], index, step_array.take(index),
                                        times.take(index), problems))
        if loose:
            index = pa.array(loose, pa.int64())
            tables.append(self._loose_table([items[i] for i in loose], index, step_array.take(index),
                                            times.take(index), problems))
        table = unify(tables)
        return order_steps(table.take(pc.sort_indices(table.column(_INDEX))).drop_columns([_INDEX]))

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

    def _convert(self, names: tuple[str, ...], items: list[tuple[Any, ...]], index: pa.Array | None,
                 steps: pa.Array, times: pa.Array, problems: Problems) -> pa.Table:
        try:
            return self._group_table(names, items, index, steps, times, problems)
        except Exception:  # noqa: BLE001 - unforeseen input: fall back to value by value
            table = self._loose_table(items, pa.array(range(len(items)), pa.int64()) if index is None else index,
                                      steps, times, problems)
            return table.drop_columns([_INDEX]) if index is None else table

    def _group_table(self, names: tuple[str, ...], items: list[tuple[Any, ...]], index: pa.Array | None,
                     steps: pa.Array, times: pa.Array, problems: Problems) -> pa.Table:
        """Steps that all logged the metric names ``names`` (in that order)."""
        columns: dict[str, Any] = {} if index is None else {_INDEX: index}
        columns["step"] = steps
        columns["time"] = times
        slow: list[tuple[str, tuple[Any, ...]]] = []
        if names:
            for name, values in zip(names, zip(*[tuple(item[3].values()) for item in items], strict=True), strict=True):
                key = self._column(name)
                if key is not None and key not in columns:
                    try:
                        columns[key] = pa.array(values, FLOAT)
                        continue
                    except _CONVERSION_ERRORS:
                        pass
                slow.append((name, values))
        if slow:
            at_steps = steps.to_pylist()
            pending: dict[str, list[Any]] = {}
            for name, values in slow:
                for i, value in enumerate(values):
                    out: dict[str, float | None] = {}
                    flatten_metric(name, value, out, problems, at_steps[i])
                    for key, number in out.items():
                        pending.setdefault(key, [_UNSET] * len(items))[i] = number
            _merge(columns, pending)
        return pa.table(columns)

    def _loose_table(self, items: list[tuple[Any, ...]], index: pa.Array, steps: pa.Array, times: pa.Array,
                     problems: Problems) -> pa.Table:
        """Steps converted value by value (too many distinct sets of names to group)."""
        at_steps = steps.to_pylist()
        pending: dict[str, list[Any]] = {}
        for i, item in enumerate(items):
            out: dict[str, float | None] = {}
            for name, value in item[3].items():
                flatten_metric(name, value, out, problems, at_steps[i])
            for key, number in out.items():
                pending.setdefault(key, [_UNSET] * len(items))[i] = number
        columns: dict[str, Any] = {_INDEX: index, "step": steps, "time": times}
        _merge(columns, pending)
        return pa.table(columns)


def _valid_steps(items: list[tuple[Any, ...]], problems: Problems) -> tuple[list[tuple[Any, ...]], list[int]]:
    """The items whose step is a whole number in int64 range (a step passed by keyword is
    taken from the metrics, in a copy: the items stay as logged), and those steps; the rest
    are reported and dropped."""
    kept, steps = [], []
    for item in items:
        step, metrics = item[1], item[3]
        if step is NO_STEP:
            step = metrics.get("step")
            item = (*item[:3], {name: value for name, value in metrics.items() if name != "step"})
        try:
            steps.append(to_step(step))
        except TypeError as exc:
            problems.add(f"log_step: step {exc}; record dropped", None)
            continue
        kept.append(item)
    return kept, steps


def _merge(columns: dict[str, Any], pending: dict[str, list[Any]]) -> None:
    """Add per-value results to ``columns``; where a column already exists (two spellings
    of one metric in a step), the later-converted value wins where it was given."""
    for key, values in pending.items():
        if key in columns:
            base = columns[key].to_pylist()
            values = [b if v is _UNSET else v for b, v in zip(base, values, strict=True)]
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
            try:
                row = clean_sample(raw, step, self._rank, problems)
            except Exception as exc:  # noqa: BLE001 - unforeseen input costs that sample alone
                problems.add(f"log_samples: a sample could not be read ({describe_error(exc)}); dropped", step)
                continue
            if row is None:
                continue
            if row.get("sample_id") is None:
                row["sample_id"] = f"{step}-{self._rank}-{self._serial}"
            self._serial += 1
            rows.append(row)
        if select:
            rows = select_samples(rows, [r.get("reward") for r in rows], step, self._sampling,
                                  [r.get("group_id") for r in rows])
        for row in rows:
            self.chars += len(row.get("prompt") or "") + len(row.get("completion") or "")
        self.rows.extend(rows)

    def take(self, problems: Problems) -> pa.Table | None:
        """Everything buffered as one samples table (no ``_part`` column), and an empty buffer.
        Never raises: a row that still fails to convert is dropped and reported."""
        if not self.rows:
            return None
        rows, self.rows, self.chars = self.rows, [], 0
        try:
            return samples_table(rows)
        except (UnicodeEncodeError, pa.ArrowInvalid):
            rows = [_valid_unicode(row, problems) for row in rows]
        except Exception:  # noqa: BLE001 - unforeseen: found below, row by row
            pass
        try:
            return samples_table(rows)
        except Exception:  # noqa: BLE001
            pass
        tables = []
        for row in rows:
            try:
                tables.append(samples_table([row]))
            except Exception as exc:  # noqa: BLE001
                problems.add(f"log_samples: a sample could not be converted ({describe_error(exc)}); dropped",
                             row.get("step"))
        return pa.concat_tables(tables) if tables else None


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
