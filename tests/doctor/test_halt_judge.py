"""HaltJudge (rlprobe.doctor.live), the halting logic any in-loop adapter shares: over a
RunWatcher on a recording a real Recorder writes, it halts on a finding first turned down
for want of confidence once the doctor is surer, and a policy that raises never halts."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from rlprobe import Recorder, RlprobeWarning
from rlprobe.doctor.live import HaltJudge, HaltPolicy, RunWatcher
from rlprobe.doctor.toolkit.confidence import UNCALIBRATED_ENV


class SurerThanAtFirst:
    """Halts on a critical KL_BLOWUP only once the doctor is surer of it than when it first
    called it critical."""

    def __init__(self) -> None:
        self.first_confidence: float | None = None

    def should_halt(self, finding) -> bool:
        if finding.signature_id != "KL_BLOWUP" or finding.severity != "critical":
            return False
        if self.first_confidence is None:
            self.first_confidence = finding.confidence
        return finding.confidence > self.first_confidence + 0.01


class Raising:
    def should_halt(self, finding) -> bool:
        raise RuntimeError("policy bug")


def _judge_a_runaway_kl(run_dir: Path, judge: HaltJudge) -> tuple[list, object, int | None]:
    watcher = RunWatcher(run_dir, sinks=[])
    reported, verdict, kl = [], None, 0.01
    with Recorder(run_dir, capture_env=False, install_handlers=False) as recorder, warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy on all-NaN warm-up windows
        warnings.simplefilter("default", RlprobeWarning)  # a RuntimeWarning too, and what is tested
        for step in range(1, 301):
            kl = 0.01 if step < 30 else min(kl * 1.15, 50.0)
            recorder.log_step(step, kl=kl, reward=0.5)
            if step % 10 == 0:
                assert recorder.flush(10)
                new = list(watcher.tick())
                reported += new
                verdict = judge.verdict(new, watcher.view)
                if verdict is not None:
                    return reported, verdict, step
    return reported, verdict, None


def test_a_finding_turned_down_for_confidence_is_judged_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The detector's own strength of evidence, which grows with the KL: the printed (calibrated) confidence is
    # a step of the corpus's reliability table, flat across a bin.
    monkeypatch.setenv(UNCALIBRATED_ENV, "1")
    policy = SurerThanAtFirst()
    reported, verdict, step = _judge_a_runaway_kl(tmp_path / "run", HaltJudge(policy))
    assert step is not None and verdict.signature_id == "KL_BLOWUP"
    assert verdict.confidence > policy.first_confidence
    assert verdict not in reported  # not a finding the watcher reported: the second look's


def test_the_default_policy_halts_on_the_watcher_s_own_finding(tmp_path: Path) -> None:
    reported, verdict, step = _judge_a_runaway_kl(tmp_path / "run", HaltJudge(HaltPolicy()))
    assert verdict is not None and verdict.signature_id == "KL_BLOWUP" and verdict.severity == "critical"


def test_a_raising_policy_never_halts_and_warns_once(tmp_path: Path) -> None:
    with pytest.warns(RlprobeWarning, match="halt policy raised") as caught:
        _, verdict, step = _judge_a_runaway_kl(tmp_path / "run", HaltJudge(Raising()))
    assert verdict is None and step is None
    assert sum("halt policy raised" in str(w.message) for w in caught) == 1
