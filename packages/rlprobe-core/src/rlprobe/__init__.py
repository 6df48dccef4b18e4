"""rlprobe: a flight recorder and a doctor for RL fine-tuning of language models.

This package (``rlprobe-core``) holds the Recorder and the storage layer; it needs only
the standard library and pyarrow. ``rlprobe.doctor`` and ``rlprobe.integrations.trl``
ship separately and join this namespace when installed.

Names are imported on first use, so a process that only reads recordings (every
``rlprobe`` command) does not load the recorder and its writer thread's machinery.
"""
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

from typing import TYPE_CHECKING  # noqa: E402

from ._version import __version__  # noqa: E402
from .lazy import lazy_exports  # noqa: E402

if TYPE_CHECKING:
    from .recorder import Recorder, RlprobeWarning
    from .records import EventKind, SampleRecord, StepRecord
    from .sampling import SamplingConfig

_EXPORTS = {
    "Recorder": "recorder",
    "RlprobeWarning": "recorder",
    "SamplingConfig": "sampling",
    "StepRecord": "records",
    "SampleRecord": "records",
    "EventKind": "records",
}

__all__ = ["Recorder", "RlprobeWarning", "SamplingConfig", "StepRecord", "SampleRecord", "EventKind", "__version__"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
