"""The committed schemas are exactly what the generators produce from the rule tables."""
from __future__ import annotations

from pathlib import Path

import pytest

from converter.check.schema import SCHEMA_DIR, schema_text
from converter.rules import system_ids


@pytest.mark.parametrize("system", system_ids())
def test_committed_schema_matches_generator(system: str) -> None:
    """schemas/<system>.schema.json differs from the generator's output: regenerate it."""
    committed = Path(SCHEMA_DIR, f"{system}.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(system), (
        f"run: mechasheet schema {system} > schemas/{system}.schema.json")


@pytest.mark.parametrize("system", system_ids())
def test_schema_is_valid_2020_12(system: str) -> None:
    """The generated schema is itself a valid JSON Schema 2020-12 document."""
    import json

    import jsonschema

    schema = json.loads(schema_text(system))
    assert schema["$schema"].endswith("2020-12/schema")
    jsonschema.Draft202012Validator.check_schema(schema)


def test_committed_report_schema_matches_generator() -> None:
    """schemas/report.schema.json is what `mechasheet schema report` prints; a valid 2020-12 schema."""
    import json

    import jsonschema

    from converter.check.schema import report_schema_text

    committed = Path(SCHEMA_DIR, "report.schema.json").read_text(encoding="utf-8")
    assert committed == report_schema_text(), "run: mechasheet schema report > schemas/report.schema.json"
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


def test_committed_import_report_schema_matches_generator() -> None:
    """schemas/import-report.schema.json is what `mechasheet schema import-report` prints."""
    import json

    import jsonschema

    from converter.imports.importer import import_report_schema_text

    committed = Path(SCHEMA_DIR, "import-report.schema.json").read_text(encoding="utf-8")
    assert committed == import_report_schema_text(), \
        "run: mechasheet schema import-report > schemas/import-report.schema.json"
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


def test_committed_audit_report_schema_matches_generator() -> None:
    """schemas/audit-report.schema.json is what `mechasheet schema audit-report` prints."""
    import json

    import jsonschema

    from converter.audit.report import audit_schema_text

    committed = Path(SCHEMA_DIR, "audit-report.schema.json").read_text(encoding="utf-8")
    assert committed == audit_schema_text(), (
        "run: mechasheet schema audit-report > schemas/audit-report.schema.json")
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))
