"""Which TRL this integration was verified against, and what a trainer says about itself."""
from __future__ import annotations

import re
import warnings
from importlib import metadata
from typing import Any

from rlprobe import RlprobeWarning

__all__ = ["SUPPORTED_TRL", "algorithm_of", "check_trl_version", "describe_trainer"]

#: The TRL releases whose private per-sample buffer the sample shim was verified against.
SUPPORTED_TRL = ">=1.7,<1.8"
_SUPPORTED_RANGE = ((1, 7), (1, 8))

_warned_version = False


def check_trl_version() -> str | None:
    """The installed TRL version; warns once per process when it is outside ``SUPPORTED_TRL``.

    Outside the range everything still runs: scalars are always recorded, and the sample
    shim checks the buffer's shape itself before trusting it.
    """
    global _warned_version
    try:
        version = metadata.version("trl")
    except metadata.PackageNotFoundError:
        return None
    parts = tuple(int(p) for p in re.findall(r"\d+", version)[:2])
    low, high = _SUPPORTED_RANGE
    if not low <= parts < high and not _warned_version:
        _warned_version = True
        warnings.warn(
            f"rlprobe-trl was verified with trl{SUPPORTED_TRL}, found trl {version}: scalars are recorded, "
            "per-sample capture may be unavailable",
            RlprobeWarning,
            stacklevel=3,
        )
    return version


def algorithm_of(trainer: Any) -> str:
    """``GRPOTrainer`` → ``"grpo"``, ``RLOOTrainer`` → ``"rloo"``; a subclass of a TRL trainer
    takes its TRL parent's name, any other class its own name without the ``Trainer`` suffix."""
    mro = type(trainer).__mro__
    for cls in mro:
        if cls.__module__.split(".")[0] == "trl" and cls.__name__.endswith("Trainer") and cls.__name__ != "Trainer":
            return _strip_trainer(cls.__name__)
    return _strip_trainer(mro[0].__name__)


def _strip_trainer(name: str) -> str:
    name = name.lower()
    stripped = name[: -len("trainer")] if name.endswith("trainer") else name
    return stripped or name


def describe_trainer(trainer: Any) -> dict[str, Any]:
    """Recorder keyword arguments read off ``trainer``: algorithm, model name, config, world."""
    args = getattr(trainer, "args", None)
    accelerator = getattr(trainer, "accelerator", None)
    if accelerator is not None:
        world_size, rank = int(accelerator.num_processes), int(accelerator.process_index)
    else:
        world_size = int(getattr(args, "world_size", 1) or 1)
        rank = int(getattr(args, "process_index", 0) or 0)
    config: dict[str, Any] = {}
    if args is not None and hasattr(args, "to_dict"):
        config = dict(args.to_dict())
    return {
        "algorithm": algorithm_of(trainer),
        "model_name": _model_name(getattr(trainer, "model", None)),
        "trainer_config": config,
        "world_size": world_size,
        "rank": rank,
    }


def _model_name(model: Any) -> str | None:
    if model is None:
        return None
    name = getattr(model, "name_or_path", None)
    if not name:
        config = getattr(model, "config", None)
        name = getattr(config, "_name_or_path", None) or getattr(config, "name_or_path", None)
    return str(name) if name else type(model).__name__
