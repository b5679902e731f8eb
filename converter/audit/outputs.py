"""Writing an audit: the annotated copies first (what each copy loses goes into the reports),
then each report by its name's suffix (.json, .xlsx, .html), every file whole or not at all and
never over an input."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Iterable

from ..core.errors import OutputError
from ..io.files import Inputs, write_atomic
from .report import AuditReport


def _json_bytes(report: AuditReport, lang: str) -> bytes:
    return (json.dumps(report.to_dict(lang), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _xlsx_bytes(report: AuditReport, lang: str) -> bytes:
    from .xlsx_report import xlsx_report_bytes

    return xlsx_report_bytes(report, lang)


def _html_bytes(report: AuditReport, lang: str) -> bytes:
    from .html_report import html_report_bytes

    return html_report_bytes(report, lang)


#: a report's suffix → what writes it
REPORT_KINDS: dict[str, Callable[[AuditReport, str], bytes]] = {
    ".json": _json_bytes, ".xlsx": _xlsx_bytes, ".html": _html_bytes}


def check_report_names(outputs: Iterable[str | Path]) -> list[Path]:
    """The reports asked for; an OutputError (AUDIT_REPORT_KIND) for a name no writer takes,
    before anything is read."""
    out = []
    for name in outputs:
        p = Path(name)
        if p.suffix.lower() not in REPORT_KINDS:
            raise OutputError(f"{p}: a report's name must end in .html, .xlsx or .json",
                              "OUTPUT_REPORT_KIND", path=str(p))
        out.append(p)
    return out


def annotated_name(path: str, root: Path, folder: Path) -> Path:
    """Where the annotated copy of the workbook at ``path`` goes: its place under the inputs'
    common folder ``root``, inside ``folder``, always as .xlsx."""
    p = Path(path)
    try:
        relative = p.resolve().relative_to(root)
    except ValueError:
        relative = Path(p.name)
    return folder / relative.with_suffix(".xlsx")


def write_annotated(report: AuditReport, folder: Path, lang: str = "ja", force: bool = False,
                    inputs: Inputs | None = None) -> list[Path]:
    """An annotated copy of every workbook audited, under ``folder``; each copy's losses are
    recorded on its file in the report."""
    from .annotate import annotate

    from ..legacy.grid import SUFFIXES

    workbooks = [f for f in report.files if Path(f.path).suffix.lower() in SUFFIXES
                 and any(m.readable for m in f.members)]
    if not workbooks:
        return []
    root = Path(os.path.commonpath([str(Path(f.path).resolve().parent) for f in workbooks]))
    written = []
    for audited in workbooks:
        target = annotated_name(audited.path, root, folder)
        if target.exists() and not force:
            raise OutputError(f"{target}: exists (use --force to replace it)", "OUTPUT_EXISTS", file=str(target))
        findings = [f for m in audited.members for f in m.report.findings]
        audited.losses = annotate(Path(audited.path), findings, target, lang)
        audited.annotated = str(target)
        written.append(target)
    return written


def write_reports(report: AuditReport, outputs: list[Path], lang: str = "ja", force: bool = False,
                  inputs: Inputs | None = None) -> list[Path]:
    inputs = inputs or Inputs()
    return [write_atomic(p, REPORT_KINDS[p.suffix.lower()](report, lang), force=force, inputs=inputs)
            for p in outputs]
