"""rlprobe's recording format: write and read run directories (see docs/recording-format.md).

Names are imported on first use: a reader of recordings does not load the writer."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
