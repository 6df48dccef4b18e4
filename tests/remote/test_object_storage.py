"""Runs in object storage, against a real S3 API (moto's server on loopback, see conftest):
every read path takes a URL, Recorder(upload_to=...) and `rlprobe push` mirror a run in an
order that never shows a reader a missing or doubled row, and `watch`/`ls` work on buckets."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pyarrow as pa
import pytest
from click.testing import CliRunner, Result

from rlprobe import Recorder, RlprobeWarning
from rlprobe.doctor import diagnose, diff_runs, query_samples, render_report
from rlprobe.doctor.cli import main
from rlprobe.storage import RecordingError, RunReader, RunWriter, list_runs, load_manifest, location
from rlprobe.storage.location import filesystem, remote_files
from rlprobe.storage.upload import Mirror, OtherRun, push

HERE = Path(__file__).parent
RLPROBE = str(Path(sys.executable).with_name("rlprobe"))


def objects(url: str) -> dict[str, int]:
    fs, base = filesystem(url)
    return {rel: info.size for rel, info in remote_files(fs, base).items()}


def steps_in_bucket(url: str) -> int:
    """The step count the run's manifest in the bucket gives (0 before there is one)."""
    try:
        return (load_manifest(url).get("counts") or {}).get("steps") or 0
    except FileNotFoundError:
        return 0
    except RecordingError:
        return 0  # moto rewrites an object in place, so a GET racing a PUT can see half of it; S3 cannot


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_every_read_path_takes_a_url_and_reads_what_the_local_run_holds(synth_run, bucket, tmp_path):
    local = synth_run("kl_blowup", 400, 1)
    url = f"{bucket}/runs/kl"
    push(local, url)
    assert load_manifest(url) == load_manifest(local)
    remote, here = RunReader(url), RunReader(local)
    assert remote.url == url
    assert remote.steps().equals(here.steps()) and remote.samples().equals(here.samples())
    assert remote.events() == here.events()
    assert [m["path"] for m in list_runs(bucket)] == [url]
    assert [f.model_dump() for f in diagnose(url)] == [f.model_dump() for f in diagnose(local)]
    out = render_report(url, tmp_path / "r.html")
    assert out.stat().st_size > 10_000
    assert query_samples(url, k=3).equals(query_samples(local, k=3))
    assert not diff_runs(url, local).divergences


def test_cli_on_a_bucket_says_what_it_says_on_the_local_run(synth_run, bucket, tmp_path, monkeypatch):
    local = synth_run("kl_blowup", 400, 1)
    url = f"{bucket}/runs/kl"
    push(local, url)
    remote, here = cli("doctor", url, "--json"), cli("doctor", str(local), "--json")
    assert remote.exit_code == here.exit_code == 1
    assert remote.output == here.output  # byte for byte
    for args in (["show", "--step", "200"], ["samples", "-k", "3"]):
        r, h = cli(args[0], url, *args[1:]), cli(args[0], str(local), *args[1:])
        assert r.exit_code == h.exit_code == 0
        assert r.output.splitlines()[1:] == h.output.splitlines()[1:]  # the first line names the run
    monkeypatch.chdir(tmp_path)
    report = cli("report", url)
    assert report.exit_code == 0 and (tmp_path / "kl.report.html").is_file()  # written locally
    listed = json.loads(cli("ls", bucket, "--json").output)
    assert [r["path"] for r in listed] == [url] and listed[0]["status"] == "finished"
    assert "no differences" in cli("diff", url, str(local)).output


@pytest.mark.parametrize("url, says", [("s3://", "no bucket"), ("nosuch://b/run", "cannot open"),
                                       ("s3://BUCKET/missing", "no rlprobe recording")])
def test_a_bad_url_is_one_line_and_exit_2(bucket, url, says):
    url = url.replace("s3://BUCKET", bucket)
    for command in ("doctor", "report", "show", "samples"):
        done = subprocess.run([RLPROBE, command, url] + (["--step", "1"] if command == "show" else []),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (command, done.stderr)
        assert done.stderr.count("\n") == 1 and says in done.stderr and "Traceback" not in done.stderr


def test_ls_of_a_bucket_that_does_not_exist_says_so_and_exits_2(bucket, s3_env):
    missing = f"{bucket}-missing"
    done = subprocess.run([RLPROBE, "ls", f"{missing}/runs"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr == f"rlprobe: error: {missing}/runs: the bucket '{missing[5:]}' does not exist\n"
    with pytest.raises(FileNotFoundError, match="does not exist"):
        location.local_copy(f"{missing}/runs/x")
    empty = subprocess.run([RLPROBE, "ls", f"{bucket}/runs"], capture_output=True, text=True, timeout=120)
    assert empty.returncode == 0 and "no runs under" in empty.stdout  # a bucket that exists, holding none


def test_a_second_look_at_an_unchanged_run_fetches_only_its_manifest(synth_run, bucket, monkeypatch):
    url = f"{bucket}/runs/kl"
    push(synth_run("kl_blowup", 400, 1), url)
    location.local_copy(url)
    fetched: list[str] = []
    real = location._download
    monkeypatch.setattr(location, "_download", lambda fs, src, *a: (fetched.append(src), real(fs, src, *a)))
    location.local_copy(url)
    assert [Path(p).name for p in fetched] == ["manifest.json"]


def _rows(reader: RunReader, kind: str) -> pa.Table:
    return reader.steps() if kind == "steps" else reader.samples()


def test_the_mirror_never_shows_a_reader_a_missing_or_doubled_row(bucket, tmp_path):
    """Parts, compactions (also of parts never uploaded), and the final sync: after every
    sync the bucket holds exactly the local rows."""
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "m"})
    url = f"{bucket}/runs/m"
    mirror = Mirror(run, url)
    step = 0

    def write(parts: int) -> None:
        nonlocal step
        for _ in range(parts):
            writer.write_part([{"step": s, "reward_mean": 1.0} for s in range(step, step + 5)],
                              [{"step": step, "prompt": "p", "completion": "c", "reward": 1.0}])
            step += 5
        writer.write_manifest()

    def check() -> None:
        for kind in ("steps", "samples"):
            assert _rows(RunReader(url), kind).column("step").to_pylist() == \
                _rows(RunReader(run), kind).column("step").to_pylist()

    write(3)
    mirror.sync()
    check()
    # compacted before its parts went up
    write(70)
    writer.compact()
    mirror.sync()
    check()
    assert not any(k.startswith("parts/") for k in objects(url))
    # below doubling: the bucket keeps the parts
    write(10)
    mirror.sync()
    write(60)
    mirror.sync()
    writer.compact()
    mirror.sync()
    check()
    assert any(k.startswith("parts/") for k in objects(url))
    # parts never uploaded: the compacted file goes up
    write(5)
    writer.compact()
    mirror.sync()
    check()
    write(2)
    writer.close()
    mirror.sync(final=True)
    check()
    assert sorted(objects(url)) == ["manifest.json", "samples.parquet", "steps.parquet"]


def test_upload_traffic_is_linear_in_the_run_size(bucket, tmp_path):
    """Each part goes up once; the compacted file, rewritten at every compaction, only when
    it has doubled (uploading it each time would send 3.4 times its final size here)."""
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "t"})
    mirror = Mirror(run, f"{bucket}/runs/t")
    parts = 0
    for part in range(1, 401):
        writer.write_part([{"step": s, "reward_mean": s / 7, "kl_mean": s / 3}
                           for s in range(part * 20, part * 20 + 20)], None)
        parts += (run / "parts" / f"steps-{part:08d}.parquet").stat().st_size
        writer.write_manifest()
        if part % 4 == 0:
            mirror.sync()
        if part % 64 == 0:
            writer.compact()
    writer.close()
    mirror.sync(final=True)
    assert mirror.sent["parts"] == parts
    assert mirror.sent["compacted"] < 2.5 * objects(f"{bucket}/runs/t")["steps.parquet"]


def test_a_resumed_run_replaces_the_superseded_rows_in_the_bucket(bucket, tmp_path):
    run, url = tmp_path / "run", f"{bucket}/runs/r"
    with Recorder(run, upload_to=url, capture_env=False, install_handlers=False) as rec:
        for s in range(100):
            rec.log_step(s, reward=1.0)
    with Recorder(run, upload_to=url, capture_env=False, install_handlers=False) as rec:
        for s in range(50, 120):
            rec.log_step(s, reward=2.0)
    steps = RunReader(url).steps()
    assert steps.column("step").to_pylist() == list(range(120))
    assert RunReader(url).steps().equals(RunReader(run).steps())


def test_a_store_that_fails_costs_training_nothing_and_is_counted(s3_env, tmp_path):
    url = "s3://no-such-bucket-here/runs/x"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = Recorder(tmp_path / "run", upload_to=url, flush_interval_s=0.05, capture_env=False,
                       install_handlers=False)
        for s in range(200):
            rec.log_step(s, reward=1.0)
        rec.close(timeout=3)
    assert rec.storage_errors >= 1
    assert any(issubclass(w.category, RlprobeWarning) and "cannot upload" in str(w.message) for w in caught)
    assert RunReader(tmp_path / "run").steps().num_rows == 200  # the local run is whole


def test_upload_to_must_be_a_url(tmp_path):
    with pytest.raises(ValueError, match="upload_to must be a URL"):
        Recorder(tmp_path / "run", upload_to=str(tmp_path / "elsewhere"), install_handlers=False)


def test_a_run_killed_mid_upload_is_readable_from_the_bucket_but_for_its_tail(s3_env, bucket, tmp_path):
    run, url = tmp_path / "run", f"{bucket}/runs/killed"
    child = subprocess.Popen([sys.executable, str(HERE / "child_upload.py"), str(run), url],
                             stdout=subprocess.PIPE, text=True, env=s3_env)
    try:
        seen = 0
        deadline = time.monotonic() + 120
        while seen < 2000 and time.monotonic() < deadline:  # past the first compaction (64 parts), in the bucket
            seen = steps_in_bucket(url)
            time.sleep(0.05)
        assert seen >= 2000
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        child.stdout.close()
    for kind, every in (("steps", 1), ("samples", 5)):
        remote = _rows(RunReader(url), kind).column("step").to_pylist()
        local = _rows(RunReader(run), kind).column("step").to_pylist()
        assert remote == list(range(0, len(remote) * every, every))  # a prefix: nothing missing, nothing twice
        assert local[:len(remote)] == remote
    assert len(RunReader(url).steps()) >= seen  # the manifest in the bucket never counts rows it lacks
    assert "steps.parquet" in objects(url)  # compacted mid-run, and its parts removed from the bucket after


def test_ls_on_a_bucket_of_300_runs(synth_run, bucket):
    manifest = json.loads((synth_run("healthy", 400, 0) / "manifest.json").read_text())
    fs, base = filesystem(bucket)
    for i in range(300):
        with fs.open_output_stream(f"{base}/fleet/run-{i:03d}/manifest.json") as out:
            out.write(json.dumps({**manifest, "run_id": f"run-{i:03d}", "created_at": 1e9 + (i * 7919) % 300}).encode())
    with fs.open_output_stream(f"{base}/fleet/run-000/nested/manifest.json") as out:  # inside a run: not a run
        out.write(json.dumps(manifest).encode())
    with fs.open_output_stream(f"{base}/fleet/zz-broken/manifest.json") as out:
        out.write(b"{not json")
    runs = list_runs(f"{bucket}/fleet", include_unreadable=True)
    assert len(runs) == 301 and runs[-1]["path"] == f"{bucket}/fleet/zz-broken" and "error" in runs[-1]
    assert [m["created_at"] for m in runs[:-1]] == sorted(1e9 + (i * 7919) % 300 for i in range(300))
    assert {m["path"] for m in runs[:-1]} == {f"{bucket}/fleet/run-{i:03d}" for i in range(300)}
    assert list_runs(bucket, max_depth=1) == []
    done = cli("ls", f"{bucket}/fleet", "--json")
    assert done.exit_code == 0 and len(json.loads(done.stdout)) == 301


def test_watch_on_a_url_sees_a_kl_blowup_appear_and_exits_1(synth_run, s3_env, bucket, tmp_path):
    """A run that does not exist yet is waited for; then it is recorded with upload_to, a
    healthy stretch first, and the watcher tailing the bucket reports the blow-up."""
    synth = synth_run("kl_blowup", 400, 1)
    onset = diagnose(synth)[0].first_step
    rows = RunReader(synth).steps().drop_columns(["rank", "time"]).to_pylist()
    url = f"{bucket}/runs/live"
    watch = subprocess.Popen([RLPROBE, "watch", url, "--poll", "0.2", "--max-ticks", "900"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=s3_env)
    try:
        assert "waiting for a recording" in watch.stderr.readline()  # the run does not exist yet
        with Recorder(tmp_path / "run", upload_to=url, flush_interval_s=0.1, capture_env=False,
                      install_handlers=False) as rec:
            healthy = onset - 50
            for row in rows[:healthy]:
                rec.log_step(row.pop("step"), **row)
            deadline = time.monotonic() + 60
            while steps_in_bucket(url) < healthy and time.monotonic() < deadline:
                time.sleep(0.1)  # the healthy stretch is in the bucket: the watcher reads it first
            time.sleep(1)
            for row in rows[healthy:]:
                rec.log_step(row.pop("step"), **row)
        out, err = watch.communicate(timeout=120)
    finally:
        watch.kill()
    assert watch.returncode == 1, err
    assert "KL_BLOWUP" in out and f"from step {onset}" in out


def test_ls_health_diagnoses_only_the_runs_that_changed(synth_run, bucket):
    from rlprobe.doctor.health import run_health

    push(synth_run("kl_blowup", 400, 1), f"{bucket}/h/bad")
    push(synth_run("healthy", 400, 0), f"{bucket}/h/good")
    done = cli("ls", f"{bucket}/h", "--health", "--json")
    rows = {Path(r["path"]).name: r for r in json.loads(done.stdout)}
    assert rows["bad"]["worst"]["signature_id"] == "KL_BLOWUP" and rows["bad"]["last_step"] == 399
    assert rows["good"]["worst"] is None or rows["good"]["worst"]["severity"] != "critical"
    assert "KL_BLOWUP" in cli("ls", f"{bucket}/h", "--health").output
    assert run_health(list_runs(f"{bucket}/h"))[1] == 0  # nothing changed: nothing diagnosed
    push(synth_run("kl_blowup", 300, 2), f"{bucket}/h/good", replace=True)  # another run at that path
    found, fresh = run_health(list_runs(f"{bucket}/h"))
    assert fresh == 1 and [h["worst"]["signature_id"] for h in found] == ["KL_BLOWUP", "KL_BLOWUP"]


def test_a_grown_events_file_is_fetched_from_where_the_copy_ends(synth_run, bucket, tmp_path, monkeypatch):
    import shutil

    from rlprobe.storage.writer import event_line

    run, url = tmp_path / "run", f"{bucket}/runs/ev"
    shutil.copytree(synth_run("healthy", 400, 0), run)
    push(run, url)
    before = RunReader(url).events()
    with open(run / "events.jsonl", "a") as fh:
        fh.write(event_line("note", 7, "grown", {"x": 1}))
    push(run, url)
    tails: list[bool] = []
    real = location._append_tail
    monkeypatch.setattr(location, "_append_tail", lambda *a: tails.append(real(*a)) or tails[-1])
    after = RunReader(url).events()
    assert tails == [True]
    assert after == RunReader(run).events() and len(after) == len(before) + 1


def test_rlprobe_push_uploads_a_run_and_refuses_what_it_cannot(synth_run, bucket, tmp_path):
    url = f"{bucket}/runs/pushed"
    done = cli("push", str(synth_run("healthy", 400, 0)), url)
    assert done.exit_code == 0 and done.output.startswith(f"{url}: ")
    assert load_manifest(url)["status"] == "finished"
    again = cli("push", str(synth_run("healthy", 400, 0)), url)
    assert again.exit_code == 0 and " 0 bytes" in again.output  # the bucket already holds it all
    for args in ([str(tmp_path), url], [str(synth_run("healthy", 400, 0)), str(tmp_path / "x")]):
        refused = cli("push", *args)
        assert refused.exit_code == 2 and refused.output.count("\n") == 1


def test_every_rank_mirrors_its_own_directory_and_the_bucket_reads_as_one_run(bucket, tmp_path):
    url = f"{bucket}/runs/ranks"
    for rank in (0, 1):
        with Recorder(tmp_path / "run", upload_to=url, world_size=2, rank=rank, record_all_ranks=True,
                      capture_env=False, install_handlers=False) as rec:
            for s in range(10):
                rec.log_step(s, reward=float(rank))
    assert sorted({k.split("/")[0] for k in objects(url)}) == ["rank-0", "rank-1"]
    assert [m["path"] for m in list_runs(bucket)] == [url]
    steps = RunReader(url).steps()
    assert steps.equals(RunReader(tmp_path / "run").steps())
    assert sorted(set(steps.column("rank").to_pylist())) == [0, 1]


class _Killed(Exception):
    pass


def test_a_round_cut_short_anywhere_leaves_the_bucket_a_prefix_of_the_run(bucket, tmp_path):
    """The bucket holds parts 1-3; locally parts 4-73 were compacted before they went up and
    parts 74-78 are new. Whichever upload of the next round is the last to land (the
    recorder was killed), a reader of the bucket sees a prefix of the run: no hole."""
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "cut"})
    step = 0

    def write(parts: int) -> None:
        nonlocal step
        for _ in range(parts):
            writer.write_part([{"step": s, "reward_mean": 1.0} for s in range(step, step + 5)], None)
            step += 5
        writer.write_manifest()

    write(3)
    mirrors = [Mirror(run, f"{bucket}/runs/cut{k}") for k in range(7)]  # the round makes 7 uploads
    for mirror in mirrors:
        mirror.sync()
    write(70)
    writer.compact()
    write(5)
    local = RunReader(run).steps().column("step").to_pylist()
    for landed, mirror in enumerate(mirrors):
        put = mirror._put

        def cut(*args, put=put, left=[landed]):  # noqa: B006 - a counter per mirror
            if left[0] == 0:
                raise _Killed
            left[0] -= 1
            put(*args)

        mirror._put = cut
        with pytest.raises(_Killed):
            mirror.sync()
        remote = RunReader(mirror.url).steps().column("step").to_pylist()
        assert remote == local[:len(remote)], landed


def test_parts_compacted_before_they_went_up_go_up_as_parts_unless_the_store_lags_far_behind(bucket, tmp_path):
    run, url = tmp_path / "run", f"{bucket}/runs/lag"
    writer = RunWriter(run, {"run_id": "lag"})
    mirror = Mirror(run, url)

    def write(first: int, last: int) -> None:
        for part in range(first, last):
            writer.write_part([{"step": s, "reward_mean": 1.0} for s in range(part * 5, part * 5 + 5)], None)
        writer.write_manifest()

    write(1, 104)
    mirror.sync()
    writer.compact()
    mirror.sync()  # the compacted file has doubled: it goes up, the parts go
    sent = dict(mirror.sent)
    write(104, 109)  # a burst the store did not keep up with: compacted before it went up
    writer.compact()
    mirror.sync()
    assert mirror.sent["compacted"] == sent["compacted"]  # not doubled yet: the growing file stays put
    assert sorted(k for k in objects(url) if k.startswith("parts/")) == \
        [f"parts/steps-{p:08d}.parquet" for p in range(104, 109)]
    assert RunReader(url).steps().equals(RunReader(run).steps())
    write(109, 170)  # the store far behind: one request catches up
    writer.compact()
    mirror.sync()
    assert mirror.sent["compacted"] > sent["compacted"]
    assert not any(k.startswith("parts/") for k in objects(url))
    assert RunReader(url).steps().equals(RunReader(run).steps())


def test_a_manifest_read_while_it_is_rewritten_is_read_again():
    """Some S3-compatible servers (moto among them) rewrite an object in place, so a GET racing
    the recorder's PUT can return half a manifest: it is read again; a damaged one still fails."""
    import io

    class Store:  # answers the first GETs with the torn object, then the whole one
        def __init__(self, answers: list[bytes]):
            self.answers, self.gets = answers, 0

        def open_input_stream(self, path: str) -> io.BytesIO:
            self.gets += 1
            return io.BytesIO(self.answers[min(self.gets, len(self.answers)) - 1])

    whole = json.dumps({"run_id": "r", "counts": {"steps": 3}}).encode()
    racing = Store([whole[:20], whole[:31], whole])
    assert location._manifest_bytes(racing, "b/run/manifest.json") == whole and racing.gets == 3
    damaged = Store([whole[:20]])
    assert location._manifest_bytes(damaged, "b/run/manifest.json") == whole[:20] and damaged.gets == 4


def test_a_damaged_file_in_a_bucket_is_named_by_its_url(synth_run, bucket):
    """Not by its path in the local copy, which means nothing to whoever reads the error."""
    url = f"{bucket}/runs/damaged"
    push(synth_run("healthy", 200, 0), url)
    fs, base = filesystem(url)
    with fs.open_output_stream(f"{base}/steps.parquet") as out:
        out.write(b"PAR1 not a parquet file")
    with pytest.raises(RecordingError) as caught:
        RunReader(url).steps()
    assert str(caught.value).startswith(f"{url}/steps.parquet: ")
    done = cli("doctor", url)
    assert done.exit_code == 2 and f"{url}/steps.parquet" in done.output and "/remote/" not in done.output


def _killed_run(path: Path, steps: int, reward: float) -> Path:
    """A run left as a killed recorder leaves it: part files, no compaction."""
    rec = Recorder(path, capture_env=False, install_handlers=False, flush_interval_s=0.01, steps_per_flush=10)
    for step in range(steps):
        rec.log_step(step, reward=reward)
        if step % 10 == 9:
            rec.flush(5)
    rec.flush(5)
    return path


def test_a_url_holding_another_run_is_refused_unless_replaced(bucket, tmp_path):
    """Pushing run B where a killed run A left its parts read as one run of 340 rows under
    B's manifest: every part of A that B does not overwrite was merged in."""
    url = f"{bucket}/runs/shared"
    push(_killed_run(tmp_path / "a", 300, 1.0), url)
    b = tmp_path / "b"
    with Recorder(b, capture_env=False, install_handlers=False) as rec:
        for step in range(50):
            rec.log_step(step, reward=2.0)
    before = objects(url)
    with pytest.raises(OtherRun, match="holds another run"):
        push(b, url)
    mirror = Mirror(b, url)
    for _ in range(2):  # a second round learns the remote again: it never writes on a half-learnt one
        with pytest.raises(OtherRun):
            mirror.sync()
    assert objects(url) == before
    refused = cli("push", str(b), url)
    assert refused.exit_code == 2 and "--replace" in refused.output and refused.output.count("\n") == 1
    replaced = cli("push", "--replace", str(b), url)
    assert replaced.exit_code == 0, replaced.output
    steps = RunReader(url).steps()
    assert steps.num_rows == 50 and set(steps.column("reward_mean").to_pylist()) == {2.0}
    assert RunReader(url).manifest["run_id"] == load_manifest(b)["run_id"]


def test_a_recorder_uploading_where_another_run_lives_records_locally_and_says_so(bucket, tmp_path):
    url = f"{bucket}/runs/taken"
    push(_killed_run(tmp_path / "a", 100, 1.0), url)
    before = objects(url)
    with pytest.warns(RlprobeWarning, match="holds another run.*recorded locally only"):
        with Recorder(tmp_path / "b", upload_to=url, flush_interval_s=0.05, capture_env=False,
                      install_handlers=False) as rec:
            for step in range(30):
                rec.log_step(step, reward=2.0)
            time.sleep(0.5)  # the mirror's first round, during training
            started = time.monotonic()
    assert time.monotonic() - started < 10  # close() does not wait out its timeout for a refused upload
    assert objects(url) == before
    assert RunReader(tmp_path / "b").steps().num_rows == 30
    assert load_manifest(tmp_path / "b")["counts"]["storage_errors"] == 1
