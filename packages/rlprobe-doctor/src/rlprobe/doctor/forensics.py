"""Sample forensics: which captured samples to read, and which drove the update at a step.

``query_samples`` and ``spike_drivers`` take a run directory or a loaded ``RunView``. Given
a directory they never load the run: ranking reads only ``step`` and the column ranked by,
and the full rows (prompt and completion text) are read for the ``k`` kept, so a query over
a million captured samples takes a fraction of a second (``bench/samples_query.py``).
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import polars as pl

from rlprobe.records import EventKind
from rlprobe.storage import RunReader, RunStatus

from .errors import UnusableInput
from .toolkit import MAD_SCALE
from .view import RunView, open_run

__all__ = ["SORT_KEYS", "RunLike", "CapturedSamples", "as_view", "query_samples", "spike_drivers", "metrics_around",
           "sample_records"]

#: What ``query_samples`` ranks by; each is a column of the samples table.
SORT_KEYS: tuple[str, ...] = ("reward", "advantage", "kl", "length", "logprob")
#: A run directory or a run already loaded.
RunLike = str | os.PathLike[str] | RunView

_ROW = "_row"
_HIDDEN = ("_row", "_part")
_RETRIES = 3
#: What a run without a table of a kind is read as (every sample query stops at ``captured == 0``).
_NOTHING = pl.DataFrame({"step": pl.Series([], dtype=pl.Int64)})


def as_view(run: RunLike) -> RunView:
    """``run`` itself when it is a ``RunView``, else the run directory loaded.
    Raises ``UnusableInput`` when there is no readable recording there."""
    return run if isinstance(run, RunView) else RunView.load(run)


def _valid(column: str) -> pl.Expr:
    """The column holds a usable number (neither missing nor NaN)."""
    return pl.col(column).is_not_null() & pl.col(column).cast(pl.Float64).is_not_nan()


def _files(reader: RunReader, kind: str) -> list[Path]:
    """Every Parquet file holding the run's rows of ``kind`` once: per recorded rank, the
    compacted file and the parts written after its watermark (``RunReader.files``)."""
    return [file.path for file in reader.files(kind)]


def _fingerprint(files: list[Path]) -> list[tuple[int, int]]:
    """Size and modification time of each file; raises ``FileNotFoundError`` for a vanished one."""
    return [(st.st_size, st.st_mtime_ns) for st in map(os.stat, files)]


def _scan(files: list[Path]) -> pl.LazyFrame:
    if not files:
        return _NOTHING.lazy()
    return pl.scan_parquet(files, missing_columns="insert", extra_columns="ignore", parallel="prefiltered")


Scan = Callable[[], pl.LazyFrame]
T = TypeVar("T")


@dataclass(frozen=True)
class _Snapshot:
    """The run's samples and steps as one consistent set of files (or frames in memory)."""

    samples: Scan
    steps: Scan
    unchanged: Callable[[], bool]
    """True when the files are still those read (nothing flushed or compacted since)."""


def _disk_snapshot(reader: RunReader) -> _Snapshot:
    files = {kind: _files(reader, kind) for kind in ("samples", "steps")}
    before = {kind: _fingerprint(paths) for kind, paths in files.items()}

    def unchanged() -> bool:
        return all(_files(reader, kind) == paths and _fingerprint(paths) == before[kind]
                   for kind, paths in files.items())

    return _Snapshot(lambda: _scan(files["samples"]), lambda: _scan(files["steps"]), unchanged)


class CapturedSamples:
    """The captured samples of one run, ranked without loading them all.

    A query is two passes over a lazy frame: the first reads ``step`` and the ranking
    column to pick rows by position, the second reads full rows for those alone. On disk,
    both passes must see the same files; a run compacting or flushing in between is read
    again. Not thread-safe.
    """

    def __init__(self, label: str, snapshot: Callable[[], _Snapshot], manifest: dict[str, Any],
                 events: Callable[[], list[dict[str, Any]]]) -> None:
        self.label = label
        self._snapshot = snapshot
        self._manifest = manifest
        self._events = events

        def bounds(snap: _Snapshot) -> tuple[int | None, int | None, int]:
            span = [pl.col("step").min().alias("lo"), pl.col("step").max().alias("hi"), pl.len().alias("n")]
            both = pl.concat(pl.collect_all([snap.samples().select(span), snap.steps().select(span)]))
            return both["lo"].min(), both["hi"].max(), both["n"][0]  # type: ignore[return-value]

        lo, hi, n = self._consistently(bounds)
        #: Number of samples captured (any step).
        self.captured: int = int(n)
        #: First and last step the run recorded anything for (steps or samples); None if nothing.
        self.run_range: tuple[int, int] | None = (int(lo), int(hi)) if lo is not None and hi is not None else None

    @classmethod
    def open(cls, run: RunLike) -> CapturedSamples:
        """Open a run directory (read lazily) or wrap a loaded ``RunView``.
        Raises ``UnusableInput`` when there is no readable recording and ``RecordingError``
        for a damaged data file (when it is read)."""
        if isinstance(run, RunView):
            view = run
            samples = view.samples if view.samples.width else _NOTHING
            in_memory = _Snapshot(samples.lazy, view.steps.select("step").lazy, lambda: True)
            label = str(view.run_dir) if view.run_dir is not None else str(view.manifest.get("run_id") or "run")
            return cls(label, lambda: in_memory, view.manifest, lambda: view.events)
        reader = open_run(run)
        return cls(str(run), lambda: _disk_snapshot(reader), reader.manifest, reader.events)

    # -- queries -------------------------------------------------------------------------

    def query(self, sort: str = "reward", step_from: int | None = None, step_to: int | None = None,
              k: int = 10, ascending: bool = False) -> pl.DataFrame:
        """See ``query_samples``."""
        if sort not in SORT_KEYS:
            raise UnusableInput(f"cannot sort samples by {sort!r}; choose one of {', '.join(SORT_KEYS)}")
        _check_positive("k", k)
        first, last = self.steps_within(step_from, step_to)
        by = ["_key", "step", _ROW]

        def run(snap: _Snapshot) -> pl.DataFrame:
            picked = (_rows(snap.samples, first, last).filter(_valid(sort))
                      .select(_ROW, "step", pl.col(sort).cast(pl.Float64).alias("_key")))
            picked = picked.bottom_k(k, by=by) if ascending else picked.top_k(k, by=by, reverse=[False, True, True])
            chosen = picked.collect().sort(by, descending=[not ascending, False, False])
            return _full_rows(snap.samples, chosen.select(_ROW, "step"))

        self._require(sort, present_only=True)
        found = self._consistently(run)
        if found.is_empty():
            self._require(sort)
        return found

    def drivers(self, step: int, window: int = 5, k: int = 8) -> pl.DataFrame:
        """See ``spike_drivers``."""
        _check_positive("k", k)
        if not isinstance(window, int) or isinstance(window, bool) or window < 0:
            raise UnusableInput(f"window must be a non-negative number of steps, got {window!r}")
        first, last = self.steps_within(step - window, step + window, around=step)
        by = ["abs_advantage", "step", _ROW]

        def run(snap: _Snapshot) -> pl.DataFrame:
            weighted = (_rows(snap.samples, first, last).filter(_valid("advantage"))
                        .select(_ROW, "step", pl.col("advantage").abs().alias("abs_advantage")))
            top, total = pl.collect_all([weighted.top_k(k, by=by, reverse=[False, True, True]),
                                         weighted.select(pl.col("abs_advantage").sum())])
            whole = total.item() or 0.0
            top = top.sort(by, descending=[True, False, False]).with_columns(
                share=pl.col("abs_advantage") / whole if whole > 0 else pl.lit(0.0))
            return _full_rows(snap.samples, top.select(_ROW, "step", "abs_advantage", "share"))

        self._require("advantage", present_only=True)
        found = self._consistently(run)
        if found.is_empty():
            self._require("advantage")
        return found

    def steps_within(self, step_from: int | None, step_to: int | None,
                     around: int | None = None) -> tuple[int, int]:
        """``[step_from, step_to]`` (either end open) clipped to the run. Raises
        ``UnusableInput`` naming the run's range when the steps lie outside it, and saying
        why when the run captured no samples at all."""
        if self.captured == 0:
            raise UnusableInput(self.why_none())
        lo, hi = self.run_range  # type: ignore[misc]  # captured > 0 implies a range
        if step_from is not None and step_to is not None and step_from > step_to:
            raise UnusableInput(f"step range {step_from}–{step_to} is empty: the first step is after the last")
        span = f"{self.label} has steps {lo}–{hi}"
        if around is not None and not lo <= around <= hi:
            raise UnusableInput(f"step {around} is outside the run: {span}")
        if (step_from is not None and step_from > hi) or (step_to is not None and step_to < lo):
            asked = f"{'…' if step_from is None else step_from}–{'…' if step_to is None else step_to}"
            raise UnusableInput(f"steps {asked} are outside the run: {span}")
        return max(lo, lo if step_from is None else step_from), min(hi, hi if step_to is None else step_to)

    def nearest(self, first: int, last: int) -> tuple[int | None, int | None]:
        """The closest steps with captured samples before ``first`` and after ``last``."""
        step = pl.col("step")
        nearest = [step.filter(step < first).max().alias("before"), step.filter(step > last).min().alias("after")]
        return self._consistently(lambda snap: snap.samples().select(nearest).collect().row(0))

    def why_none(self) -> str:
        """One line saying that the run captured no samples, and the likeliest reason."""
        sampling = self._manifest.get("sampling") or {}
        counts = self._manifest.get("counts") or {}
        shim = [e for e in self._events() if e.get("kind") == EventKind.SHIM_UNAVAILABLE]
        if shim:
            reason = f"the trainer's sample shim was unavailable ({shim[0].get('message') or 'see events'})"
        elif sampling and not any(sampling.get(key) for key in ("top_k", "bottom_k", "random_k")):
            reason = ("the recorder's sampling policy keeps none (top_k=bottom_k=random_k=0); "
                      "record with SamplingConfig(...) or log_samples(..., select=False)")
        elif self._manifest.get("status") == RunStatus.RUNNING and counts.get("samples"):
            reason = "the run is still recording and its samples are not flushed yet"
        else:
            reason = "the run logged no samples (log_samples was never called)"
        dropped = counts.get("dropped") or 0
        tail = f"; {dropped} records were dropped by a full queue" if dropped else ""
        return f"{self.label}: no samples were captured — {reason}{tail}"

    # -- plumbing ------------------------------------------------------------------------

    def _require(self, column: str, present_only: bool = False) -> None:
        """Raise when no captured sample anywhere in the run records ``column``; an empty
        window of a run that does record it is a valid, empty answer. ``present_only``
        checks just that the samples table has the column (no data is read)."""
        def recorded_in(snap: _Snapshot) -> dict[str, bool]:
            frame = snap.samples()
            names = frame.collect_schema().names()
            if present_only and column in names:
                return {column: True}
            found = frame.select([_valid(c).any().alias(c) for c in SORT_KEYS if c in names]).collect()
            return {c: bool(found[c][0]) if c in found.columns else False for c in SORT_KEYS}

        recorded = self._consistently(recorded_in)
        if not recorded[column]:
            has = ", ".join(c for c, ok in recorded.items() if ok) or "none of " + ", ".join(SORT_KEYS)
            raise UnusableInput(f"no captured sample of {self.label} records {column}; they record: {has}")

    def _consistently(self, fn: Callable[[_Snapshot], T]) -> T:
        """``fn(snapshot)`` over one unchanging set of files, retried when the run moved on."""
        for attempt in range(_RETRIES):
            try:
                snap = self._snapshot()
                result = fn(snap)
                if snap.unchanged():
                    return result
            except (FileNotFoundError, pl.exceptions.ComputeError):
                if attempt == _RETRIES - 1:
                    raise
        raise UnusableInput(f"{self.label} kept changing while it was read; try again")


def _rows(scan: Scan, first: int, last: int) -> pl.LazyFrame:
    return scan().with_row_index(_ROW).filter(pl.col("step").is_between(first, last))


def _full_rows(scan: Scan, chosen: pl.DataFrame) -> pl.DataFrame:
    """Full sample rows for ``chosen`` (``_row``, ``step`` and added columns), in its order."""
    # The step filter lets the reader skip row groups by their statistics, so only the
    # text of row groups holding a chosen row is decoded.
    rows = scan().with_row_index(_ROW).filter(pl.col("step").is_in(chosen["step"].implode())
                                              & pl.col(_ROW).is_in(chosen[_ROW].implode())).collect()
    position = pl.col(_ROW).replace_strict(chosen[_ROW], pl.int_range(chosen.height, eager=True))
    ordered = rows.sort(position).drop(_HIDDEN, strict=False)
    return ordered.hstack(chosen.drop(_ROW, "step").get_columns())


def _check_positive(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise UnusableInput(f"{name} must be a positive number of samples, got {value!r}")


def query_samples(run: RunLike, sort: str = "reward", step_from: int | None = None, step_to: int | None = None,
                  k: int = 10, ascending: bool = False) -> pl.DataFrame:
    """The ``k`` captured samples with the largest ``sort`` value (smallest with
    ``ascending``) in steps ``[step_from, step_to]``, either end open; ties go to the earlier
    step. ``sort`` is one of ``SORT_KEYS``; samples without a value for it are left out.

    Returns full sample rows (text untruncated) as a Polars frame, first-ranked first;
    empty when no captured sample lies in the range. Raises ``UnusableInput`` for an unknown
    ``sort``, ``k < 1``, steps outside the run (naming its range), a run that captured no
    samples (saying why), or one whose samples never record ``sort``.
    """
    return CapturedSamples.open(run).query(sort, step_from, step_to, k, ascending)


def spike_drivers(run: RunLike, step: int, window: int = 5, k: int = 8) -> pl.DataFrame:
    """The ``k`` captured samples in steps ``[step - window, step + window]`` that weigh most
    in the policy-gradient update, ranked by ``|advantage|``.

    Each row is a full sample plus ``abs_advantage`` and ``share``, its fraction of the
    window's total ``|advantage|`` over the captured samples (a recorder keeping a subset
    sees the subset's total). Empty when nothing was captured in the window. Raises
    ``UnusableInput`` for a step outside the run (naming its range), a run that captured
    no samples (saying why), or samples that never record an advantage.
    """
    return CapturedSamples.open(run).drivers(step, window, k)


def sample_records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """Sample rows as JSON-safe dicts: reward components as an object, ``extra`` parsed,
    NaN and infinities as ``None``."""
    out = []
    for row in frame.drop(_HIDDEN, strict=False).to_dicts():
        components = row.get("reward_components")
        if isinstance(components, list):
            row["reward_components"] = {c["key"]: _finite(c["value"]) for c in components}
        if isinstance(row.get("extra"), str):
            try:
                row["extra"] = json.loads(row["extra"])
            except json.JSONDecodeError:
                pass
        out.append({key: _finite(value) for key, value in row.items()})
    return out


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def metrics_around(run: RunLike, step: int, window: int = 5) -> pl.DataFrame:
    """Every metric around ``step``: one row each with ``at_step`` (its value at ``step``),
    ``window_mean`` over steps ``[step - window, step + window]``, ``before_mean`` over the
    as many steps just before that window, ``change`` (window minus before), ``change_rel``
    (relative to ``|before_mean|``) and ``z``, how many robust standard deviations (median
    and MAD of the preceding window) the value at ``step`` sits from what came before.
    Missing where the run logged nothing to compute it from. Rows follow the run's metric
    order. Raises ``UnusableInput`` for a step outside the run (naming its range).
    """
    view = as_view(run)
    if not isinstance(window, int) or isinstance(window, bool) or window < 0:
        raise UnusableInput(f"window must be a non-negative number of steps, got {window!r}")
    if not view.n_steps:
        raise UnusableInput(f"{view.run_dir or 'run'}: no steps were recorded")
    lo, hi = int(view.step[0]), int(view.step[-1])
    if not lo <= step <= hi:
        raise UnusableInput(f"step {step} is outside the run: {view.run_dir or 'the run'} has steps {lo}–{hi}")
    names = view.metric_names()
    first, last = step - window, step + window
    before_first = first - (2 * window + 1)
    long = (view.steps.select("step", *[pl.col(n).cast(pl.Float64) for n in names])
            .filter(pl.col("step").is_between(before_first, last))
            .unpivot(index="step", variable_name="metric")
            .with_columns(pl.col("value").fill_nan(None)))
    value, at = pl.col("value"), pl.col("step")
    before = value.filter(at < first)
    deviation = (before - before.median()).abs().median() * MAD_SCALE
    stats = long.group_by("metric").agg(
        at_step=value.filter(at == step).first(),
        window_mean=value.filter(at >= first).mean(),
        before_mean=before.mean(),
        _median=before.median(),
        _mad=deviation,
    )
    order = pl.DataFrame({"metric": names, "_order": range(len(names))}, schema={"metric": pl.String,
                                                                               "_order": pl.Int64})
    change = pl.col("window_mean") - pl.col("before_mean")
    return (order.join(stats, on="metric", how="left").sort("_order")
            .with_columns(change=change,
                          change_rel=pl.when(pl.col("before_mean").abs() > 0)
                          .then(change / pl.col("before_mean").abs()),
                          z=pl.when(pl.col("_mad") > 0).then((pl.col("at_step") - pl.col("_median")) / pl.col("_mad")))
            .select("metric", "at_step", "window_mean", "before_mean", "change", "change_rel", "z"))
