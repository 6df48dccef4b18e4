"""RunView: one run loaded once into Polars, with numpy series for detectors and users."""
from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np
import polars as pl

from rlprobe.records import EventKind, canonical_metric, component_column
from rlprobe.storage import RunReader
from rlprobe.storage.layout import EVENTS, is_recording, is_url
from rlprobe.storage.reader import parse_events

from .errors import UnknownMetric, UnusableInput

__all__ = ["RunView", "open_run"]

#: Steps columns that are bookkeeping, not metrics.
NON_METRICS = frozenset({"step", "time", "rank"})
_COMPONENT_PREFIX, _COMPONENT_SUFFIX = "rewards/", "/mean"


def _to_polars(table: Any) -> pl.DataFrame:
    if table is None:
        return pl.DataFrame()
    frame = cast(pl.DataFrame, pl.from_arrow(table))  # a Table (not an Array) converts to a DataFrame
    return frame.drop("_part") if "_part" in frame.columns else frame


def _read_samples(reader: RunReader) -> tuple[pl.DataFrame, dict[int, int]]:
    """The samples of a run as Polars, and the cursor to read what is new from."""
    samples, cursor = reader.read_new("samples")
    return _to_polars(samples), cursor


def _collapse_steps(raw: pl.DataFrame) -> pl.DataFrame:
    """One row per step: rank 0's rows (ranks log the same gathered metrics), and where a
    step was logged several times (train and eval logs), the last non-null value of each
    metric."""
    if raw.is_empty():
        return pl.DataFrame({"step": pl.Series([], dtype=pl.Int64)})
    if "rank" in raw.columns and raw["rank"].n_unique() > 1:
        raw = raw.filter(pl.col("rank") == raw["rank"].min())
    if bool((np.diff(raw["step"].to_numpy()) > 0).all()):
        return raw  # one row per step, in order already (a run read whole, as it was written)
    if raw["step"].is_duplicated().any():
        others = [c for c in raw.columns if c != "step"]
        raw = raw.group_by("step", maintain_order=True).agg(
            [pl.col(c).drop_nulls().last() for c in others])
    return raw.sort("step")


#: Appends split a frame into chunks; past this many they are joined again so column
#: reads stay fast (an O(rows) copy, amortised over this many appends).
_MAX_CHUNKS = 64


def _append_steps(steps: pl.DataFrame, fresh: pl.DataFrame, raw: pl.DataFrame) -> pl.DataFrame:
    """``_collapse_steps(raw)`` where ``raw`` is the rows behind ``steps`` followed by
    ``fresh``, at a cost that grows with the steps ``fresh`` touches rather than the run:
    only the collapsed rows from ``fresh``'s first step on are collapsed again."""
    if steps.is_empty() or ("rank" in fresh.columns and "rank" not in steps.columns):
        return _collapse_steps(raw)
    if "rank" in fresh.columns:
        kept = steps["rank"][0]
        if kept is None or fresh["rank"].min() < kept:
            return _collapse_steps(raw)  # a lower rank appeared: it becomes the one kept
        fresh = fresh.filter(pl.col("rank") == kept)
        if fresh.is_empty():
            return steps
    first = cast(int, fresh["step"].min())  # the step column is an integer column, and fresh is not empty
    cut = steps["step"].search_sorted(first, side="left")
    touched = pl.concat([steps.slice(cut), fresh], how="diagonal_relaxed")
    out = pl.concat([steps.slice(0, cut), _collapse_steps(touched)], how="diagonal_relaxed")
    return out.rechunk() if out.n_chunks() > _MAX_CHUNKS else out


def _renamed(frame: pl.DataFrame, metrics: Mapping[str, str]) -> pl.DataFrame:
    """``frame`` with each logged name of ``metrics`` (``{column: name logged}``) read as its
    column: the user's mapping wins over a column of that name the run also has."""
    present = {name: column for column, name in metrics.items() if name in frame.columns and name != column}
    if not present:
        return frame
    return frame.drop([c for c in present.values() if c in frame.columns]).rename(present)


def _event_time(event: dict[str, Any]) -> Any:
    return event.get("time") or 0.0


class _EventTail:
    """Reads each events file of a run from where the previous read stopped, so a refresh
    costs what was appended, not the whole file. A line still being written (no newline
    yet) is left for the next read; a line that is not an event is skipped, as
    ``RunReader.events`` does (``parse_events``)."""

    def __init__(self) -> None:
        self._offsets: dict[Path, int] = {}

    def read(self, reader: RunReader) -> list[dict[str, Any]]:
        """Events appended since the last call, as ``RunReader.events`` gives them, by time."""
        new: list[dict[str, Any]] = []
        merged = reader.merged
        for rank, path in reader.sources:
            file = path / EVENTS
            start = self._offsets.get(file, 0)
            try:
                with open(file, "rb") as fh:
                    fh.seek(start)
                    chunk = fh.read()
            except FileNotFoundError:
                continue
            end = chunk.rfind(b"\n") + 1
            self._offsets[file] = start + end
            for event in parse_events(chunk[:end]):
                if merged:
                    event["rank"] = rank
                new.append(event)
        new.sort(key=_event_time)
        return new


class RunView:
    """A run in memory: ``steps`` (one row per step, Polars), ``samples`` (Polars),
    ``events`` (list of dicts) and ``manifest``. ``series``/``component`` hand out numpy
    arrays aligned with ``self.step``. Not thread-safe; ``refresh()`` appends only what is
    new on disk since the last read."""

    def __init__(self, steps: pl.DataFrame, samples: pl.DataFrame | None = None,
                 events: list[dict[str, Any]] | None = None, manifest: dict[str, Any] | None = None,
                 run_dir: str | os.PathLike[str] | None = None) -> None:
        self._raw_steps = steps
        self.steps = _collapse_steps(steps)
        self.samples = samples if samples is not None else pl.DataFrame()
        self.events = list(events or [])
        self.manifest = dict(manifest or {})
        self.run_dir: str | Path | None = run_dir if run_dir is None or is_url(run_dir) else Path(run_dir)
        self._cursors: dict[str, dict[int, int]] = {}
        self._events_seen = len(self.events)
        self._events_tail: _EventTail | None = None
        self._cache: dict[str, np.ndarray] = {}
        self._read_from: Path | None = None
        self.metric_map: dict[str, str] = {}
        """``{column: name logged}``: the run's own names read as the quantities (``map_metrics``)."""

    @classmethod
    def load(cls, run_dir: str | os.PathLike[str], metrics: Mapping[str, str] | None = None) -> RunView:
        """Read a run directory (compacted, mid-run, killed or merged ranks alike), a run in
        object storage (a URL: ``s3://bucket/runs/my-run``, ``gs://...``, ``abfs://...``) or a
        foreign source (``rlprobe.doctor.sources``: a TRL output_dir, a console log, ...).
        ``metrics`` maps quantities to the names the run logged them under (``map_metrics``).
        Raises ``UnusableInput`` when there is no readable recording there, or a mapped name
        the run does not have, and ``rlprobe.storage.RecordingError`` (one line naming the
        file) for a damaged data file."""
        reader = open_run(run_dir)
        if reader.url is None:
            # Local files: the samples are read on a second thread while this one reads the steps
            # (pyarrow and Polars release the GIL); an error of either is raised as if read in turn.
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(1, thread_name_prefix="rlprobe-read") as pool:
                pending = pool.submit(_read_samples, reader)
                steps, step_cursor = reader.read_new("steps")
                samples, sample_cursor = pending.result()
        else:
            steps, step_cursor = reader.read_new("steps")
            samples, sample_cursor = _read_samples(reader)
        tail = _EventTail()
        view = cls(_to_polars(steps), samples, tail.read(reader), reader.manifest, run_dir)
        view._cursors = {"steps": step_cursor, "samples": sample_cursor}
        view._events_tail = tail
        view._read_from = reader.run_dir
        if metrics:
            view.map_metrics(metrics)
        return view

    def map_metrics(self, metrics: Mapping[str, str]) -> None:
        """Read the run's own metric names as the quantities the detectors know, in place and
        for every later ``refresh``: ``{"reward_mean": "average_reward"}`` (keys are columns or
        their spellings: ``reward``, ``kl``; ``config.metric_map`` checks a ``[metrics]``
        table). Mapping again what is already mapped changes nothing. Raises ``UnknownMetric``
        for a name the run does not have (a run with no steps yet is not checked)."""
        mapping = {canonical_metric(column): name for column, name in metrics.items()}
        have = set(self._raw_steps.columns)
        for column, name in mapping.items():
            if name not in have and self.metric_map.get(column) != name and self._raw_steps.height:
                names = self.metric_names()
                close = difflib.get_close_matches(name, names, n=5, cutoff=0.4)
                raise UnknownMetric(f"run has no metric {name!r} to read as {column}; "
                                    + (f"closest: {', '.join(close)}" if close else
                                       f"it has: {', '.join(names[:12]) or 'none'}"))
        fresh = {c: n for c, n in mapping.items() if self.metric_map.get(c) != n}
        if not fresh:
            return
        self.metric_map.update(fresh)
        self._raw_steps = _renamed(self._raw_steps, fresh)
        self.steps = _renamed(self.steps, fresh)
        self._cache.clear()

    def refresh(self) -> bool:
        """Append rows and events written since the last read; True when anything was new.
        The cost depends on what is new, not on the run's length (only the steps the new
        rows touch are collapsed again, and events are read from where the last read stopped)."""
        if self.run_dir is None:
            return False
        try:
            reader = open_run(self.run_dir)
        except UnusableInput:
            return False
        if self._read_from is not None and reader.run_dir != self._read_from:
            # a changed foreign source, imported again
            self.__dict__.update(RunView.load(self.run_dir, self.metric_map).__dict__)
            return True
        new_steps, self._cursors["steps"] = reader.read_new("steps", self._cursors.get("steps"))
        new_samples, self._cursors["samples"] = reader.read_new("samples", self._cursors.get("samples"))
        if self._events_tail is None:  # built from frames, not loaded: take the events on disk as they are
            self._events_tail = _EventTail()
            self.events = []
        events = self._events_tail.read(reader)
        if any(event.get("kind") == EventKind.RUN_RESUMED for event in events):
            # A later session replaced rows this view already holds; appending cannot take them back.
            self.__dict__.update(RunView.load(self.run_dir, self.metric_map).__dict__)
            return True
        changed = False
        if new_steps is not None and new_steps.num_rows:
            fresh = _renamed(_to_polars(new_steps), self.metric_map)
            self._raw_steps = pl.concat([self._raw_steps, fresh], how="diagonal_relaxed")
            self.steps = _append_steps(self.steps, fresh, self._raw_steps)
            changed = True
        if new_samples is not None and new_samples.num_rows:
            fresh = _to_polars(new_samples)
            self.samples = fresh if self.samples.is_empty() else pl.concat([self.samples, fresh],
                                                                           how="diagonal_relaxed")
            if self.samples.n_chunks() > _MAX_CHUNKS:
                self.samples = self.samples.rechunk()
            changed = True
        if events:
            late = self.events and _event_time(events[0]) < _event_time(self.events[-1])
            self.events.extend(events)
            if late:  # another rank's clock, or a late writer: keep the time order
                self.events.sort(key=_event_time)
            changed = True
        self.manifest = reader.manifest
        if changed:
            self._cache.clear()
        return changed

    # -- metrics -------------------------------------------------------------------------

    @property
    def step(self) -> np.ndarray:
        """Step numbers, one per row of ``steps`` (int64, increasing)."""
        return self.steps["step"].to_numpy()

    @property
    def n_steps(self) -> int:
        return self.steps.height

    def metric_names(self) -> list[str]:
        """Every metric column with at least one value, known fields and extras alike."""
        return [c for c in self.steps.columns
                if c not in NON_METRICS and not c.startswith("_") and self.steps[c].null_count() < self.steps.height]

    def has(self, name: str) -> bool:
        """True when ``name`` (or its trainer spelling) has at least one finite value."""
        column = canonical_metric(name)
        if column not in self.steps.columns:
            return False
        values = self.series(column)
        return bool(np.isfinite(values).any())

    def series(self, name: str) -> np.ndarray:
        """The metric as float64 numpy, NaN where a step did not log it. Accepts known
        field names (``kl_mean``), trainer spellings (``kl``) and extras
        (``rewards/accuracy/mean``). Raises ``UnknownMetric`` listing the closest names."""
        column = canonical_metric(name)
        if column not in self.steps.columns or column in NON_METRICS:
            names = self.metric_names()
            close = difflib.get_close_matches(name, names, n=5, cutoff=0.4)
            hint = f"closest: {', '.join(close)}" if close else f"it has: {', '.join(names[:12]) or 'none'}"
            raise UnknownMetric(f"run has no metric {name!r}; {hint}")
        cached = self._cache.get(column)
        if cached is None:
            cached = self.steps[column].cast(pl.Float64).fill_null(float("nan")).to_numpy()
            self._cache[column] = cached
        return cached

    def components(self) -> list[str]:
        """Reward component names (TRL's ``rewards/<name>/mean``)."""
        return [c[len(_COMPONENT_PREFIX):-len(_COMPONENT_SUFFIX)] for c in self.metric_names()
                if c.startswith(_COMPONENT_PREFIX) and c.endswith(_COMPONENT_SUFFIX)]

    def component(self, name: str) -> np.ndarray:
        """Per-step mean of reward component ``name``."""
        return self.series(component_column(name))

    # -- convenience ---------------------------------------------------------------------

    @property
    def algorithm(self) -> str:
        return str(self.manifest.get("algorithm") or "").lower()

    def events_of(self, *kinds: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("kind") in kinds]

    def samples_between(self, first: int, last: int) -> pl.DataFrame:
        """Captured samples with ``first <= step <= last``."""
        if self.samples.is_empty():
            return self.samples
        return self.samples.filter(pl.col("step").is_between(first, last))

    def top_samples(self, first: int, last: int, by: str | pl.Expr, k: int = 5,
                    descending: bool = True) -> list[str]:
        """``sample_id`` of the ``k`` samples in steps [first, last] with the largest (or
        smallest) ``by`` — a column name or a Polars expression — for ``links_to_samples``."""
        # Only the id and the key are carried through the filter and the sort, not the texts.
        window = self.samples.lazy().filter(pl.col("step").is_between(first, last))
        if self.samples.is_empty() or window.select(pl.len()).collect().item() == 0:
            return []
        if isinstance(by, str) and by not in self.samples.columns:
            return []
        key = pl.col(by) if isinstance(by, str) else by
        ranked = (window.select("sample_id", _key=key)
                  .filter(pl.col("_key").is_not_null() & pl.col("_key").is_not_nan()).collect())
        return ranked.sort("_key", descending=descending).head(k)["sample_id"].to_list()

    def __repr__(self) -> str:
        return f"RunView({str(self.run_dir)!r}, steps={self.n_steps}, samples={self.samples.height})"


def open_run(run_dir: str | os.PathLike[str]) -> RunReader:
    """The reader of the recording RUN names: every command and API that takes a run
    resolves it here, and only here. Raises ``UnusableInput`` when there is no recording or
    its manifest cannot be read (the ``RecordingError`` saying why is its ``__cause__``);
    the reader's reads raise ``RecordingError`` for a damaged data file."""
    try:
        # A URL's reader keeps it (``RunReader.url``): each read refreshes the local copy, and errors name the URL.
        if is_url(run_dir) or is_recording(Path(run_dir)):
            return RunReader(run_dir)
        # A foreign log (TRL output_dir, console log, ...) reads as its import; the readers of
        # every format are loaded only to import one, or to check a source changed since.
        from .import_cache import recording_dir

        return RunReader(recording_dir(run_dir))
    except FileNotFoundError:
        raise UnusableInput(f"{run_dir}: no rlprobe recording here (no manifest.json)") from None
    except ValueError as exc:
        raise UnusableInput(str(exc)) from exc
