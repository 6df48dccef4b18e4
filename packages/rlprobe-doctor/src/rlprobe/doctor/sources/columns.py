"""Step rows gathered as columns: what a foreign log's rows become without a dict a row.

A large log (100k Trainer log dicts, 100k W&B history rows) spends most of its reading
turning each row into a clean ``{"step", column: float}`` dict (``base.metrics_row``) and
then each dict back into columns. ``StepColumns`` takes the rows as they come and groups
them by the shape of their keys: the columns of a shape's keys are worked out once, and
its values are converted a column at a time by pyarrow. The table it builds is the one the
row path writes (``base.write_recording``: the rows merged by step, a later value of a
metric over an earlier one, the columns in the order they first appear), and
``tests/sources/test_step_columns.py`` holds the two paths equal. A shape whose values are
not all numbers (text, nested dicts, bools) or whose names cannot all be columns goes the
row path, in the rows' order, so its problems are counted as before.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from rlprobe.cleaning import Problems

__all__ = ["StepColumns", "float_column", "int_column"]

#: pyarrow's types of a column of Python numbers (None: absent).
_NUMERIC = (pa.float64(), pa.int64(), pa.null())


class _Shape:
    """The rows of one key shape: their index among all rows, step and values (all of the
    row's, of which the keys ``keys`` name those at ``keep``; all of them where None)."""

    __slots__ = ("keys", "prefix", "keep", "rows", "steps", "values")

    def __init__(self, keys: tuple[Any, ...], prefix: str, keep: tuple[int, ...] | None) -> None:
        self.keys, self.prefix, self.keep = keys, prefix, keep
        self.rows: list[int] = []
        self.steps: list[int] = []
        self.values: list[tuple[Any, ...]] = []


class _Piece:
    """One column's entries in some rows: ``rows`` (indices among all rows), ``values``
    (float64), ``order`` (where the column stood in each row's dict) and, where some are
    None (a nested value the row path keeps as a null), ``present``."""

    __slots__ = ("rows", "values", "order", "present")

    def __init__(self, rows: np.ndarray, values: np.ndarray, order: np.ndarray,
                 present: np.ndarray | None = None) -> None:
        self.rows, self.values, self.order, self.present = rows, values, order, present


class StepColumns:
    """Step rows (``add``) as one steps table (``table``). Not thread-safe."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        self._count = 0
        self._shapes: dict[tuple[tuple[Any, ...], str, frozenset[Any], str | None], _Shape] = {}
        self._times: list[tuple[int, float]] = []

    def __len__(self) -> int:
        return self._count

    def add(self, step: int, metrics: Mapping[str, Any], prefix: str = "",
            skip: frozenset[Any] = frozenset(), only: str | None = None) -> None:
        """One row at ``step``: as ``base.metrics_row(step, metrics, problems, prefix)``
        would make it, leaving out the keys in ``skip`` and, with ``only``, the keys that do
        not start with it."""
        self.add_values(step, tuple(metrics), tuple(metrics.values()), prefix, skip, only)

    def add_values(self, step: int, keys: tuple[Any, ...], values: tuple[Any, ...], prefix: str = "",
                   skip: frozenset[Any] = frozenset(), only: str | None = None) -> None:
        """``add`` of the row ``dict(zip(keys, values))`` (``keys`` without repeats), for a
        caller that holds them apart."""
        shape = self._shapes.get((keys, prefix, skip, only))
        if shape is None:
            kept = tuple(i for i, k in enumerate(keys) if k not in skip and (only is None or k.startswith(only)))
            shape = self._shapes[(keys, prefix, skip, only)] = _Shape(
                tuple(keys[i] for i in kept), prefix, None if len(kept) == len(keys) else kept)
        shape.rows.append(self._count)
        shape.steps.append(step)
        shape.values.append(values)
        self._count += 1

    def set_time(self, when: float) -> None:
        """The last row's ``time`` (a tracker's timestamp of the step)."""
        self._times.append((self._count - 1, when))

    def steps(self) -> np.ndarray:
        """Each row's step, in the order added."""
        out = np.empty(self._count, np.int64)
        for shape in self._shapes.values():
            out[np.asarray(shape.rows, np.int64)] = np.asarray(shape.steps, np.int64)
        return out

    def table(self) -> pa.Table | None:
        """The rows as a steps table (``step``, then the columns in the order the row path
        first writes them), one row a step; None when no row was added."""
        if not self._count:
            return None
        from .base import _columns, metrics_row

        pieces: dict[str, list[_Piece]] = {}
        slow: list[tuple[int, _Shape, int]] = []
        for shape in self._shapes.values():
            if not self._fast(shape, pieces, _columns(shape.keys, shape.prefix)):
                slow += [(row, shape, i) for i, row in enumerate(shape.rows)]
        slow.sort(key=lambda item: item[0])
        by_column: dict[str, tuple[list[int], list[float | None], list[int]]] = {}
        for row, shape, i in slow:  # in the rows' order, as the row path meets them
            kept = shape.values[i] if shape.keep is None else tuple(shape.values[i][j] for j in shape.keep)
            made = metrics_row(shape.steps[i], dict(zip(shape.keys, kept, strict=True)), self.problems, shape.prefix)
            for place, (column, value) in enumerate(made.items()):
                if column != "step":
                    entries = by_column.setdefault(column, ([], [], []))
                    entries[0].append(row)
                    entries[1].append(value)
                    entries[2].append(place)
        for column, (rows, values, order) in by_column.items():
            present = np.array([v is not None for v in values], bool)
            floats = np.array([np.nan if v is None else v for v in values], np.float64)
            pieces.setdefault(column, []).append(_Piece(np.array(rows, np.int64), floats, np.array(order, np.int64),
                                                        None if present.all() else present))
        if self._times:
            rows_t, times = zip(*self._times, strict=True)
            pieces.setdefault("time", []).append(_Piece(np.array(rows_t, np.int64), np.array(times, np.float64),
                                                        np.full(len(rows_t), 1 << 30, np.int64)))
        return _assemble(self.steps(), pieces)

    def _fast(self, shape: _Shape, pieces: dict[str, list[_Piece]], columns: Sequence[str | None]) -> bool:
        """Add ``shape``'s columns to ``pieces`` when every value is a number or None and
        every name a column (or a name the recording keeps for itself); False, adding
        nothing, for a shape the row path must take."""
        from .base import _reserved

        if any(column is None and not _reserved(shape.prefix + str(key))
               for key, column in zip(shape.keys, columns, strict=True)):
            return False
        arrays = _numbers(shape) if shape.values and shape.keys else []
        if arrays is None:
            return False
        rows = np.asarray(shape.rows, np.int64)
        # A column two names fold into (TRL's completion_length and completions/mean_length)
        # takes the later name's value where it has one, at the earlier name's place.
        chosen: dict[str, tuple[int, np.ndarray, np.ndarray]] = {}
        for place, (column, (values, present)) in enumerate(zip(columns, arrays, strict=True)):
            if column is None or not present.any():
                continue
            if column in chosen:
                first, old_values, old_present = chosen[column]
                values = np.where(present, values, old_values)
                present = present | old_present
                place = first
            chosen[column] = (place, values, present)
        for column, (place, values, present) in chosen.items():
            if present.all():
                piece = _Piece(rows, values, np.full(len(rows), place, np.int64))
            else:
                piece = _Piece(rows[present], values[present], np.full(int(present.sum()), place, np.int64))
            if len(piece.rows):
                pieces.setdefault(column, []).append(piece)
        return True


def _numbers(shape: _Shape) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Each kept column of ``shape`` as (float64 values, present), the values as
    ``base.number`` reads them (None is absent); None when one is not a number the row path
    reads as ``float(value)`` (text that is not a number, a dict, a list)."""
    try:  # one conversion for the shape: float() of each value, and NaN for None
        matrix = np.array(shape.values, np.float64)
    except (TypeError, ValueError, OverflowError):
        return _by_column(shape)
    if matrix.shape != (len(shape.values), len(shape.values[0])):
        return _by_column(shape)
    if shape.keep is not None:
        matrix = matrix[:, list(shape.keep)]
    absent = np.zeros(matrix.shape, bool)
    keep = shape.keep or range(matrix.shape[1])
    for row, column in zip(*np.nonzero(np.isnan(matrix)), strict=True):  # NaN, or a None
        absent[row, column] = shape.values[row][keep[column]] is None
    return [(matrix[:, j], ~absent[:, j]) for j in range(matrix.shape[1])]


def _by_column(shape: _Shape) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """``_numbers`` a column at a time, through pyarrow's types: numbers, or None."""
    out = []
    for j in shape.keep if shape.keep is not None else range(len(shape.keys)):
        try:
            array = pa.array([values[j] for values in shape.values])
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            return None
        if array.type not in _NUMERIC:
            return None
        present = ~np.asarray(array.is_null(), bool) if array.null_count else np.ones(len(array), bool)
        values = np.zeros(len(array)) if array.type == pa.null() else array.to_numpy(zero_copy_only=False)
        out.append((values.astype(np.float64, copy=False), present))
    return out


def _assemble(steps: np.ndarray, pieces: dict[str, list[_Piece]]) -> pa.Table:
    """One row a step (sorted), each column the last value its rows at that step gave (in
    the rows' order; None gives none), the columns ordered by where the row path first
    writes them: by the (place in the sort by step, place in the row) of their first entry."""
    order = np.argsort(steps, kind="stable")
    unique, rank_of_sorted = np.unique(steps[order], return_inverse=True)
    rank = np.empty(len(steps), np.int64)
    rank[order] = rank_of_sorted  # the output row of each input row
    position = np.empty(len(steps), np.int64)
    position[order] = np.arange(len(steps))  # each row's place in the stable sort by step
    unique_steps = len(unique) == len(steps)
    columns: list[tuple[tuple[int, int], str, pa.Array]] = []
    start = np.searchsorted(steps[order], unique)  # the place in that sort of each step's first row
    for column, parts in pieces.items():
        rows = np.concatenate([p.rows for p in parts])
        places = np.concatenate([p.order for p in parts])
        values = np.concatenate([p.values for p in parts])
        if any(p.present is not None for p in parts):
            present = np.concatenate([np.ones(len(p.rows), bool) if p.present is None else p.present for p in parts])
            # A None makes the column only in its step's first row (the row path's merge copies
            # that row whole, and leaves a later row's None out).
            counted = present | (position[rows] == start[rank[rows]])
            if not counted.any():
                continue
            first = int(np.lexsort((places[counted], position[rows[counted]]))[0])
            where = (int(position[rows[counted][first]]), int(places[counted][first]))
            rows, values = rows[present], values[present]
        else:
            first = int(np.lexsort((places, position[rows]))[0])
            where = (int(position[rows[first]]), int(places[first]))
        if len(parts) > 1:  # each part's rows are in order: so are one part's
            by_row = np.argsort(rows, kind="stable")
            rows, values = rows[by_row], values[by_row]
        target = rank[rows]
        if len(target) > 1 and not unique_steps:  # the last value of each output row, the rows in order
            by_target = np.argsort(target, kind="stable")
            sorted_target = by_target[np.r_[target[by_target][1:] != target[by_target][:-1], True]]
            target, values = target[sorted_target], values[sorted_target]
        data = np.full(len(unique), np.nan)
        filled = np.zeros(len(unique), bool)
        data[target] = values
        filled[target] = True
        columns.append((where, column,
                        float_column(data, filled)))
    columns.sort(key=lambda item: item[0])
    return pa.table({"step": int_column(unique), **{name: array for _, name, array in columns}})


# ``pa.array`` of anything, a list or a numpy array, imports pandas where it is installed
# (pyarrow looks for pandas objects): 0.3-0.7 s of a first read that builds its table from
# numpy, and that reading a recording never pays. These build the arrays from their buffers.

def float_column(values: np.ndarray, present: np.ndarray | None = None) -> pa.Array:
    """``values`` as a float64 Arrow array, null where ``present`` is False."""
    data = np.ascontiguousarray(values, np.float64)
    if present is None or present.all():
        return pa.Array.from_buffers(pa.float64(), len(data), [None, pa.py_buffer(data)], null_count=0)
    bits = np.packbits(np.asarray(present, bool), bitorder="little")
    return pa.Array.from_buffers(pa.float64(), len(data), [pa.py_buffer(bits), pa.py_buffer(data)],
                                 null_count=int(len(data) - np.count_nonzero(present)))


def int_column(values: np.ndarray) -> pa.Array:
    """``values`` as an int64 Arrow array (no nulls)."""
    data = np.ascontiguousarray(values, np.int64)
    return pa.Array.from_buffers(pa.int64(), len(data), [None, pa.py_buffer(data)], null_count=0)
