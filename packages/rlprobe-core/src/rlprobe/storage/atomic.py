"""Writing a file whole or not at all: a temp file beside it, fsynced, renamed over it, and
the directory fsynced. Every file rlprobe replaces (the manifest, part and compacted Parquet
files, the local copies of remote runs and their state) is written through ``atomic_path``.

A temp file's name says which process and thread wrote it (``.NAME.PID.TID.tmp``), so two
writers of one file never share a temp file, and one left by a writer killed mid-write is
recognised (``temp_owner``) and swept by a later session."""
from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

__all__ = ["atomic_path", "temp_owner", "fsync_dir", "discard"]

#: ``.NAME.PID.TID.tmp`` (``.NAME.PID.tmp`` from versions before the thread was named).
_TEMP_RE = re.compile(r"^\..+?\.(\d+)(?:\.\d+)?\.tmp$")


@contextlib.contextmanager
def atomic_path(path: Path, *, durable: bool = True) -> Iterator[Path]:
    """Yield the temp path to write ``path``'s new content to; when the block ends, it is
    fsynced and renamed over ``path`` and the directory fsynced, so a crash leaves the old
    file or the new one, never a mix. When the block (or the rename) raises, the temp file
    is removed and ``path`` is untouched. ``durable=False`` skips the fsyncs, for a cache
    that is checked before use and fetched again when lost (the rename stays atomic)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        yield tmp
        if durable:
            with open(tmp, "rb+") as fh:  # write access: Windows refuses to fsync a read-only handle
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise
    if durable:
        fsync_dir(path.parent)


def temp_owner(name: str) -> int | None:
    """The pid of the process that wrote temp file ``name`` (None: not a temp file of ours)."""
    match = _TEMP_RE.match(name)
    return int(match.group(1)) if match else None


def fsync_dir(path: Path) -> None:
    """Make a rename inside ``path`` durable (no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def discard(path: Path) -> None:
    """Remove ``path`` if it is there (a temp file left by a failed write)."""
    try:
        os.unlink(path)
    except OSError:
        pass
