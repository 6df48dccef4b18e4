"""The report in a real headless Chromium, opened from file:// with the network cut: no
console errors, nothing fetched, a drawn chart per metric with the finding marked in its
severity colour, and hostile run text shown as text without running.

Uses the system Chromium (Debian package ``chromium``; ``.ci/run`` installs it) through
Playwright, never Playwright's own browser download. Without a Chromium these tests skip,
except under CI (``CI`` set), where they fail.
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rlprobe import Recorder
from rlprobe.doctor import RunView, render_report

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PLANTED = {
    "completion": "<script>window.__pwned=2</script> the answer is 4",
    "prompt": '<img src=x onerror="window.__pwned=1"> What is 2+2?',
    "closing": "</script><script>window.__pwned=5</script>",
    "template": '{{ "TEMPLATE" ~ "EVALUATED" }}',
    "metric": '<img src=x onerror="window.__pwned=3">',
    "model": "<svg onload=window.__pwned=6>",
}
CRITICAL_RGB = (0xC6, 0x28, 0x39)  # --critical in report.css / report.js


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why}; CI must run the browser tests (.ci/run installs chromium)")
    pytest.skip(why)


def _chromium() -> str:
    for candidate in (os.environ.get("RLPROBE_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    _unavailable("no Chromium found (install the Debian package `chromium`)")
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the `playwright` package is not installed (requirements/test.txt)")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield instance
        instance.close()


def write_hostile_run(path: Path, n: int = 300, onset: int = 150) -> Path:
    """A run whose KL blows up at ``onset``, with hostile text in every place a run carries text."""
    rng = np.random.default_rng(7)
    t = np.arange(n)
    kl = np.where(t < onset, 0.01 * np.exp(0.1 * rng.standard_normal(n)), 0.01 * np.exp((t - onset) / 20.0))
    with Recorder(path, algorithm="grpo", model_name=PLANTED["model"], run_id="hostile " + PLANTED["closing"],
                  trainer_config={"note": PLANTED["completion"], "template": PLANTED["template"]},
                  capture_env=False, install_handlers=False) as rec:
        for s in range(n):
            rec.log_step(s, kl=float(kl[s]), reward=float(0.5 + 0.05 * rng.standard_normal()),
                         entropy=0.8, **{PLANTED["metric"]: float(s % 5), "rewards/format/mean": 0.9})
            if s % 10 == 0:
                texts = [PLANTED["completion"], PLANTED["closing"], PLANTED["template"]]
                rec.log_samples(s, [{"sample_id": f"s{s}-{i}", "prompt": PLANTED["prompt"], "completion": texts[i % 3],
                                     "reward": float(i), "advantage": i - 1.5, "kl": float(kl[s]), "length": 12}
                                    for i in range(4)], select=False)
        rec.log_event("crash", step=n - 1, message=PLANTED["closing"])
    return path


@pytest.fixture(scope="module")
def loaded(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The hostile run's report opened in Chromium, with what the page logged and tried to fetch."""
    run = write_hostile_run(tmp_path_factory.mktemp("browser") / "run")
    report = render_report(run)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    fetched: list[str] = []
    page.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    def cut(route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            fetched.append(route.request.url)
            route.abort()

    page.route("**/*", cut)
    page.goto(report.as_uri(), wait_until="load")
    page.wait_for_function("document.documentElement.dataset.chartsDrawn !== undefined", timeout=10_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-browser.png"), full_page=True)
    yield {"page": page, "errors": errors, "fetched": fetched, "view": RunView.load(run)}
    page.close()


def test_opens_offline_without_console_errors_or_fetches(loaded: dict[str, Any]) -> None:
    assert loaded["errors"] == []
    assert loaded["fetched"] == []
    assert (ARTIFACTS / "report-browser.png").stat().st_size > 10_000


def test_every_metric_has_a_drawn_chart(loaded: dict[str, Any]) -> None:
    charts = loaded["page"].evaluate("""() => Array.from(document.querySelectorAll('.chart')).map(el => {
        const c = el.querySelector('canvas');
        return {metric: el.dataset.metric, w: c ? c.width : 0, h: c ? c.height : 0,
                shown: el.getBoundingClientRect().width};
    })""")
    assert sorted(c["metric"] for c in charts) == sorted(loaded["view"].metric_names())
    assert PLANTED["metric"] in {c["metric"] for c in charts}
    for chart in charts:
        assert chart["w"] > 100 and chart["h"] > 100 and chart["shown"] > 100, chart


def test_the_finding_is_marked_in_its_severity_colour(loaded: dict[str, Any]) -> None:
    count = """([metric, rgb]) => {
        const el = Array.from(document.querySelectorAll('.chart')).find(e => e.dataset.metric === metric);
        const c = el.querySelector('canvas.u-canvas') || el.querySelector('canvas');
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const near = (i, k) => Math.abs(px[i + k] - rgb[k]) < 12;
        let n = 0;
        for (let i = 0; i < px.length; i += 4)
            if (near(i, 0) && near(i, 1) && near(i, 2) && px[i + 3] > 200) n++;
        return n;
    }"""
    page = loaded["page"]
    # KL_BLOWUP is critical and about kl_mean: a solid line in the critical colour there, while
    # other charts get only a faint dashed one that never reaches the full colour.
    assert page.evaluate(count, ["kl_mean", list(CRITICAL_RGB)]) > 100
    assert page.evaluate(count, ["reward_mean", list(CRITICAL_RGB)]) < 10


def test_hostile_text_is_shown_as_text_and_never_runs(loaded: dict[str, Any]) -> None:
    page = loaded["page"]
    assert page.evaluate("typeof window.__pwned") == "undefined"
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    text = page.evaluate("document.body.innerText")  # what a reader sees, prompts unfolded
    for planted in PLANTED.values():
        assert planted in text, planted
    assert "TEMPLATEEVALUATED" not in text
    # Only our three script elements exist; no planted element made it into the DOM.
    assert page.evaluate("document.scripts.length") == 3
    assert page.evaluate("document.querySelectorAll('img, svg:not(.strip), iframe').length") == 0
