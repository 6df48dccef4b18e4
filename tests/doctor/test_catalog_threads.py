"""The catalog runs its detector families on two threads: the findings, their order and the
warnings of a broken detector are those of running them one after another."""
from __future__ import annotations

import warnings
from typing import Any

import pytest

from rlprobe.doctor import catalog
from rlprobe.doctor.catalog import diagnose_view
from rlprobe.doctor.synth.frames import plan_view
from rlprobe.doctor.synth.plan import build_plan
from rlprobe.doctor.view import RunView


def _view(name: str, seed: int = 0) -> RunView:
    return plan_view(build_plan(name, 600, seed), name)




def _rounded(value: Any) -> Any:
    """``value`` with its floats to 12 digits (a mean over groups in a group-by's order differs in the last bit)."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def _findings(view: RunView, threads: int, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setattr(catalog, "_THREADS", threads)
    monkeypatch.setattr(catalog, "_cores", lambda: 2)
    return _rounded([f.model_dump() for f in diagnose_view(view)])


@pytest.mark.parametrize("name", ["entropy_collapse", "reward_hacking", "grad_norm_spike", "group_mode_collapse",
                                  "advantage_outliers", "length_explosion"])
def test_threads_find_what_one_thread_finds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _findings(_view(name), 1, monkeypatch)
    together = _findings(_view(name), 2, monkeypatch)
    assert alone, name
    assert together == alone


def test_broken_detectors_warn_in_catalog_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "_cores", lambda: 2)
    broken = ["KL_BLOWUP", "GROUP_MODE_COLLAPSE", "ENTROPY_COLLAPSE"]
    order = [sid for sid in catalog.registry() if sid in broken]

    def fail(view: RunView, cfg: Any) -> None:
        raise ValueError("boom")

    registry = {sid: det if sid not in broken else catalog.Detector(sid, fail, det.defaults, det.live_only,
                                                                      det.summary)
                for sid, det in catalog.registry().items()}
    monkeypatch.setattr(catalog, "registry", lambda: registry)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = diagnose_view(_view("kl_blowup"))
    messages = [str(w.message) for w in caught if "failed" in str(w.message)]
    assert messages == [f"rlprobe: detector {sid} failed (ValueError: boom); skipped" for sid in order]
    assert all(f.signature_id not in broken for f in found)
    monkeypatch.setenv("RLPROBE_DEBUG", "1")
    with pytest.raises(ValueError, match="boom"):
        diagnose_view(_view("kl_blowup"))


@pytest.mark.parametrize("live", [False, True])
def test_live_diagnosis_takes_no_second_core_from_the_training_process(live: bool,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.setattr(catalog, "_cores", lambda: 2)
    seen: set[str] = set()

    def spy(fn: Any) -> Any:
        def run(view: RunView, cfg: Any) -> Any:
            seen.add(threading.current_thread().name)
            return fn(view, cfg)
        run.__module__ = fn.__module__  # the family it runs with
        return run

    registry = {sid: catalog.Detector(sid, spy(det.fn), det.defaults, det.live_only, det.summary)
                for sid, det in catalog.registry().items()}
    monkeypatch.setattr(catalog, "registry", lambda: registry)
    diagnose_view(_view("kl_blowup"), live=live)
    assert (seen == {threading.main_thread().name}) == live, seen


@pytest.mark.parametrize("name", ["group_mode_collapse", "advantage_outliers"])
def test_the_same_run_links_the_same_samples_every_time(name: str) -> None:
    """Linked samples chosen among groups that tie (a group-by's order, a sort with ties) are broken
    by the group keys and sample ids: a CI gate's JSON does not change between two runs."""
    links = {tuple(tuple(f.links_to_samples) for f in diagnose_view(_view(name))) for _ in range(6)}
    assert len(links) == 1, links
