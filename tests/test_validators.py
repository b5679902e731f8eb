"""The compiled validator (jsonschema-rs, the ``fast`` extra) and pure jsonschema agree.

``validate`` asks jsonschema-rs only whether a document is valid, and lets jsonschema explain an
invalid one; so the findings are identical exactly when both agree on validity, which is what
these tests hold: on every sample, broken sample and golden document, and on Hypothesis
documents of the three systems with a random value put anywhere in them.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.check.schema import _catalog_validator, _fast_catalog_validator, _fast_validator, _validator, validate

from .mangled import paths, put
from .strategies import mailgear_catalog, mailgear_pilot, pp_character, up_unit

ROOT = Path(__file__).resolve().parents[1]

if _fast_validator("up") is None:
    if os.environ.get("CI") == "true":
        raise AssertionError("jsonschema-rs (the test extra installs it) is missing under CI=true")
    pytest.skip("jsonschema-rs is not installed", allow_module_level=True)


def _documents() -> list[Path]:
    return sorted(p for p in ROOT.glob("samples/**/*.json") if "system" in json.loads(p.read_text("utf-8"))) + \
        sorted(ROOT.glob("tests/**/golden/**/*.json"))


def _agree(doc) -> None:
    system = doc.get("system") if isinstance(doc, dict) else None
    for s in ([system] if system in ("up", "mailgear", "pp") else ["up", "mailgear", "pp"]):
        pure = not list(_validator(s).iter_errors(doc))
        assert _fast_validator(s).is_valid(doc) == pure, (s, doc)


@pytest.mark.parametrize("path", _documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_validators_agree_on_every_sample(path: Path) -> None:
    """Samples, broken samples and golden documents: the same verdict from both."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    _agree(doc.get("document", doc) if "document" in doc and "system" not in doc else doc)


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6)
                           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=6)


def _mangle(doc: dict, data) -> bool:
    """Replace one value anywhere in ``doc`` with a random JSON value; False if it drew none."""
    spots = paths(doc, skip=())
    if not spots or not data.draw(st.booleans()):
        return False
    put(doc, data.draw(st.sampled_from(spots)), data.draw(json_values))
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(up_unit(), pp_character(), mailgear_pilot()), st.data())
def test_validators_agree_on_mangled_documents(doc: dict, data) -> None:
    """A generated document with one value replaced (or a key added) anywhere: the same verdict."""
    if not _mangle(doc, data) and data.draw(st.booleans()):
        doc[data.draw(st.text(max_size=6))] = data.draw(json_values)
    _agree(doc)


def test_validate_findings_do_not_depend_on_the_fast_path(monkeypatch) -> None:
    """validate() gives the same findings with the compiled validator switched off."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in _documents()]
    with_fast = [validate(d, d["system"]) for d in docs if d.get("system") in ("up", "mailgear", "pp")]
    monkeypatch.setattr("converter.check.schema._fast_validator", lambda system: None)
    without = [validate(d, d["system"]) for d in docs if d.get("system") in ("up", "mailgear", "pp")]
    assert with_fast == without


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(mailgear_catalog(), st.data())
def test_validators_agree_on_mangled_catalogs(raw: dict, data) -> None:
    """The group's catalog schema too: a generated catalog with one value replaced anywhere."""
    _mangle(raw, data)
    assert _fast_catalog_validator().is_valid(raw) == (not list(_catalog_validator().iter_errors(raw)))
