"""JSON Schema: the committed files in ``schemas/``, and validation that reports every error.

Schemas are generated from each system's rule tables (``rules/<system>/schema.py``); this module
turns jsonschema's errors into findings with stable codes and a JSON pointer.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Iterator

from ..core.findings import Finding
from ..core.pointers import pointer
from ..rules import get_system

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


def report_schema_text() -> str:
    """The check report's schema as committed in ``schemas/report.schema.json``."""
    from .report import build_report_schema

    return json.dumps(build_report_schema(), ensure_ascii=False, indent=2) + "\n"


def schema_text(system: str) -> str:
    """The generated schema as the bytes committed in ``schemas/<system>.schema.json``."""
    return json.dumps(get_system(system).build_schema(), ensure_ascii=False, indent=2) + "\n"


@lru_cache(maxsize=None)
def _validator(system: str):
    import jsonschema  # heavy: only when validating

    # The schema is not checked against its metaschema here: it is generated from the rule
    # tables, and tests/test_schema_committed.py holds every system's to 2020-12. Checking it in
    # every process cost 0.15 s a system, paid before an import's or an audit's workers start.
    schema = get_system(system).build_schema()
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@lru_cache(maxsize=None)
def schema_available() -> bool:
    """Whether jsonschema can be imported (not under Pyodide, where it is not installed)."""
    from importlib.util import find_spec

    return find_spec("jsonschema") is not None


@lru_cache(maxsize=None)
def _fast_validator(system: str):
    """jsonschema-rs's compiled validator when it is installed (the ``fast`` extra), else None.

    It answers only "valid or not", some hundred times faster; an invalid document is then
    explained by jsonschema, so the findings are the same either way (tested)."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.validator_for(get_system(system).build_schema())


def validate(doc: Mapping[str, Any], system: str) -> list[Finding]:
    """Every schema violation of ``doc`` as findings, in document order, and every number no
    spreadsheet or JSON reader holds exactly (NaN, infinities, integers beyond ±2**53)."""
    numbers = list(unsafe_number_findings(doc))
    if not schema_available():
        # Under Pyodide (xlwings Lite) jsonschema is not installed: the rules checks still run,
        # and one finding says the schema's were left out.
        return [Finding("SCHEMA_UNAVAILABLE", "", {"system": system})] + numbers
    fast = _fast_validator(system)
    if fast is not None and not numbers and fast.is_valid(doc):
        return []
    errors = sorted(_validator(system).iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    return [f for e in errors for f in error_findings(e)] + numbers


SAFE_INTEGER = 2 ** 53  # beyond it, JSON readers and spreadsheets (IEEE doubles) lose digits


def unsafe_number_findings(value: Any, at: str = "") -> Iterator[Finding]:
    """SCHEMA_NUMBER_UNSAFE where a number is NaN, infinite, or an integer beyond ±2**53 (Python's
    JSON reader accepts them; no sheet can hold them as written)."""
    import math

    if not _any_unsafe_number(value):  # the common case, without a pointer built for every node
        return
    stack: list[tuple[str, Any]] = [(at, value)]
    while stack:  # iterative: a document nested thousands deep must not exhaust the stack
        where, node = stack.pop()
        if isinstance(node, Mapping):
            stack.extend((where + pointer(k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((where + pointer(i), v) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, float) and not math.isfinite(node):
            yield Finding("SCHEMA_NUMBER_UNSAFE", where, {"value": str(node)})
        elif isinstance(node, int) and not isinstance(node, bool) and abs(node) > SAFE_INTEGER:
            yield Finding("SCHEMA_NUMBER_UNSAFE", where, {"value": str(node)})


def _any_unsafe_number(value: Any) -> bool:
    """Whether :func:`unsafe_number_findings` would find anything."""
    import math

    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict or kind is list:
            stack.extend(node.values() if kind is dict else node)
        elif kind is float:
            if not math.isfinite(node):
                return True
        elif kind is int:
            if abs(node) > SAFE_INTEGER:
                return True
        elif kind in (str, bool) or node is None:
            continue
        elif isinstance(node, Mapping):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, float) and not math.isfinite(node):
            return True
        elif isinstance(node, int) and not isinstance(node, bool) and abs(node) > SAFE_INTEGER:
            return True
    return False


def error_findings(error) -> Iterator[Finding]:
    """One jsonschema error → findings; conditional (if/then, allOf) errors are unwrapped."""
    kind = error.validator
    where = pointer(*error.absolute_path)
    value = error.instance
    if kind in ("allOf", "anyOf", "oneOf") and error.context:
        for sub in error.context:
            yield from error_findings(sub)
        return
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        title = ((error.schema.get("properties") or {}).get(missing) or {}).get("title") or missing
        yield Finding("SCHEMA_REQUIRED", where, {"field": missing, "label_ja": title.split("（")[0],
                                                 "label_en": missing.replace("_", " ")})
    elif kind == "type":
        yield Finding("SCHEMA_TYPE", where, {"value": _short(value), **_type_names(error.validator_value)})
    elif kind == "enum":
        yield Finding("SCHEMA_ENUM", where, {"value": _short(value),
                                             "choices": [c for c in error.validator_value if c is not None]})
    elif kind == "const":
        yield Finding("SCHEMA_CONST", where, {"value": _short(value), "expected": error.validator_value})
    elif kind in ("minimum", "exclusiveMinimum"):
        yield Finding("SCHEMA_MINIMUM", where, {"value": _short(value), "limit": error.validator_value})
    elif kind in ("maximum", "exclusiveMaximum"):
        yield Finding("SCHEMA_MAXIMUM", where, {"value": _short(value), "limit": error.validator_value})
    elif kind in ("minItems", "maxItems", "minLength", "maxLength"):
        code = {"minItems": "SCHEMA_TOO_FEW", "maxItems": "SCHEMA_TOO_MANY",
                "minLength": "SCHEMA_TOO_SHORT", "maxLength": "SCHEMA_TOO_LONG"}[kind]
        yield Finding(code, where, {"count": len(value) if hasattr(value, "__len__") else 0,
                                    "limit": error.validator_value})
    elif kind == "uniqueItems":
        yield Finding("SCHEMA_NOT_UNIQUE", where, {"value": _short(value)})
    elif kind == "multipleOf":
        yield Finding("SCHEMA_MULTIPLE_OF", where, {"value": _short(value), "limit": error.validator_value})
    elif kind == "additionalProperties":
        import difflib

        known = list(error.schema.get("properties", {}))
        extra = sorted(set(value) - set(known))
        unknown = []
        for field in extra:
            close = difflib.get_close_matches(field, [k for k in known if k not in value], n=1, cutoff=0.75)
            if close:  # a typo: the content under it is not read (weapns for weapons)
                yield Finding("SCHEMA_MISSPELLED", where, {"field": field, "guess": close[0]})
            else:
                unknown.append(field)
        if unknown:  # a hostile document's million keys: the first few named, then how many more
            more = len(unknown) - LISTED_FIELDS
            listed = unknown[:LISTED_FIELDS] + ([f"…(+{more})"] if more > 0 else [])
            yield Finding("SCHEMA_ADDITIONAL", where, {"fields": listed})
    else:
        yield Finding("SCHEMA_OTHER", where, {"detail": error.message})


#: unknown fields named in one finding; the rest are counted
LISTED_FIELDS = 20

_TYPE_NAMES = {"integer": ("整数", "a whole number"), "number": ("数", "a number"),
               "string": ("文字列", "text"), "boolean": ("true か false", "true or false"),
               "object": ("{…}（項目のまとまり）", "an object {…}"), "array": ("[…]（リスト）", "a list […]"),
               "null": ("null", "null")}


def _type_names(expected: Any) -> dict[str, str]:
    """The expected JSON type(s) named in each language (「整数」, "a whole number")."""
    kinds = expected if isinstance(expected, list) else [expected]
    names = [_TYPE_NAMES.get(k, (str(k), str(k))) for k in kinds]
    return {"expected_ja": "または".join(n[0] for n in names),
            "expected_en": " or ".join(n[1] for n in names)}


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


@lru_cache(maxsize=1)
def _catalog_validator():
    import jsonschema  # heavy: only when validating

    from ..rules.mailgear.catalog import build_catalog_schema

    return jsonschema.Draft202012Validator(build_catalog_schema())


@lru_cache(maxsize=1)
def _fast_catalog_validator():
    try:
        import jsonschema_rs
    except ImportError:
        return None
    from ..rules.mailgear.catalog import build_catalog_schema

    return jsonschema_rs.validator_for(build_catalog_schema())


def catalog_findings(raw: Any) -> list[Finding]:
    """A mailgear catalog's structure against its generated schema, each error worded as the
    document checks word it (MG_CATALOG_SCHEMA, with the Japanese and English text). Without
    jsonschema (Pyodide) none: the catalog's own rules checks still run, and the pilot's check
    says once that schemas were left out (SCHEMA_UNAVAILABLE)."""
    if not schema_available():
        return []
    fast = _fast_catalog_validator()
    if fast is not None and fast.is_valid(raw):
        return []
    errors = sorted(_catalog_validator().iter_errors(raw), key=lambda e: list(map(str, e.absolute_path)))
    return [Finding("MG_CATALOG_SCHEMA", inner.pointer, {"ja": inner.message("ja"), "en": inner.message("en")})
            for error in errors for inner in error_findings(error)]
