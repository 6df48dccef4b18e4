"""Live diagnosis beside (or inside) a running job.

``RunWatcher`` tails a run directory, or a log still being written (through a
``SourceMirror``), and reports each finding once, as it first appears or escalates; sinks
such as ``webhook_sink`` carry findings elsewhere; ``HaltPolicy`` decides which findings
are worth stopping a run for, and ``CommandAction`` / ``StopFile`` act on the first one.
``HaltJudge`` asks a policy at each look of a loop that halts a run from inside (the TRL
callback), looking again at findings turned down only for want of confidence.
"""
from .action import ActionResult, CommandAction, StopFile
from .halting import HaltJudge
from .mirror import SourceMirror
from .policy import HaltPolicy
from .watcher import RunWatcher, Sink
from .webhook import WebhookSink, slack_payload, webhook_sink

__all__ = ["RunWatcher", "HaltPolicy", "webhook_sink", "WebhookSink", "Sink", "slack_payload",
           "CommandAction", "StopFile", "ActionResult", "SourceMirror", "HaltJudge"]
