"""One rank of a 2-process torchrun (gloo, CPU) GRPO run; see test_trl_distributed.py.

    python -m torch.distributed.run --nproc_per_node 2 dist_train.py MODEL_DIR WORK_DIR [halt|all-ranks]

Each rank writes WORK_DIR/rank-<r>.json with what it saw when training ended.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tiny_trl import KL_BLOWUP_TRAINING, make_trainer  # noqa: E402

from rlprobe import SamplingConfig  # noqa: E402
from rlprobe.integrations.trl import attach  # noqa: E402


def main() -> None:
    model_dir, work = Path(sys.argv[1]), Path(sys.argv[2])
    mode = sys.argv[3] if len(sys.argv) > 3 else "record"
    overrides = dict(KL_BLOWUP_TRAINING) if mode == "halt" else {"max_steps": 4}
    trainer = make_trainer(model_dir, work / "out", "grpo", **overrides)
    kwargs: dict = {"halt": True, "diagnose_every": 5} if mode == "halt" else {}
    if mode == "all-ranks":
        kwargs["record_all_ranks"] = True
    callback = attach(trainer, work / "run", sampling=SamplingConfig(top_k=1000, bottom_k=0, random_k=0), **kwargs)
    trainer.train()
    rank = trainer.accelerator.process_index
    result = {
        "rank": rank,
        "world_size": trainer.accelerator.num_processes,
        "global_step": trainer.state.global_step,
        "recorder_active": callback.recorder.active,
        "halted_by": callback.halted_by.signature_id if callback.halted_by is not None else None,
    }
    (work / f"rank-{rank}.json").write_text(json.dumps(result))


if __name__ == "__main__":
    main()
