"""rlprobe: a flight recorder and a doctor for RL fine-tuning of language models.

This package (``rlprobe-core``) holds the Recorder and the storage layer; it needs only
the standard library and pyarrow. ``rlprobe.doctor`` and ``rlprobe.integrations.trl``
ship separately and join this namespace when installed.
"""
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

from ._version import __version__  # noqa: E402
from .recorder import Recorder, RlprobeWarning  # noqa: E402
from .records import EventKind, SampleRecord, StepRecord  # noqa: E402
from .sampling import SamplingConfig  # noqa: E402

__all__ = ["Recorder", "RlprobeWarning", "SamplingConfig", "StepRecord", "SampleRecord", "EventKind", "__version__"]
