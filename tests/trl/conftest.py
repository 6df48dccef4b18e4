"""Fixtures for the TRL integration tests; the tiny model and trainers live in tiny_trl.py."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tiny_trl import build_tiny_model, make_trainer


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny-qwen2"))


@pytest.fixture
def trainer_factory(tiny_model_dir: Path, tmp_path: Path) -> Callable[..., Any]:
    def factory(algorithm: str = "grpo", **kwargs: Any) -> Any:
        return make_trainer(tiny_model_dir, tmp_path / f"out-{algorithm}", algorithm, **kwargs)

    return factory
