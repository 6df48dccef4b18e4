"""Runs in object storage against the same runs on local disk, and what uploading costs.

    python bench/object_storage.py           # 300 runs to list, a 100k-step run (~3 min)
    python bench/object_storage.py --quick   # 50 runs, 10k steps (a smoke run)

Starts moto's S3 server on a free loopback port (``pip install "moto[s3]" flask
flask-cors``, as requirements/test.txt does) and points the environment at it. Then:

1. ``ls``: 300 run directories (a manifest and an events file each) under one root, the
   same pushed to the bucket; ``list_runs`` of each, median of 5.
2. Upload: a 100k-step run recorded by a real ``Recorder(upload_to=...)`` (25 metrics a
   step, 8 samples every 10 steps, parts of 200 steps, compacted every 64 parts), the
   mirror's traffic by kind of file against the run's final size in the bucket; once with
   parts written 10 a second (a default Recorder writes at most 2), once as fast as the
   writer goes, faster than moto takes them: parts then get compacted before they go up,
   and the compacted file must go up in their place.
3. ``doctor`` (``diagnose``) and ``report`` (``render_report``) of that run from the bucket
   (cold: an empty local cache, so the whole run is fetched; warm: a second look, one
   listing and the manifest) against the local run, median of 3.

moto answers one request at a time and runs on the same cores, so the bucket figures are
an upper bound for a local server and a lower bound for a real store far away (20-100 ms
a request). This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_moto() -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"}
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    endpoint = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2)
            return proc, endpoint
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("moto's S3 server did not start")


def _median(fn: Callable[[], object], repeats: int, before: Callable[[], None] | None = None) -> float:
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _fleet(root: Path, n: int, url: str) -> None:
    from rlprobe.storage.location import filesystem

    fs, base = filesystem(url)
    for i in range(n):
        run = root / f"run-{i:03d}"
        run.mkdir(parents=True)
        manifest = {"format_version": 1, "run_id": f"run-{i:03d}", "status": "finished", "created_at": 1e9 + i,
                    "counts": {"steps": 1000, "samples": 0, "events": 2}, "rank": 0, "world_size": 1}
        (run / "manifest.json").write_text(json.dumps(manifest))
        (run / "events.jsonl").write_text("")
        for name in ("manifest.json", "events.jsonl"):
            with fs.open_output_stream(f"{base}/run-{i:03d}/{name}") as out:
                out.write((run / name).read_bytes())


def _record(run: Path, url: str, n_steps: int, part_interval_s: float) -> dict[str, int]:
    from rlprobe import Recorder

    rng = np.random.default_rng(0)
    rec = Recorder(run, upload_to=url, algorithm="grpo", capture_env=False, install_handlers=False,
                   flush_interval_s=0.05, steps_per_flush=200)
    values = rng.normal(1.0, 0.05, (n_steps, 25))
    next_part = 0.0
    for s in range(n_steps):
        v = values[s]
        rec.log_step(s, kl=0.01 * v[0] * (1 + (s > n_steps * 0.6) * (s - n_steps * 0.6) / 50), reward=0.5 * v[1],
                     entropy=v[2], grad_norm=v[3], **{f"extra/m{i}": float(v[i]) for i in range(4, 25)})
        if s % 10 == 0:
            rec.log_samples(s, [{"prompt": f"What is {s} + {g}?", "completion": f"<think>{s}+{g}</think> {s + g}",
                                 "reward": float(rng.random()), "advantage": float(rng.normal()), "length": 40,
                                 "group_id": str(s)} for g in range(8)], select=False)
        if s % 200 == 199:
            rec.flush()  # one part per 200 steps, as at steps_per_flush in a loop slower than this one
            time.sleep(max(0.0, next_part - time.perf_counter()))
            next_part = time.perf_counter() + part_interval_s
    t0 = time.perf_counter()
    rec.close(timeout=600)
    close_s = time.perf_counter() - t0
    mirror = rec._uploader.mirror  # noqa: SLF001 - the benchmark reads the mirror's counters
    return {**mirror.sent, "requests": mirror.requests, "close_ms": int(close_s * 1000)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="50 runs, 10k steps")
    args = parser.parse_args()
    n_runs, n_steps = (50, 10_000) if args.quick else (300, 100_000)
    try:
        import moto.server  # noqa: F401
    except ImportError:
        print("bench/object_storage.py: needs moto[s3], flask and flask-cors (requirements/test.txt); skipped")
        return
    warnings.simplefilter("ignore")
    proc, endpoint = _start_moto()
    tmp = Path(tempfile.mkdtemp(prefix="rlprobe-bench-s3-"))
    os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_REGION": "us-east-1",
                       "AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": endpoint,
                       "RLPROBE_CACHE_DIR": str(tmp / "cache")})
    try:
        urllib.request.urlopen(urllib.request.Request(f"{endpoint}/bench", method="PUT"), timeout=10)
        from rlprobe.doctor import diagnose, render_report
        from rlprobe.storage import list_runs
        from rlprobe.storage.location import filesystem, remote_files

        print(f"moto S3 server at {endpoint}; {os.cpu_count()} CPUs")
        _fleet(tmp / "fleet", n_runs, "s3://bench/fleet")
        local_ls = _median(lambda: list_runs(tmp / "fleet"), 5)
        remote_ls = _median(lambda: list_runs("s3://bench/fleet"), 5)
        assert len(list_runs("s3://bench/fleet")) == n_runs
        print(f"\nls of {n_runs} runs:   local {local_ls * 1000:7.0f} ms   bucket {remote_ls * 1000:7.0f} ms   "
              f"ratio {remote_ls / local_ls:5.1f}")

        for label, interval in (("10 parts/s, 5x the fastest a default Recorder writes", 0.1),
                                ("as fast as the writer goes: more than the bucket takes", 0.0)):
            url, run = f"s3://bench/runs/big-{interval}", tmp / f"big-{interval}"
            shutil.rmtree(run, ignore_errors=True)
            t0 = time.perf_counter()
            sent = _record(run, url, n_steps, interval)
            record_s = time.perf_counter() - t0
            fs, base = filesystem(url)
            final = {rel: info.size for rel, info in remote_files(fs, base).items()}
            local_size = sum(p.stat().st_size for p in run.rglob("*") if p.is_file())
            total = sum(v for k, v in sent.items() if k not in ("requests", "close_ms"))
            print(f"\nupload of a {n_steps}-step run, {label} ({record_s:.0f} s to record; close() took "
                  f"{sent['close_ms']} ms including the last upload)")
            print(f"  final size in the bucket {sum(final.values()) / 1e6:8.2f} MB ({', '.join(sorted(final))}); "
                  f"local {local_size / 1e6:.2f} MB")
            for kind in ("parts", "compacted", "events.jsonl", "manifest.json"):
                print(f"  sent {kind:<14} {sent[kind] / 1e6:8.2f} MB   {sent[kind] / sum(final.values()):5.2f} x")
            print(f"  sent in all      {total / 1e6:8.2f} MB = {total / sum(final.values()):.2f} x the final size, "
                  f"{sent['requests']} requests")

        def cold() -> None:
            shutil.rmtree(tmp / "cache", ignore_errors=True)

        run, url = tmp / "big-0.1", "s3://bench/runs/big-0.1"
        for name, fn in (("doctor", lambda where: diagnose(where)),
                         ("report", lambda where: render_report(where, tmp / "report.html"))):
            local_t = _median(partial(fn, run), 3)
            cold_t = _median(partial(fn, url), 3, before=cold)
            warm_t = _median(partial(fn, url), 3)
            print(f"\n{name} of the {n_steps}-step run: local {local_t * 1000:7.0f} ms   "
                  f"bucket cold {cold_t * 1000:7.0f} ms (ratio {cold_t / local_t:4.2f})   "
                  f"bucket warm {warm_t * 1000:7.0f} ms (ratio {warm_t / local_t:4.2f})")
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
