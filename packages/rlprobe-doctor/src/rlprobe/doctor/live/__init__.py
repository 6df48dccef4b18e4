"""Live diagnosis beside (or inside) a running job.

``RunWatcher`` tails a run directory and reports each finding once, as it first appears
or escalates; sinks such as ``webhook_sink`` carry findings elsewhere; ``HaltPolicy``
decides which findings are worth stopping a run for.
"""
from .policy import HaltPolicy
from .watcher import RunWatcher, Sink
from .webhook import WebhookSink, slack_payload, webhook_sink

__all__ = ["RunWatcher", "HaltPolicy", "webhook_sink", "WebhookSink", "Sink", "slack_payload"]
