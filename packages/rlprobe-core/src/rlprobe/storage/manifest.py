"""The run manifest: atomic writes and tolerant reads."""
from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .atomic import atomic_path
from .errors import RecordingError
from .layout import MANIFEST, READABLE_VERSIONS, is_url, rank_dirs

__all__ = ["load_manifest", "parse_manifest", "write_manifest", "json_safe", "valid_text", "RunStatus"]

_MAX_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")
_NUMBER = (int, float)
#: The type each manifest key must have where present and not null (docs/recording-format.md);
#: a reader relies on these, so a manifest holding anything else is refused.
MANIFEST_TYPES: dict[str, tuple[type, ...]] = {
    "run_id": (str,), "algorithm": (str,), "model_name": (str,), "status": (str,),
    "trainer_config": (dict,), "sampling": (dict,), "env": (dict,), "counts": (dict,),
    "world_size": (int,), "rank": (int,), "recorded_ranks": (list,),
    "created_at": _NUMBER, "updated_at": _NUMBER, "closed_at": _NUMBER,
}


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
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        return value if math.isfinite(value) else str(value)
    # Anything else is a foreign object, whose isinstance() checks (through __class__) may raise too.
    try:
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return json_safe(float(value))
        if _depth >= _MAX_DEPTH:
            return "<nested too deep>"
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
    data = json.dumps(json_safe(manifest), indent=2, sort_keys=True)
    with atomic_path(Path(run_dir) / MANIFEST) as tmp:
        tmp.write_text(data, encoding="utf-8")


def load_manifest(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The run's manifest as a dict, its text valid Unicode (see ``valid_text``).

    For a run recorded by every rank the rank-0 manifest is returned. Raises
    ``FileNotFoundError`` when there is none and ``RecordingError`` (a ``ValueError``) when
    it is unreadable, not a JSON object, holds a key of the wrong type (``MANIFEST_TYPES``)
    or is of a format version this reader does not know. ``run_dir`` may be a URL
    (``s3://bucket/runs/my-run``): the manifest is then fetched alone.
    """
    if is_url(run_dir):
        from .location import load_remote_manifest  # pyarrow.fs only where a URL needs it

        return load_remote_manifest(os.fspath(run_dir))
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    if not path.exists():
        ranks = rank_dirs(run_dir)
        if not ranks:
            raise FileNotFoundError(f"no rlprobe recording at {run_dir} (no {MANIFEST})")
        path = ranks[0][1] / MANIFEST
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordingError(run_dir, path, f"unreadable manifest: {exc}") from None
    return parse_manifest(run_dir, path, data)


def parse_manifest(run_dir: str | os.PathLike[str], path: str | os.PathLike[str], data: bytes) -> dict[str, Any]:
    """The manifest held in ``data`` (the bytes of ``path``), checked as ``load_manifest``
    checks it; ``RecordingError`` naming ``path`` when it is not one."""
    try:
        manifest = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordingError(run_dir, path, "unreadable manifest: not UTF-8 text") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise RecordingError(run_dir, path, f"unreadable manifest: {exc}") from None
    if not isinstance(manifest, dict):
        raise RecordingError(run_dir, path, "unreadable manifest: not a JSON object")
    version = manifest.get("format_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise RecordingError(run_dir, path, f"recording format version {version!r} is not one this rlprobe reads "
                                            f"({sorted(READABLE_VERSIONS)}); upgrade rlprobe")
    for key, types in MANIFEST_TYPES.items():
        value = manifest.get(key)
        if value is not None and (not isinstance(value, types) or isinstance(value, bool)):
            raise RecordingError(run_dir, path, f"unreadable manifest: {key!r} is {_kind(value)}, "
                                                f"not {'a number' if types == _NUMBER else _kind(types[0])}")
    for key, value in [(f"counts.{k}", v) for k, v in (manifest.get("counts") or {}).items()] \
            + [("recorded_ranks[]", r) for r in manifest.get("recorded_ranks") or []]:
        if value is not None and type(value) is not int:
            raise RecordingError(run_dir, path, f"unreadable manifest: {key!r} is {_kind(value)}, not a whole number")
    valid: dict[str, Any] = valid_text(manifest)
    return valid


def valid_text(value: Any) -> Any:
    """``value`` (parsed JSON) with every lone surrogate in its strings and keys replaced
    by U+FFFD. Python writes a lone surrogate (``"\\ud800"``) into JSON as an escape, and
    reading it back gives a string no UTF-8 output can hold; every reader hands out text
    that any terminal, file or page can take."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {valid_text(k): valid_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [valid_text(v) for v in value]
    return value


def _kind(value: Any) -> str:
    """A JSON type name for ``value`` (or for a Python type) in an error message."""
    kind = value if isinstance(value, type) else type(value)
    return {str: "a string", dict: "an object", list: "a list", int: "a whole number", float: "a number",
            bool: "a boolean", type(None): "null"}.get(kind, kind.__name__)
