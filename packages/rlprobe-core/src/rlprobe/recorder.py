"""The Recorder: the training loop's side of rlprobe.

Promises (the same as a telemetry SDK's batch processor):

* ``log_step`` and ``log_samples`` only append to a bounded in-memory queue. They never
  block and never raise, whatever the values; validation happens on a daemon writer
  thread. When the queue is full the record is dropped and counted (``dropped``), and one
  ``queue_overflow`` event is written per burst of drops.
* ``log_event`` writes its line and fsyncs it before returning (events are rare). While
  storage fails, events wait in memory (bounded, oldest lost first and counted) and are
  written, in order and with their original times, as soon as it works again.
* The writer thread persists buffered records as Parquet part files at least every
  ``flush_interval_s`` seconds, and once ``steps_per_flush`` steps are buffered (in a loop
  faster than that, no more often than twice a second, so that parts stay few and
  ``close()`` stays short). ``flush(timeout)`` returns True once everything logged before
  the call is on disk.
* ``close()`` drains the queue, writes the last part, compacts the parts into
  ``steps.parquet``/``samples.parquet`` and marks the manifest closed; it is idempotent and
  waits at most ``timeout`` seconds.
* Storage failures (disk full, read-only, directory deleted) cost one warning and a
  counter (``storage_errors``); training goes on, unwritten records are kept in memory
  (bounded; what overflows that bound is counted as ``lost``) and written when the
  storage comes back.
* A bad value costs that value alone: the rest of its row, and every other row, is kept,
  and the value is reported in a ``bad_record`` event and counted (``bad_records``).
* A directory that already holds a recording is resumed: this session's first rows
  supersede the earlier session's from their step on (see ``storage.RunWriter``).
  ``restore_steps`` fills in, from another record of them (a checkpoint's log history),
  the steps an earlier session logged but never flushed (a SIGKILL loses at most
  ``flush_interval_s`` of steps).
* Thread-safe: any number of threads may log at once. After ``fork()`` the child's
  recorders are inert: they record nothing and touch no file.
"""
from __future__ import annotations

import os
import threading
import time
import traceback
import uuid
import warnings
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from . import lifecycle
from .buffers import NO_STEP, SampleBuffer, StepBuffer
from .cleaning import Problems, as_text, to_step
from .records import EventKind
from .sampling import SamplingConfig
from .storage.layout import MANIFEST, is_url, rank_dir
from .storage.manifest import RunStatus
from .storage.schema import unify
from .storage.writer import RunWriter, event_line

if TYPE_CHECKING:
    from .storage.upload import Uploader

__all__ = ["Recorder", "RlprobeWarning", "RecorderInternals"]

_STEP, _SAMPLES, _SYNC, _STOP = 0, 1, 2, 3
#: Longest the writer thread naps; bounds how late a size-triggered flush can be.
_POLL_S = 0.05
#: A size-triggered part is written no sooner than this after the previous one.
_MIN_PART_INTERVAL_S = 0.5
#: Queue length at which the writer skips its nap and keeps draining.
_BACKLOG = 1024
#: Compact part files into the run's two Parquet files once this many have piled up.
_COMPACT_AFTER_PARTS = 64
#: Samples buffered before a flush is due regardless of steps.
_SAMPLES_PER_FLUSH = 2000
#: Buffered steps, or characters of sample text, after which a flush is due at once.
_MAX_BUFFERED_STEPS = 25_000
_MAX_BUFFERED_CHARS = 64 * 2**20
#: Longest close() waits for the environment probe (git, nvidia-smi) to finish.
_ENV_WAIT_S = 5.0
#: After a failed write, wait this long before trying again (explicit flushes try at once).
_RETRY_S = 1.0
#: Events kept in memory while storage fails; the oldest beyond this are lost (counted).
_MAX_PENDING_EVENTS = 1000

_now = time.time
_monotonic = time.monotonic


class RlprobeWarning(RuntimeWarning):
    """Something went wrong inside rlprobe; training is unaffected."""


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


class _Sync:
    """A flush request travelling through the queue behind the records it must cover."""

    __slots__ = ("done", "ok", "compact")

    def __init__(self, compact: bool) -> None:
        self.done = threading.Event()
        self.ok = False
        self.compact = compact


class Recorder:
    """Records one run of RL fine-tuning into ``run_dir``. See the module docstring for
    the promises and the API reference for the arguments.

    On a rank that does not record (every rank but 0, unless ``record_all_ranks=True``)
    the recorder is inert: ``active`` is False and every method is a cheap no-op. With
    ``record_all_ranks=True`` and ``world_size > 1`` each rank writes ``run_dir/rank-N``.
    Usable as a context manager (an exception marks the run ``crashed``).

    ``upload_to`` (a URL, ``s3://bucket/runs/my-run``) mirrors the run to object storage
    from a background thread (``storage.upload``) while it is still written locally as
    above: a failed upload is warned about once, counted in ``storage_errors`` and retried;
    ``close()`` waits for the last upload within its ``timeout``.
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
        upload_to: str | None = None,
    ) -> None:
        _check_positive(queue_size=queue_size, flush_interval_s=flush_interval_s,
                        steps_per_flush=steps_per_flush, world_size=world_size)
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < world_size:
            raise ValueError(f"rank must be an int in [0, world_size={world_size}), got {rank!r}")
        if upload_to is not None and not is_url(upload_to):
            raise ValueError(f"upload_to must be a URL such as s3://bucket/runs/my-run, got {upload_to!r}")
        if sampling is not None and not isinstance(sampling, SamplingConfig):
            raise TypeError(f"sampling must be a SamplingConfig or None, got {type(sampling).__name__}")
        try:  # pyarrow opens files by UTF-8 name: a run there could never be written
            str(Path(run_dir).absolute()).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"run_dir must be a path whose name is valid UTF-8, got {os.fspath(run_dir)!r}") from None
        self.rank = rank
        self.world_size = world_size
        self.sampling = sampling or SamplingConfig()
        self.run_id = run_id or f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
        base = Path(run_dir)
        self.run_dir = rank_dir(base, rank) if record_all_ranks and world_size > 1 else base
        self._active = rank == 0 or record_all_ranks
        self._dropped = 0
        self._closed = False
        #: Storage failures seen (each failed write counts once).
        self.storage_errors = 0
        #: Bad values reported in ``bad_record`` events.
        self.bad_records = 0
        #: Records and events discarded because storage kept failing and the in-memory backlog was full.
        self.lost = 0
        if not self._active:
            self.log_step = self.log_samples = self.log_event = _noop  # type: ignore[method-assign]
            return
        self._queue: deque[tuple[Any, ...]] = deque()
        self._queue_size = queue_size
        self._wake_at = max(1, queue_size // 2)
        self._flush_interval_s = float(flush_interval_s)
        self._steps_per_flush = steps_per_flush
        self._poll_s = min(_POLL_S, self._flush_interval_s)
        self._min_part_s = min(_MIN_PART_INTERVAL_S, self._flush_interval_s)
        self._wake = threading.Event()
        self._drop_lock = threading.Lock()
        #: Guards the events waiting for storage and the counters more than one thread adds to.
        self._lock = threading.RLock()
        self._pending_events: list[str] = []
        self._close_lock = threading.RLock()
        self._pid = os.getpid()
        self._status = RunStatus.FINISHED
        self._warned: set[str] = set()
        self._env: dict[str, Any] | None = None
        self._writer: RunWriter | None = None
        #: Whether the directory's earlier rows are known (the writer opened), and their last step.
        self._earlier_known = False
        self._earlier_last_step: int | None = None
        self._parts_since_compaction = 0
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
            self._earlier_known, self._earlier_last_step = True, self._writer.last_step
        except Exception as exc:  # noqa: BLE001 - an unwritable run dir must not stop training
            self._storage_failed(exc)
        self._emit([event_line(EventKind.RUN_START, None, f"recording {self.run_id}", None)])
        self._env_thread: threading.Thread | None = None
        if capture_env:
            self._env_thread = threading.Thread(target=self._capture_env, name="rlprobe-env", daemon=True)
            self._env_thread.start()
        self._thread = threading.Thread(target=self._writer_main, name=f"rlprobe-writer-{self.run_id}",
                                        daemon=True)
        self._thread.start()
        self._uploader: Uploader | None = None
        if upload_to is not None:
            from .storage.upload import Uploader  # pyarrow.fs only for a run that uploads

            url = upload_to.rstrip("/") + (f"/{self.run_dir.name}" if self.run_dir != base else "")
            self._uploader = Uploader(self.run_dir, url, self._flush_interval_s, self._upload_failed)
        lifecycle.register(self, install_handlers)

    # -- the training thread's side ------------------------------------------------------

    def log_step(self, step: int = NO_STEP, /, **metrics: Any) -> None:
        """Record one step's scalars. Enqueues only: never blocks, never raises.

        ``step`` may also be passed by keyword; any other keyword is a metric, even one
        spelled ``self`` (a metric called ``step`` besides the positional one is refused
        as reserved, in a ``bad_record`` event)."""
        queue = self._queue
        n = len(queue)
        if n < self._queue_size:
            queue.append((_STEP, step, _now(), metrics))
            if n == self._wake_at:
                self._wake.set()
        else:
            self._drop()

    def log_samples(self, step: int, samples: Iterable[Any], select: bool = True) -> None:
        """Record per-sample forensics (dicts or SampleRecords). Enqueues only: never blocks,
        never raises. The recorder takes ownership of ``samples``; with ``select`` the
        sampling policy picks which are kept."""
        queue = self._queue
        n = len(queue)
        if n < self._queue_size:
            queue.append((_SAMPLES, step, samples, select))
            if n == self._wake_at:
                self._wake.set()
        else:
            self._drop()

    def log_event(self, kind: str, /, step: int | None = None, message: str = "", **data: Any) -> None:
        """Record a sparse event; it is on disk (fsynced) when this returns, or, while storage
        fails, kept to be written when it works again. Never raises; ignored once the
        recorder is closed. A ``kind``, ``message`` or ``step`` that cannot be read is left
        out of the event and reported in a ``bad_record`` event."""
        if self._closed:
            return
        when = _now()
        refused: list[str] = []
        try:
            event_step = None if step is None else to_step(step)
        except TypeError as exc:
            event_step = None
            refused.append(f"log_event: step {exc}; step dropped")
        texts = []
        for what, value in (("kind", kind), ("message", message)):
            try:
                texts.append(as_text(value))
            except TypeError as exc:
                texts.append(f"<unreadable {type(value).__name__}>")
                refused.append(f"log_event: {what} is {exc}; replaced")
        lines = [event_line(texts[0], event_step, texts[1], data, when)]
        lines += [event_line(EventKind.BAD_RECORD, event_step, summary, {"count": 1, "steps": [event_step]}, when)
                  for summary in refused]
        if refused:
            with self._lock:
                self.bad_records += len(refused)
        self._emit(lines)

    def restore_steps(self, rows: Iterable[Any], /, source: str, timeout: float = 10.0, **data: Any) -> int:
        """Record the steps an earlier session in this directory logged but never flushed (it
        was SIGKILLed within ``flush_interval_s`` of them), taken from ``source``, another
        record of them (a checkpoint's log history). ``rows`` are ``(step, metrics)`` pairs in
        the order logged; those after the last step the directory held when this recorder
        started are recorded, as ``log_step`` would (the others it holds already, or a later
        session superseded them). Call it before this session logs a step: the first part
        then supersedes nothing the earlier session kept.

        The rows' ``time`` is null (when they were logged is not known), they pass the queue
        bound (the steps of a run, never dropped), and are flushed at once (waiting at most
        ``timeout`` seconds); then one ``steps_restored`` event names them: ``from_step``,
        ``to_step``, ``count``, ``source`` and ``data``. Returns how many steps were restored:
        0 on a rank that does not record, when none is missing, or when the directory could
        not be read. Never raises: an item that is not a ``(step, mapping)`` pair with a
        whole-number step is skipped, and reported in a ``bad_record`` event."""
        if not self._active or self._closed or not self._earlier_known:
            return 0
        after = self._earlier_last_step
        items: list[tuple[Any, ...]] = []
        refused = 0
        try:
            for row in rows:
                try:
                    step, metrics = row
                    step = to_step(step)
                    if not isinstance(metrics, Mapping):
                        raise TypeError("metrics are not a mapping")
                except (TypeError, ValueError):
                    refused += 1
                    continue
                if after is None or step > after:
                    items.append((_STEP, step, None, dict(metrics)))
        except Exception:  # noqa: BLE001 - rows that cannot be iterated: restore what came before
            refused += 1
        if refused:
            self.log_event(EventKind.BAD_RECORD, message=f"restore_steps: {refused} item(s) not a (step, metrics) "
                                                         "pair; skipped", count=refused)
            with self._lock:
                self.bad_records += refused
        if not items:
            return 0
        self._queue.extend(items)
        self.flush(timeout)
        steps = [item[1] for item in items]
        described = {key: value for key, value in data.items() if key not in ("step", "message")}
        described.update(from_step=steps[0], to_step=steps[-1], count=len(steps), source=str(source))
        self.log_event(EventKind.STEPS_RESTORED, step=steps[0],
                       message=f"restored {len(steps)} step(s) from {steps[0]} to {steps[-1]} that the recording "
                               f"lacked, from {source}", **described)
        return len(items)

    def flush(self, timeout: float = 5.0) -> bool:
        """Persist everything logged before this call. True once it is durable; False on
        timeout or when storage failed. Blocks the caller for at most ``timeout`` seconds."""
        return self._sync(timeout, compact=False)

    def close(self, timeout: float = 30.0, status: str | None = None) -> None:
        """Drain the queue, flush, compact part files into ``steps.parquet`` and
        ``samples.parquet``, and mark the manifest closed with ``status`` (default
        "finished", or "crashed"/"terminated" when an exit handler saw that happen).

        Idempotent: a second call only waits for the first to finish. Never raises; waits
        at most ``timeout`` seconds (past that the run stays readable, uncompacted)."""
        if not self._active or os.getpid() != self._pid or threading.current_thread() is self._thread:
            return
        with self._close_lock:
            first = not self._closed
            self._closed = True
        if first:
            if status is not None:
                self._status = status
            self.log_step = self.log_samples = _noop  # type: ignore[method-assign]
            self._queue.append((_STOP,))
            self._wake.set()
        deadline = _monotonic() + timeout
        self._thread.join(timeout)
        if self._uploader is not None and not self._thread.is_alive():
            if not self._uploader.close(deadline - _monotonic()):
                self._warn_once("upload", f"rlprobe: upload to {self._uploader.mirror.url} unfinished after "
                                          f"{timeout}s; finish it with: rlprobe push {self.run_dir} "
                                          f"{self._uploader.mirror.url}")
        if first:
            lifecycle.unregister(self)
        if self._thread.is_alive():
            self._warn_once("close", f"rlprobe: writer still busy after {timeout}s; {self.run_dir} is left "
                                     "uncompacted (still readable)")

    @property
    def dropped(self) -> int:
        """Records dropped because the queue was full."""
        return self._dropped

    @property
    def queued(self) -> int:
        """Records waiting for the writer thread right now (a snapshot; 0 when inactive)."""
        return len(self._queue) if self._active else 0

    @property
    def active(self) -> bool:
        """False on non-recording ranks (and after ``fork()`` in the child)."""
        return self._active

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.internals.close_after(exc_type, exc, tb)

    def __repr__(self) -> str:
        return f"Recorder({str(self.run_dir)!r}, active={self._active}, dropped={self._dropped})"

    @property
    def internals(self) -> RecorderInternals:
        """What rlprobe's own code (process hooks, framework integrations) does to a recorder
        beyond the user API; not for users."""
        return RecorderInternals(self)

    def _sync(self, timeout: float, compact: bool) -> bool:
        if not self._active or self._closed:
            return True
        request = _Sync(compact)
        self._queue.append((_SYNC, request))
        self._wake.set()
        return request.done.wait(timeout) and request.ok

    # -- the writer thread ---------------------------------------------------------------

    def _drop(self) -> None:
        with self._drop_lock:
            self._dropped += 1
        self._wake.set()

    def _capture_env(self) -> None:
        try:
            from .envinfo import capture_env

            self._env = capture_env()
        except Exception as exc:  # noqa: BLE001 - best effort (it can fail at interpreter shutdown)
            self._env = {"error": repr(exc)}

    def _writer_main(self) -> None:
        try:
            self._write_until_stopped()
        except BaseException as exc:  # noqa: BLE001 - a bug here must not reach the training loop
            self._warn_once("writer", f"rlprobe: writer thread stopped by an internal error ({exc!r}); "
                                      "recording stops, training is unaffected")

    def _write_until_stopped(self) -> None:
        # pyarrow imports pandas (when installed) on its first conversion: pay that here, at
        # start-up, rather than in the middle of training. At interpreter shutdown that import
        # can fail; pyarrow then carries on without pandas, and so do we.
        try:
            pa.array((0.0,), pa.float64())
        except Exception:  # noqa: BLE001
            pass
        steps = StepBuffer()
        samples = SampleBuffer(self.rank, self.sampling)
        problems = Problems()
        backlog = _Backlog(4 * self._queue_size, 4 * _SAMPLES_PER_FLUSH)
        last_flush = _monotonic()
        retry_at = 0.0
        dropped_seen = 0
        overflowing = False
        queue = self._queue
        wake = self._wake
        while True:
            if len(queue) < _BACKLOG:
                wake.wait(self._poll_s)
                wake.clear()
            requests: list[_Sync] = []
            stop = False
            n = len(queue)
            if n:
                popleft = queue.popleft
                batch = [popleft() for _ in range(n)]  # bounded: later items wait for the next round
                step_items = [item for item in batch if item[0] == _STEP]
                steps.extend(step_items)
                if len(step_items) != n:
                    for item in batch:
                        kind = item[0]
                        if kind == _SAMPLES:
                            self._take_samples(samples, item, problems)
                        elif kind == _SYNC:
                            requests.append(item[1])
                        elif kind == _STOP:
                            stop = True
            dropped = self._dropped
            if dropped != dropped_seen:
                if not overflowing:
                    self._write_event(EventKind.QUEUE_OVERFLOW, f"queue full ({self._queue_size} records); "
                                      "dropping records until the writer catches up",
                                      {"dropped_total": dropped, "queue_size": self._queue_size})
                overflowing = True
                dropped_seen = dropped
            else:
                overflowing = False
            now = _monotonic()
            since = now - last_flush
            due = (requests or stop or since >= self._flush_interval_s
                   or steps.rows >= _MAX_BUFFERED_STEPS or samples.chars >= _MAX_BUFFERED_CHARS
                   or (since >= self._min_part_s
                       and (steps.rows >= self._steps_per_flush or len(samples.rows) >= _SAMPLES_PER_FLUSH)))
            if due and (requests or stop or now >= retry_at):
                ok = self._persist(steps, samples, problems, backlog, any(r.compact for r in requests))
                last_flush = now
                retry_at = now if ok else now + min(_RETRY_S, self._flush_interval_s)
                for request in requests:
                    request.ok = ok
                    request.done.set()
            if stop:
                self._finish()
                return

    def _take_samples(self, samples: SampleBuffer, item: tuple[Any, ...], problems: Problems) -> None:
        try:
            step = to_step(item[1])
        except TypeError as exc:
            problems.add(f"log_samples: step {exc}; record dropped", None)
            return
        samples.add(step, item[2], item[3], problems)

    def _emit(self, lines: list[str]) -> bool:
        """Write event ``lines`` after those still waiting; True once all are on disk. On
        failure every one waits for the next try (``_persist``), the oldest beyond
        ``_MAX_PENDING_EVENTS`` counted as lost. Any thread may call it."""
        with self._lock:
            pending = self._pending_events
            pending += lines
            excess = len(pending) - _MAX_PENDING_EVENTS
            if excess > 0:
                del pending[:excess]
                self.lost += excess
            if not pending:
                return True
            if self._writer is None:
                return False
            try:
                self._writer.append_lines(pending)
            except Exception as exc:  # noqa: BLE001 - the training loop must never see our errors
                self._storage_failed(exc)
                return False
            pending.clear()
            return True

    def _write_event(self, kind: str, message: str, data: dict[str, Any]) -> None:
        self._emit([event_line(kind, None, message, data)])

    def _persist(self, steps: StepBuffer, samples: SampleBuffer, problems: Problems, backlog: _Backlog,
                 compact: bool) -> bool:
        """Write what is buffered as one part (plus bad_record events and the manifest).
        On failure the rows stay in ``backlog`` (bounded) for the next try."""
        backlog.add(steps.take(problems), samples.take(problems))
        if problems:
            with self._lock:
                self.bad_records += problems.total()
            bad = [event_line(EventKind.BAD_RECORD, step, message, data) for message, step, data in problems.events()]
            problems.clear()
        else:
            bad = []
        try:
            writer = self._open_writer()
        except Exception as exc:  # noqa: BLE001
            self._storage_failed(exc)
            self._emit(bad)
            return self._keep(backlog)
        if not self._emit(bad):
            return self._keep(backlog)
        try:
            if backlog:
                writer.write_part(*backlog.tables())
                backlog.clear()
                self._parts_since_compaction += 1
            self._update_counts(writer)
            writer.write_manifest()
            if compact or self._parts_since_compaction >= _COMPACT_AFTER_PARTS:
                writer.compact()
                self._parts_since_compaction = 0
            return True
        except Exception as exc:  # noqa: BLE001
            self._storage_failed(exc)
            return self._keep(backlog)

    def _keep(self, backlog: _Backlog) -> bool:
        """After a failed write: keep the backlog for the next try, within its bounds."""
        lost = backlog.trim()
        with self._lock:
            self.lost += lost
        return False

    def _open_writer(self) -> RunWriter:
        writer = self._writer
        if writer is None:
            writer = self._writer = RunWriter(self.run_dir, self._manifest)
            return writer
        if not (self.run_dir / MANIFEST).exists():
            self.storage_errors += 1
            self._warn_once("storage", f"rlprobe: run directory {self.run_dir} vanished mid-run; recreating "
                                        "it (what was recorded before is lost); training continues")
            writer.prepare()
            self._write_event(EventKind.STORAGE_ERROR, "run directory vanished mid-run; recreated", {})
        else:
            writer.prepare()
        return writer

    def _update_counts(self, writer: RunWriter) -> None:
        if self._env is not None and writer.manifest.get("env") != self._env:
            self._manifest["env"] = writer.manifest["env"] = self._env
        own = {"dropped": self._dropped, "bad_records": self.bad_records, "storage_errors": self.storage_errors,
               "lost": self.lost}
        for key, value in own.items():
            writer.counts[key] = writer.carried.get(key, 0) + value

    def _finish(self) -> None:
        """Last act of the writer thread: mark the run closed and compact it."""
        writer = self._writer
        if writer is None:
            return
        if self._env_thread is not None:
            self._env_thread.join(_ENV_WAIT_S)  # a short run still gets its environment recorded
        if not self._emit([event_line(EventKind.RUN_END, None, self._status, None)]):
            with self._lock:
                self.lost += len(self._pending_events)
                self._pending_events.clear()
        try:
            self._update_counts(writer)
            writer.close(self._status)
        except Exception as exc:  # noqa: BLE001
            self._storage_failed(exc)

    def _storage_failed(self, exc: BaseException) -> None:
        with self._lock:
            self.storage_errors += 1
        self._warn_once("storage", f"rlprobe: cannot write to {self.run_dir} ({exc}); training continues, "
                                   "records are kept in memory and retried")

    def _upload_failed(self, exc: BaseException) -> None:
        """The mirror thread's report of a failed round (retried at the next): counted and
        warned about like a failed write."""
        with self._lock:
            self.storage_errors += 1
        url = self._uploader.mirror.url if self._uploader is not None else "?"
        refused = self._uploader is not None and self._uploader.refused is exc
        self._warn_once("upload", f"rlprobe: cannot upload to {url} ({' '.join(str(exc).split())}); "
                                  "training continues" + (", recorded locally only" if refused
                                                          else ", the upload is retried"))

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RlprobeWarning, stacklevel=2)


class RecorderInternals:
    """The internal interface of a ``Recorder`` (``recorder.internals``) for rlprobe's own
    code: ``rlprobe.lifecycle``'s process hooks and the framework integrations (the TRL
    callback records an exception leaving ``trainer.train()`` through ``close_after``). Not
    user API: it may change in any release. Holds no state of its own."""

    __slots__ = ("_recorder",)

    def __init__(self, recorder: Recorder) -> None:
        self._recorder = recorder

    def close_after(self, exc_type: Any, exc: Any, tb: Any, step: int | None = None) -> None:
        """Close as the end of a ``with`` block does; an exception (``step``: the last step
        the caller knows completed) is recorded as a crash, KeyboardInterrupt as terminated."""
        rec = self._recorder
        status = None
        if exc_type is not None and rec._active and not rec._closed:
            if issubclass(exc_type, KeyboardInterrupt):
                status = RunStatus.TERMINATED
            elif not issubclass(exc_type, (SystemExit, GeneratorExit)):
                self.record_crash(f"{exc_type.__name__}: {exc}",
                                  "".join(traceback.format_exception(exc_type, exc, tb)), step)
                status = RunStatus.CRASHED
        rec.close(status=status)

    def sync(self, timeout: float, compact: bool) -> bool:
        """Flush (and with ``compact``, compact) within ``timeout``; True when done."""
        return self._recorder._sync(timeout, compact)

    def record_crash(self, message: str, traceback_text: str, step: int | None = None) -> None:
        """Write a ``crash`` event; the run will close as "crashed"."""
        self._recorder.log_event(EventKind.CRASH, step=step, message=message, traceback=traceback_text)
        self._recorder._status = RunStatus.CRASHED

    def record_terminated(self, message: str) -> None:
        """Write a ``terminated`` event; the run will close as "terminated"."""
        self._recorder.log_event(EventKind.TERMINATED, message=message)
        self._recorder._status = RunStatus.TERMINATED

    def disable_after_fork(self) -> None:
        """In a forked child: make the recorder inert (the writer thread was not forked)."""
        rec = self._recorder
        rec._active = False
        rec._closed = True
        rec.log_step = rec.log_samples = rec.log_event = _noop  # type: ignore[method-assign]
        rec._queue = deque()


class _Backlog:
    """Converted tables not yet on disk; bounded so a dead disk cannot eat the host's memory."""

    __slots__ = ("steps", "samples", "_max_steps", "_max_samples")

    def __init__(self, max_steps: int, max_samples: int) -> None:
        self.steps: list[pa.Table] = []
        self.samples: list[pa.Table] = []
        self._max_steps = max_steps
        self._max_samples = max_samples

    def add(self, steps: pa.Table | None, samples: pa.Table | None) -> None:
        if steps is not None:
            self.steps.append(steps)
        if samples is not None:
            self.samples.append(samples)

    def __bool__(self) -> bool:
        return bool(self.steps or self.samples)

    def tables(self) -> tuple[pa.Table | None, pa.Table | None]:
        return (unify(self.steps) if self.steps else None), (unify(self.samples) if self.samples else None)

    def clear(self) -> None:
        self.steps.clear()
        self.samples.clear()

    def trim(self) -> int:
        """Drop the oldest rows beyond the bounds; returns how many were dropped."""
        lost = 0
        for tables, limit in ((self.steps, self._max_steps), (self.samples, self._max_samples)):
            excess = sum(t.num_rows for t in tables) - limit
            while excess > 0 and tables:
                head = tables[0]
                if head.num_rows <= excess:
                    tables.pop(0)
                    lost += head.num_rows
                    excess -= head.num_rows
                else:
                    tables[0] = head.slice(excess)
                    lost += excess
                    excess = 0
        return lost


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"{name} must be a positive number, got {value!r}")
