"""``rlprobe watch``: live-tail a run, print each new finding as it appears, and end with an
exit code that says how it ended, so that whatever waits on the watch (a CI step, a Slurm
wrapper, a shell ``&&``) learns the verdict: on the first critical finding the halt policy
acts on (once ``--on-critical`` ran), when the run ends or stalls, or on SIGINT/SIGTERM."""
from __future__ import annotations

import contextlib
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from rlprobe.storage import RunStatus

from ..findings import Finding
from ..live import ActionResult, CommandAction, HaltPolicy, RunWatcher, StopFile, WebhookSink, webhook_sink
from . import EXIT_CRITICAL, EXIT_OK, EXIT_SIGINT, EXIT_SIGTERM, EXIT_STALLED
from .diagnosis import render_findings
from .output import RUN, command_config, is_tty, metric_option, severity, shorten, style, terminal_width

#: Longest ``watch`` waits at exit for the webhook to deliver what is still queued.
WEBHOOK_DRAIN_S = 10.0


#: The live-only finding of a run that stopped writing without ending.
STALLED = "RUN_STALLED"


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
@click.option("--keep-watching", is_flag=True,
              help="Do not end on a critical finding or a stall: watch on until the run ends, --max-ticks or a "
                   "signal (the exit code still says a critical finding was seen).")
def watch(run: Path, poll: float, webhook_url: str | None, max_ticks: int | None, config_path: Path | None,
          metrics: tuple[str, ...], on_critical: str | None, on_critical_file: Path | None,
          keep_watching: bool) -> None:
    """Live-tail RUN (which may not exist yet) and print each finding as it first appears
    or escalates, including live-only ones such as RUN_STALLED. RUN is a recording or any
    log the doctor reads (a console log, a TRL output_dir, a TensorBoard dir, ...) while
    it is being written: each look reads only what is new.

    It ends by itself, with a summary whose last line is the exit code and why: on the
    first critical finding at 70%+ confidence (after --on-critical and --on-critical-file
    acted on it), when the run ends (its manifest says so; a log's end-of-training line or
    record), when it stalls (RUN_STALLED: no new step past the stall window, [run_stalled]
    in --config), after --max-ticks looks, or on SIGINT (Ctrl-C) or SIGTERM. A failing
    --on-critical command is reported, never fatal.

    \b
    Exit codes:
      0    the run ended, or --max-ticks looks were done, with no critical finding
      1    a critical finding was seen (whichever way the watch ended)
      2    a usage error, or RUN cannot be read (one line on stderr)
      3    the run stalled: no new step past the stall window, without ending
      130  stopped by SIGINT (Ctrl-C) before the run ended, no critical finding
      143  stopped by SIGTERM before the run ended, no critical finding

    \b
    Examples:
      rlprobe watch runs/my-run --poll 10 --webhook https://hooks.slack.com/services/...
      rlprobe watch slurm-1234.out --on-critical 'scancel 1234'
    """
    sink = webhook_sink(webhook_url, label=str(run)) if webhook_url else None
    sinks: list[Any] = [sink] if sink else []
    acted: list[str] = []  # printed after the findings that set the actions off
    policy = HaltPolicy()
    if on_critical is not None:
        sinks.append(CommandAction(on_critical, str(run), policy=policy,
                                   report=_reporter(f"--on-critical {on_critical!r}", acted)))
    if on_critical_file is not None:
        sinks.append(StopFile(on_critical_file, str(run), policy=policy,
                              report=_reporter(f"--on-critical-file {on_critical_file}", acted)))
    watcher = RunWatcher(run, sinks=sinks, config=command_config(config_path, metrics))
    status = _StatusLine(enabled=is_tty())
    acting = [flag for flag, given in (("--on-critical", on_critical), ("--on-critical-file", on_critical_file))
              if given is not None]
    with _one_line_warnings(), _signals_stop():
        try:
            ending = _follow(watcher, run, poll, max_ticks, status, acted, None if keep_watching else policy, acting)
        except KeyboardInterrupt:
            ending = _Ending(EXIT_SIGINT, "stopped by Ctrl-C (SIGINT) before the run ended", "stopped by Ctrl-C")
        except _Signalled:
            ending = _Ending(EXIT_SIGTERM, "stopped by SIGTERM before the run ended", "stopped by SIGTERM")
        finally:
            status.clear()
        if sink is not None:
            _drain(sink)
    critical = [f for f in watcher.reported if f.severity == "critical"]
    if critical and ending.code != EXIT_CRITICAL:
        ending = _Ending(EXIT_CRITICAL, f"{ending.why}; a critical finding was seen "
                         f"({', '.join(dict.fromkeys(f.signature_id for f in critical))})", ending.how)
    click.echo(_summary(watcher, run, ending))
    if ending.code != EXIT_OK:
        raise click.exceptions.Exit(ending.code)


@dataclass(frozen=True)
class _Ending:
    """How a watch ended: its exit code, the one line saying why, and how the summary's
    head line puts it (``done`` or ``stopped by ...``)."""

    code: int
    why: str
    how: str = "done"


def _follow(watcher: RunWatcher, run: Path, poll: float, max_ticks: int | None, status: _StatusLine,
            acted: list[str], halt: HaltPolicy | None, acting: list[str]) -> _Ending:
    """Look at the run every ``poll`` seconds until it ends: on the first finding ``halt``
    halts on, or a stall (``halt`` None, ``--keep-watching``: neither ends the watch), once
    the run's status leaves running (one look later, which reads its last flush), or after
    ``max_ticks`` looks. ``acting``: the flags that act on the halting finding."""
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
        halting = next((f for f in new if halt is not None and halt.should_halt(f)), None)
        if halting is not None:
            after = f" (after {' and '.join(acting)} acted on it)" if acting else ""
            return _Ending(EXIT_CRITICAL, f"critical {halting.signature_id} from step {halting.first_step}{after}")
        stall = next((f for f in new if f.signature_id == STALLED), None)
        if stall is not None and halt is not None:
            return _Ending(EXIT_STALLED, f"the run stalled: no new step since step {stall.first_step}, past the "
                                         "stall window, and no end of the run")
        state = view.manifest.get("status") if view is not None else None
        ended = state not in (None, RunStatus.RUNNING)
        if ended and ended_seen:
            # two looks after the end: the second read whatever its last flush wrote
            return _Ending(EXIT_OK, f"the run ended ({state})")
        ended_seen = ended
        status.show(_status_text(watcher, run))
        if not ended and (max_ticks is None or watcher.ticks < max_ticks):
            time.sleep(poll)
    return _Ending(EXIT_OK, f"--max-ticks {max_ticks} looks done, the run not ended")


class _Signalled(BaseException):
    """SIGTERM ending a watch: a ``BaseException``, as ``KeyboardInterrupt`` (SIGINT) is, so
    that no sink or reader swallows it on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _signals_stop() -> Iterator[None]:
    """SIGTERM ends the watch as Ctrl-C does, with a summary and its exit code (a second one
    while the webhook drains ends the draining); on leaving, the handler before is put back,
    so one after that ends the process as it would have. Only the main thread can take
    signals: elsewhere (an embedding program's thread) nothing is changed."""
    def stop(signum: int, frame: Any) -> None:
        raise _Signalled(signum)

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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


def _summary(watcher: RunWatcher, run: Path, ending: _Ending) -> str:
    head = f"rlprobe watch {run}: {ending.how} after {watcher.ticks} look(s)"
    latest: dict[str, Finding] = {}
    for finding in watcher.reported:
        latest[finding.signature_id] = finding  # escalations come later, so the last word wins
    last = f"exit {ending.code}: {ending.why}"
    if not latest:
        return f"{head}; no findings.\n{last}"
    lines = [f"{head}; {len(latest)} signature(s) reported:"]
    for f in sorted(latest.values(), key=lambda f: ("critical", "warn", "info").index(f.severity)):
        lines.append(f"  {severity(f.severity)} {style(f.signature_id, bold=True)} from step {f.first_step}")
    return "\n".join([*lines, last])


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
    except (KeyboardInterrupt, _Signalled):
        pass  # a second Ctrl-C or SIGTERM means now


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
