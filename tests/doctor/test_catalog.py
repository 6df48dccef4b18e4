"""The catalog as a whole: every v1 signature exists, is documented, and docs/detectors.md
is the one generated from the code."""
from __future__ import annotations

from pathlib import Path

import pytest

from rlprobe.doctor.catalog import CATALOG_V1, registry
from rlprobe.doctor.catalogdoc import SECTIONS, parse_docstring, render_markdown
from rlprobe.doctor.synth import pathologies

DOC = Path(__file__).resolve().parents[2] / "docs" / "detectors.md"


def test_every_catalog_v1_signature_has_a_detector_and_a_pathology():
    assert set(CATALOG_V1) <= set(registry())
    assert {sid.lower() for sid in CATALOG_V1} <= set(pathologies())


@pytest.mark.parametrize("sid", sorted(CATALOG_V1))
def test_every_detector_documents_each_section_and_key(sid):
    det = registry()[sid]
    summary, sections, keys = parse_docstring(det.fn.__doc__ or "")
    assert summary, f"{sid} has no summary line"
    assert set(SECTIONS) <= set(sections), f"{sid} lacks {set(SECTIONS) - set(sections)}"
    assert set(det.defaults) <= set(keys), f"{sid} leaves keys undocumented: {set(det.defaults) - set(keys)}"


def test_docs_detectors_md_is_generated_from_the_code():
    assert DOC.read_text() == render_markdown(), (
        "docs/detectors.md is stale: python -m rlprobe.doctor.catalogdoc > docs/detectors.md")
