"""`render_report` / `rlprobe report` without a browser: the file, its contents, its escaping,
downsampling that keeps spikes, and the errors. The browser half is tests/e2e/test_report_browser.py."""
from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rlprobe import Recorder
from rlprobe.doctor import Finding, RunView, UnusableInput, diagnose_view, render_report
from rlprobe.doctor.cli import main
from rlprobe.doctor.report.charts import MAX_POINTS
from rlprobe.doctor.report.downsample import minmax_downsample
from rlprobe.doctor.report.render import script_json
from rlprobe.doctor.report.samples import key_step_samples, spike_driver_samples

HOSTILE = [
    "<script>window.__pwned=2</script>",
    "</script><script>window.__pwned=4</script>",
    '<img src=x onerror="window.__pwned=1">',
    '{{ "TEMPLATE" ~ "EVALUATED" }}',
    "\u2028<!-- </ScRiPt > &amp;",
]
HOSTILE_METRIC = '<img src=x onerror="window.__pwned=3">'
N, ONSET, OUTLIER = 300, 150, "s-outlier"


def write_run(path: Path, n: int = N, seed: int = 0) -> Path:
    """A GRPO-like run whose KL blows up from ONSET, with hostile text everywhere a run can
    carry text, a NaN and an inf, a crash event, and one sample with a huge advantage at ONSET."""
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    kl = np.where(t < ONSET, 0.01 * np.exp(0.1 * rng.standard_normal(n)), 0.01 * np.exp((t - ONSET) / 20.0))
    with Recorder(path, algorithm="grpo", model_name="org/<b>model</b>", run_id="run-<i>x</i>",
                  trainer_config={"beta": 0.04, "note": HOSTILE[0], "nested": {"deep": HOSTILE[2]}},
                  capture_env=False, install_handlers=False) as rec:
        for s in range(n):
            rec.log_step(s, kl=float(kl[s]), reward=float(0.5 + 0.05 * rng.standard_normal()),
                         loss=float("nan") if s == 40 else float("inf") if s == 41 else 0.01,
                         **{"rewards/accuracy/mean": 0.5, HOSTILE_METRIC: float(s % 7)})
            if s % 10 == 0 or abs(s - ONSET) <= 2:
                rec.log_samples(s, [{
                    "sample_id": OUTLIER if (s == ONSET and i == 0) else f"s{s}-{i}",
                    "prompt": "What is 2+2? " + HOSTILE[i % 5],
                    "completion": HOSTILE[(i + s) % 5] + f" answer {i}",
                    "reward": float(i), "reward_components": {"accuracy": float(i % 2)},
                    "advantage": 40.0 if (s == ONSET and i == 0) else float(i) - 2.5,
                    "kl": float(kl[s]), "length": 10 + i,
                } for i in range(6)], select=False)
        rec.log_event("crash", step=n - 1, message="Traceback: " + HOSTILE[1])
        rec.log_event("note", message=HOSTILE[2], detail=HOSTILE[3])
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("report") / "run")


@pytest.fixture(scope="module")
def page(run: Path) -> str:
    return render_report(run).read_text(encoding="utf-8")


def chart_data(page: str) -> dict:
    block = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert block, "chart data block missing"
    return json.loads(block.group(1))


def test_default_path_is_inside_the_run_and_the_file_is_self_contained(run: Path, page: str) -> None:
    assert (run / "report.html").is_file()
    assert not list(run.glob(".*.tmp"))
    # Nothing that would fetch: no external scripts, styles, images, fonts or frames.
    assert not re.search(r"<(script|img|iframe|link|object|embed)\b[^>]*\b(src|href)\s*=", page, re.I)
    assert not re.search(r"url\(|@import", page)
    assert "default-src 'none'" in html.unescape(page)


def test_header_verdict_findings_config_and_events_are_there(run: Path, page: str) -> None:
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for fact in ("run-<i>x</i>", "grpo", "org/<b>model</b>", "finished", "300", "Failing", "KL_BLOWUP",
                 "What to do", "crash", "beta", "nested.deep", "Spike drivers", "Best and worst"):
        assert fact in text, fact
    onset = re.search(r"KL_BLOWUP</strong>\s*<span class=\"dim\">from step (\d+)", page)
    assert onset and ONSET - 5 <= int(onset.group(1)) <= ONSET + 25


def test_every_metric_gets_a_chart_with_the_finding_marked(run: Path, page: str) -> None:
    view = RunView.load(run)
    charts = chart_data(page)["charts"]
    assert sorted(c["name"] for c in charts) == sorted(view.metric_names())
    assert {"kl_mean", "reward_mean", "loss", "rewards/accuracy/mean", HOSTILE_METRIC} <= {c["name"] for c in charts}
    assert page.count('class="chart"') == len(charts)
    findings = [f for f in diagnose_view(view) if f.first_step is not None]
    for chart in charts:
        marks = chart["marks"]
        assert [(m["label"], m["step"], m["severity"]) for m in marks] == \
            [(f.signature_id, f.first_step, f.severity) for f in findings]
        kl = next(m for m in marks if m["label"] == "KL_BLOWUP")
        assert kl["severity"] == "critical" and kl["primary"] == (chart["name"] == "kl_mean")
    assert "1 non-finite value" not in page and "2 non-finite values, first at step 40" in page


def test_hostile_text_is_escaped_everywhere(page: str) -> None:
    # Only our own three script elements exist, and each is closed exactly once.
    assert len(re.findall(r"<script\b", page, re.I)) == 3
    assert len(re.findall(r"</script", page, re.I)) == 3
    assert "<img" not in page and "onerror=\"window" not in page
    assert "&lt;script&gt;window.__pwned=2&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=&#34;window.__pwned=1&#34;&gt;" in page
    assert "&lt;b&gt;model&lt;/b&gt;" in page
    # Template syntax in run data is shown, not evaluated.
    assert "TEMPLATEEVALUATED" not in page and "{{ &#34;TEMPLATE&#34; ~ &#34;EVALUATED&#34; }}" in page
    assert "\u2028" not in page.split('id="report-data">')[1].split("</script>")[0]
    assert HOSTILE_METRIC in {c["name"] for c in chart_data(page)["charts"]}


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.text() | st.integers() | st.none(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20))
def test_script_json_round_trips_and_cannot_leave_a_script_element(value: object) -> None:
    text = script_json(value)
    assert json.loads(text) == value
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}


def test_inlined_assets_cannot_close_their_element() -> None:
    assets = resources.files("rlprobe.doctor.report") / "assets"
    for name in ("uplot/uPlot.iife.min.js", "report.js", "uplot/LICENSE"):
        text = assets.joinpath(name).read_text(encoding="utf-8").lower()
        assert "</script" not in text and "<!--" not in text, name
    for name in ("uplot/uPlot.min.css", "report.css"):
        assert "</style" not in assets.joinpath(name).read_text(encoding="utf-8").lower(), name


def test_downsampling_keeps_a_one_step_spike_and_dip() -> None:
    n = 100_000
    x = np.arange(n) * 2
    y = np.sin(np.arange(n) / 500.0)
    y[31_337], y[77_777] = 50.0, -50.0
    y[50_000:50_500] = np.nan
    xs, ys = minmax_downsample(x, y, MAX_POINTS)
    assert len(xs) <= MAX_POINTS and np.all(np.diff(xs) > 0)
    assert ys[xs == 2 * 31_337][0] == 50.0 and ys[xs == 2 * 77_777][0] == -50.0
    assert np.isnan(ys).any(), "an all-missing stretch must stay a gap"
    assert np.nanmax(ys) == 50.0 and np.nanmin(ys) == -50.0
    short_x, short_y = minmax_downsample(x[:100], y[:100], MAX_POINTS)
    assert np.array_equal(short_x, x[:100]) and np.array_equal(short_y, y[:100])


def test_a_long_run_is_downsampled_in_the_report_without_losing_its_spike(tmp_path: Path) -> None:
    n, spike_at = 20_000, 12_345
    grad = np.full(n, 0.5)
    grad[spike_at] = 99.0
    with Recorder(tmp_path / "long", capture_env=False, install_handlers=False, queue_size=1 << 16) as rec:
        for s in range(n):
            rec.log_step(s, grad_norm=float(grad[s]), reward=0.1)
    page = render_report(tmp_path / "long", tmp_path / "out" / "long.html").read_text(encoding="utf-8")
    chart = next(c for c in chart_data(page)["charts"] if c["name"] == "grad_norm")
    assert len(chart["x"]) <= MAX_POINTS
    assert chart["y"][chart["x"].index(spike_at)] == 99.0


def test_best_and_worst_samples_are_ordered_by_reward(run: Path) -> None:
    groups = key_step_samples(RunView.load(run), [])
    assert [g["why"] for g in groups] == ["first captured step", "last captured step"]
    for g in groups:
        assert [s["reward"] for s in g["best"]] == [5.0, 4.0, 3.0]
        assert [s["reward"] for s in g["worst"]] == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("forensics", ["real", "fallback"])
def test_the_planted_outlier_drives_the_spike(run: Path, forensics: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if forensics == "fallback":
        monkeypatch.setitem(sys.modules, "rlprobe.doctor.forensics", None)  # import now fails
    at_onset = dict(confidence=0.9, first_step=ONSET, explanation="planted")
    findings = [Finding(signature_id="KL_BLOWUP", severity="critical", **at_onset),
                Finding(signature_id="CLIP_RATIO_HIGH", severity="warn", **at_onset)]
    drivers = spike_driver_samples(RunView.load(run), findings)
    assert [(d["finding"], d["step"]) for d in drivers] == [("KL_BLOWUP", ONSET)]  # critical only
    samples = drivers[0]["samples"]
    assert samples[0]["sample_id"] == OUTLIER and len(samples) == 8
    advantages = [abs(s["advantage"]) for s in samples]
    assert advantages == sorted(advantages, reverse=True)
    assert {s["step"] for s in samples} <= set(range(ONSET - 5, ONSET + 6))
    # Only forensics knows each sample's share of the window's total |advantage|.
    assert all((s["share"] is not None) == (forensics == "real") for s in samples)


def test_cli_prints_the_path_and_honours_out_and_config(run: Path, tmp_path: Path) -> None:
    out = tmp_path / "sub" / "r.html"
    result = CliRunner().invoke(main, ["report", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out) and out.is_file()
    config = tmp_path / "doctor.toml"
    config.write_text("[kl_blowup]\nenabled = false\n")
    quiet = tmp_path / "quiet.html"
    result = CliRunner().invoke(main, ["report", str(run), "--out", str(quiet), "--config", str(config)])
    assert result.exit_code == 0, result.output
    assert "KL_BLOWUP" not in quiet.read_text(encoding="utf-8")


def test_a_run_with_no_steps_is_a_one_line_error(tmp_path: Path) -> None:
    with Recorder(tmp_path / "empty", capture_env=False, install_handlers=False) as rec:
        rec.log_event("note", message="nothing trained")
    with pytest.raises(UnusableInput, match="no steps"):
        render_report(tmp_path / "empty")
    result = CliRunner().invoke(main, ["report", str(tmp_path / "empty")])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "no steps" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "empty" / "report.html").exists()
    result = CliRunner().invoke(main, ["report", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "no rlprobe recording" in result.output


def test_the_wheel_ships_templates_and_assets(tmp_path: Path) -> None:
    package = Path(__file__).resolve().parents[2] / "packages" / "rlprobe-doctor"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    str(package), "-w", str(tmp_path)], check=True, capture_output=True, timeout=300)
    import zipfile

    names = set(zipfile.ZipFile(next(tmp_path.glob("rlprobe_doctor-*.whl"))).namelist())
    prefix = "rlprobe/doctor/report/"
    assert {prefix + p for p in ("templates/report.html.j2", "assets/report.js", "assets/report.css",
                                 "assets/uplot/uPlot.iife.min.js", "assets/uplot/uPlot.min.css",
                                 "assets/uplot/LICENSE")} <= names
