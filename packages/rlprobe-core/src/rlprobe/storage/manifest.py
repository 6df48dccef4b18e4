"""The run manifest: atomic writes and tolerant reads."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, Mapping

from .layout import MANIFEST, READABLE_VERSIONS, discard, fsync_dir, rank_dirs

__all__ = ["load_manifest", "write_manifest", "json_safe", "RunStatus"]

_MAX_DEPTH = 32


class RunStatus:
    """Values of the manifest's ``status``: ``running`` until ``close()`` writes one of the others."""

    RUNNING = "running"
    FINISHED = "finished"
    CRASHED = "crashed"
    HALTED = "halted"
    TERMINATED = "terminated"


def json_safe(value: Any, _depth: int = 0) -> Any:
    """A copy of ``value`` that strict JSON can hold: non-finite floats become the strings
    ``"nan"``/``"inf"``/``"-inf"``, mapping keys become strings, arrays and tensors become
    lists, bytes are decoded, anything else unknown is ``str()``-ed. Never raises; nesting
    deeper than 32 levels (or a cycle) is cut off with a marker string."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if _depth >= _MAX_DEPTH:
        return "<nested too deep>"
    try:
        if isinstance(value, Mapping):
            return {_key(k): json_safe(v, _depth + 1) for k, v in list(value.items())}
        if isinstance(value, (list, tuple, set, frozenset)):
            return [json_safe(v, _depth + 1) for v in value]
        if isinstance(value, (bytes, bytearray)):
            return bytes(value).decode("utf-8", errors="replace")
        if hasattr(value, "tolist") and callable(value.tolist):
            return json_safe(value.tolist(), _depth + 1)
        if hasattr(value, "__index__"):
            return int(value.__index__())
        if hasattr(value, "__float__"):
            return json_safe(float(value), _depth + 1)
        return str(value)
    except Exception:  # noqa: BLE001 - whatever a foreign object does, the event still gets written
        return f"<unrepresentable {type(value).__name__}>"


def _key(key: Any) -> str:
    return key if isinstance(key, str) else str(key)


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest.json`` atomically: temp file, fsync, rename, fsync the directory."""
    path = Path(run_dir) / MANIFEST
    tmp = path.with_name(f".{MANIFEST}.{os.getpid()}.tmp")
    data = json.dumps(json_safe(manifest), indent=2, sort_keys=True)
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise
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
