"""Auditing a folder: every file read and checked in a worker, as ``check`` and ``import`` do, then
what only the whole folder shows (set checks, duplicates, the house rules, the party).

A workbook made from one of our templates is read by its names and its formulas compared with
its template version's (formula drift); any other workbook is read by its labels, as ``import``
reads it; a JSON document as ``check`` reads it. Each character or unit becomes a member.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..check import CheckReport, FileReport, check_source
from ..check.checker import ordered, run_set_checks
from ..core.findings import Finding, Severity
from ..core.source import Source
from ..io.files import file_digest
from ..io.sources import INPUT_SUFFIXES, expand_paths, read_source
from ..legacy.grid import SUFFIXES as WORKBOOK_SUFFIXES
from ..legacy.profile import Profile
from ..legacy.sources import ImportRecord, read_import
from ..imports.roster import who
from ..batch.checking import crashed
from ..batch.pool import Limits, Task, in_input_order, run_in_workers
from .duplicates import duplicate_findings, duplicate_groups
from .house import Approval, HouseRules, sheet_approvals
from .party import party_figure, party_views
from .report import AuditMember, AuditReport, AuditedFile

AUDIT_SUFFIXES = tuple(dict.fromkeys(INPUT_SUFFIXES + WORKBOOK_SUFFIXES))


def audit_file(path: Path, options: Mapping[str, str], context: Mapping[str, Any],
               profile: Profile | None = None, drift: bool = True, *, scan_first: bool = True) -> AuditedFile:
    """One file read and checked, every character or unit in it; never raises for what it holds."""
    digest = file_digest(path)  # a regular file only: a FIFO is never waited on (issue 33)
    members: list[AuditMember] = []
    pairs: list[tuple[Source, ImportRecord | None]] = (
        list(read_import(path, None, profile, scan_first=scan_first)) if path.suffix.lower() in WORKBOOK_SUFFIXES
        else [(read_source(path, scan_first=scan_first), None)])
    for source, record in pairs:
        report = check_source(source, options, context)
        if drift and report.origin.kind == "workbook" and report.document is not None:
            from .drift import formula_drift

            report.findings = ordered(report.findings + formula_drift(path, report.document))
        members.append(_member(report, record))
    return AuditedFile(str(path), digest, members)


def _member(report: FileReport, record: ImportRecord | None) -> AuditMember:
    """What the audit keeps of one checked character or unit: its report, and the few fields the folder's views read (name, player, the party's figure)."""
    doc = report.document or {}
    name, player = who(doc, report.system)
    figure = party_figure(report.system, doc, report.computed)
    return AuditMember(report, record, name, player, figure, sheet_approvals(doc))


def _crashed(path: Path, reason: str) -> AuditedFile:
    return AuditedFile(str(path), None, [AuditMember(crashed(path, reason), None, None, None, None)])


def audit_paths(paths: Iterable[str | Path], *, house: HouseRules | None = None,
                options: Mapping[str, str] | None = None, context: Mapping[str, Any] | None = None,
                profile: Profile | None = None, jobs: int = 1, limits: Limits | None = None,
                on_file: Callable[[AuditedFile], None] | None = None, isolate: bool = True) -> AuditReport:
    """Audit every file named (folders searched as ``check`` searches them: sub-folders named
    ``broken`` or ``legacy`` are read when named): each checked in a worker, then the folder's views. ``options`` (``--rule``)
    win over the house rules' readings, which win over each sheet's own; ``on_file`` is called
    with each file audited, in input order. Without ``isolate`` every file is read here (the
    browser page: Pyodide has no worker processes)."""
    house = house or HouseRules()
    files = expand_paths(paths, AUDIT_SUFFIXES)
    chosen = {**house.rules, **(options or {})}
    context = {k: v for k, v in (context or {}).items() if v is not None}
    audited: list[AuditedFile] = []

    def hand_on(item: AuditedFile) -> None:
        audited.append(item)
        if on_file is not None:
            on_file(item)

    task = Task(partial(audit_file, options=chosen, context=context, profile=profile), _crashed)
    if files:
        run_in_workers(files, list(range(len(files))), task, jobs, limits or Limits(), in_input_order(hand_on),
                       isolate=isolate)
    return finish(audited, house, chosen)


def finish(audited: list[AuditedFile], house: HouseRules, options: Mapping[str, str]) -> AuditReport:
    """The folder's views over the files audited: set checks, duplicates, house budgets, the
    party; then the GM's approvals turn the findings they name into info lines."""
    members = [m for f in audited for m in f.members]
    check = CheckReport([m.report for m in members], options=dict(options))
    run_set_checks(check)
    extra: list[tuple[int, Finding]] = []
    extra += duplicate_findings(audited, house)
    extra += _budget_findings(members, house)
    party, outliers = party_views(members, house, check.sets, extra)
    extra += outliers
    for index, finding in extra:
        report = members[index].report
        report.findings = ordered(report.findings + [finding.at(cell=report.cells.get(finding.pointer, ""))])
    approved = 0
    for m in members:
        m.report.findings, n = _approve(m.report.path, m.report.findings, house.approved + m.approvals)
        approved += n
    return AuditReport(audited, check, house, dict(options), party, approved, duplicate_groups(audited, house))


def _budget_findings(members: list[AuditMember], house: HouseRules) -> list[tuple[int, Finding]]:
    out = []
    for i, m in enumerate(members):
        total = m.report.computed
        budget = house.budget_for(m.report.system, m.player)
        if total is None or budget is None or total <= budget[0]:
            continue
        out.append((i, Finding("AUDIT_OVER_HOUSE_BUDGET", "", {
            "total": total, "budget": budget[0], "over": total - budget[0], "source": budget[1]})))
    return out


APPROVED_BY = "approved_by"  # the param an approved finding carries (and "approved_note")


def _approve(path: str, findings: list[Finding], approvals: tuple[Approval, ...]) -> tuple[list[Finding], int]:
    """Findings the house rules or the sheet's GM承認 table approve, as info lines that still
    show who approved them (the house rules first)."""
    if not approvals:
        return findings, 0
    out, n = [], 0
    for f in findings:
        rule = None
        if f.level is not Severity.INFO:
            rule = next((a for a in approvals if a.matches(path, f.code, f.pointer)), None)
        if rule is None:
            out.append(f)
            continue
        n += 1
        out.append(replace(f, severity=Severity.INFO,
                           params={**f.params, APPROVED_BY: rule.by, "approved_note": rule.note,
                                   "approved_severity": f.level.value, "approved_from": rule.origin}))
    return out, n
