"""The cache of foreign sources' imports, and how a later command finds one without a reader.

A command given a foreign source (``rlprobe.doctor.sources``: a TRL output_dir, a console log,
...) reads the format-v1 recording an import of it wrote under ``cache_dir("imports")``, in a
directory named for the source and its identity (``identity``: the path, the run, the format,
the sizes and modification times of the files a read of it reads, the readers' own files), so
a changed source (a live log, a new checkpoint, an edited reader) is imported again.

Working the identity out takes the readers — which format this is, which files it reads —
and loading them is ~50 ms, a fifth of reading a 100k-step recording. So each import is noted
(``NOTE_SUFFIX``, beside it) with what the readers decided and the sizes and modification
times of everything that decision depended on: the files read; the source, and for a folder
every folder and file under it; the source's parent folder and its sub-folders (a listing
that changes changes its folder's modification time: a new checkpoint, a SQLite ``-wal``
file, a rollout folder beside a log). A later command whose noted stats all hold, with the
same readers, reads the import without loading a reader (``recording_dir``); any difference,
or a note that cannot be read, goes through the readers as before, which note it again. A
note is written only where nothing it lists changed while the source was read, so a live log
is always checked by its readers.

Loading no reader is the point of this module: it imports none (``tests/sources/test_import_cache.py``).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rlprobe.storage.atomic import atomic_path
from rlprobe.storage.layout import MANIFEST, is_recording
from rlprobe.storage.location import cache_dir

if TYPE_CHECKING:
    from .sources import Source

__all__ = ["IMPORT_VERSION", "recording_dir", "identity", "split_name", "NOTE_SUFFIX"]

#: Bumped when what an import writes changes shape; edited reader files also key the cache.
IMPORT_VERSION = 1
#: A note's file name is the key of the command's spelling of the source, then this.
NOTE_SUFFIX = ".note.json"
#: The readers: their files' stats are part of every identity.
_READERS = Path(__file__).parent / "sources"
#: A source whose folder tree (or parent folder) has more entries than this is not noted: checking
#: it would cost what loading the readers does (it is then checked by its readers, as before).
_MAX_ENTRIES = 2000

#: ``[size, mtime_ns]`` of a path, ``[]`` for one that does not exist.
Stat = list[int]


def split_name(source: str | os.PathLike[str]) -> tuple[Path, str | None]:
    """``SOURCE#NAME`` → (SOURCE, NAME); a path that exists as written keeps its ``#``."""
    text = os.fspath(source)
    path = Path(text)
    if "#" in text and not path.exists():
        base, _, name = text.rpartition("#")
        if Path(base).exists():
            return Path(base), name or None
    return path, None


def readers_stamp() -> list[tuple[str, int, int]]:
    """The readers' own files (an upgraded or edited reader makes cached imports stale)."""
    stamp = []
    for file in sorted(_READERS.glob("*.py")):
        st = file.stat()
        stamp.append((file.name, st.st_size, st.st_mtime_ns))
    return stamp


def identity(path: Path, name: str | None, format: str, files: Iterable[Path]) -> str:
    """The key of an import of the run ``name`` of ``path``, read by the reader ``format`` from
    ``files``: it changes when they do (path, sizes, modification times), or the readers do; not
    with how the command spelt them (relative or absolute: one source, one import)."""
    stats = []
    for file in files:
        try:
            st = os.stat(file)
        except OSError:
            continue
        stats.append((os.path.abspath(file), st.st_size, st.st_mtime_ns))
    blob = json.dumps([IMPORT_VERSION, readers_stamp(), str(path.resolve()), name, format, stats])
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def recording_dir(source: str | os.PathLike[str]) -> Path:
    """Where the recording of ``source`` is: the directory itself for an rlprobe recording,
    else a cached import of the foreign source (made now if the source changed since).
    Raises ``UnusableInput`` as ``sources.resolve`` does, and for a source that cannot be read.
    (A URL is read by ``RunReader`` itself, through a local copy.)"""
    path, name = split_name(source)
    if name is None and is_recording(path):
        return path
    root = cache_dir("imports")
    note = root / f"{_spelling_key(path, name)}{NOTE_SUFFIX}"
    noted = _noted(note)
    if noted is not None:
        return noted
    from .sources import resolve

    before = _surroundings(path)  # before the readers look, so that a change while they read is seen
    resolved = resolve(source)
    if resolved is None:
        return Path(os.fspath(source))
    seen = None if before is None else {**_stats(resolved.reader.files(resolved.path)), **before}
    target = _import(resolved, root)
    if seen is not None and _stats(seen) == seen:  # nothing changed while the readers read
        _write_note(note, target, seen)
    return target


def _import(resolved: Source, root: Path) -> Path:
    """The cached import of ``resolved``, made now if there is none for its identity."""
    from .sources.base import write_recording

    prefix = hashlib.sha256(f"{resolved.path.resolve()}#{resolved.name}".encode()).hexdigest()[:16]
    target = root / f"{prefix}-{resolved.identity()}"
    if (target / MANIFEST).is_file():
        return target
    write_recording(resolved.read(), target)
    for stale in root.glob(f"{prefix}-*"):
        if stale != target and not stale.name.startswith("."):
            shutil.rmtree(stale, ignore_errors=True)
    return target


def _spelling_key(path: Path, name: str | None) -> str:
    """The key of a note: the source as the command spelled it (with the working directory, for
    a relative path: the readers find what a path names from its spelling, its parent's too)."""
    where = None if path.is_absolute() else os.getcwd()
    return hashlib.sha256(json.dumps([str(path), where, name]).encode()).hexdigest()[:16]


def _stat(path: str | os.PathLike[str]) -> Stat:
    try:
        st = os.stat(path)
    except OSError:
        return []
    return [st.st_size, st.st_mtime_ns]


def _stats(paths: Iterable[str | os.PathLike[str]]) -> dict[str, Stat]:
    return {str(p): _stat(p) for p in paths}


def _surroundings(path: Path) -> dict[str, Stat] | None:
    """The stats of what the readers may look at besides the files a read of ``path`` reads:
    ``path``, every folder and file under it, its parent folder and the parent's sub-folders.
    ``None`` where that is more than ``_MAX_ENTRIES`` entries (or a folder cannot be listed)."""
    seen = {str(path): _stat(path), str(path.parent): _stat(path.parent)}
    try:
        with os.scandir(path.parent) as entries:
            siblings = [entry.path for entry in entries if entry.is_dir()]
        if len(siblings) > _MAX_ENTRIES:
            return None
        seen.update(_stats(siblings))
        if path.is_dir():
            tree = _tree(path)
            if tree is None:
                return None
            seen.update(tree)
    except OSError:
        return None
    return seen


def _tree(root: Path) -> dict[str, Stat] | None:
    """Every folder and file under ``root`` (symbolic links followed, each folder once), or
    ``None`` past ``_MAX_ENTRIES``. Raises ``OSError`` for a folder that cannot be listed."""
    seen: dict[str, Stat] = {}
    visited: set[tuple[int, int]] = set()
    pending = [str(root)]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                stat = _stat(entry.path)
                seen[entry.path] = stat
                if len(seen) > _MAX_ENTRIES:
                    return None
                if stat and entry.is_dir():
                    st = entry.stat()
                    if (st.st_dev, st.st_ino) not in visited:
                        visited.add((st.st_dev, st.st_ino))
                        pending.append(entry.path)
    return seen


def _write_note(note: Path, target: Path, seen: dict[str, Stat]) -> None:
    """Note ``target`` as the import of the source ``note`` keys, while ``seen`` holds; a note
    that cannot be written is no note (the readers check the source next time)."""
    content = {"version": IMPORT_VERSION, "readers": readers_stamp(), "target": target.name, "seen": seen}
    try:
        with atomic_path(note, durable=False) as tmp:  # a cache: lost, the readers check the source again
            tmp.write_text(json.dumps(content))
    except OSError:
        pass


def _noted(note: Path) -> Path | None:
    """The import ``note`` names, when everything it lists holds and the readers are the same."""
    try:
        content: Any = json.loads(note.read_text())
        name = str(content["target"])
        if Path(name).name != name:
            return None
        target = note.parent / name
        if content["version"] != IMPORT_VERSION or content["readers"] != [list(r) for r in readers_stamp()]:
            return None
        seen = content["seen"]
        if not (target / MANIFEST).is_file() or _stats(seen) != seen:
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return target
