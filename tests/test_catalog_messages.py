"""Every catalog entry reads well in both languages, and the catalog matches the code.

Each message and fix hint is rendered with a value for every placeholder it names (text, numbers,
lists, None): nothing may be left in braces, and Python's ``None`` never shows. The Japanese text
of a template (outside its placeholders) is Japanese; the English text has no Japanese in it, the
rules' terms named in English (custom gear, not 専用機). Values a finding carries (labels,
choices) are shown as they are and are not part of this check.

Every code the source raises (``Finding("CODE", ...)``, ``out.find("CODE", ...)``, and a name
passed there whose assignments hold codes) is in the catalog, and every catalog code is raised.
"""
from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import Any

import pytest

from converter.check.report import build_report_schema
from converter.core.errors import CatalogError
from converter.core.findings import LANGS, Finding, catalog, catalog_entry

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "converter"

CODE = re.compile(r"^[A-Z][A-Z0-9]+_[A-Z0-9_]+$")
# Hiragana, katakana (and its extensions), CJK ideographs, CJK symbols and punctuation (「」、。〜),
# full-width and half-width forms (ＵＰ, （）, ｱ).
JAPANESE = re.compile("[\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
                      "\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
LEFTOVER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(![rsa])?\}")

#: Japanese proper names allowed in the English text of a template, each with its reason.
#: Empty: every English template names the rules' terms in English. Add a name here only when the
#: rules' own name has no English rendering a reader would recognise.
ALLOWED_IN_ENGLISH: dict[str, str] = {}

#: Catalog codes that no code under converter/ raises, each with its reason. Empty: all are raised.
NOT_RAISED: dict[str, str] = {}

#: A hint is one short sentence.
HINT_LIMITS = {"ja": 70, "en": 110}

CODES = sorted(catalog())
TEXTS = [(code, field) for code in CODES for field in ("ja", "en", "hint_ja", "hint_en")]


def _parts(template: str) -> tuple[str, list[tuple[str, str | None, str]]]:
    """(the literal text, the placeholders as (name, conversion, format spec))."""
    literal, fields = [], []
    for text, name, spec, conversion in string.Formatter().parse(template):
        literal.append(text)
        if name is not None:
            fields.append((name, conversion, spec or ""))
    return "".join(literal), fields


def _names(template: str) -> set[str]:
    return {name for name, _, _ in _parts(template)[1]}


def _placeholders(code: str) -> set[str]:
    """Every param a finding of ``code`` may be given: what its messages and hints name."""
    e = catalog()[code]
    return set().union(*(_names(t) for t in (e.ja, e.en, e.hint_ja, e.hint_en)))


# Sample values, each kind for every param at once, and a mix of kinds across the params.
SAMPLES: dict[str, Any] = {
    "text": "Zeta", "japanese": "【射撃】", "empty_text": "", "int": 3, "negative": -10,
    "whole_float": 4.0, "float": 2.5, "bool": True, "list": ["A", 20], "list_ja": ["空", "陸"],
    "empty_list": [], "list_with_none": [None, 1], "none": None,
}


#: Each kind for every param at once, then a mix: checked one after another in a code's test.
KINDS = [*SAMPLES, "mixed"]


def _params(code: str, kind: str) -> dict[str, Any]:
    names = sorted(_placeholders(code))
    if kind == "mixed":
        kinds = list(SAMPLES)
        return {n: SAMPLES[kinds[i % len(kinds)]] for i, n in enumerate(names)}
    return {n: SAMPLES[kind] for n in names}


# --- rendering -------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", CODES)
def test_every_message_and_hint_renders_whole(code: str) -> None:
    """With every placeholder given, of each sample kind, no {placeholder} is left and None never shows."""
    for kind in KINDS:
        f = Finding(code, "/x", _params(code, kind))
        for lang in LANGS:
            for what, text in (("message", f.message(lang)), ("hint", f.hint(lang))):
                assert text.strip(), (code, kind, lang, what)
                where = f"{code} {what} ({lang}, {kind})"
                assert not LEFTOVER.search(text), f"{where} keeps a placeholder: {text}"
                assert "None" not in text, f"{where} shows None: {text}"


def test_placeholders_are_plain_names() -> None:
    """Placeholders are names, at most with !r (what _show and format_map handle)."""
    for code, field in TEXTS:
        for name, conversion, spec in _parts(getattr(catalog()[code], field))[1]:
            assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name), (code, field, name)
            assert conversion in (None, "r") and not spec, (code, field, name)


def test_a_hint_names_only_params_the_message_has() -> None:
    """A hint is filled from the same params as the message: it may name no other."""
    for code in CODES:
        e = catalog()[code]
        given = _names(e.ja) | _names(e.en)
        for field in ("hint_ja", "hint_en"):
            assert _names(getattr(e, field)) <= given, (code, field, _names(getattr(e, field)) - given)


# --- scripts -----------------------------------------------------------------------------------------

def test_japanese_text_is_japanese() -> None:
    """Every Japanese message and hint has Japanese outside its placeholders."""
    for code, field in [(c, f) for c, f in TEXTS if f.endswith("ja")]:
        literal, _ = _parts(getattr(catalog()[code], field))
        assert JAPANESE.search(literal), \
            f"{code}.{field} has no Japanese outside its placeholders: {literal!r}"


def _japanese_in_english(text: str) -> list[str]:
    for name in ALLOWED_IN_ENGLISH:
        text = text.replace(name, "")
    return JAPANESE.findall(text)


def test_english_text_has_no_japanese() -> None:
    """Every English message, hint and title has no Japanese outside its placeholders."""
    for code, field in [(c, f) for c, f in TEXTS if f.endswith("en")] + [(c, "title") for c in CODES]:
        literal, _ = _parts(getattr(catalog()[code], field))
        found = _japanese_in_english(literal)
        assert not found, f"{code}.{field} has Japanese {''.join(found)!r} in its English text: {literal!r}"


def test_the_allow_list_is_used() -> None:
    """Each name allowed in English text is there in some English template (no stale entries)."""
    english = [t for e in catalog().values() for t in (e.en, e.hint_en, e.title)]
    for name in ALLOWED_IN_ENGLISH:
        assert any(name in t for t in english), name


# --- hints --------------------------------------------------------------------------------------------

def test_a_hint_is_one_short_sentence() -> None:
    """Written like the messages: no closing full stop, one sentence, short."""
    for code in CODES:
        e = catalog()[code]
        for lang, hint in (("ja", e.hint_ja), ("en", e.hint_en)):
            assert hint == hint.strip() and len(hint) <= HINT_LIMITS[lang], (code, lang, len(hint))
            assert not hint.endswith(("。", ".")), (code, lang)
        assert "。" not in e.hint_ja, code
        assert not re.search(r"\.\s+[A-Z]", e.hint_en), code
        assert e.hint_ja != e.ja and e.hint_en != e.en, code


def test_hint_and_to_dict() -> None:
    """A finding's hint is filled in each language (Japanese for an unknown one) and is in to_dict."""
    f = Finding("UP_STAT_STEP", "/stats/armor", {"label": "装甲", "value": 105, "base": 100, "step": 10,
                                                  "size": "M", "hint": [100, 110]})
    assert f.hint("ja") == "刻みに合う値（表示された近い値 100、110 のどちらか）にしてください"
    assert f.hint("en") == "use a value on the step, e.g. one of the nearest values shown (100, 110)"
    assert f.hint("fr") == f.hint("ja")  # an unknown language falls back to Japanese, as messages do
    assert f.to_dict("en")["hint"] == f.hint("en")
    assert f.to_dict()["message"] == f.message("ja")


@pytest.mark.parametrize("missing", ["hint_ja", "hint_en", "ja", "en"])
def test_an_entry_without_a_text_is_a_catalog_error(missing: str) -> None:
    """A catalog entry missing a message or hint, or with a blank one, is a CatalogError naming it."""
    entry = {"severity": "error", "title": "t", "ja": "日本語", "en": "English",
             "hint_ja": "直してください", "hint_en": "fix it"}
    assert catalog_entry("X_Y", entry).hint_en == "fix it"
    with pytest.raises(CatalogError, match="X_Y"):
        catalog_entry("X_Y", {k: v for k, v in entry.items() if k != missing})
    with pytest.raises(CatalogError, match=missing):
        catalog_entry("X_Y", {**entry, missing: "  "})


def test_every_finding_matches_the_report_schema() -> None:
    """Each code's to_dict, in each language, is the report's finding object (files and sets)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = build_report_schema()
    in_file = schema["properties"]["files"]["items"]["properties"]["findings"]["items"]
    in_party = schema["properties"]["sets"]["properties"]["mailgear.party"]["properties"]["findings"]["items"]
    assert in_file == in_party and "hint" in in_file["required"]
    validator = jsonschema.Draft202012Validator(in_file)
    for code in CODES:
        for lang in LANGS:
            validator.validate(Finding(code, "/x", _params(code, "mixed"), "B2").to_dict(lang))


# --- the catalog against the source -------------------------------------------------------------------

def _codes_in(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and CODE.match(n.value)}


def _raises(func: ast.AST) -> bool:
    """``Finding(...)``, ``x.find(...)`` (``run.find``, ``out.find``), and the helpers a check
    yields its findings with (``_bad(...)``, ``_note(...)``: rules/up/weapons.py)."""
    return (isinstance(func, ast.Name) and func.id in ("Finding", "_bad", "_note")) or \
        (isinstance(func, ast.Attribute) and func.attr == "find")


def raised_codes() -> dict[str, list[str]]:
    """Each code the source raises → where (file:line). The code is the call's first argument: a
    literal, an expression holding literals (a choice), or a name whose assignments hold them."""
    found: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        assigned: dict[str, set[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, set()).update(_codes_in(node.value))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _raises(node.func)):
                continue
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "code"), None)
            if arg is None:
                continue
            codes = _codes_in(arg) | (assigned.get(arg.id, set()) if isinstance(arg, ast.Name) else set())
            for code in codes:
                found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
        # An error that carries a finding: SomeError(message, CODE, **params), and a
        # ``code`` parameter's default (``unreadable(..., code="INPUT_UNREADABLE")``).
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (node.func.id.endswith("Error") or node.func.id == "error"):
                arg = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "code"), None)
                for code in _codes_in(arg) if arg is not None else ():
                    found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                params = node.args.args + node.args.kwonlyargs
                defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + list(node.args.defaults) \
                    + list(node.args.kw_defaults)
                for param, default in zip(params, defaults, strict=True):
                    if param.arg == "code" and default is not None:
                        for code in _codes_in(default):
                            found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_raised_code_is_in_the_catalog() -> None:
    """Every code raised under converter/ is in a catalog.toml."""
    raised = raised_codes()
    assert raised, "no Finding(...) or .find(...) call with a code was found under converter/"
    unknown = {code: where for code, where in raised.items() if code not in catalog()}
    assert not unknown, f"codes raised but not in any catalog.toml: {unknown}"


def test_every_catalog_code_is_raised() -> None:
    """Every catalog code is raised somewhere under converter/ (NOT_RAISED lists exceptions, none today)."""
    raised = raised_codes()
    never = sorted(set(catalog()) - set(raised) - set(NOT_RAISED))
    assert not never, f"catalog codes that nothing under converter/ raises: {never}"
    assert set(NOT_RAISED) <= set(catalog()), set(NOT_RAISED) - set(catalog())
    assert not set(NOT_RAISED) & set(raised), f"listed as not raised, but raised: {set(NOT_RAISED) & set(raised)}"


def _required_fields(schema: Any, where: str = ""):
    """Every (pointer with ``*`` for list indexes, field) a schema requires."""
    if isinstance(schema, list):
        for node in schema:
            yield from _required_fields(node, where)
        return
    if not isinstance(schema, dict):
        return
    for name in schema.get("required", []):
        yield where, name
    for key, sub in (schema.get("properties") or {}).items():
        yield from _required_fields(sub, f"{where}/{key}")
    for key in ("allOf", "anyOf", "oneOf", "then", "else"):
        yield from _required_fields(schema.get(key), where)
    for key in ("items", "additionalProperties"):
        yield from _required_fields(schema.get(key), f"{where}/*")


@pytest.mark.parametrize("system", ["up", "pp", "mailgear"])
def test_every_required_field_has_the_sheets_word(system: str) -> None:
    """Every field a schema requires is named in Japanese (the sheet's term) in a missing-field
    message, never by its JSON key (issue 35.2)."""
    from converter.check.checker import field_label
    from converter.rules import get_system

    fields = set(_required_fields(get_system(system).build_schema()))
    assert len(fields) > 10
    for where, name in sorted(fields):
        ja, en = field_label(system, where, name)
        assert ja != name and (JAPANESE.search(ja) or ja.isupper()), (where, name, ja)  # or CR, SR...
        assert en and not JAPANESE.search(en), (where, name, en)
