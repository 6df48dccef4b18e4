"""SourceMirror: a foreign source followed, as it is written, into an rlprobe recording.

A console log, a TensorBoard dir or any other source the doctor reads has no manifest, no
status and often no clock. The mirror gives it all three: each ``update()`` reads only what
the source gained (``sources.follow``) and appends it to a recording in a private temporary
directory, marked ``running`` until the source shows its end. ``RunWatcher`` then tails
that recording exactly as it tails one the Recorder writes, so a look costs what the
source gained, not what it holds. A source in object storage (``s3://bucket/job.out``, a
TensorBoard prefix) is followed through a local copy that each update brings up to date,
fetching only what changed (``pull_objects``).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

import pyarrow as pa

from rlprobe.records import EventKind
from rlprobe.storage import RunStatus, RunWriter
from rlprobe.storage.layout import is_url
from rlprobe.storage.location import STORE_ERRORS, cache_dir, pull_objects
from rlprobe.storage.manifest import write_manifest
from rlprobe.storage.schema import order_steps

from ..errors import UnusableInput
from ..sources import follow, looks_foreign
from ..sources.base import FailureStreak, ImportedRun, clean_samples, recording_manifest

__all__ = ["SourceMirror"]

#: Parts written before they are folded into the compacted files, so a watch of days does
#: not leave the reader opening thousands of small files.
COMPACT_EVERY = 64


class SourceMirror:
    """Follows the foreign source ``source`` (a path, ``PATH#NAME``, or a URL in object
    storage) into a recording at ``run_dir`` (a private temporary directory, removed when the
    mirror is collected or closed).

    Each step row gets the ``time`` it was written: the source's own where its reader has
    one, else the modification time of the source when the look found the row, so
    ``RUN_STALLED`` measures the silence of the source itself. The manifest's
    ``updated_at`` is the source's last write, and its ``status`` is ``running`` until the
    source ends (then ``finished``, ``crashed`` or ``terminated``). Raises ``UnusableInput``
    for a source no reader recognises; ``update`` raises ``SourceError`` (an
    ``UnusableInput``) for one it has not been able to read for a while (``FailureStreak``).
    Not thread-safe."""

    def __init__(self, source: str | os.PathLike[str]) -> None:
        self.source = source
        self._copy: Path | None = None
        self._failed_pulls = FailureStreak()
        if is_url(source):
            self._copy = _copy_dir(source)
            self._tail = follow(_pull(source, self._copy))
        else:
            self._tail = follow(source)
        self.run_dir = Path(tempfile.mkdtemp(prefix="rlprobe-watch-"))
        self._cleanup = weakref.finalize(self, shutil.rmtree, str(self.run_dir), True)
        self._writer: RunWriter | None = None
        self._samples = 0
        self._parts = 0

    @classmethod
    def open(cls, source: str | os.PathLike[str]) -> SourceMirror | None:
        """A mirror of ``source``, or None while nothing there is a source the doctor reads
        (not written yet). Raises ``UnusableInput`` for a URL that cannot be reached."""
        if is_url(source):
            try:
                local = pull_objects(os.fspath(source), _copy_dir(source))
            except FileNotFoundError:
                return None
            except (ValueError, *STORE_ERRORS) as exc:
                raise UnusableInput(str(exc)) from None
            return cls(source) if looks_foreign(local) else None
        return cls(source) if looks_foreign(source) else None

    @property
    def status(self) -> str:
        return self._tail.status

    def update(self) -> bool:
        """Read what the source gained and append it; True when the recording changed. A
        store that fails is a look with nothing new, and an ``UnusableInput`` once it has
        failed for as long as ``FailureStreak`` allows."""
        if self._copy is not None:
            try:
                _pull(self.source, self._copy)
                self._failed_pulls.ok()
            except UnusableInput:
                if self._failed_pulls.failed():
                    raise
                return False
        increment = self._tail.look()
        when = self._tail.last_write or time.time()
        writer = self._writer
        if self._tail.restarted and writer is not None:
            # A new job over the same log: a new session of the recording, whose first part
            # supersedes the old job's rows (a run_resumed event makes the view read it afresh).
            writer = self._writer = RunWriter(self.run_dir, recording_manifest(increment))
        if writer is None:
            writer = self._writer = RunWriter(self.run_dir, recording_manifest(increment))
            if increment.created_at is not None:
                writer.manifest["created_at"] = increment.created_at
        changed = self._append(writer, increment, when)
        manifest = writer.manifest
        known = {"algorithm": increment.algorithm, "model_name": increment.model_name}
        for key, value in known.items():
            if value and manifest.get(key) != value and not (key == "algorithm" and manifest.get(key)):
                manifest[key] = value
                changed = True
        if increment.trainer_config and any(manifest["trainer_config"].get(k) != v
                                            for k, v in increment.trainer_config.items()):
            manifest["trainer_config"] = {**manifest["trainer_config"], **increment.trainer_config}
            changed = True
        if changed or manifest.get("status") != increment.status or manifest.get("updated_at") != when:
            self._write_manifest(writer, increment.status, when)
        return changed

    def _append(self, writer: RunWriter, run: ImportedRun, when: float) -> bool:
        steps: list[dict[str, Any]] = [row if "time" in row else {**row, "time": when} for row in run.steps]
        samples = clean_samples(run.samples, run.problems, self._samples)
        self._samples += len(run.samples)
        table = run.step_table
        if table is not None and "time" not in table.column_names:
            table = table.append_column("time", pa.array([when] * table.num_rows, pa.float64()))
        written = False
        if steps or samples:
            writer.write_part(steps, samples)
            written = True
        if table is not None and table.num_rows:
            writer.write_part(order_steps(table))
            written = True
        if written:
            self._parts += 1
            if self._parts % COMPACT_EVERY == 0:
                writer.compact()
        events = [(kind, step, message, data, None) for kind, step, message, data in run.events]
        events += [(EventKind.BAD_RECORD, step, message, data, None) for message, step, data in run.problems.events()]
        writer.counts["bad_records"] += run.problems.total()
        if events:
            writer.append_events(events)
        return written or bool(events)

    def _write_manifest(self, writer: RunWriter, status: str, when: float) -> None:
        """The manifest with ``updated_at`` the source's last write (``RunWriter`` would put
        the clock there, and ``RUN_STALLED`` would take the mirror for a live writer)."""
        writer.manifest.update(status=status, counts=dict(writer.counts), updated_at=when,
                               closed_at=time.time() if status != RunStatus.RUNNING else None)
        write_manifest(writer.run_dir, writer.manifest)

    def close(self) -> None:
        """Remove the recording now rather than when the mirror is collected."""
        self._cleanup()

    def __repr__(self) -> str:
        return f"SourceMirror({os.fspath(self.source)!r}, status={self.status!r})"


def _copy_dir(url: str | os.PathLike[str]) -> Path:
    """Where the local copy of a source in object storage is kept (beside the copies of
    remote recordings), one folder a URL."""
    return cache_dir("remote-logs") / hashlib.sha256(os.fspath(url).rstrip("/").encode()).hexdigest()[:20]


def _pull(url: str | os.PathLike[str], dest: Path) -> Path:
    try:
        return pull_objects(os.fspath(url), dest)
    except (ValueError, *STORE_ERRORS) as exc:  # FileNotFoundError too: the source went away
        raise UnusableInput(str(exc)) from None
