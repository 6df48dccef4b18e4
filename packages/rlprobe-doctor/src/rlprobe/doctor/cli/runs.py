"""``rlprobe ls``: the recorded runs under a directory."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from rlprobe.storage import list_runs
from rlprobe.storage.layout import is_url

from ..errors import UnusableInput
from .importing import ls_source
from .output import RUN, looks_killed, reads_logs, severity, table, when


@click.command("ls")
@click.argument("root", type=RUN)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--health", is_flag=True,
              help="Add each run's last step and worst finding (diagnosing only runs changed since the last look).")
@reads_logs
def ls(root: Path, as_json: bool, health: bool) -> None:
    """List the runs recorded under ROOT (ROOT itself may be a run; a directory or a URL
    such as s3://bucket/runs), or the runs a foreign source holds (a trackio database, a
    TensorBoard root, ...) as SOURCE#NAME.

    A recording whose manifest cannot be read is listed with status "unreadable" (and an
    "error" key in --json) and its reason goes to stderr; the exit code stays 0. A run
    still marked running whose manifest has not been rewritten for 2 minutes (the writer's
    heartbeat) is listed as "killed?" ("killed": true in --json, "status" as written).

    \b
    Examples:
      rlprobe ls runs/
      rlprobe ls s3://my-bucket/runs --health
    """
    if not is_url(root):
        if not root.exists():
            raise UnusableInput(f"{root}: no such directory")
        if ls_source(root, as_json):  # a foreign source: the runs it holds, as SOURCE#NAME
            return
    try:
        runs = list_runs(root, include_unreadable=True)
    except ValueError as exc:  # a URL pyarrow cannot open
        raise UnusableInput(str(exc)) from None
    rows = []
    for m in runs:
        if "error" in m:  # one damaged recording must not hide the others: flagged, its reason on stderr
            click.echo(f"rlprobe: warning: {m['error']}", err=True)
            rows.append({"path": m["path"], "run_id": None, "algorithm": None, "model": None, "steps": None,
                         "status": "unreadable", "started": None, "last_activity": None, "error": m["error"]})
            continue
        counts = m.get("counts") or {}
        rows.append({
            "path": m["path"], "run_id": m.get("run_id"), "algorithm": m.get("algorithm"),
            "model": m.get("model_name"), "steps": counts.get("steps"), "status": m.get("status"),
            "started": m.get("created_at"), "last_activity": m.get("closed_at") or m.get("updated_at"),
            "killed": looks_killed(m.get("status"), m.get("updated_at")),
        })
    if health:
        from ..health import run_health

        readable = [m for m in runs if "error" not in m]
        found, _ = run_health(readable)
        by_path = {m["path"]: h for m, h in zip(readable, found, strict=False)}
        for row in rows:
            h = by_path.get(row["path"], {})
            row["last_step"], row["worst"] = h.get("last_step"), h.get("worst")
            if h.get("error"):
                row["error"] = h["error"]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo(f"no runs under {root}")
        return
    if health:
        click.echo(table(
            [(r["run_id"] or "?", _status(r), r["last_step"] if r.get("last_step") is not None else "",
              _worst(r), when(r["last_activity"]), r["path"]) for r in rows],
            ["RUN", "STATUS", "LAST STEP", "WORST FINDING", "LAST ACTIVITY", "PATH"], "llrlll"))
        return
    click.echo(table(
        [(r["run_id"] or "?", r["algorithm"] or "", r["model"] or "", r["steps"] if r["steps"] is not None else "",
          _status(r), when(r["started"]), when(r["last_activity"]), r["path"]) for r in rows],
        ["RUN", "ALGO", "MODEL", "STEPS", "STATUS", "STARTED", "LAST ACTIVITY", "PATH"], "lllrllll"))


def _status(row: dict[str, Any]) -> str:
    return "killed?" if row.get("killed") else row["status"] or ""


def _worst(row: dict[str, Any]) -> str:
    worst = row.get("worst")
    if worst is not None:
        return f"{severity(worst['severity'])} {worst['signature_id']} from step {worst['first_step']}"
    if row.get("status") == "unreadable" or row.get("error"):
        return "cannot diagnose"
    return "healthy" if row.get("last_step") is not None else "no steps yet"


COMMANDS = [ls]
