"""rlprobe's recording format: write and read run directories (see docs/recording-format.md).

Names are imported on first use: a reader of recordings does not load the writer."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import RecordingError
    from .layout import FORMAT_VERSION
    from .manifest import RunStatus, load_manifest
    from .reader import RunFile, RunReader, list_runs
    from .writer import RunWriter, compact_run

_EXPORTS = {
    "FORMAT_VERSION": "layout",
    "RecordingError": "errors",
    "RunFile": "reader",
    "RunReader": "reader",
    "RunWriter": "writer",
    "RunStatus": "manifest",
    "compact_run": "writer",
    "list_runs": "reader",
    "load_manifest": "manifest",
}

__all__ = ["FORMAT_VERSION", "RecordingError", "RunFile", "RunReader", "RunWriter", "RunStatus", "compact_run",
           "list_runs", "load_manifest"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
