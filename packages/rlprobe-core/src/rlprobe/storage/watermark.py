"""The watermark of a compacted file (the last part it holds), remembered per file.

A compacted file is never changed in place: compaction writes a new file and renames it
over the old one. So a file's identity on disk — device, inode, size, modification and
change times — names its content, and the watermark read once for that identity holds for
as long as the identity is there. A reader that looks again (a live watcher's idle tick)
pays one ``stat`` instead of opening the file and parsing its footer.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

import pyarrow.parquet as pq

from .layout import WATERMARK_KEY

__all__ = ["read_watermark"]

#: Compacted files remembered (two per recorded rank of each run being read).
_CACHED = 512

_Identity = tuple[int, int, int, int, int]
_known: OrderedDict[_Identity, int] = OrderedDict()
_lock = threading.Lock()


def _identity(st: os.stat_result) -> _Identity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_watermark(path: Path) -> int:
    """The last part number the compacted file at ``path`` holds (0 when there is none).

    Opens the file only the first time this process sees it (by identity, so a file
    renamed over it is read afresh). Thread-safe. Raises ``pyarrow.ArrowInvalid`` for a
    file that is not Parquet and ``OSError`` when it cannot be read.
    """
    try:
        known = _lookup(_identity(os.stat(path)))
        if known is not None:
            return known
        with open(path, "rb") as fh:
            # The identity of the file actually opened: a compaction may rename another in
            # between, and the watermark must be remembered for the file it was read from.
            identity = _identity(os.fstat(fh.fileno()))
            metadata = pq.read_metadata(fh).metadata or {}
    except FileNotFoundError:
        return 0
    watermark = int(metadata.get(WATERMARK_KEY, b"0"))
    with _lock:
        _known[identity] = watermark
        while len(_known) > _CACHED:
            _known.popitem(last=False)
    return watermark


def _lookup(identity: _Identity) -> int | None:
    with _lock:
        watermark = _known.get(identity)
        if watermark is not None:
            _known.move_to_end(identity)
        return watermark
