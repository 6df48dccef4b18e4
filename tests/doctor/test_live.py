"""Live diagnosis: RunWatcher ticks, sinks, webhook_sink against a real local server,
HaltPolicy, and RUN_STALLED."""
from __future__ import annotations

import http.server
import json
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import polars as pl
import pytest

from rlprobe import RlprobeWarning
from rlprobe.doctor import Finding, RunView, diagnose_view
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.errors import ConfigError, UnusableInput
from rlprobe.doctor.live import HaltPolicy, RunWatcher, webhook_sink
from rlprobe.doctor.synth import generate
from rlprobe.storage import RunReader, RunWriter, compact_run

# -- helpers ----------------------------------------------------------------------------


def kl_rows(first: int, last: int, level: float) -> list[dict[str, Any]]:
    """Steps [first, last), logged now, with a slightly noisy KL around ``level`` and a reward."""
    return [{"step": s, "time": time.time(), "kl_mean": level * (1 + 0.05 * ((s * 7) % 5 - 2)),
             "reward_mean": 0.5} for s in range(first, last)]


def kl_run(path: Path) -> Path:
    """A finished run whose KL blows up (×200) at step 300."""
    writer = RunWriter(path, {"run_id": "kl", "algorithm": "grpo"})
    writer.write_part(kl_rows(0, 300, 0.01))
    writer.write_part(kl_rows(300, 420, 2.0))
    writer.close()
    return path


def samples(first: int) -> list[dict[str, Any]]:
    return [{"step": first, "sample_id": f"s{first}-{g}", "reward": 1.0, "advantage": 0.0} for g in range(4)]


def only(*signatures: str) -> dict[str, dict[str, bool]]:
    """A config with every other detector off, so a test does not depend on the rest of the catalog."""
    return {sid: {"enabled": False} for sid in registry() if sid not in signatures}


def later(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """RUN_STALLED's clock, ``seconds`` ahead of the real one."""
    from rlprobe.doctor.detectors import liveness

    now = time.time() + seconds
    monkeypatch.setattr(liveness, "time", SimpleNamespace(time=lambda: now))


def finding(signature: str = "KL_BLOWUP", severity: str = "critical", confidence: float = 0.9) -> Finding:
    return Finding(signature_id=signature, severity=severity, confidence=confidence, first_step=10,
                   explanation="KL rose from 0.01 to 2 (×200).", suggested_actions=["Raise `beta`."],
                   links_to_samples=["s1", "s2"])


class Endpoint(http.server.ThreadingHTTPServer):
    """A webhook receiver on 127.0.0.1: answers ``status``; with ``hold`` set, each request
    first waits until ``release`` is set (a slow endpoint)."""

    daemon_threads = True

    def __init__(self, status: int = 200, hold: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.status, self.hold = status, hold
        self.bodies: list[dict[str, Any]] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks/secret"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Endpoint

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.bodies.append(body)
        self.server.entered.set()
        if self.server.hold:
            self.server.release.wait(10)
        try:
            self.send_response(self.server.status)
            self.end_headers()
            self.wfile.write(b"ok")
        except OSError:
            pass  # the client gave up (timeout) before we answered

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def endpoint(request: pytest.FixtureRequest) -> Iterator[Endpoint]:
    server = Endpoint(**getattr(request, "param", {}))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


def dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"  # nothing listens there any more


# -- RunWatcher ---------------------------------------------------------------------------


def test_tick_waits_for_a_run_that_does_not_exist_yet(tmp_path: Path) -> None:
    run = tmp_path / "later" / "run"
    watcher = RunWatcher(run, config=only("KL_BLOWUP"))
    assert watcher.tick() == [] and watcher.tick() == []
    assert watcher.view is None
    run.mkdir(parents=True)  # a directory alone is not a recording yet
    assert watcher.tick() == [] and watcher.view is None
    kl_run(run)
    new = watcher.tick()
    assert [f.signature_id for f in new] == ["KL_BLOWUP"]
    assert watcher.view is not None and watcher.view.n_steps == 420
    assert watcher.tick() == []  # reported once


def test_tick_rejects_a_recording_it_cannot_read(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"format_version": 99}))
    with pytest.raises(UnusableInput, match="format version"):
        RunWatcher(run).tick()


def test_bad_config_fails_at_construction(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown key"):
        RunWatcher(tmp_path, config={"kl_blowup": {"no_such_key": 1}})


def test_a_finding_is_reported_again_only_when_it_escalates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _running_run(tmp_path / "run", silent_s=0).run_dir  # steps every ~10 s, the last one just now
    got: list[Finding] = []
    watcher = RunWatcher(run, sinks=[got.append], config=only("RUN_STALLED"))
    assert watcher.tick() == []
    later(monkeypatch, 1000)  # > 600 s: a stall, < 3 × 600 s: not yet critical
    first = watcher.tick()
    assert [(f.signature_id, f.severity) for f in first] == [("RUN_STALLED", "warn")]
    later(monkeypatch, 1200)
    assert watcher.tick() == []  # same signature, same severity
    later(monkeypatch, 2000)
    second = watcher.tick()
    assert [(f.signature_id, f.severity) for f in second] == [("RUN_STALLED", "critical")]
    assert got == first + second == watcher.reported
    later(monkeypatch, 1000)
    assert watcher.tick() == []  # a lower severity later is not news


def test_compaction_between_ticks_misses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "cmp", "algorithm": "grpo"})
    watcher = RunWatcher(run)
    for first in range(0, 100, 10):
        writer.write_part(kl_rows(first, first + 10, 0.01), samples(first))
    watcher.tick()
    for first in range(100, 150, 10):  # written, not yet read ...
        writer.write_part(kl_rows(first, first + 10, 0.01), samples(first))
    # ... then a step logged twice (train metrics, then an eval metric) across parts
    writer.write_part([{"step": 150, "time": 2e9, "kl_mean": 0.02}])
    watcher.tick()
    writer.write_part([{"step": 150, "time": 2e9 + 1, "eval_reward": 0.7}])
    compact_run(run)  # folds read and unread parts alike into steps.parquet
    assert not list((run / "parts").glob("steps-*"))
    writer.write_part(kl_rows(151, 170, 0.01), samples(160))
    watcher.tick()
    compact_run(run)  # nothing new since the last tick, only moved
    watcher.tick()

    steps = watcher.view.steps
    assert steps["step"].to_list() == list(range(170))
    assert steps.filter(pl.col("step") == 150).select("kl_mean", "eval_reward").row(0) == (0.02, 0.7)
    fresh = RunView.load(run).steps
    assert steps.select(sorted(steps.columns)).equals(fresh.select(sorted(fresh.columns)))
    written = [*range(0, 150, 10), 160]
    assert sorted(watcher.view.samples["sample_id"].to_list()) == sorted(f"s{f}-{g}" for f in written for g in range(4))


def test_events_are_read_as_they_are_appended(tmp_path: Path) -> None:
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "ev", "algorithm": "grpo"})
    writer.append_event("checkpoint", step=1, message="saved")
    watcher = RunWatcher(run)
    watcher.tick()
    assert [e["kind"] for e in watcher.view.events] == ["checkpoint"]
    writer.append_events([("eval", 2, "", {"score": 0.5}, None), ("checkpoint", 3, "", None, None)])
    with open(run / "events.jsonl", "a") as fh:
        fh.write('{"kind": "note", "step": 4, "time": 9e9, "mess')  # a line still being written
    watcher.tick()
    assert [e["kind"] for e in watcher.view.events] == ["checkpoint", "eval", "checkpoint"]
    with open(run / "events.jsonl", "a") as fh:
        fh.write('age": "done", "data": {}}\n')
    watcher.tick()
    assert [e["kind"] for e in watcher.view.events] == ["checkpoint", "eval", "checkpoint", "note"]
    assert watcher.view.events == RunReader(run).events()


def test_a_long_run_is_diagnosed_through_a_window_and_still_caught(tmp_path: Path) -> None:
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "long", "algorithm": "grpo"})
    writer.write_part(kl_rows(0, 900, 0.01))
    watcher = RunWatcher(run, window_steps=128, config=only("KL_BLOWUP"))
    assert watcher.tick() == []
    for first in range(900, 1000, 20):  # 1000 steps < 1.25 × 900: every tick diagnoses only the window
        writer.write_part(kl_rows(first, first + 20, 2.0))
        if new := watcher.tick():
            break
    assert [(f.signature_id, f.severity) for f in new] == [("KL_BLOWUP", "critical")]
    assert 900 <= new[0].first_step < 1000 and watcher.view.n_steps < 1000


def test_a_raising_sink_is_reported_once_and_never_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_: Finding) -> None:
        raise RuntimeError("slack is down")

    got: list[Finding] = []
    watcher = RunWatcher(_running_run(tmp_path / "run", silent_s=0).run_dir, sinks=[broken, got.append],
                         config=only("RUN_STALLED"))
    with pytest.warns(RlprobeWarning, match="broken raised RuntimeError: slack is down") as caught:
        later(monkeypatch, 1000)
        assert watcher.tick()
        later(monkeypatch, 2000)
        assert watcher.tick()
    assert len([w for w in caught if "slack is down" in str(w.message)]) == 1
    assert [f.severity for f in got] == ["warn", "critical"]  # the sink after the broken one still got both


RECORDING_SCRIPT = textwrap.dedent("""
    import pathlib, sys, time
    from rlprobe import Recorder

    run, control = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

    def wait_for(name):
        while not (control / name).exists():
            time.sleep(0.01)

    rec = Recorder(run, algorithm="grpo", capture_env=False, install_handlers=False, flush_interval_s=0.05)
    for step in range(300):
        rec.log_step(step, kl=0.01 * (1 + 0.05 * (step % 5)), reward=0.5)
    rec.flush()
    (control / "healthy").touch()
    wait_for("go")
    for step in range(300, 420):
        rec.log_step(step, kl=2.0 * (1 + 0.05 * (step % 5)), reward=0.5)
    rec.flush()
    (control / "blown").touch()
    wait_for("stop")
    rec.close()
""")


def _await(path: Path, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


def test_the_watcher_sees_a_run_recorded_by_another_process_turn_pathological(tmp_path: Path) -> None:
    run, control = tmp_path / "run", tmp_path / "control"
    control.mkdir()
    script = tmp_path / "record.py"
    script.write_text(RECORDING_SCRIPT)
    watcher = RunWatcher(run, config=only("KL_BLOWUP", "RUN_STALLED"))
    proc = subprocess.Popen([sys.executable, str(script), str(run), str(control)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _await(control / "healthy", proc)
        assert watcher.tick() == []
        assert watcher.view.n_steps == 300 and watcher.view.manifest["status"] == "running"
        (control / "go").touch()
        _await(control / "blown", proc)
        new = watcher.tick()  # the very next tick after the flush
        assert [(f.signature_id, f.severity) for f in new] == [("KL_BLOWUP", "critical")]
        assert 300 <= new[0].first_step <= 320
        (control / "stop").touch()
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    finally:
        proc.kill()
    assert watcher.tick() == []
    assert watcher.view.n_steps == 420 and watcher.view.manifest["status"] == "finished"


# -- webhook_sink ---------------------------------------------------------------------------


def test_webhook_posts_slack_compatible_json(endpoint: Endpoint) -> None:
    sink = webhook_sink(endpoint.url, label="runs/demo")
    sink(finding())
    assert sink.drain(10)
    assert sink.sent == 1 and sink.failed == 0
    [body] = endpoint.bodies
    assert "KL_BLOWUP" in body["text"] and "runs/demo" in body["text"] and "CRITICAL" in body["text"]
    kinds = [b["type"] for b in body["blocks"]]
    assert kinds[:2] == ["header", "section"] and "context" in kinds
    assert body["blocks"][0]["text"]["type"] == "plain_text"
    assert "Raise `beta`." in body["blocks"][1]["text"]["text"]


@pytest.mark.parametrize("endpoint", [{"status": 500}], indirect=True)
def test_webhook_retries_a_failing_endpoint_a_bounded_number_of_times(endpoint: Endpoint) -> None:
    sink = webhook_sink(endpoint.url, timeout=2.0, retries=2, backoff=0.01)
    with pytest.warns(RlprobeWarning, match=r"webhook http://127\.0\.0\.1:\d+ failed \(HTTP 500\)") as caught:
        sink(finding())
        sink(finding("ENTROPY_COLLAPSE"))
        assert sink.drain(10)
    assert len(endpoint.bodies) == 2 * 3  # each finding: one attempt and two retries
    assert sink.failed == 2 and sink.sent == 0
    assert len(caught) == 1 and "secret" not in str(caught[0].message)  # the URL path is a credential


@pytest.mark.parametrize("endpoint", [{"status": 404}], indirect=True)
def test_webhook_does_not_retry_a_refusal(endpoint: Endpoint) -> None:
    sink = webhook_sink(endpoint.url, retries=3, backoff=0.01)
    with pytest.warns(RlprobeWarning, match="HTTP 404"):
        sink(finding())
        assert sink.drain(10)
    assert len(endpoint.bodies) == 1


@pytest.mark.parametrize("endpoint", [{"hold": True}], indirect=True)
def test_a_slow_endpoint_never_stalls_the_watcher(endpoint: Endpoint, tmp_path: Path) -> None:
    sink = webhook_sink(endpoint.url, timeout=0.3, retries=1, backoff=0.01)
    watcher = RunWatcher(kl_run(tmp_path / "run"), sinks=[sink], config=only("KL_BLOWUP"))
    with pytest.warns(RlprobeWarning, match="failed"):
        assert watcher.tick()
        assert endpoint.entered.wait(10)
        assert not endpoint.release.is_set()  # the tick returned while the endpoint was still holding its answer
        assert watcher.tick() == []
        assert sink.drain(10)
    assert len(endpoint.bodies) == 2 and sink.failed == 1  # timed out twice, then gave up


def test_a_dead_endpoint_costs_one_warning(tmp_path: Path) -> None:
    sink = webhook_sink(dead_url(), timeout=1.0, retries=1, backoff=0.01)
    with pytest.warns(RlprobeWarning, match="failed") as caught:
        for signature in ("KL_BLOWUP", "ENTROPY_COLLAPSE", "RUN_STALLED"):
            sink(finding(signature))
        assert sink.drain(10)
    assert sink.failed == 3 and len(caught) == 1


@pytest.mark.parametrize("kwargs, message", [
    ({"url": "hooks.slack.com/x"}, "must start with http"),
    ({"url": "http://x", "timeout": 0}, "timeout must be a positive"),
    ({"url": "http://x", "retries": -1}, "retries must be a whole number"),
    ({"url": "http://x", "retries": 1.5}, "retries must be a whole number"),
])
def test_webhook_arguments_are_checked(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(UnusableInput, match=message):
        webhook_sink(**kwargs)


# -- HaltPolicy -----------------------------------------------------------------------------


def test_halt_policy_is_conservative_by_default() -> None:
    policy = HaltPolicy()
    assert (policy.min_severity, policy.min_confidence, policy.signatures) == ("critical", 0.7, None)
    assert policy.should_halt(finding(severity="critical", confidence=0.7))
    assert not policy.should_halt(finding(severity="critical", confidence=0.69))
    assert not policy.should_halt(finding(severity="warn", confidence=0.99))
    assert not policy.should_halt(finding(severity="info", confidence=1.0))


def test_halt_policy_thresholds_and_signatures() -> None:
    policy = HaltPolicy(min_severity="warn", min_confidence=0.5, signatures=frozenset({"KL_BLOWUP", "run_stalled"}))
    assert policy.signatures == frozenset({"KL_BLOWUP", "RUN_STALLED"})
    assert policy.should_halt(finding("KL_BLOWUP", "warn", 0.5))
    assert policy.should_halt(finding("RUN_STALLED", "critical", 0.9))
    assert not policy.should_halt(finding("ENTROPY_COLLAPSE", "critical", 0.99))
    assert not policy.should_halt(finding("KL_BLOWUP", "info", 0.99))
    assert HaltPolicy(signatures=["KL_BLOWUP"]) == HaltPolicy(signatures=frozenset({"KL_BLOWUP"}))
    with pytest.raises(AttributeError):
        policy.min_confidence = 0.1  # frozen


@pytest.mark.parametrize("kwargs, message", [
    ({"min_severity": "error"}, "min_severity must be one of info, warn, critical"),
    ({"min_confidence": 1.5}, r"min_confidence must be a number in \[0, 1\]"),
    ({"min_confidence": "high"}, "min_confidence must be a number"),
    ({"signatures": "KL_BLOWUP"}, "signatures must be None or a set"),
    ({"signatures": {"KL_BLOWOUT"}}, "unknown id.*KL_BLOWOUT.*valid:.*KL_BLOWUP"),
    ({"signatures": set()}, "is empty"),
])
def test_halt_policy_arguments_are_checked_with_one_line(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        HaltPolicy(**kwargs)
    assert "\n" not in str(info.value)


# -- RUN_STALLED ----------------------------------------------------------------------------


def test_run_stalled_on_its_synthetic_pathology_and_only_live(tmp_path: Path) -> None:
    plan = generate(tmp_path / "stalled", "run_stalled", n_steps=200, seed=3)
    view = RunView.load(tmp_path / "stalled")
    assert view.manifest["status"] == "running"
    [found] = [f for f in diagnose_view(view, live=True) if f.signature_id == "RUN_STALLED"]
    assert found.severity == "critical" and found.confidence >= 0.9
    assert found.first_step == plan.onset == int(view.step[-1])
    assert "killed or frozen" in found.explanation
    assert "RUN_STALLED" not in {f.signature_id for f in diagnose_view(view)}
    generate(tmp_path / "healthy", "healthy", n_steps=200, seed=3)
    assert "RUN_STALLED" not in {f.signature_id for f in diagnose_view(RunView.load(tmp_path / "healthy"), live=True)}


def _running_run(path: Path, silent_s: float, every_s: float = 10.0, n: int = 100) -> RunView:
    """A running run whose last of ``n`` steps, ``every_s`` apart, was ``silent_s`` ago."""
    writer = RunWriter(path, {"run_id": "live", "algorithm": "grpo"})
    gaps = [0.0] + [every_s * (0.9 + 0.1 * (s % 3)) for s in range(n - 1)]  # jittered around every_s
    since_start = [sum(gaps[:i + 1]) for i in range(n)]
    t0 = time.time() - silent_s - since_start[-1]
    writer.write_part([{"step": s, "time": t0 + since_start[s], "reward_mean": 0.5} for s in range(n)])
    return RunView.load(path)


def test_run_stalled_thresholds(tmp_path: Path) -> None:
    def stalled(view: RunView, **cfg: Any) -> Finding | None:
        found = [f for f in diagnose_view(view, {"run_stalled": cfg}, live=True) if f.signature_id == "RUN_STALLED"]
        return found[0] if found else None

    assert stalled(_running_run(tmp_path / "fresh", silent_s=5)) is None
    assert stalled(_running_run(tmp_path / "short", silent_s=400)) is None  # > 20 intervals, < min_stall_s
    slow = _running_run(tmp_path / "slow", silent_s=1000)
    found = stalled(slow)
    assert found is not None and found.severity == "warn" and found.first_step == 99
    assert "still writing" in found.explanation  # the manifest heartbeat is fresh: the process is alive
    assert found.evidence[0].baseline == pytest.approx(10.0, rel=0.15)
    assert stalled(slow, critical_multiple=1.5).severity == "critical"
    assert stalled(slow, min_stall_s=60.0, factor=200.0) is None  # 1000 s < 200 × 10 s
    assert stalled(slow, enabled=False) is None


def test_idle_ticks_still_run_live_only_detectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _running_run(tmp_path / "run", silent_s=100)
    watcher = RunWatcher(view.run_dir, config=only("RUN_STALLED"))
    assert watcher.tick() == []
    later(monkeypatch, 3600)
    new = watcher.tick()  # nothing new on disk, but an hour of silence has passed
    assert [(f.signature_id, f.severity) for f in new] == [("RUN_STALLED", "critical")]
