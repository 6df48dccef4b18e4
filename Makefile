# `make demo` runs rlprobe on a built-in example; `make test` runs ruff and mypy (`make lint`),
# then every test.
# Both build .venv from nothing but python3 (3.11+) on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.rlprobe-installed
DEMO   := runs/demo
# A CPU build; an unpinned torch would pull a multi-GB CUDA build.
TORCH  := torch==2.13.0
# The Azure Blob emulator for the abfs:// tests (npm); without npm those tests skip, except under CI.
AZURITE := $(VENV)/azurite/node_modules/.bin/azurite-blob
PYTEST_ARGS ?=
# What `make lint` holds clean: the whole tree under ruff (the [tool.ruff] rules in pyproject.toml)
# and every package's source under strict mypy (as configured there); hatch.toml's lint scripts run
# the same.
LINT_PATHS := packages tests bench
TYPED_SRC  := packages/rlprobe-core/src packages/rlprobe-doctor/src packages/rlprobe-trl/src

.PHONY: venv lint test demo demo-trl bench realruns validate clean

$(STAMP): packages/rlprobe-core/pyproject.toml packages/rlprobe-doctor/pyproject.toml \
          packages/rlprobe-trl/pyproject.toml packages/pins.py requirements/test.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "$(TORCH)"
	$(PY) -m pip install -q -r requirements/test.txt \
	    -e packages/rlprobe-core -e packages/rlprobe-doctor -e packages/rlprobe-trl
	touch $(STAMP)

venv: $(STAMP)

$(AZURITE):
	@if command -v npm >/dev/null 2>&1; then \
	    npm install --silent --no-audit --no-fund --prefix $(VENV)/azurite azurite@3.35.0; \
	else echo "npm not found: the abfs:// tests will skip (install Node.js to run them)"; fi

lint: venv
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/mypy $(TYPED_SRC)

test: lint $(AZURITE)
	OMP_NUM_THREADS=1 $(PY) -m pytest -n auto -q $(PYTEST_ARGS) tests

demo: venv
	rm -rf $(DEMO)
	$(VENV)/bin/rlprobe synth $(DEMO) --pathology kl_blowup --n-steps 600 --seed 1
	$(VENV)/bin/rlprobe doctor $(DEMO) || true
	$(VENV)/bin/rlprobe report $(DEMO)

demo-trl: venv
	$(PY) examples/trl_demo.py --out runs/trl-demo

bench: venv
	for b in recorder_overhead compaction_layout doctor_scaling sample_detectors samples_query watch_tick report_render import_sources object_storage; do \
	    $(PY) bench/$$b.py || exit 1; done

# Score the doctor on every labelled run (the corpus, the published logs, the matrix, the simulator):
# the false criticals on healthy runs, the blind labels, the reliability of the printed confidence,
# written into docs/validation.md. `make validate FIT=1` refits the confidence calibration first.
validate: venv
	OMP_NUM_THREADS=1 $(PY) bench/validate.py --write $(if $(FIT),--fit)

# Retrain the corpus of real TRL runs kept as doctor test fixtures (tests/fixtures/realruns).
realruns: venv
	OMP_NUM_THREADS=1 $(PY) tests/realruns/generate.py
	$(PY) tests/realruns/validation.py

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
