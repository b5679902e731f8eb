"""The catalog's schema is generated from the rule tables and committed, like the documents'."""
from __future__ import annotations

import json

import jsonschema

from converter.rules.mailgear import build_catalog_schema, catalog_schema_text

from .conftest import EXAMPLE_CATALOG, ROOT

COMMITTED = ROOT / "schemas" / "mailgear-catalog.schema.json"


def test_committed_catalog_schema_matches_generator() -> None:
    """schemas/mailgear-catalog.schema.json is exactly what the generator writes."""
    assert COMMITTED.read_text(encoding="utf-8") == catalog_schema_text(), (
        'run: python -c "from converter.rules.mailgear import catalog_schema_text as t; '
        "print(t(), end='')\" > schemas/mailgear-catalog.schema.json")


def test_catalog_schema_is_valid_2020_12() -> None:
    """The generated catalog schema is itself a valid JSON Schema 2020-12 document."""
    jsonschema.Draft202012Validator.check_schema(build_catalog_schema())


def test_example_catalog_validates_against_the_committed_schema() -> None:
    """The example catalog is valid for any JSON Schema tool, not only for mechasheet."""
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    example = json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(example)) == []


def test_catalog_and_document_agree_on_ids() -> None:
    """Catalog and document schemas list the same skills, stats and bands (one source)."""
    doc = json.loads((ROOT / "schemas" / "mailgear.schema.json").read_text(encoding="utf-8"))
    cat = build_catalog_schema()
    doc_effect = doc["properties"]["equipment"]["items"]["properties"]["effects"]["items"]
    cat_effect = cat["properties"]["options"]["items"]["properties"]["effects"]["items"]
    assert doc_effect == cat_effect
    doc_stats = doc["properties"]["gear"]["properties"]["stats"]["required"]
    cat_stats = cat["properties"]["models"]["items"]["properties"]["ranks"]["additionalProperties"]["required"]
    assert doc_stats == cat_stats
