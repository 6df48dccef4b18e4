"""Foreign run sources: logs that rlprobe did not record, read by the doctor all the same.

A source is recognised by its content, not its name (``resolve``). Each format's reader
turns it into an ``ImportedRun``, which is written as a format-v1 recording with core's
writer (``import_source``), so every command, ``diff`` included, works on it unchanged.
Commands given a source import it into a cache directory keyed by the source's identity
(path, and the sizes and times of the files read), so a later command on an unchanged source
reads the cached recording, and a changed one (a live log) is imported again
(``rlprobe.doctor.import_cache``, which finds an unchanged source's import without this package).

A source still being written is followed instead (``follow``, which ``rlprobe watch``
uses): each format's ``follow`` keeps its place in the source and reads only what is new.

A source holding several runs (a trackio database, an MLflow store, a TensorBoard root with
one sub-folder a run, a ``wandb/`` folder) lists them with ``list_source_runs``; one is
addressed as ``SOURCE#NAME``.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rlprobe.storage.layout import is_recording, is_url

from ..errors import UnusableInput
from ..import_cache import identity, recording_dir, split_name
from . import console, hf_trainer, mlflow_store, tensorboard, trackio, verl_jsonl, wandb_log
from .base import ImportedRun, SourceError, SourceTail, write_recording
from .reader import Reader

__all__ = ["FORMATS", "Reader", "Source", "ImportedRun", "SourceError", "resolve", "recording_dir", "import_source",
           "list_source_runs", "is_recording", "formats_line", "default_report_path",
           "looks_foreign", "follow", "SourceTail"]

#: The readers, in the order a path is offered to them: the more specific first, the console
#: log (any text that holds training lines) last.
FORMATS: tuple[Reader, ...] = (hf_trainer, tensorboard, trackio, mlflow_store, verl_jsonl, wandb_log, console)


def formats_line() -> str:
    return "; ".join(["an rlprobe recording"] + [m.DESCRIPTION for m in FORMATS])


def unrecognised(path: Path) -> UnusableInput:
    """The one-line error for a path that is neither a recording nor a known log."""
    what = " (no rlprobe recording here: no manifest.json)" if path.is_dir() else ""
    return UnusableInput(f"{path}: not an rlprobe recording or a known log format{what}; "
                         f"rlprobe reads: {formats_line()}")


@dataclass(frozen=True)
class Source:
    """A recognised foreign source: where it is, which reader reads it, which run in it."""

    path: Path
    reader: Reader
    name: str | None = None

    @property
    def format(self) -> str:
        return self.reader.NAME

    def read(self) -> ImportedRun:
        return self.reader.read(self.path, self.name)

    def identity(self) -> str:
        """A key that changes when the files read change (path, sizes, modification times)."""
        return identity(self.path, self.name, self.format, self.reader.files(self.path))


def resolve(source: str | os.PathLike[str]) -> Source | None:
    """The foreign source at ``source`` (``PATH`` or ``PATH#NAME``), or ``None`` when it is
    an rlprobe recording. Raises ``UnusableInput`` (one line) for a path that does not exist
    or that no reader recognises, and for a run name the source does not hold."""
    path, name = split_name(source)
    if name is None and is_recording(path):
        return None
    if not path.exists():
        raise UnusableInput(f"{path}: no rlprobe recording or log here (no such file or directory)")
    for reader in FORMATS:
        if reader.sniff(path):
            names = reader.runs(path)
            if name is not None and reader.address is not None:
                name = reader.address(path, name)  # another name the run answers to (W&B's run id)
            if name is not None and names and name not in names:
                raise UnusableInput(f"{path}: holds no run named {name!r}; it holds: {', '.join(names)}")
            if name is not None and not names:
                raise UnusableInput(f"{path}: holds a single run; drop '#{name}'")
            if name is None and len(names) > 1:
                raise UnusableInput(f"{path}: holds {len(names)} runs; name one as {path}#NAME "
                                    f"(see: rlprobe ls {path}): {', '.join(names[:8])}"
                                    f"{' …' if len(names) > 8 else ''}")
            return Source(path, reader, name if name is not None else (names[0] if names else None))
    if path.is_dir() and (path / "parts").is_dir():
        return None  # a recording whose manifest is missing: the reader says what is wrong
    raise unrecognised(path)


def list_source_runs(source: str | os.PathLike[str]) -> tuple[Source | None, list[str]]:
    """The runs a source holds, by the names ``SOURCE#NAME`` takes (``[]`` for a single-run
    source); ``(None, [])`` for an rlprobe recording."""
    path, _ = split_name(source)
    if is_recording(path):
        return None, []
    if not path.exists():
        raise UnusableInput(f"{path}: no rlprobe recording or log here (no such file or directory)")
    for reader in FORMATS:
        if reader.sniff(path):
            return Source(path, reader), reader.runs(path)
    raise unrecognised(path)


def import_source(source: str | os.PathLike[str] | Source, out_dir: str | os.PathLike[str],
                  metrics: Mapping[str, str] | None = None) -> Path:
    """Read a foreign source and write it at ``out_dir`` as a format-v1 recording, replacing
    what was there; ``metrics`` (``{column: name logged}``, ``config.metric_map``) writes a
    run's own names as the quantities they are. Raises ``UnusableInput`` for an
    unrecognised or unreadable source (and for an rlprobe recording, which needs no
    import), or a mapped name the source did not log."""
    resolved = source if isinstance(source, Source) else resolve(source)
    if resolved is None:
        raise UnusableInput(f"{source}: is already an rlprobe recording; nothing to import")
    run = resolved.read()
    if metrics:
        run.map_metrics(metrics)
    return write_recording(run, out_dir)


def follow(source: str | os.PathLike[str] | Source) -> SourceTail:
    """A reader of the foreign source ``source`` while it is still being written (see
    ``SourceTail``): each look reads only what is new, from where the last one stopped (each
    format's ``follow``). Raises ``UnusableInput`` as ``resolve`` does, and for a recording."""
    resolved = source if isinstance(source, Source) else resolve(source)
    if resolved is None:
        raise UnusableInput(f"{source}: is an rlprobe recording, not a foreign source")
    return resolved.reader.follow(resolved.path, resolved.name)


def default_report_path(source: str | os.PathLike[str]) -> Path:
    """Where ``rlprobe report`` writes by default: ``RUN/report.html`` for a directory,
    ``FILE.report.html`` beside a file source, ``PATH#NAME`` → ``PATH/NAME.report.html`` (or
    ``FILE.NAME.report.html``) for one run of several; ``NAME.report.html`` in the current
    directory for a run in object storage (the report is always written locally)."""
    if is_url(source):
        return Path(f"{source.rstrip('/').rsplit('/', 1)[-1]}.report.html")
    path, name = split_name(source)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name) if name else None
    if path.is_file():
        return path.with_name(f"{path.name}.{safe}.report.html" if safe else f"{path.name}.report.html")
    return path / (f"{safe}.report.html" if safe else "report.html")


def looks_foreign(source: str | os.PathLike[str]) -> bool:
    """True when ``source`` exists and is a foreign source rather than a recording (a
    recording directory whose manifest is not written yet is not foreign)."""
    path, name = split_name(source)
    if not path.exists() or is_recording(path):
        return False
    return name is not None or any(reader.sniff(path) for reader in FORMATS)
