"""The audit report: every member's check with what the audit added, and the folder's views
(roster, duplicates, party), as one JSON document (its schema generated like the others)."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..check import CheckReport, FileReport
from ..core.findings import Finding, Severity
from ..core.source import UNREADABLE
from ..imports.roster import roster_frame
from ..legacy.sources import ImportRecord
from .house import HouseRules

AUDIT_FORMAT = 1
EXIT_CLEAN, EXIT_ERRORS, EXIT_NOTHING_READ = 0, 1, 2
DRIFT_CODES = ("AUDIT_FORMULA_REPLACED", "AUDIT_FORMULA_ALTERED")
OLD_TEMPLATE_CODE = "AUDIT_TEMPLATE_OLD"

#: the roster's columns, in order (one row per member)
ROSTER_COLUMNS = ("file", "sheet", "system", "name", "player", "source", "template", "computed", "declared",
                  "budget", "figure", "errors", "warnings", "infos", "approved", "drift")


@dataclass(slots=True)
class AuditMember:
    """One character or unit audited: its check report and what the folder's views read."""

    report: FileReport
    record: ImportRecord | None  # where in a homemade workbook it was read (None: ours or JSON)
    name: str | None
    player: str | None
    figure: float | None  # the party's figure (party.toml)
    approvals: tuple[Any, ...] = ()  # the sheet's own GM承認 rows (house.Approval)

    @property
    def readable(self) -> bool:
        return self.report.kind != UNREADABLE

    def row(self) -> dict[str, Any]:
        """The member's roster row (ROSTER_COLUMNS)."""
        fr, rec = self.report, self.record
        levels = [f.level for f in fr.findings]
        return {"file": rec.file if rec is not None else fr.path,
                "sheet": rec.sheet if rec is not None else None,
                "system": fr.system, "name": self.name, "player": self.player,
                "source": fr.origin.kind, "template": fr.origin.template or fr.origin.profile,
                "computed": fr.computed, "declared": fr.declared, "budget": fr.budget, "figure": self.figure,
                "errors": levels.count(Severity.ERROR), "warnings": levels.count(Severity.WARNING),
                "infos": levels.count(Severity.INFO),
                "approved": sum(1 for f in fr.findings if approval(f) is not None),
                "drift": sum(1 for f in fr.findings if f.code in DRIFT_CODES)}


@dataclass(slots=True)
class AuditedFile:
    """One file of the folder: its content's digest (duplicates) and the members it holds."""

    path: str
    sha256: str | None
    members: list[AuditMember] = field(default_factory=list)
    annotated: str | None = None  # its annotated copy, once written
    losses: list[Any] = field(default_factory=list)  # what that copy could not carry (annotate.Loss)
    annotation_failed: str | None = None  # why no copy could be made


def approval(finding: Finding) -> dict[str, str] | None:
    """Who approved a finding the house rules accept, or None."""
    by = finding.params.get("approved_by")
    if by is None:
        return None
    return {"by": str(by), "note": str(finding.params.get("approved_note", "")),
            "severity": str(finding.params.get("approved_severity", "")),
            "from": str(finding.params.get("approved_from", "house"))}


@dataclass
class AuditReport:
    files: list[AuditedFile]
    check: CheckReport  # the members' reports, with the set checks run
    house: HouseRules
    options: dict[str, str]  # the readings in force from --rule and the house rules
    party: dict[str, Any]  # system → its party view (party.py)
    approved: int = 0
    duplicates: list[dict[str, Any]] = field(default_factory=list)  # duplicates.duplicate_groups

    @property
    def members(self) -> list[AuditMember]:
        return [m for f in self.files for m in f.members]

    @property
    def exit_code(self) -> int:
        members = self.members
        if not members or not any(m.readable for m in members):
            return EXIT_NOTHING_READ
        return EXIT_CLEAN if self.check.valid else EXIT_ERRORS

    def summary(self) -> dict[str, int]:
        members = self.members
        findings = [f for m in members for f in m.report.findings]
        return {**self.check.summary(), "files": len(self.files), "members": len(members),
                "unreadable": sum(1 for m in members if not m.readable),
                "approved": self.approved,
                "drift": sum(1 for f in findings if f.code in DRIFT_CODES),
                "old_templates": sum(1 for f in findings if f.code == OLD_TEMPLATE_CODE),
                "duplicates": len(self.duplicates)}

    def roster(self) -> list[dict[str, Any]]:
        return [m.row() for m in self.members]

    def roster_frame(self):
        """The roster as a pandas DataFrame (the xlsx and HTML reports' table)."""
        return roster_frame(self.roster(), ROSTER_COLUMNS)

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        files = []
        for audited in self.files:
            for m in audited.members:
                entry = m.report.to_dict(lang)
                for out, f in zip(entry["findings"], m.report.findings, strict=True):
                    approved = approval(f)
                    if approved is not None:
                        out["approved"] = approved
                rec = m.record
                entry["audit"] = {"file": audited.path, "sha256": audited.sha256,
                                  "sheet": rec.sheet if rec is not None else None,
                                  "region": rec.region if rec is not None else None,
                                  "confidence": rec.confidence if rec is not None else None,
                                  "name": m.name, "player": m.player, "figure": m.figure,
                                  "annotated": audited.annotated,
                                  "annotation_failed": audited.annotation_failed,
                                  "losses": [loss.to_dict() for loss in audited.losses]}
                files.append(entry)
        head = self.check.to_dict(lang, files)
        return {**head, "kind": "audit", "format": AUDIT_FORMAT, "lang": lang,
                "house": self.house.to_dict() if self.house.path else None,
                "summary": self.summary(), "files": files, "roster": self.roster(),
                "duplicates": self.duplicates, "party": self.party}


def build_audit_schema() -> dict[str, Any]:
    """The JSON Schema of the audit's JSON report (schemas/audit-report.schema.json): the check
    report's, each file with its ``audit`` object and approved findings, plus the folder's views."""
    from ..check.report import build_report_schema

    schema = copy.deepcopy(build_report_schema())
    schema["$id"] = "https://mechasheet.invalid/schemas/audit-report.schema.json"
    schema["title"] = "mechasheet: audit report (mechasheet audit -o REPORT.json)"
    schema["description"] = ("Generated by converter.audit.report.build_audit_schema "
                             "(`mechasheet schema audit-report`). Do not edit.")
    props = schema["properties"]
    entry = props["files"]["items"]
    finding = entry["properties"]["findings"]["items"]
    finding["properties"]["approved"] = {
        "type": "object", "required": ["by", "note", "severity", "from"],
        "properties": {"by": {"type": "string"}, "note": {"type": "string"},
                       "from": {"enum": ["house", "sheet"],
                                "description": "the house rules file, or the sheet's GM承認 table"},
                       "severity": {"enum": ["error", "warning", ""],
                                    "description": "the severity before the approval"}},
        "additionalProperties": False}
    text_or_null = {"type": ["string", "null"]}
    number_or_null = {"type": ["number", "null"]}
    int_or_null = {"type": ["integer", "null"]}
    entry["required"] = [*entry["required"], "audit"]
    entry["properties"]["audit"] = {
        "type": "object", "required": ["file", "sha256", "sheet", "region", "confidence", "name", "player", "figure",
                                       "annotated", "annotation_failed", "losses"],
        "properties": {"file": {"type": "string"}, "sha256": text_or_null, "sheet": text_or_null,
                       "region": text_or_null, "confidence": number_or_null, "name": text_or_null,
                       "player": text_or_null, "figure": number_or_null,
                       "annotated": {"type": ["string", "null"], "description": "the annotated copy written"},
                       "annotation_failed": {"type": ["string", "null"],
                                             "description": "why no annotated copy could be made"},
                       "losses": {"type": "array", "description": "what the annotated copy could not carry",
                                  "items": {"type": "object", "required": ["code", "count", "ja", "en"],
                                            "properties": {"code": {"type": "string"},
                                                           "count": {"type": "integer", "minimum": 0},
                                                           "ja": {"type": "string"}, "en": {"type": "string"}},
                                            "additionalProperties": False}}},
        "additionalProperties": False}
    counts = {k: {"type": "integer", "minimum": 0}
              for k in ("members", "unreadable", "approved", "drift", "old_templates", "duplicates")}
    props["summary"]["properties"].update(counts)
    props["summary"]["required"] = [*props["summary"].get("required", []), *counts]
    row_types = {"file": {"type": "string"}, "computed": int_or_null, "declared": int_or_null,
                 "budget": int_or_null, "figure": number_or_null,
                 **{k: {"type": "integer", "minimum": 0}
                    for k in ("errors", "warnings", "infos", "approved", "drift")}}
    props["kind"] = {"const": "audit"}
    props["lang"] = {"enum": ["ja", "en"]}
    props["house"] = {"type": ["object", "null"], "description": "the house rules file in force"}
    props["roster"] = {"type": "array", "items": {
        "type": "object", "required": list(ROSTER_COLUMNS),
        "properties": {c: row_types.get(c, text_or_null) for c in ROSTER_COLUMNS},
        "additionalProperties": False}}
    props["duplicates"] = {"type": "array", "items": {
        "type": "object", "required": ["kind", "key", "files"],
        "properties": {"kind": {"enum": ["content", "name", "player"]}, "key": {"type": "string"},
                       "files": {"type": "array", "items": {"type": "string"}}},
        "additionalProperties": False}}
    props["party"] = {"type": "object", "description": "system → its party view",
                      "additionalProperties": {"type": "object",
                                               "required": ["figure", "members", "median", "tolerance", "outliers"]}}
    schema["required"] = [*schema.get("required", []), "kind", "lang", "house", "roster", "duplicates", "party"]
    return schema


def audit_schema_text() -> str:
    import json

    return json.dumps(build_audit_schema(), ensure_ascii=False, indent=2) + "\n"
