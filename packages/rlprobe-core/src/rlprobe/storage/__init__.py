"""rlprobe's recording format: write and read run directories (see docs/recording-format.md)."""
from .errors import RecordingError
from .layout import FORMAT_VERSION
from .manifest import RunStatus, load_manifest
from .reader import RunFile, RunReader, list_runs
from .writer import RunWriter, compact_run

__all__ = ["FORMAT_VERSION", "RecordingError", "RunFile", "RunReader", "RunWriter", "RunStatus", "compact_run",
           "list_runs", "load_manifest"]
