"""The run manifest: atomic writes and tolerant reads."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from .layout import MANIFEST, READABLE_VERSIONS, fsync_dir, rank_dirs

__all__ = ["load_manifest", "write_manifest", "json_safe", "RunStatus"]


class RunStatus:
    RUNNING = "running"
    FINISHED = "finished"
    CRASHED = "crashed"
    HALTED = "halted"
    TERMINATED = "terminated"


def json_safe(value: Any) -> Any:
    """A copy of ``value`` that strict JSON can hold: non-finite floats become the strings
    ``"nan"``/``"inf"``/``"-inf"``, mapping keys become strings, anything else unknown ``str()``."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v) for v in value]
    if hasattr(value, "__index__") and not hasattr(value, "__len__"):
        try:
            return int(value.__index__())
        except (TypeError, ValueError):
            pass
    if hasattr(value, "__float__") and not hasattr(value, "__len__"):
        try:
            return json_safe(float(value))
        except (TypeError, ValueError):
            pass
    return str(value)


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest.json`` atomically: temp file, fsync, rename, fsync the directory."""
    path = Path(run_dir) / MANIFEST
    tmp = path.with_name(f".{MANIFEST}.{os.getpid()}.tmp")
    data = json.dumps(json_safe(manifest), indent=2, sort_keys=True)
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def load_manifest(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The run's manifest as a dict.

    For a run recorded by every rank the rank-0 manifest is returned. Raises
    ``FileNotFoundError`` when there is none and ``ValueError`` when it is unreadable
    or of a format version this reader does not know.
    """
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    if not path.exists():
        ranks = rank_dirs(run_dir)
        if not ranks:
            raise FileNotFoundError(f"no rlprobe recording at {run_dir} (no {MANIFEST})")
        path = ranks[0][1] / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"unreadable manifest {path}: {exc}") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"unreadable manifest {path}: not a JSON object")
    version = manifest.get("format_version")
    if version not in READABLE_VERSIONS:
        raise ValueError(f"{path}: recording format version {version!r} is not one this rlprobe reads "
                         f"({sorted(READABLE_VERSIONS)}); upgrade rlprobe")
    return manifest
