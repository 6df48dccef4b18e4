"""webhook_sink: findings posted as Slack-compatible JSON, off the caller's thread."""
from __future__ import annotations

import base64
import http.client
import json
import queue
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from typing import Any

from rlprobe import RlprobeWarning

from ..errors import UnusableInput
from ..findings import Finding

__all__ = ["webhook_sink", "WebhookSink", "slack_payload"]

#: Findings waiting to be posted; beyond this they are dropped (a dead endpoint must not
#: make the watcher hoard memory).
QUEUE_SIZE = 100
#: Longest wait between two attempts, however many retries.
_BACKOFF_MAX_S = 8.0
_SEVERITY_EMOJI = {"critical": ":rotating_light:", "warn": ":warning:", "info": ":information_source:"}
#: Slack's limits: header text 150 characters, section text 3000.
_HEADER_MAX, _SECTION_MAX = 150, 3000


def slack_payload(finding: Finding, label: str | None = None) -> dict[str, Any]:
    """The JSON body posted for ``finding``: ``text`` (the notification line, and all a
    plain webhook receiver needs) plus Block Kit ``blocks`` for Slack."""
    where = f" in {label}" if label else ""
    step = finding.first_step if finding.first_step is not None else "?"
    title = f"{finding.severity.upper()} {finding.signature_id}{where} from step {step}"
    text = f"rlprobe: {title} ({finding.confidence:.0%} confident): {finding.explanation}"
    details = [finding.explanation]
    details += [f"• `{e.metric}` steps {e.window[0]}–{e.window[1]}: {_number(e.baseline)} → {_number(e.observed)}"
                for e in finding.evidence]
    details += [f"→ {action}" for action in finding.suggested_actions]
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": _clip(f"rlprobe: {title}", _HEADER_MAX)}},
        {"type": "section", "text": {"type": "mrkdwn", "text": _clip(
            f"{_SEVERITY_EMOJI.get(finding.severity, '')} *{finding.signature_id}* · {finding.severity} · "
            f"{finding.confidence:.0%} confidence\n" + "\n".join(details), _SECTION_MAX)}},
    ]
    if finding.links_to_samples:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": _clip(
            "samples: " + ", ".join(finding.links_to_samples[:5]), _SECTION_MAX)}]})
    return {"text": text, "blocks": blocks}


def _redacted(url: str) -> str:
    """``url`` as it may be shown: scheme, host and port only. The user info
    (``user:secret@``) is a credential, and so is the path of a Slack webhook URL."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{host}" if parts.scheme else "<not a URL>"


def _split_credentials(url: str) -> tuple[str, str | None]:
    """``url`` without its user info, and the ``Authorization`` header that carries it
    instead (HTTP basic auth). urllib would otherwise take ``user:secret@host`` for the
    host, and the request would never arrive."""
    parts = urllib.parse.urlsplit(url)
    userinfo, at, host = parts.netloc.rpartition("@")
    if not at:
        return url, None
    user, _, password = userinfo.partition(":")
    token = f"{urllib.parse.unquote(user)}:{urllib.parse.unquote(password)}".encode()
    return parts._replace(netloc=host).geturl(), "Basic " + base64.b64encode(token).decode("ascii")


class WebhookSink:
    """A sink that posts each finding to ``url`` from a daemon worker thread.

    Calling it only enqueues: it never blocks and never raises. The worker posts with a
    ``timeout`` per attempt and retries connection errors, timeouts, HTTP 429 and 5xx up to
    ``retries`` times, waiting ``backoff`` seconds before the first retry and twice as long
    before each next one (at most 8 s); other 4xx answers are not retried. A full
    queue drops the finding. Every kind of failure costs one warning, not one per finding.
    Credentials in the URL (``https://user:secret@host/...``) are sent as HTTP basic auth;
    ``url`` keeps the rest, and warnings and ``repr`` show only scheme, host and port.
    Thread-safe.
    """

    def __init__(self, url: str, timeout: float = 5.0, retries: int = 3, backoff: float = 0.5,
                 label: str | None = None) -> None:
        scheme = urllib.parse.urlsplit(url).scheme if isinstance(url, str) else ""
        if scheme not in ("http", "https"):
            shown = _redacted(url) if isinstance(url, str) and scheme else "a URL without one"
            raise UnusableInput(f"webhook url must start with http:// or https://, got {shown}")
        if any(c.isspace() or not c.isprintable() for c in url):
            raise UnusableInput(f"webhook url {_redacted(url)}/... holds spaces or control characters; "
                                "percent-encode them")
        for name, value in (("timeout", timeout), ("backoff", backoff)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise UnusableInput(f"webhook {name} must be a positive number of seconds, got {value!r}")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise UnusableInput(f"webhook retries must be a whole number ≥ 0, got {retries!r}")
        self.url, self._authorization = _split_credentials(url)
        self.timeout, self.retries, self.label = float(timeout), retries, label
        self.backoff = float(backoff)
        self.sent = 0
        """Findings the endpoint accepted (2xx)."""
        self.failed = 0
        """Findings given up on: retries exhausted, refused, or dropped on a full queue."""
        self._queue: queue.Queue[Finding] = queue.Queue(QUEUE_SIZE)
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._warned: set[str] = set()

    def __call__(self, finding: Finding) -> None:
        """Queue ``finding`` for posting; returns at once."""
        try:
            self._queue.put_nowait(finding)
        except queue.Full:
            self.failed += 1
            self._warn("full", f"rlprobe: webhook {self._where()} is not keeping up; findings dropped")
            return
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._run, name="rlprobe-webhook", daemon=True)
                self._worker.start()

    def drain(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for queued findings to be posted (or given up
        on); True when nothing is left. Call before exiting: the worker is a daemon."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def _run(self) -> None:
        while True:
            finding = self._queue.get()
            try:
                self._post(finding)
            finally:
                self._queue.task_done()

    def _post(self, finding: Finding) -> None:
        body = json.dumps(slack_payload(finding, self.label)).encode()
        delay = self.backoff
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(delay)
                delay = min(2 * delay, _BACKOFF_MAX_S)
            headers = {"Content-Type": "application/json"}
            if self._authorization:
                headers["Authorization"] = self._authorization
            request = urllib.request.Request(self.url, data=body, method="POST", headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    response.read()
                self.sent += 1
                return
            except urllib.error.HTTPError as exc:
                reason = f"HTTP {exc.code}"
                if exc.code != 429 and exc.code < 500:
                    break  # the endpoint refuses this payload; asking again will not help
            except OSError as exc:  # URLError, timeouts, refused connections
                reason = str(getattr(exc, "reason", exc)) or type(exc).__name__
            except (ValueError, http.client.HTTPException) as exc:  # a malformed URL or answer
                reason = type(exc).__name__  # their messages may quote the URL's path, a secret
        self.failed += 1
        self._warn("post", f"rlprobe: webhook {self._where()} failed ({reason}); alerts are not being delivered")

    def _where(self) -> str:
        return _redacted(self.url)

    def _warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RlprobeWarning, stacklevel=2)

    def __repr__(self) -> str:
        return f"WebhookSink({self._where()!r}, sent={self.sent}, failed={self.failed})"


def webhook_sink(url: str, timeout: float = 5.0, retries: int = 3, *, backoff: float = 0.5,
                 label: str | None = None) -> WebhookSink:
    """A ``RunWatcher`` sink posting Slack-compatible JSON (``text`` plus ``blocks``) to
    ``url``, e.g. a Slack incoming-webhook URL. ``label`` (say, the run's name) goes into
    the message. See ``WebhookSink`` for the delivery promises."""
    return WebhookSink(url, timeout=timeout, retries=retries, backoff=backoff, label=label)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.4g}"
