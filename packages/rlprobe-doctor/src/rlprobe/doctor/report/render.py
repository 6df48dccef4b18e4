"""``render_report``: a run's post-mortem as one self-contained HTML file.

Everything the page needs — styles, the charting library, the chart data — is inlined,
so the file opens from disk, from a mail attachment or a CI artefact with no network.

Every string that came from the run (model text, prompts, config values, metric names,
event messages) is untrusted. Markup is escaped by Jinja2's autoescape; chart data goes
into a ``<script type="application/json">`` block as JSON with ``<``, ``>``, ``&`` and
U+2028/U+2029 escaped, so no string can end the block or be read as markup, and the
page's script reads it with ``JSON.parse`` and only ever writes it as text.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from rlprobe import __version__
from rlprobe.storage.atomic import atomic_path

from ..catalog import diagnose_view
from ..config import load_config, split_metrics
from ..errors import UnusableInput
from ..sources import default_report_path
from ..view import RunView
from .charts import build_charts
from .samples import key_step_samples, linked_samples, spike_driver_samples
from .summary import flatten, header, timeline, verdict

__all__ = ["render_report", "script_json"]

_PACKAGE = __name__.rpartition(".")[0]
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                               "\u2028": "\\u2028", "\u2029": "\\u2029"})


def render_report(run_dir: str | os.PathLike[str], out_path: str | os.PathLike[str] | None = None,
                  config: Mapping[str, Any] | str | os.PathLike[str] | None = None) -> Path:
    """Diagnose the run at ``run_dir`` and write its post-mortem to ``out_path`` (default
    ``run_dir/report.html``; beside a foreign source that is a file, ``FILE.report.html``);
    returns the path written.

    ``config`` is a ``doctor.toml`` path or a mapping of the same shape. Raises
    ``UnusableInput`` (one line) for a directory without a recording, a run with no steps,
    a bad config or an ``out_path`` under a file, and ``RecordingError`` for a damaged
    recording. The file is written whole or not at all (temp file + rename)."""
    overrides = load_config(config) if isinstance(config, (str, os.PathLike)) else config
    view = RunView.load(run_dir, split_metrics(overrides)[1])
    if view.n_steps == 0:
        raise UnusableInput(f"{run_dir}: the run has no steps recorded yet; nothing to report")
    findings = diagnose_view(view, overrides)
    charts = build_charts(view, findings)
    page = _environment().get_template("report.html.j2").render(
        head=header(view),
        verdict=verdict(findings),
        findings=[{"f": f, "samples": linked_samples(view, f)} for f in findings],
        charts=charts,
        chart_data=script_json({"charts": [{k: c[k] for k in ("id", "name", "x", "y", "marks")} for c in charts]}),
        timeline=timeline(view, findings),
        key_samples=key_step_samples(view, findings),
        drivers=spike_driver_samples(view, findings),
        config=flatten(view.manifest.get("trainer_config") or {}),
        sampling=flatten(view.manifest.get("sampling") or {}),
        version=__version__,
        **_inline_assets(),
    )
    target = Path(out_path) if out_path is not None else default_report_path(run_dir)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise UnusableInput(f"cannot write {target}: {target.parent} is not a directory") from None
    with atomic_path(target, durable=False) as temp:
        temp.write_text(page, encoding="utf-8")
    return target


def script_json(value: Any) -> str:
    """``value`` as JSON that is inert inside an HTML ``<script>`` element: no ``</script>``,
    ``<!--`` or line separator can appear in it, whatever strings it holds. Non-finite
    floats become null."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                      default=str).translate(_JSON_ESCAPES)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(_PACKAGE, "templates"),
        autoescape=True,  # on for every template whatever its suffix: all run data is untrusted
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = _number
    return env


def _inline_assets() -> dict[str, Any]:
    """Styles and scripts to inline, and a Content-Security-Policy that lets exactly these
    scripts run (by hash) and lets the page fetch nothing: even if some text escaped the
    escaping, an injected script or event handler would not run. They are ours or
    vendored, never run data."""
    base = resources.files(_PACKAGE) / "assets"

    def read(*parts: str) -> str:
        return base.joinpath(*parts).read_text(encoding="utf-8")

    scripts = {
        # The MIT licence asks for its notice in copies: the report is one.
        "library": f"/* uPlot, https://github.com/leeoniya/uPlot\n{read('uplot', 'LICENSE')}*/\n"
                   + read("uplot", "uPlot.iife.min.js"),
        "report": read("report.js"),
    }
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                      for s in scripts.values())
    return {
        "scripts": scripts,
        "styles": read("uplot", "uPlot.min.css") + "\n" + read("report.css"),
        "csp": f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:",
    }


def _number(value: Any, digits: int = 4) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    try:
        return f"{float(value):.{digits}g}"
    except (TypeError, ValueError):
        return str(value)
