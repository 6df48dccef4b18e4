"""Where each piece of a run lives on disk (recording format version 1).

    RUN/manifest.json        run metadata, rewritten atomically
    RUN/events.jsonl         sparse events, one JSON object a line, fsynced as logged
    RUN/parts/steps-00000042.parquet    one file per flush while running (parts/ goes at close)
    RUN/parts/samples-00000042.parquet
    RUN/steps.parquet        compacted parts; its metadata records the last part it holds
    RUN/samples.parquet
    RUN/rank-3/...           the same layout per rank when every rank records
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TypeGuard

FORMAT_VERSION = 1
#: Every format version this reader understands.
READABLE_VERSIONS = frozenset({1})

MANIFEST = "manifest.json"
EVENTS = "events.jsonl"
PARTS_DIR = "parts"
KINDS = ("steps", "samples")
#: Parquet key-value metadata of a compacted file: the highest part number it contains.
WATERMARK_KEY = b"rlprobe.watermark"
#: Hidden column carrying the number of the part file a row was first written in.
PART_COLUMN = "_part"

_PART_RE = re.compile(r"^(steps|samples)-(\d{8})\.parquet$")
_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_RANK_RE = re.compile(r"^rank-(\d+)$")


def is_url(location: object) -> TypeGuard[str]:
    """True for ``scheme://...`` text: a run in object storage (``storage.location``). A
    ``Path`` is always local: it cannot hold the ``//``."""
    return isinstance(location, str) and _URL_RE.match(location) is not None


def compacted_path(run_dir: Path, kind: str) -> Path:
    return run_dir / f"{kind}.parquet"


def part_path(run_dir: Path, kind: str, seq: int) -> Path:
    return run_dir / PARTS_DIR / f"{kind}-{seq:08d}.parquet"


def rank_dir(run_dir: Path, rank: int) -> Path:
    return run_dir / f"rank-{rank}"


def list_parts(run_dir: Path, kind: str) -> list[tuple[int, Path]]:
    """Part files of ``kind`` as (number, path), oldest first. Temp files are ignored."""
    try:
        names = os.listdir(run_dir / PARTS_DIR)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for name in names:
        match = _PART_RE.match(name)
        if match and match.group(1) == kind:
            found.append((int(match.group(2)), run_dir / PARTS_DIR / name))
    found.sort()
    return found


def rank_dirs(run_dir: Path) -> list[tuple[int, Path]]:
    """Per-rank sub-directories (``record_all_ranks=True``) as (rank, path), by rank."""
    try:
        entries = list(os.scandir(run_dir))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for entry in entries:
        match = _RANK_RE.match(entry.name)
        if match and entry.is_dir():
            found.append((int(match.group(1)), Path(entry.path)))
    found.sort()
    return found


def is_recording(path: Path) -> bool:
    """True for an rlprobe run directory (a manifest, or per-rank sub-directories)."""
    return path.is_dir() and ((path / MANIFEST).is_file() or bool(rank_dirs(path)))
