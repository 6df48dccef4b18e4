"""``rlprobe doctor``: the ranked diagnosis of a run, a CI gate (exit 1 on critical)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import click

from ..catalog import diagnose_view, load_steps
from ..config import split_metrics
from ..findings import Finding
from . import EXIT_CRITICAL
from .output import RUN, command_config, metric_option, number, reads_logs, severity, style, terminal_width


@click.command("doctor")
@click.argument("run", type=RUN)
@click.option("--json", "as_json", is_flag=True, help="Findings as a JSON list (stable, machine-readable).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="doctor.toml with per-detector overrides and [metrics] names.")
@metric_option
@reads_logs
def doctor(run: Path, as_json: bool, config_path: Path | None, metrics: tuple[str, ...]) -> None:
    """Diagnose RUN: ranked findings with evidence and what to do.

    Exits 1 when a critical finding exists, so it drops into CI gates; 2 when RUN cannot be
    diagnosed: no recording, a damaged one, or one with no steps recorded (a run that
    recorded nothing is not a healthy run).

    \b
    Examples:
      rlprobe doctor runs/my-run --config doctor.toml
      rlprobe doctor wandb/ --metric reward=average_reward --metric kl=kl_divergence
    """
    config = command_config(config_path, metrics)
    findings = diagnose_view(load_steps(run, split_metrics(config)[1]), config)
    if as_json:
        click.echo(json.dumps([f.model_dump(mode="json") for f in findings], indent=2))
    else:
        click.echo(render_findings(findings, str(run)))
    if any(f.severity == "critical" for f in findings):
        raise click.exceptions.Exit(EXIT_CRITICAL)


def render_findings(findings: list[Finding], run: str) -> str:
    """Findings as readable terminal text (also used by ``watch``)."""
    width = min(terminal_width(), 110)
    if not findings:
        return f"{run}: healthy — no findings."
    counts = {s: sum(f.severity == s for f in findings) for s in ("critical", "warn", "info")}
    head = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    out = [style(f"{run}: {len(findings)} finding(s) — {head}", bold=True), ""]
    for i, f in enumerate(findings, 1):
        out.append(f"{i}. {severity(f.severity)} {style(f.signature_id, bold=True)}  "
                   f"from step {f.first_step if f.first_step is not None else '?'}  "
                   f"confidence {f.confidence:.0%}")
        out.extend(textwrap.wrap(f.explanation, width - 3, initial_indent="   ", subsequent_indent="   "))
        for e in f.evidence:
            out.append(f"   · {e.metric} steps {e.window[0]}–{e.window[1]}: "
                       f"{number(e.baseline)} → {number(e.observed)}" + (f"  ({e.note})" if e.note else ""))
        for action in f.suggested_actions:
            out.extend(textwrap.wrap(action, width - 5, initial_indent="   → ", subsequent_indent="     "))
        if f.links_to_samples:
            out.append("   samples: " + ", ".join(f.links_to_samples[:5]))
        out.append("")
    return "\n".join(out).rstrip()


COMMANDS = [doctor]
