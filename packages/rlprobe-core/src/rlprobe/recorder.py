"""The Recorder: the training loop's side of rlprobe.

Promises (the same as a telemetry SDK's batch processor):

* ``log_step`` and ``log_samples`` only append to a bounded in-memory queue. They never
  block and never raise, whatever the values; validation happens on a daemon writer
  thread. When the queue is full the record is dropped and counted (``dropped``), and one
  ``queue_overflow`` event is written per burst of drops.
* ``log_event`` writes its line and fsyncs it before returning (events are rare).
* The writer thread persists buffered records as Parquet part files at least every
  ``flush_interval_s`` seconds or ``steps_per_flush`` steps, and ``flush(timeout)`` returns
  True once everything logged before the call is on disk.
* Storage failures (disk full, read-only, directory deleted) cost one warning and a
  counter; training goes on and the recorder keeps trying.
* Thread-safe: any number of threads may log at once. After ``fork()`` the child's
  recorders are inert: they record nothing and touch no file.
"""
from __future__ import annotations

import os
import threading
import time
import uuid
import warnings
from collections import deque
from pathlib import Path
from typing import Any, Iterable, Mapping

from . import lifecycle
from .cleaning import clean_metrics, clean_sample, to_step
from .records import EventKind
from .sampling import SamplingConfig, select_samples
from .storage.layout import rank_dir
from .storage.manifest import RunStatus
from .storage.writer import RunWriter

__all__ = ["Recorder", "RlprobeWarning"]

_STEP, _SAMPLES, _FLUSH, _STOP = 0, 1, 2, 3
#: Longest a writer-thread nap lasts; bounds how late a size-triggered flush can be.
_POLL_S = 0.05
#: Compact part files into the run's two Parquet files once this many have piled up.
_COMPACT_AFTER_PARTS = 256
#: Samples buffered before a flush is forced regardless of steps.
_SAMPLES_PER_FLUSH = 2000


class RlprobeWarning(RuntimeWarning):
    """Something went wrong inside rlprobe; training is unaffected."""


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


class Recorder:
    """Records one run of RL fine-tuning into ``run_dir``. See the module docstring for
    the promises; arguments are described in the API reference.

    On a rank that does not record (every rank but 0, unless ``record_all_ranks=True``)
    the recorder is inert: ``active`` is False and every method is a no-op.
    Usable as a context manager; ``close()`` is idempotent.
    """

    def __init__(
        self,
        run_dir: str | os.PathLike[str],
        *,
        algorithm: str | None = None,
        run_id: str | None = None,
        model_name: str | None = None,
        trainer_config: Mapping[str, Any] | None = None,
        world_size: int = 1,
        rank: int = 0,
        capture_env: bool = True,
        sampling: SamplingConfig | None = None,
        queue_size: int = 8192,
        flush_interval_s: float = 5.0,
        steps_per_flush: int = 200,
        install_handlers: bool = True,
        record_all_ranks: bool = False,
    ) -> None:
        _check_positive(queue_size=queue_size, flush_interval_s=flush_interval_s,
                        steps_per_flush=steps_per_flush, world_size=world_size)
        if not 0 <= rank < world_size:
            raise ValueError(f"rank must be in [0, world_size={world_size}), got {rank}")
        if sampling is not None and not isinstance(sampling, SamplingConfig):
            raise TypeError(f"sampling must be a SamplingConfig or None, got {type(sampling).__name__}")
        self.rank = rank
        self.world_size = world_size
        self._active = rank == 0 or record_all_ranks
        self._dropped = 0
        self._closed = False
        if not self._active:
            self.log_step = self.log_samples = self.log_event = _noop  # type: ignore[method-assign]
            return
        base = Path(run_dir)
        self.run_dir = rank_dir(base, rank) if record_all_ranks and world_size > 1 else base
        self.run_id = run_id or f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
        self.sampling = sampling or SamplingConfig()
        self._queue: deque[tuple] = deque()
        self._queue_size = queue_size
        self._wake_at = max(1, queue_size // 2)
        self._flush_interval_s = flush_interval_s
        self._steps_per_flush = steps_per_flush
        self._capture_env = capture_env
        self._wake = threading.Event()
        self._drop_lock = threading.Lock()
        self._close_lock = threading.Lock()
        self._pid = os.getpid()
        self._status = RunStatus.FINISHED
        self._warned: set[str] = set()
        self.storage_errors = 0
        self.bad_records = 0
        self._writer: RunWriter | None = None
        self._manifest = {
            "run_id": self.run_id,
            "algorithm": algorithm,
            "model_name": model_name,
            "trainer_config": dict(trainer_config or {}),
            "world_size": world_size,
            "rank": rank,
            "recorded_ranks": list(range(world_size)) if record_all_ranks else [0],
            "sampling": self.sampling.to_dict(),
            "env": {},
        }
        try:
            self._writer = RunWriter(self.run_dir, self._manifest)
            self._writer.append_event(EventKind.RUN_START, message=f"recording {self.run_id}")
        except OSError as exc:
            self._storage_failed(exc)
        self._thread = threading.Thread(target=self._writer_loop, name=f"rlprobe-writer-{self.run_id}",
                                        daemon=True)
        self._thread.start()
        lifecycle.register(self, install_handlers)

    # -- the training thread's side ------------------------------------------------------

    def log_step(self, step: int, **metrics: Any) -> None:
        """Record one step's scalars. Enqueues only: never blocks, never raises."""
        queue = self._queue
        n = len(queue)
        if n < self._queue_size:
            queue.append((_STEP, step, time.time(), metrics))
            if n == self._wake_at:
                self._wake.set()
        else:
            self._drop()

    def log_samples(self, step: int, samples: Iterable[Any], select: bool = True) -> None:
        """Record per-sample forensics (dicts or SampleRecords). The recorder takes ownership
        of ``samples``; with ``select`` the sampling policy picks which are kept."""
        queue = self._queue
        if len(queue) < self._queue_size:
            queue.append((_SAMPLES, step, time.time(), samples, select))
        else:
            self._drop()

    def log_event(self, kind: str, step: int | None = None, message: str = "", **data: Any) -> None:
        """Record a sparse event; it is on disk (fsynced) when this returns. Never raises."""
        if self._closed or self._writer is None:
            return
        try:
            self._writer.append_event(kind, step if step is None else _safe_step(step), message, data)
        except Exception as exc:  # noqa: BLE001 - the training loop must never see our errors
            self._storage_failed(exc)

    def flush(self, timeout: float = 5.0) -> bool:
        """Persist everything logged before this call; True once it is durable, False on
        timeout or storage failure."""
        if not self._active or self._closed:
            return True
        marker = [threading.Event(), False]
        self._queue.append((_FLUSH, marker))
        self._wake.set()
        return marker[0].wait(timeout) and bool(marker[1])

    def close(self, timeout: float = 30.0, status: str | None = None) -> None:
        """Drain the queue, flush, compact part files into ``steps.parquet`` and
        ``samples.parquet``, and mark the manifest closed (``status``, default "finished").
        Idempotent; never raises. Waits at most ``timeout`` seconds for the writer thread."""
        if not self._active:
            return
        with self._close_lock:
            if self._closed or os.getpid() != self._pid:
                return
            self._closed = True
        if status is not None:
            self._status = status
        self.log_step = self.log_samples = _noop  # type: ignore[method-assign]
        self._queue.append((_STOP,))
        self._wake.set()
        self._thread.join(timeout)
        lifecycle.unregister(self)
        if self._thread.is_alive():
            self._warn_once("close", f"rlprobe: writer thread still busy after {timeout}s; "
                                     f"{self.run_dir} left uncompacted (still readable)")
            return
        if self._writer is None:
            return
        try:
            self._writer.append_event(EventKind.RUN_END, message=self._status)
            self._writer.counts["dropped"] = self._dropped
            self._writer.counts["bad_records"] = self.bad_records
            self._writer.close(self._status)
        except Exception as exc:  # noqa: BLE001
            self._storage_failed(exc)

    @property
    def dropped(self) -> int:
        """Records dropped because the queue was full."""
        return self._dropped

    @property
    def active(self) -> bool:
        """False on non-recording ranks (and after ``fork()`` in the child)."""
        return self._active

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.close(status=RunStatus.CRASHED if exc_type is not None and exc_type is not KeyboardInterrupt
                   else None)

    def __repr__(self) -> str:
        where = getattr(self, "run_dir", None)
        return f"Recorder({str(where)!r}, active={self._active}, dropped={self._dropped})"

    # -- lifecycle hooks (called from rlprobe.lifecycle) ---------------------------------

    def _record_crash(self, message: str, traceback_text: str) -> None:
        self.log_event(EventKind.CRASH, message=message, traceback=traceback_text)
        self._status = RunStatus.CRASHED

    def _disable_after_fork(self) -> None:
        self._active = False
        self._closed = True
        self.log_step = self.log_samples = self.log_event = _noop  # type: ignore[method-assign]
        self._queue = deque()

    # -- the writer thread ---------------------------------------------------------------

    def _drop(self) -> None:
        with self._drop_lock:
            self._dropped += 1
        self._wake.set()

    def _writer_loop(self) -> None:
        steps: list[dict[str, Any]] = []
        samples: list[dict[str, Any]] = []
        problems: dict[str, list[int | None]] = {}
        state = {"last_flush": time.monotonic(), "dropped_seen": 0, "overflowing": False, "sample_n": 0}
        if self._capture_env:
            self._guard(self._write_env)
        stopping = False
        while not stopping:
            self._wake.wait(min(_POLL_S, self._flush_interval_s))
            self._wake.clear()
            markers: list[list[Any]] = []
            queue = self._queue
            while queue:
                item = queue.popleft()
                kind = item[0]
                if kind == _STEP:
                    self._guard(self._take_step, item, steps, problems)
                elif kind == _SAMPLES:
                    self._guard(self._take_samples, item, samples, problems, state)
                elif kind == _FLUSH:
                    markers.append(item[1])
                else:
                    stopping = True
            self._guard(self._note_overflow, state)
            due = (markers or stopping or len(steps) >= self._steps_per_flush
                   or len(samples) >= _SAMPLES_PER_FLUSH
                   or time.monotonic() - state["last_flush"] >= self._flush_interval_s)
            if due:
                ok = self._persist(steps, samples, problems)
                state["last_flush"] = time.monotonic()
                for marker in markers:
                    marker[1] = ok
                    marker[0].set()

    def _guard(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 - a bug here must not kill the writer
            self._warn_once(f"bug:{type(exc).__name__}", f"rlprobe: internal error in writer ({exc!r}); "
                                                         "recording continues")

    def _write_env(self) -> None:
        from .envinfo import capture_env

        env = capture_env()
        self._manifest["env"] = env
        if self._writer is not None:
            self._writer.manifest["env"] = env

    def _take_step(self, item: tuple, steps: list[dict[str, Any]], problems: dict[str, list[int | None]]) -> None:
        _, raw_step, when, metrics = item
        try:
            step = to_step(raw_step)
        except (TypeError, ValueError, OverflowError) as exc:
            _note(problems, f"log_step: {exc}; record dropped", None)
            return
        row: dict[str, Any] = {"step": step, "time": when}
        found: list[str] = []
        clean_metrics(metrics, row, found)
        for problem in found:
            _note(problems, f"log_step: {problem}; value dropped", step)
        steps.append(row)

    def _take_samples(self, item: tuple, samples: list[dict[str, Any]],
                      problems: dict[str, list[int | None]], state: dict[str, Any]) -> None:
        _, raw_step, _when, batch, select = item
        try:
            step = to_step(raw_step)
            batch = list(batch)
        except (TypeError, ValueError, OverflowError) as exc:
            _note(problems, f"log_samples: {exc}; samples dropped", None)
            return
        rows = []
        for raw in batch:
            found: list[str] = []
            row = clean_sample(raw, step, self.rank, found)
            for problem in found:
                _note(problems, f"log_samples: {problem}", step)
            if row is not None:
                if row.get("sample_id") is None:
                    row["sample_id"] = f"{step}-{self.rank}-{state['sample_n']}"
                state["sample_n"] += 1
                rows.append(row)
        if select:
            rows = select_samples(rows, [r.get("reward") for r in rows], step, self.sampling)
        samples.extend(rows)

    def _note_overflow(self, state: dict[str, Any]) -> None:
        dropped = self._dropped
        if dropped > state["dropped_seen"]:
            if not state["overflowing"] and self._writer is not None:
                self._writer.append_event(EventKind.QUEUE_OVERFLOW,
                                          message=f"queue full ({self._queue_size}); dropping records",
                                          data={"dropped_total": dropped, "queue_size": self._queue_size})
            state["overflowing"] = True
            state["dropped_seen"] = dropped
        else:
            state["overflowing"] = False

    def _persist(self, steps: list[dict[str, Any]], samples: list[dict[str, Any]],
                 problems: dict[str, list[int | None]]) -> bool:
        """Write buffered rows as one part; on failure keep them (bounded) for the next try."""
        try:
            if self._writer is None:
                self._writer = RunWriter(self.run_dir, self._manifest)
            writer = self._writer
            writer.prepare()
            if problems:
                for message, at_steps in problems.items():
                    writer.append_event(EventKind.BAD_RECORD, step=at_steps[0], message=message,
                                        data={"count": len(at_steps), "steps": at_steps[:20]})
                    self.bad_records += len(at_steps)
                problems.clear()
            if steps or samples:
                writer.write_part(steps, samples)
                steps.clear()
                samples.clear()
            writer.counts["dropped"] = self._dropped
            writer.counts["bad_records"] = self.bad_records
            writer.counts["storage_errors"] = self.storage_errors
            writer.write_manifest()
            if writer.uncompacted_parts() >= _COMPACT_AFTER_PARTS:
                writer.compact()
            return True
        except Exception as exc:  # noqa: BLE001
            self._storage_failed(exc)
            limit = 4 * self._queue_size
            for buffer in (steps, samples):
                if len(buffer) > limit:
                    lost = len(buffer) - limit
                    del buffer[:lost]
                    with self._drop_lock:
                        self._dropped += lost
            return False

    def _storage_failed(self, exc: BaseException) -> None:
        self.storage_errors += 1
        self._warn_once("storage", f"rlprobe: cannot write to {getattr(self, 'run_dir', '?')} ({exc}); "
                                   "training continues, records are kept in memory and retried")

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RlprobeWarning, stacklevel=2)


def _note(problems: dict[str, list[int | None]], message: str, step: int | None) -> None:
    problems.setdefault(message, []).append(step)


def _safe_step(step: Any) -> int | None:
    try:
        return to_step(step)
    except (TypeError, ValueError, OverflowError):
        return None


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"{name} must be a positive number, got {value!r}")
