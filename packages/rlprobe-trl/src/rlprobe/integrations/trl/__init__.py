"""rlprobe for TRL: one line records a GRPO/RLOO run and can halt it when it is dying.

    from rlprobe.integrations.trl import attach
    callback = attach(trainer, "runs/my-run", halt=True)

See docs/trl.md for what is recorded and how halting works.
"""
from .callback import RlprobeCallback, attach
from .compat import SUPPORTED_TRL

__all__ = ["RlprobeCallback", "SUPPORTED_TRL", "attach"]
