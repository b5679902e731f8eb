"""Checking Sources: schema validation plus the engine's rule checks, one report per file, then
the set checks each system declares.

The checker knows neither files nor workbooks: it takes Sources (``converter.core.source``) from
whatever reader made them, and places each finding at the cell its Source maps the pointer to.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..core import pointers
from ..core.findings import Finding, Severity
from ..core.sets import Member
from ..core.source import CATALOG, DOCUMENT, UNREADABLE, Origin, Source
from ..rules import get_system, system_ids
from ..rules.options import document_readings, option_declarations
from .report import CheckReport, FileReport

_LEVEL_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
CATALOG_SYSTEM = "mailgear-catalog"


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
    if source.kind == UNREADABLE:
        return FileReport(source.path, None, _ordered(source.findings), UNREADABLE, source.origin)
    if source.kind == CATALOG:
        catalog = source.context["catalog"]
        return FileReport(source.path, CATALOG_SYSTEM, _ordered(catalog.findings), CATALOG,
                          source.origin, cells=dict(source.cells), context={"catalog": catalog})
    doc = source.document or {}
    merged = {**source.context, **{k: v for k, v in (context or {}).items() if v is not None}}
    report = FileReport(source.path, doc.get("system") if isinstance(doc.get("system"), str) else None,
                        kind=DOCUMENT, origin=source.origin, document=dict(doc),
                        cells=dict(source.cells), context=merged)
    findings = list(source.findings) + _evaluate(doc, source, options or {}, merged, report)
    own_catalog = source.context.get("catalog")
    if own_catalog is not None and merged.get("catalog") is own_catalog:
        findings += own_catalog.findings  # the workbook's own catalog sheet, unless another was named
    report.findings = _ordered(_placed(findings, source.cells))
    return report


def _evaluate(doc: Mapping[str, Any], source: Source, rule_options: Mapping[str, str],
              context: Mapping[str, Any], report: FileReport) -> list[Finding]:
    from ..schema import validate

    system = doc.get("system")
    if system not in system_ids():
        return [Finding("DOC_SYSTEM_UNKNOWN", "/system", {"value": system, "choices": system_ids()})]
    rules = get_system(system)
    fmt = doc.get("format")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > rules.format:
        return [Finding("DOC_FORMAT_NEWER", "/format", {"value": fmt, "supported": rules.format})]
    options, notes = _options_in_force(system, source, rule_options)
    report.options = options
    schema_findings = validate(doc, system)
    ev = rules.evaluate_with(doc, {k: v["value"] for k, v in options.items()}, context)
    report.evaluation = ev
    engine_at = {f.pointer for f in ev.findings if f.level is Severity.ERROR}
    # The engine's message is the better one (Japanese, with a hint): keep one per place. A
    # missing field is the schema's at its parent; the engine's at the field itself.
    kept = [f for f in schema_findings if f.pointer not in engine_at
            and not (f.code == "SCHEMA_REQUIRED" and f"{f.pointer}/{f.params.get('field')}" in engine_at)]
    out = kept + ev.findings + notes
    if not ev.complete:
        out.append(Finding("ENGINE_INCOMPLETE"))
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
                notes.append(Finding("OPTION_OVERRIDDEN", "", {"label": decl["label"], "sheet": in_file,
                                                                "rule": rule_options[name]},
                                     source.option_cells.get(name, "")))
        elif in_file is not None:
            out[name] = {"value": in_file, "from": "file"}
        else:
            out[name] = {"value": decl["default"], "from": "default"}
    return out, notes


def _placed(findings: Iterable[Finding], cells: Mapping[str, str]) -> list[Finding]:
    """Each finding at its cell: its own, else that of its pointer or the nearest parent's."""
    if not cells:
        return list(findings)
    return [f if f.cell else f.at(cell=pointers.nearest(f.pointer, cells)) for f in findings]


def _ordered(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (_LEVEL_ORDER[f.level], f.pointer))


def check_sources(sources: Iterable[Source], options: Mapping[str, str] | None = None,
                  context: Mapping[str, Any] | None = None) -> CheckReport:
    """Check every Source, then the set checks of each system present."""
    report = CheckReport([check_source(s, options, context) for s in sources],
                         options=dict(options or {}))
    run_set_checks(report)
    return report


def run_set_checks(report: CheckReport) -> None:
    """Each system's declared set checks over its documents checked together; findings go to
    the member they concern (at its cell), summaries to ``report.sets``."""
    by_system: dict[str, list[FileReport]] = {}
    for fr in report.files:
        if fr.kind == DOCUMENT and fr.system in system_ids() and fr.evaluation is not None:
            by_system.setdefault(fr.system, []).append(fr)
    for system, files in by_system.items():
        members = [Member(fr.document or {}, fr.evaluation, fr.context) for fr in files]
        for set_check in get_system(system).set_checks:
            outcome = set_check(members)
            for index, finding in outcome.findings:
                fr = files[index]
                fr.findings = _ordered(fr.findings + _placed([finding], fr.cells))
            if outcome.summary is not None:
                report.sets[outcome.name] = outcome.summary
