"""Checking documents: schema validation plus the engine's rule checks, one report per file."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from .errors import InputError
from .findings import Finding, Severity, has_errors
from .rules import CostLine, get_system, system_ids

_LEVEL_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass
class FileReport:
    """What one input file holds and what is wrong with it."""

    path: str
    system: str | None
    findings: list[Finding] = field(default_factory=list)
    computed: int | None = None
    declared: int | None = None
    budget: int | None = None
    breakdown: list[CostLine] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)
    document: dict[str, Any] | None = None
    cells: dict[str, str] = field(default_factory=dict)  # pointer → cell, for sheets
    context: dict[str, Any] = field(default_factory=dict)  # the engine's extra inputs used

    @property
    def valid(self) -> bool:
        return not has_errors(self.findings)

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {
            "path": self.path,
            "system": self.system,
            "valid": self.valid,
            "totals": {"computed": self.computed, "declared": self.declared, "budget": self.budget},
            "breakdown": [line.to_dict() for line in self.breakdown],
            "findings": [f.to_dict(lang) for f in self.findings],
        }


@dataclass
class CheckReport:
    """Reports of every file checked; valid only when no file has an error."""

    files: list[FileReport] = field(default_factory=list)
    party: Any = None  # mailgear PartyLevel when pilot sheets were checked together

    @property
    def valid(self) -> bool:
        return all(f.valid for f in self.files)

    @property
    def unreadable(self) -> bool:
        return any(f.system is None and any(x.code == "INPUT_UNREADABLE" for x in f.findings)
                   for f in self.files)

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "files": [f.to_dict(lang) for f in self.files]}
        if self.party is not None:
            out["party"] = self.party.to_dict(lang)
        return out


def check_document(doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
                   path: str = "", context: Mapping[str, Any] | None = None) -> FileReport:
    """Schema findings plus the engine's, one finding per problem, errors first.

    ``context`` holds the engine's extra inputs: a mailgear ``catalog``, a pp ``skills`` list."""
    from .schema import validate

    system = doc.get("system")
    report = FileReport(path=path, system=system if isinstance(system, str) else None,
                        document=dict(doc))
    if system not in system_ids():
        report.findings.append(Finding("DOC_SYSTEM_UNKNOWN", "/system",
                                       {"value": system, "choices": system_ids()}))
        return report
    spec = get_system(system)
    fmt = doc.get("format")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > spec.format:
        report.findings.append(Finding("DOC_FORMAT_NEWER", "/format",
                                       {"value": fmt, "supported": spec.format}))
        return report
    schema_findings = validate(doc, system)
    pricing = spec.price_with(doc, options, context)
    engine_at = {f.pointer for f in pricing.findings if f.level is Severity.ERROR}
    # The engine's message is the better one (Japanese, with a hint): keep one per place. A
    # missing field is the schema's at its parent; the engine's at the field itself.
    kept = [f for f in schema_findings if f.pointer not in engine_at
            and not (f.code == "SCHEMA_REQUIRED" and f"{f.pointer}/{f.params.get('field')}" in engine_at)]
    report.findings = _ordered(kept + pricing.findings)
    if not pricing.complete:
        report.findings.append(Finding("ENGINE_INCOMPLETE"))
    # A system without point costs (mailgear) has no total to report.
    report.computed = pricing.total if pricing.lines or pricing.budget is not None else None
    report.declared = pricing.declared
    report.budget = pricing.budget
    report.breakdown = list(pricing.lines)
    report.derived = dict(pricing.derived)
    return report


def _ordered(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (_LEVEL_ORDER[f.level], f.pointer))


def check_path(path: Path, options: Mapping[str, str] | None = None,
               context: Mapping[str, Any] | None = None) -> FileReport:
    """Read and check one file; an unreadable file becomes a report with INPUT_UNREADABLE."""
    from .documents import load_json_document
    from .sheets import SHEET_SUFFIXES

    try:
        if path.suffix.lower() in SHEET_SUFFIXES:
            return _check_sheet(path, options, context)
        doc = load_json_document(path)
    except InputError as exc:
        return FileReport(path=str(path), system=None,
                          findings=[Finding("INPUT_UNREADABLE", "", {"reason": str(exc)})])
    if _is_catalog(doc):
        from .rules.mailgear.catalog import Catalog

        return _catalog_report(str(path), Catalog.from_data(doc, source=str(path)))
    return check_document(doc, options, str(path), context)


def _is_catalog(doc: Mapping[str, Any]) -> bool:
    """A group's catalog (mailgear), not a document: it has ``catalog`` and no ``system``."""
    return "catalog" in doc and "system" not in doc


CATALOG_SYSTEM = "mailgear-catalog"


def _catalog_report(path: str, catalog: Any) -> FileReport:
    """A catalog checked on its own: its findings (with cells, for a catalog sheet)."""
    return FileReport(path=path, system=CATALOG_SYSTEM, findings=_ordered(catalog.findings))


def _check_sheet(path: Path, options: Mapping[str, str] | None,
                 context: Mapping[str, Any] | None) -> FileReport:
    """A workbook: read by defined names, checked, every finding placed at its cell. What the
    workbook holds for the engine (a catalog sheet) is used unless the caller gave its own."""
    from .sheets import cell_for, read_workbook

    got = read_workbook(path)
    own_catalog = got.context.get("catalog")
    if own_catalog is not None and _pilot_free(got.document):  # a catalog workbook, no pilot
        return _catalog_report(str(path), own_catalog)
    merged = {**got.context, **{k: v for k, v in (context or {}).items() if v is not None}}
    report = check_document(got.document, options, str(path), merged)
    report.cells = dict(got.cells)
    report.context = merged
    # The workbook's own catalog sheet is checked too, unless the caller named another catalog.
    catalog_findings = list(own_catalog.findings) if own_catalog is not None and merged.get("catalog") is own_catalog else []
    report.findings = _ordered([f.at(cell=f.cell or cell_for(f.pointer, got.cells))
                                for f in got.findings + report.findings] + catalog_findings)
    return report


def _pilot_free(doc: Mapping[str, Any]) -> bool:
    """Nothing but identity and empty tables: a workbook that only carries a catalog."""
    return not any(v not in (None, "", [], {}) for k, v in doc.items() if k not in ("system", "format"))


INPUT_SUFFIXES = (".json", ".xlsx", ".xlsm")
# Folders of known-bad examples: skipped when a parent folder is searched, checked when named.
SKIPPED_FOLDERS = ("broken",)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files named, and the documents inside folders named (sorted, recursive).

    In a folder, hidden entries and sub-folders named ``broken`` are passed over; name them
    directly to check them. Catalog files are checked as catalogs."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*")
                              if q.is_file() and q.suffix.lower() in INPUT_SUFFIXES
                              and not any(part.startswith(".") or part in SKIPPED_FOLDERS
                                          for part in q.relative_to(p).parts[:-1])
                              and not q.name.startswith((".", "~$"))))
        else:
            out.append(p)
    return out


def check_paths(paths: Iterable[str | Path], options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None) -> CheckReport:
    """Check every file, then what only a set of files can show: transformation sets (up) and
    the party's unit level (mailgear)."""
    report = CheckReport([check_path(p, options, context) for p in expand_paths(paths)])
    _check_transformation_sets(report)
    _party_view(report, context)
    return report


def _party_view(report: CheckReport, context: Mapping[str, Any] | None) -> None:
    """Party unit level over the pilot sheets checked together (seed 001, ユニット・レベル)."""
    from .rules.mailgear.party import party_unit_level

    pilots, seen = [], set()
    for fr in report.files:
        if fr.system != "mailgear" or not fr.document:
            continue
        pilot = fr.document.get("pilot") if isinstance(fr.document.get("pilot"), Mapping) else {}
        key = (str(pilot.get("name")), str(pilot.get("player")))
        if key in seen:  # the same pilot as JSON and as a filled sheet counts once
            continue
        seen.add(key)
        pilots.append(fr.document)
    if pilots:
        # The catalog named on the command line, else the first one a pilot workbook carries.
        catalog = (context or {}).get("catalog") or next(
            (fr.context["catalog"] for fr in report.files if fr.context.get("catalog") is not None), None)
        report.party = party_unit_level(pilots, catalog)


def _check_transformation_sets(report: CheckReport) -> None:
    """Each form's listed UP against that form's own file (seed 000, 変形)."""
    from .rules.pricing import Pricing
    from .rules.up.sets import check_transformation_sets
    from .sheets import cell_for

    members = [fr for fr in report.files if fr.system == "up" and fr.document is not None]
    items = [(fr.document, Pricing(lines=list(fr.breakdown),
                                   complete=not any(f.code == "ENGINE_INCOMPLETE" for f in fr.findings)))
             for fr in members]
    for index, finding in check_transformation_sets(items):
        fr = members[index]
        fr.findings = _ordered(fr.findings + [finding.at(cell=cell_for(finding.pointer, fr.cells))])
