"""``rlprobe watch``: live-tail a run, print each new finding as it appears."""
from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from rlprobe.storage import RunStatus

from ..findings import Finding
from ..live import ActionResult, CommandAction, RunWatcher, StopFile, WebhookSink, webhook_sink
from . import EXIT_CRITICAL
from .diagnosis import render_findings
from .output import RUN, command_config, is_tty, metric_option, severity, shorten, style, terminal_width

#: Longest ``watch`` waits at exit for the webhook to deliver what is still queued.
WEBHOOK_DRAIN_S = 10.0


@click.command("watch")
@click.argument("run", type=RUN)
@click.option("--poll", default=3.0, show_default=True, type=click.FloatRange(min=0.0),
              help="Seconds between looks at the run.")
@click.option("--webhook", "webhook_url", metavar="URL",
              help="Also post each new finding to this Slack-compatible webhook.")
@click.option("--max-ticks", type=click.IntRange(min=1),
              help="Stop after this many looks (default: until the run ends).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="doctor.toml with per-detector overrides and [metrics] names.")
@metric_option
@click.option("--on-critical", "on_critical", metavar="CMD",
              help="Run CMD (with sh -c) once, on the first critical finding at 70%+ confidence; the finding is "
                   "in RLPROBE_* environment variables and as JSON on stdin.")
@click.option("--on-critical-file", "on_critical_file", type=click.Path(dir_okay=False, path_type=Path),
              metavar="PATH", help="Write that first critical finding as JSON to PATH (a stop file for a "
                                   "training loop to check).")
def watch(run: Path, poll: float, webhook_url: str | None, max_ticks: int | None, config_path: Path | None,
          metrics: tuple[str, ...], on_critical: str | None, on_critical_file: Path | None) -> None:
    """Live-tail RUN (which may not exist yet) and print each finding as it first appears
    or escalates, including live-only ones such as RUN_STALLED. RUN is a recording or any
    log the doctor reads (a console log, a TRL output_dir, a TensorBoard dir, ...) while
    it is being written: each look reads only what is new.

    Stops when the run ends (its manifest says so; a log's end-of-training line or record),
    after --max-ticks looks, or on Ctrl-C, with a summary. Exits 1 if a critical finding
    was seen, 0 otherwise. A failing --on-critical command is reported, never fatal.

    \b
    Examples:
      rlprobe watch runs/my-run --poll 10 --webhook https://hooks.slack.com/services/...
      rlprobe watch slurm-1234.out --on-critical 'scancel 1234'
    """
    sink = webhook_sink(webhook_url, label=str(run)) if webhook_url else None
    sinks: list[Any] = [sink] if sink else []
    acted: list[str] = []  # printed after the findings that set the actions off
    if on_critical is not None:
        sinks.append(CommandAction(on_critical, str(run), report=_reporter(f"--on-critical {on_critical!r}", acted)))
    if on_critical_file is not None:
        sinks.append(StopFile(on_critical_file, str(run), report=_reporter(f"--on-critical-file {on_critical_file}",
                                                                          acted)))
    watcher = RunWatcher(run, sinks=sinks, config=command_config(config_path, metrics))
    status = _StatusLine(enabled=is_tty())
    interrupted = False
    with _one_line_warnings():
        try:
            _follow(watcher, run, poll, max_ticks, status, acted)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            status.clear()
        if sink is not None:
            _drain(sink)
    click.echo(_summary(watcher, run, interrupted))
    if any(f.severity == "critical" for f in watcher.reported):
        raise click.exceptions.Exit(EXIT_CRITICAL)


def _follow(watcher: RunWatcher, run: Path, poll: float, max_ticks: int | None, status: _StatusLine,
            acted: list[str]) -> None:
    waiting_said = False
    ended_seen = False
    while max_ticks is None or watcher.ticks < max_ticks:
        new = watcher.tick()
        if new:
            status.clear()
            click.echo(render_findings(new, str(run)) + "\n")
        while acted:
            click.echo(acted.pop(0) + "\n")
        view = watcher.view
        if view is None and not waiting_said and not status.enabled:
            click.echo(f"rlprobe: waiting for a recording or a log to appear at {run}", err=True)
            waiting_said = True
        ended = view is not None and view.manifest.get("status") not in (None, RunStatus.RUNNING)
        if ended and ended_seen:
            return  # two looks after the end: the second read whatever its last flush wrote
        ended_seen = ended
        status.show(_status_text(watcher, run))
        if not ended and (max_ticks is None or watcher.ticks < max_ticks):
            time.sleep(poll)


def _status_text(watcher: RunWatcher, run: Path) -> str:
    view = watcher.view
    clock = time.strftime("%H:%M:%S")
    if view is None:
        return f"{clock}  waiting for {run} to appear (look {watcher.ticks})"
    critical = sum(f.severity == "critical" for f in watcher.reported)
    last = int(view.step[-1]) if view.n_steps else None
    return (f"{clock}  {run}: {view.manifest.get('status', '?')}, step {last if last is not None else '—'}, "
            f"{len(watcher.reported)} finding(s)" + (f", {critical} critical" if critical else "")
            + f" (look {watcher.ticks})")


def _summary(watcher: RunWatcher, run: Path, interrupted: bool) -> str:
    how = "stopped by Ctrl-C" if interrupted else "done"
    head = f"rlprobe watch {run}: {how} after {watcher.ticks} look(s)"
    latest: dict[str, Finding] = {}
    for finding in watcher.reported:
        latest[finding.signature_id] = finding  # escalations come later, so the last word wins
    if not latest:
        return f"{head}; no findings."
    lines = [f"{head}; {len(latest)} signature(s) reported:"]
    for f in sorted(latest.values(), key=lambda f: ("critical", "warn", "info").index(f.severity)):
        lines.append(f"  {severity(f.severity)} {style(f.signature_id, bold=True)} from step {f.first_step}")
    return "\n".join(lines)


def _reporter(what: str, out: list[str]) -> Callable[[ActionResult], None]:
    """Say what acting on a finding did: for which finding, the exit code or error, the output."""
    def report(result: ActionResult) -> None:
        finding = result.finding
        how = result.error or f"exit code {result.exit_code}"
        lines = [f"rlprobe: {what} ran for {finding.severity.upper()} {finding.signature_id} "
                 f"(from step {finding.first_step}): {how}"]
        lines += [f"  | {line}" for line in result.output.rstrip("\n").splitlines()]
        out.append("\n".join(lines))
    return report


def _drain(sink: WebhookSink) -> None:
    try:
        if not sink.drain(WEBHOOK_DRAIN_S):
            click.echo(f"rlprobe: webhook still busy after {WEBHOOK_DRAIN_S:.0f} s; undelivered findings dropped",
                       err=True)
    except KeyboardInterrupt:
        pass  # a second Ctrl-C means now


class _StatusLine:
    """One self-overwriting line at the bottom of a terminal; nothing when piped."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._shown = False

    def show(self, text: str) -> None:
        if self.enabled:
            click.echo("\r\x1b[2K" + style(shorten(text, terminal_width() - 1), dim=True), nl=False)
            self._shown = True

    def clear(self) -> None:
        if self._shown:
            click.echo("\r\x1b[2K", nl=False)
            self._shown = False


@contextlib.contextmanager
def _one_line_warnings() -> Iterator[None]:
    """rlprobe's warnings (a failing sink or webhook) as one plain line on stderr."""
    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        click.echo(str(message), err=True)

    previous = warnings.showwarning
    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = previous


COMMANDS = [watch]
