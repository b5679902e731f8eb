"""Checking Sources: schema validation plus the engine's rule checks, one report per file, then
the set checks each system declares.

The checker knows neither files nor workbooks: it takes Sources (``converter.core.source``) from
whatever reader made them, and places each finding at the cell its Source maps the pointer to.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Mapping

from ..core import pointers
from ..core.evaluation import Evaluation
from ..core.findings import Finding, Severity
from ..core.sets import Member
from ..core.source import CATALOG, DOCUMENT, REPORT, UNREADABLE, Origin, Source
from ..rules import get_system, system_ids
from ..rules.options import document_readings, option_declarations
from .report import CheckReport, FileReport

LEVEL_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
CATALOG_SYSTEM = "mailgear-catalog"
_MISSING = object()


def check_document(doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
                   path: str = "", context: Mapping[str, Any] | None = None) -> FileReport:
    """Schema findings plus the engine's, one finding per problem, errors first.

    ``context`` holds the engine's extra inputs: a mailgear ``catalog``, a pp ``skills`` list."""
    return check_source(Source(path, Origin("json"), document=dict(doc), options=document_readings(doc)),
                        options, context)


def check_source(source: Source, options: Mapping[str, str] | None = None,
                 context: Mapping[str, Any] | None = None) -> FileReport:
    """One Source checked. ``options`` (``--rule``) win over the readings the Source carries;
    ``context`` entries given here win over the Source's own (a catalog sheet)."""
    if source.kind in (UNREADABLE, REPORT):
        findings = [_format_advice(source.path, f) for f in source.findings]
        return FileReport(source.path, None, ordered(findings), source.kind, source.origin)
    if source.kind == CATALOG:
        catalog = source.context["catalog"]
        return FileReport(source.path, CATALOG_SYSTEM, ordered(catalog.findings), CATALOG,
                          source.origin, cells=dict(source.cells), context={"catalog": catalog})
    doc = source.document or {}
    merged = {**source.context, **{k: v for k, v in (context or {}).items() if v is not None}}
    report = FileReport(source.path, doc.get("system") if isinstance(doc.get("system"), str) else None,
                        kind=DOCUMENT, origin=source.origin, document=dict(doc),
                        cells=dict(source.cells), context=merged)
    findings = list(source.findings) + _read_as_typed(source.findings, source.cells,
                                                      _evaluate(doc, source, options or {}, merged, report))
    own_catalog = source.context.get("catalog")
    if merged.get("catalog") is own_catalog and own_catalog is not None:
        findings += own_catalog.findings  # the workbook's own catalog sheet, unless another was named
    report.findings = ordered(_placed(findings, source.cells))
    return report


def _format_advice(path: str, f: Finding) -> Finding:
    """``f``, unless it says a text file whose name does not end in .json is not JSON: then that
    it is a memo or a file of a kind not read (a workbook, PDF or image is named by its content
    already, io.files.wrong_format), and what mechasheet reads instead."""
    from pathlib import PurePath

    suffix = PurePath(path).suffix.lower()
    if f.code not in ("INPUT_NOT_JSON", "INPUT_NOT_TEXT") or suffix in ("", ".json") or path == "<stdin>":
        return f
    code = "INPUT_TEXT_FILE" if suffix in (".txt", ".csv", ".tsv", ".md") else "INPUT_UNKNOWN_FORMAT"
    return Finding(code, f.pointer, {"file": path, "suffix": suffix}, f.cell)


def _evaluate(doc: Mapping[str, Any], source: Source, rule_options: Mapping[str, str],
              context: Mapping[str, Any], report: FileReport) -> list[Finding]:
    from .schema import validate

    system = doc.get("system")
    if "system" not in doc:
        return labelled([Finding("SCHEMA_REQUIRED", "", {"field": "system"})], "")
    if system not in system_ids():
        return [Finding("DOC_SYSTEM_UNKNOWN", "/system", {"value": system, "choices": system_ids()})]
    rules = get_system(system)
    fmt = doc.get("format")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > rules.format:
        return [Finding("DOC_FORMAT_NEWER", "/format", {"value": fmt, "supported": rules.format})]
    options, notes = _options_in_force(system, source, rule_options)
    report.options = options
    schema_findings = labelled(validate(doc, system), system)
    ev = rules.evaluate_with(doc, {k: v["value"] for k, v in options.items()}, context)
    report.evaluation = ev
    return _one_per_cause(schema_findings, ev.findings, ev.complete) + notes


# A value of the wrong type, a missing field: the root cause, which the engine's messages about
# the same value would only obscure. A value not among the choices, a key the format does not
# have: the engine could not read it as written either.
ROOT_CAUSES = ("SCHEMA_TYPE", "SCHEMA_REQUIRED", "SCHEMA_REQUIRED_ONE_OF")
NOT_READ = ("SCHEMA_TYPE", "SCHEMA_REQUIRED", "SCHEMA_REQUIRED_ONE_OF", "SCHEMA_ENUM", "SCHEMA_MISSPELLED")


def _one_per_cause(schema: list[Finding], engine: list[Finding], complete: bool) -> list[Finding]:
    """Schema and engine findings, one per problem, root causes first.

    Where the schema says a value has the wrong type or is missing, the engine's findings at that
    value or below it are follow-ups and are dropped; below a value not among the choices, too.
    Where both report another problem at one place, the engine's message is the better one
    (Japanese, with a hint: 「近い値: 30、40」). When anything was not read as written, the
    findings that need a complete evaluation (a written total against the computed one) are
    dropped and ENGINE_INCOMPLETE says the totals are partial."""
    causes = [(_cause_pointer(f), f.code in ROOT_CAUSES) for f in schema if f.code in NOT_READ]
    follow_ups = [f for f in engine
                  if any(f.pointer.startswith(c + "/") or (same and f.pointer == c) for c, same in causes)]
    engine = [f for f in engine if f not in follow_ups]
    engine_at = {f.pointer for f in engine if f.level is Severity.ERROR}
    kept = [f for f in schema if f.code in ROOT_CAUSES or f.code in ("SCHEMA_ADDITIONAL", "SCHEMA_MISSPELLED")
            or f.pointer not in engine_at]
    complete = complete and not follow_ups and not causes
    if not complete:
        engine = [f for f in engine if not f.entry.needs_complete] + [Finding("ENGINE_INCOMPLETE")]
    return kept + engine


def _read_as_typed(read: list[Finding], cells: Mapping[str, str], checked: list[Finding]) -> list[Finding]:
    """One finding per typed value: where the reader already named a cell's value (text in a
    number cell, a value not in its list), the schema's and the engine's findings about that
    value, below it or at its cell say the same less exactly (「実弾」: SHEET_ENUM_UNKNOWN, not
    also UP_WEAPON_ATTRIBUTE; a band's 〇: SHEET_NOT_BOOL, not also the item's bands) and are
    dropped."""
    named = {f.pointer for f in read if f.pointer and f.level is Severity.ERROR}
    named_cells = {f.cell for f in read if f.cell and f.level is Severity.ERROR}
    if not named:
        return checked
    return [f for f in checked
            if not any(f.pointer == p or f.pointer.startswith(p + "/") for p in named)
            and (f.cell or (pointers.nearest(_cause_pointer(f), cells) if cells else "")) not in named_cells]


def _cause_pointer(f: Finding) -> str:
    """Where a root cause is: a missing field at the field itself, not its parent (so its cell is
    the empty cell to fill); a misspelled key at the key. Any other finding at its pointer."""
    if f.code in ("SCHEMA_REQUIRED", "SCHEMA_REQUIRED_ONE_OF", "SCHEMA_MISSPELLED") and f.params.get("field"):
        return f"{f.pointer}/{f.params.get('field')}"
    return f.pointer



@lru_cache(maxsize=None)
def _schema_words(system: str) -> tuple[dict[str, str], dict[str, tuple[tuple[str, ...], ...]]]:
    """What the GM reads for each field of ``system``'s documents: the schema's ``title`` (the
    rules' Japanese term, its explanation in brackets cut off) by pointer with ``*`` for every
    list index; and the fields the schema asks for one of (``anyOf`` of ``required``), by pointer."""
    titles: dict[str, str] = {}
    either: dict[str, list[tuple[str, ...]]] = {}
    stack: list[tuple[str, Any]] = [("", get_system(system).build_schema())] if system else []
    while stack:
        where, node = stack.pop()
        if isinstance(node, list):
            stack.extend((where, n) for n in node)
            continue
        if not isinstance(node, Mapping):
            continue
        for key, sub in (node.get("properties") or {}).items():
            if isinstance(sub, Mapping) and isinstance(sub.get("title"), str):
                titles.setdefault(f"{where}/{key}", sub["title"].split("（")[0].strip())
            stack.append((f"{where}/{key}", sub))
        branches = node.get("anyOf") or []
        if branches and all(isinstance(b, Mapping) and set(b) == {"required"} for b in branches):
            either.setdefault(where, []).append(tuple(f for b in branches for f in b["required"]))
        for key in ("allOf", "anyOf", "oneOf", "then", "else"):
            if key in node:
                stack.append((where, node[key]))
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), Mapping):
                stack.append((f"{where}/*", node[key]))
    return titles, {k: tuple(v) for k, v in either.items()}


@lru_cache(maxsize=1)
def _field_labels() -> dict[str, dict[str, list[str]]]:
    """``rules/field_labels.toml``: the sheet's words for fields the schema leaves untitled or words otherwise."""
    import tomllib
    from importlib import resources

    return tomllib.loads(resources.files("converter.rules").joinpath("field_labels.toml").read_text("utf-8"))


def field_label(system: str, at: str, field: str) -> tuple[str, str]:
    """The Japanese and English words for ``field`` under pointer ``at``: the sheet's label
    (rules/field_labels.toml), else the rules' term (the schema's title), never the JSON key."""
    generic = "/".join("*" if part.isdigit() else part for part in f"{at}/{field}".split("/"))
    own = _field_labels().get(system, {}).get(generic) or _field_labels()["any"].get(field)
    title = _schema_words(system)[0].get(generic) if system in system_ids() else None
    ja = own[0] if own else title or field  # the sheet's own words where the file gives them
    en = own[1] if own and len(own) > 1 else field.replace("_", " ")
    return ja, en


def labelled(findings: list[Finding], system: str) -> list[Finding]:
    """Schema findings in the GM's words: a missing field named by its label (``label_ja``,
    ``label_en``); two or more missing fields of which the schema asks for one (pp's 回避修正 or
    メインシステムの回避修正) one SCHEMA_REQUIRED_ONE_OF."""
    either = _schema_words(system)[1] if system in system_ids() else {}
    missing: dict[str, set[str]] = {}
    for f in findings:
        if f.code == "SCHEMA_REQUIRED":
            missing.setdefault(f.pointer, set()).add(str(f.params.get("field")))
    out: list[Finding] = []
    merged: set[tuple[str, tuple[str, ...]]] = set()
    for f in findings:
        if f.code != "SCHEMA_REQUIRED":
            out.append(f)
            continue
        field = str(f.params.get("field"))
        generic = "/".join("*" if p.isdigit() else p for p in f.pointer.split("/"))
        group = next((g for g in either.get(generic, ()) if field in g and set(g) <= missing[f.pointer]), None)
        if group is None:
            ja, en = field_label(system, f.pointer, field)
            out.append(Finding(f.code, f.pointer, {**f.params, "label_ja": ja, "label_en": en}, f.cell,
                               f.severity))
        elif (f.pointer, group) not in merged:
            merged.add((f.pointer, group))
            # placed at the last one's cell (pp: メインシステムの回避修正, the one cell to fill)
            words = [field_label(system, f.pointer, name) for name in group]
            out.append(Finding("SCHEMA_REQUIRED_ONE_OF", f.pointer,
                               {"field": group[-1], "fields": list(group),
                                "labels_ja": "か".join(f"「{w[0]}」" for w in words),
                                "labels_en": " or ".join(f'"{w[1]}"' for w in words)}, f.cell, f.severity))
    return out


def _options_in_force(system: str, source: Source, rule_options: Mapping[str, str]
                      ) -> tuple[dict[str, dict[str, str]], list[Finding]]:
    """Each option's value and where it came from: ``--rule`` first, then the file's own reading
    (a sheet's ルール cells, which its formulas use; a document's ``rules``), then the default. Where ``--rule`` overrides
    a reading the file holds, an info finding at that cell says so."""
    out: dict[str, dict[str, str]] = {}
    notes: list[Finding] = []
    for name, decl in option_declarations(system).items():
        in_file = source.options.get(name)
        if name in rule_options:
            out[name] = {"value": rule_options[name], "from": "rule"}
            if in_file is not None and in_file != rule_options[name]:
                params = {"label_ja": decl["label"], "label_en": decl.get("label_en", decl["label"]),
                          "sheet": in_file, "rule": rule_options[name]}
                notes.append(Finding("OPTION_OVERRIDDEN", "", params, source.option_cells.get(name, "")))
        elif in_file is not None:
            out[name] = {"value": in_file, "from": "file"}
        else:
            out[name] = {"value": decl["default"], "from": "default"}
    return out, notes


def _placed(findings: Iterable[Finding], cells: Mapping[str, str]) -> list[Finding]:
    """Each finding at its cell: its own, else that of its pointer or the nearest parent's."""
    if not cells:
        return list(findings)
    return [f if f.cell else f.at(cell=pointers.nearest(_cause_pointer(f), cells)) for f in findings]


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Errors, then warnings, then infos; within each, in the order found (the reader's, the
    schema's root causes, the engine's), so the first error is the root cause."""
    return sorted(findings, key=lambda f: LEVEL_ORDER[f.level])


def check_sources(sources: Iterable[Source], options: Mapping[str, str] | None = None,
                  context: Mapping[str, Any] | None = None) -> CheckReport:
    """Check every Source, then the set checks of each system present."""
    report = CheckReport([check_source(s, options, context) for s in sources],
                         options=dict(options or {}))
    run_set_checks(report)
    return report


def read_by_set_checks(fr: FileReport) -> bool:
    """Whether the set checks read ``fr``: an evaluated document of a system that has some."""
    return fr.kind == DOCUMENT and fr.system in system_ids() and fr.evaluation is not None \
        and bool(get_system(fr.system).set_checks)


def set_member(fr: FileReport) -> FileReport | None:
    """What the set checks read of ``fr``, for a run that lets reports go (None: nothing): a
    report of the fields of its document its system declares (``System.fields_for``), its
    evaluation's pricing (not its derived values or findings), cells and context, and no
    findings but those the set checks will add."""
    if not read_by_set_checks(fr) or fr.system is None or fr.evaluation is None:
        return None
    system, doc = get_system(fr.system), fr.document or {}
    if system.set_partition is not None and system.set_partition(doc) is None:
        return None  # in no set: no set check reads it
    kept: dict[str, Any] = {}
    for name in system.fields_for(doc):
        value = pointers.get(doc, "/" + name, _MISSING)
        if value is not _MISSING:
            pointers.put(kept, "/" + name, value)
    ev = fr.evaluation
    pricing = Evaluation(lines=ev.lines, budget=ev.budget, declared=ev.declared, unevaluated=ev.unevaluated,
                         priced=ev.priced)
    return FileReport(fr.path, fr.system, kind=fr.kind, origin=fr.origin, evaluation=pricing, document=kept,
                      cells=fr.cells, context=fr.context)


def run_set_checks(report: CheckReport) -> None:
    """Each system's declared set checks over its documents checked together; findings go to
    the member they concern (at its cell, and to ``report.set_findings`` in input order),
    summaries to ``report.sets``."""
    by_system: dict[str, list[tuple[int, FileReport]]] = {}
    for position, fr in enumerate(report.files):
        if read_by_set_checks(fr) and fr.system is not None:
            by_system.setdefault(fr.system, []).append((position, fr))
    added: list[tuple[int, str, Finding]] = []
    for system, members_of in by_system.items():
        members = [Member(fr.document or {}, fr.evaluation, fr.context) for _, fr in members_of
                   if fr.evaluation is not None]  # every one: read_by_set_checks
        for set_check in get_system(system).set_checks:
            outcome = set_check(members)
            for index, finding in outcome.findings:
                position, fr = members_of[index]
                placed = _placed([finding], fr.cells)
                fr.findings = ordered(fr.findings + placed)
                added.extend((position, fr.path, f) for f in placed)
            if outcome.summary is not None:
                report.sets[outcome.name] = outcome.summary
    added.sort(key=lambda item: item[0])
    report.set_findings.extend((path, f) for _, path, f in added)
