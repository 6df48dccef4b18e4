"""``rlprobe report``: the post-mortem of a run as one self-contained HTML file."""
from __future__ import annotations

from pathlib import Path

import click

from ..report import render_report
from .output import RUN, command_config, metric_option, reads_logs


@click.command("report")
@click.argument("run", type=RUN)
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the HTML (default: RUN/report.html).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="doctor.toml with per-detector overrides and [metrics] names.")
@metric_option
@reads_logs
def report(run: Path, out_path: Path | None, config_path: Path | None, metrics: tuple[str, ...]) -> None:
    """Write RUN's post-mortem — verdict, findings, every metric charted, events, samples,
    config — as one HTML file that opens offline; prints its path.

    \b
    Example:
      rlprobe report runs/my-run --out my-run.html
    """
    click.echo(render_report(run, out_path, config=command_config(config_path, metrics)))


COMMANDS = [report]
