"""gs:// through pyarrow's GCS filesystem, against a local GCS server (gcp-storage-emulator on
a free loopback port, found through Google's ``STORAGE_EMULATOR_HOST``): a run recorded with
``upload_to`` and a run pushed after the fact read from the bucket as they read locally."""
from __future__ import annotations

from pathlib import Path

from rlprobe import Recorder
from rlprobe.doctor import diagnose
from rlprobe.storage import RunReader, list_runs
from rlprobe.storage.upload import push


def test_a_run_recorded_with_upload_to_gs_reads_as_the_local_one(gcs_bucket: str, tmp_path: Path):
    url = f"{gcs_bucket}/runs/live"
    with Recorder(tmp_path / "run", upload_to=url, flush_interval_s=0.1, capture_env=False,
                  install_handlers=False) as rec:
        for step in range(200):
            rec.log_step(step, reward=0.5 + step / 400, kl=0.01 * (1 + step / 50))
            rec.log_samples(step, [{"prompt": "p", "completion": f"c{step}", "reward": 0.5}], select=False)
    remote, local = RunReader(url), RunReader(tmp_path / "run")
    assert remote.manifest["status"] == "finished"
    assert remote.steps().drop_columns(["time"]).equals(local.steps().drop_columns(["time"]))
    assert remote.samples().num_rows == local.samples().num_rows == 200


def test_a_pushed_run_is_listed_and_diagnosed_from_gs(gcs_bucket: str, synth_run):
    run = synth_run("kl_blowup", 400, 1)
    push(run, f"{gcs_bucket}/fleet/kl")
    [listed] = list_runs(f"{gcs_bucket}/fleet")
    assert listed["path"] == f"{gcs_bucket}/fleet/kl"
    assert [f.model_dump() for f in diagnose(f"{gcs_bucket}/fleet/kl")] == [f.model_dump() for f in diagnose(run)]
