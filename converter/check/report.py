"""The check report: one FileReport per input, the set checks' summaries, counts and version.

Its JSON form is described by ``schemas/report.schema.json`` (generated here by
:func:`build_report_schema`, stale-checked by a test like the document schemas).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..core.evaluation import CostLine, Derived, Evaluation
from ..core.findings import Finding, Severity, has_errors
from ..core.source import UNREADABLE, Origin
from ..core.version import __version__

REPORT_FORMAT = 1
#: where an option's value came from: the command line, the file itself (a sheet's ルール cells),
#: or the system's default
OPTION_FROM = ("rule", "file", "default")


@dataclass(slots=True)
class FileReport:
    """What one input file holds and what is wrong with it."""

    path: str
    system: str | None
    findings: list[Finding] = field(default_factory=list)
    kind: str = "document"  # document | catalog | unreadable | report
    origin: Origin = field(default_factory=lambda: Origin("json"))
    evaluation: Evaluation | None = None
    document: dict[str, Any] | None = None
    cells: dict[str, str] = field(default_factory=dict)  # pointer → cell, for sheets
    context: dict[str, Any] = field(default_factory=dict)  # the engine's extra inputs used
    options: dict[str, dict[str, str]] = field(default_factory=dict)  # name → {value, from}
    # False for the catalog --catalog named: its findings are reported, but it is the checks'
    # input, not a file checked (the text summary counts it apart; JSON: its kind, catalog)
    counted: bool = True

    @property
    def valid(self) -> bool:
        return not has_errors(self.findings)

    @property
    def computed(self) -> int | None:
        ev = self.evaluation
        # A system without point costs (mailgear) has no total to report.
        if ev is None or not ev.priced:
            return None
        return ev.total

    @property
    def declared(self) -> int | None:
        return self.evaluation.declared if self.evaluation is not None else None

    @property
    def budget(self) -> int | None:
        return self.evaluation.budget if self.evaluation is not None else None

    @property
    def breakdown(self) -> list[CostLine]:
        return list(self.evaluation.lines) if self.evaluation is not None else []

    @property
    def derived(self) -> dict[str, Derived]:
        return dict(self.evaluation.derived) if self.evaluation is not None else {}

    def value(self, pointer: str, default: Any = None) -> Any:
        """The derived value at ``pointer``, or ``default``."""
        return self.evaluation.value(pointer, default) if self.evaluation is not None else default

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {
            "path": self.path,
            "system": self.system,
            "kind": self.kind,
            "valid": self.valid,
            "complete": self.evaluation.complete if self.evaluation is not None else None,
            "source": self.origin.to_dict(),
            "options": self.options,
            "context": _context_dict(self.context),
            "totals": {"computed": self.computed, "declared": self.declared, "budget": self.budget},
            "breakdown": [line.to_dict(lang) for line in self.breakdown],
            "derived": {p: d.to_dict(lang) for p, d in self.derived.items()},
            "findings": [f.to_dict(lang) for f in self.findings],
        }


def _context_dict(context: dict[str, Any]) -> dict[str, Any]:
    """What the engine's extra inputs were, by name and origin (not their whole content)."""
    out: dict[str, Any] = {}
    catalog = context.get("catalog")
    if catalog is not None:
        out["catalog"] = {"name": catalog.name, "source": catalog.source, "valid": catalog.valid}
    skills = context.get("skills")
    if skills is not None:
        defs = list(skills)
        out["skills"] = {"count": len(defs),
                         "sources": sorted({getattr(d, "source", "") for d in defs})}
    return out


@dataclass
class CheckReport:
    """Reports of every file checked; valid only when no file has an error."""

    files: list[FileReport] = field(default_factory=list)
    sets: dict[str, Any] = field(default_factory=dict)  # set check name → its summary
    # (path, finding) the set checks added to files, in input order: a file printed as soon as
    # it was checked (text, JSON Lines) was printed before them
    set_findings: list[tuple[str, Finding]] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)  # the --rule readings given

    @property
    def valid(self) -> bool:
        return all(f.valid for f in self.files)

    @property
    def unreadable(self) -> bool:
        return any(f.kind == UNREADABLE for f in self.files)

    def summary(self) -> dict[str, int]:
        return tally([[x.level for x in f.findings] for f in self.files], self.sets)

    def to_dict(self, lang: str = "ja", files: list[Any] | None = None,
                summary: dict[str, int] | None = None) -> dict[str, Any]:
        """The report as JSON data; ``files``: the files' entries when the caller made them
        already (the audit's, which add to each), with their ``summary`` when this report does
        not hold them (an import's, let go once written)."""
        counts = self.summary() if summary is None else summary
        return {"format": REPORT_FORMAT, "version": __version__, "options": dict(self.options),
                "summary": counts, "valid": counts["invalid"] == 0,
                "files": [f.to_dict(lang) for f in self.files] if files is None else files,
                "sets": {name: s.to_dict(lang) for name, s in self.sets.items()}}


def tally(levels: Sequence[Sequence[Severity]], sets: Mapping[str, Any]) -> dict[str, int]:
    """A report's counts from each file's findings' ``levels``: the files, those with an error
    (invalid), and the findings of each level, the set checks' summaries' included."""
    counts = {"files": len(levels), "invalid": sum(1 for ls in levels if Severity.ERROR in ls),
              "errors": 0, "warnings": 0, "infos": 0}
    for level in [lv for ls in levels for lv in ls] + [x.level for s in sets.values()
                                                      for x in getattr(s, "findings", ())]:
        counts[level.value + "s"] += 1
    return counts


def build_report_schema() -> dict[str, Any]:
    """The JSON Schema of ``check --format json`` (schemas/report.schema.json)."""
    # One object for every finding: a file's and a set check's (mailgear.party) alike.
    finding = {"type": "object", "required": ["code", "severity", "pointer", "cell", "message", "hint"],
               "properties": {"code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
                              "severity": {"enum": [s.value for s in Severity]},
                              "pointer": {"type": "string"}, "cell": {"type": "string"},
                              "message": {"type": "string"},
                              "hint": {"type": "string", "description": "what to do about it"}},
               "additionalProperties": False}
    roll = {"type": "object", "required": ["dice", "sides", "fixed", "each"],
            "properties": {k: {"type": "integer"} for k in ("dice", "sides", "fixed", "each")},
            "additionalProperties": False}
    derived = {"type": "object", "required": ["label", "type", "value"],
               "properties": {"label": {"type": "string"},
                              "type": {"enum": ["integer", "number", "text", "boolean", "null", "roll"]},
                              "value": {"type": ["integer", "number", "string", "boolean", "null"]},
                              "roll": roll},
               "additionalProperties": False}
    line = {"type": "object", "required": ["pointer", "item", "rule", "cost"],
            "properties": {"pointer": {"type": "string"}, "item": {"type": "string"},
                           "rule": {"type": "string"}, "cost": {"type": "integer"}},
            "additionalProperties": False}
    nullable_int = {"type": ["integer", "null"]}
    file_report = {
        "type": "object",
        "required": ["path", "system", "kind", "valid", "complete", "source", "options", "context",
                     "totals", "breakdown", "derived", "findings"],
        "properties": {
            "path": {"type": "string"},
            "system": {"type": ["string", "null"]},
            "kind": {"enum": ["document", "catalog", "unreadable", "report"]},
            "valid": {"type": "boolean"},
            "complete": {"type": ["boolean", "null"],
                         "description": "false when some item could not be evaluated"},
            "source": {"type": "object", "required": ["kind"],
                       "properties": {"kind": {"enum": ["json", "workbook", "legacy", "file"]},
                                      "template": {"type": "string"}, "profile": {"type": "string"}},
                       "additionalProperties": False},
            "options": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["value", "from"],
                "properties": {"value": {"type": "string"}, "from": {"enum": list(OPTION_FROM)}},
                "additionalProperties": False}},
            "context": {"type": "object", "properties": {
                "catalog": {"type": "object", "properties": {"name": {"type": "string"},
                                                             "source": {"type": "string"},
                                                             "valid": {"type": "boolean"}}},
                "skills": {"type": "object", "properties": {"count": {"type": "integer"},
                                                            "sources": {"type": "array",
                                                                        "items": {"type": "string"}}}}}},
            "totals": {"type": "object", "required": ["computed", "declared", "budget"],
                       "properties": {"computed": nullable_int, "declared": nullable_int,
                                      "budget": nullable_int},
                       "additionalProperties": False},
            "breakdown": {"type": "array", "items": line},
            "derived": {"type": "object", "description": "JSON pointer → derived value",
                        "propertyNames": {"pattern": "^/"}, "additionalProperties": derived},
            "findings": {"type": "array", "items": finding},
        },
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://mechasheet.invalid/schemas/report.schema.json",
        "title": "mechasheet: check report (mechasheet check --format json)",
        "description": ("Generated by converter.check.report.build_report_schema "
                        "(`mechasheet schema report`). Do not edit."),
        "type": "object",
        "required": ["format", "version", "options", "summary", "valid", "files", "sets"],
        "properties": {
            "format": {"const": REPORT_FORMAT},
            "version": {"type": "string"},
            "options": {"type": "object", "description": "the --rule readings given",
                        "additionalProperties": {"type": "string"}},
            "summary": {"type": "object", "required": ["files", "invalid", "errors", "warnings", "infos"],
                        "properties": {k: {"type": "integer", "minimum": 0}
                                       for k in ("files", "invalid", "errors", "warnings", "infos")},
                        "additionalProperties": False},
            "valid": {"type": "boolean"},
            "files": {"type": "array", "items": file_report},
            "sets": {"type": "object", "description": "set check name → its summary",
                     "properties": {"mailgear.party": {
                         "type": "object",
                         "required": ["members", "total", "mean", "floor", "unit_level", "findings"],
                         "properties": {"members": {"type": "integer"}, "total": {"type": "integer"},
                                        "mean": {"type": ["number", "null"]}, "floor": nullable_int,
                                        "unit_level": {"type": ["string", "integer", "null"]},
                                        "findings": {"type": "array", "items": finding}},
                         "additionalProperties": False}}},
        },
        "additionalProperties": False,
    }
