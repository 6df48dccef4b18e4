"""RunWatcher: incremental live diagnosis of a run directory, each finding reported once."""
from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from rlprobe import RlprobeWarning
from rlprobe.storage import load_manifest
from rlprobe.storage.layout import is_url

from ..catalog import diagnose_view, registry
from ..config import resolve_config, split_metrics
from ..findings import SEVERITIES, Finding
from ..sources.base import FailureStreak, SourceError
from ..view import RunView
from .mirror import SourceMirror

__all__ = ["RunWatcher", "Sink"]

Sink = Callable[[Finding], Any]
#: Steps the per-tick diagnosis looks at once a run is longer (``window_steps`` default).
WINDOW_STEPS = 4096
#: The whole run is diagnosed again each time it has grown by this fraction since the
#: last whole-run diagnosis, so a pathology slower than the window is still caught while
#: the cost per step stays constant (amortised).
FULL_GROWTH = 0.25


class RunWatcher:
    """Tails ``run_dir`` (which may not exist yet) and reports new findings. ``run_dir`` is
    a recording, or a source the doctor reads that is still being written (a console log, a
    TRL output_dir, a TensorBoard dir, ..., locally or at a URL), followed through a
    ``SourceMirror`` that reads only what the source gained at each tick.

    Each ``tick()`` reads only what was written since the previous one, diagnoses with the
    live-only detectors (e.g. ``RUN_STALLED``) switched on, and returns the findings not
    reported before: a signature seen for the first time, or one whose severity rose.
    Every new finding is handed to each sink in turn; a sink that raises is skipped for
    that finding and reported by one ``RlprobeWarning``, never raised into the caller.

    Cost: a tick diagnoses the last ``window_steps`` steps (None = always the whole run),
    plus, whenever the run has grown by a quarter, the whole run once — so a tick's cost
    does not grow with the run's length. ``config`` is shaped like ``doctor.toml`` and is
    checked here (``ConfigError``). Not thread-safe: tick from one thread.
    """

    def __init__(self, run_dir: str | os.PathLike[str], sinks: Iterable[Sink] = (),
                 config: Mapping[str, Any] | None = None, *, window_steps: int | None = WINDOW_STEPS) -> None:
        if window_steps is not None and (isinstance(window_steps, bool) or not isinstance(window_steps, int)
                                         or window_steps < 64):
            raise ValueError(f"window_steps must be None or a whole number ≥ 64, got {window_steps!r}")
        self.run_dir: str | Path = run_dir if is_url(run_dir) else Path(run_dir)
        self.sinks: list[Sink] = list(sinks)
        self.window_steps = window_steps
        self.ticks = 0
        """Ticks so far."""
        self.reported: list[Finding] = []
        """Every finding returned so far, in the order reported."""
        self._config = resolve_config(config)
        self._metrics = split_metrics(config)[1]
        self._idle_config = {sid: {**cfg, "enabled": cfg["enabled"] and det.live_only}
                             for sid, cfg in self._config.items() for det in [registry()[sid]]}
        self._view: RunView | None = None
        self._mirror: SourceMirror | None = None
        self._unreadable = FailureStreak()
        self._window: RunView | None = None
        self._full_at = 0
        self._severity: dict[str, int] = {}
        self._broken_sinks: set[int] = set()

    @property
    def view(self) -> RunView | None:
        """The run as read so far; None until its directory holds a recording."""
        return self._view

    def tick(self) -> list[Finding]:
        """Read what is new, diagnose, hand new findings to the sinks and return them
        (most urgent first). Returns [] while the run does not exist yet. Raises
        ``UnusableInput`` for a directory holding a recording it cannot read."""
        self.ticks += 1
        changed = self._read()
        if self._view is None:
            return []
        findings = self._diagnose(changed)
        new = [f for f in findings if SEVERITIES.index(f.severity) > self._severity.get(f.signature_id, -1)]
        for finding in new:
            self._severity[finding.signature_id] = SEVERITIES.index(finding.severity)
            self.reported.append(finding)
            self._emit(finding)
        return new

    def _read(self) -> bool:
        if self._mirror is not None:
            self._mirror.update()
        if self._view is not None:
            return self._view.refresh()
        try:
            load_manifest(self.run_dir)
        except FileNotFoundError:
            # A log still being written: followed into a recording, only what it gains read each tick.
            try:
                self._mirror = SourceMirror.open(self.run_dir)
            except SourceError:
                # Recognised but not readable yet (a database its writer is still creating), unless it stays so.
                if self._unreadable.failed():
                    raise
                return False
            if self._mirror is None:
                return False  # not started yet; a bad manifest is RunView.load's to report
            self._mirror.update()
            self._view = RunView.load(self._mirror.run_dir, self._metrics)
            return True
        except ValueError:
            pass
        self._view = RunView.load(self.run_dir, self._metrics)
        return True

    def _diagnose(self, changed: bool) -> list[Finding]:
        view = self._view
        assert view is not None
        # Nothing new on disk: only the live-only detectors (which read the clock) can change their minds.
        config = self._config if changed else self._idle_config
        n = view.n_steps
        if self.window_steps is None or n <= self.window_steps or n >= self._full_at * (1 + FULL_GROWTH):
            if changed:
                self._full_at = n
            return diagnose_view(view, config, live=True)
        if changed or self._window is None:
            self._window = _tail(view, self.window_steps)
        else:
            self._window.manifest = view.manifest  # rows unchanged; the status may not be
        return diagnose_view(self._window, config, live=True)

    def _emit(self, finding: Finding) -> None:
        for sink in self.sinks:
            try:
                sink(finding)
            except Exception as exc:  # noqa: BLE001 - a broken sink must not stop the watch
                if id(sink) not in self._broken_sinks:
                    self._broken_sinks.add(id(sink))
                    warnings.warn(f"rlprobe: finding sink {_name(sink)} raised {type(exc).__name__}: {exc}; "
                                  "its later failures are not reported", RlprobeWarning, stacklevel=3)

    def __repr__(self) -> str:
        return f"RunWatcher({str(self.run_dir)!r}, ticks={self.ticks}, reported={len(self.reported)})"


def _tail(view: RunView, steps: int) -> RunView:
    """A view of the last ``steps`` steps of ``view`` (with their samples, all events)."""
    recent = view.steps.tail(steps)
    first = recent["step"][0]
    samples = view.samples.filter(pl.col("step") >= first) if not view.samples.is_empty() else view.samples
    return RunView(recent, samples, view.events, view.manifest, view.run_dir)


def _name(sink: Sink) -> str:
    return getattr(sink, "__qualname__", None) or repr(sink)
