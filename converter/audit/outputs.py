"""Writing an audit: the annotated copies first (what each copy loses goes into the reports),
then each report by its name's suffix (.json, .xlsx, .html), one after another. Every file is
written whole or not at all (``io.files.write_atomic``) and never over an input; every name is
checked before the audit reads a file (:func:`check_report_names`, :func:`copy_targets`)."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..core.errors import OutputError
from ..core.findings import Finding
from ..io.files import Inputs, utf8, write_atomic
from .annotate import Loss, copy_suffix
from .report import AuditReport


def json_report_text(data: dict[str, Any]) -> str:
    """The report as JSON with one top-level key a line and one element of each list a line
    (a file, a roster row): as easy to read and diff as an indented dump, and written by
    json's C encoder (an indented dump is encoded in Python, several times slower)."""
    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n".join("    " + dumps(item) for item in value)
            lines.append(f"  {dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _json_bytes(report: AuditReport, lang: str) -> bytes:
    return utf8(json_report_text(report.to_dict(lang)))  # a name not in UTF-8 as \udc83 (issue 33)


def _xlsx_bytes(report: AuditReport, lang: str) -> bytes:
    from .xlsx_report import xlsx_report_bytes

    return xlsx_report_bytes(report, lang)


def _html_bytes(report: AuditReport, lang: str) -> bytes:
    from .html_report import html_report_bytes

    return html_report_bytes(report, lang)


#: a report's suffix → what writes it
REPORT_KINDS: dict[str, Callable[[AuditReport, str], bytes]] = {
    ".json": _json_bytes, ".xlsx": _xlsx_bytes, ".html": _html_bytes}


def check_report_names(outputs: Iterable[str | Path], inputs: Inputs | None = None,
                       force: bool = False) -> list[Path]:
    """The reports asked for; an OutputError for a name no writer takes (OUTPUT_REPORT_KIND)
    and, with ``inputs``, for a report that is an input or (without ``force``) exists already:
    before anything is read."""
    out = []
    for name in outputs:
        p = Path(name)
        if p.suffix.lower() not in REPORT_KINDS:
            raise OutputError(f"{p}: a report's name must end in .html, .xlsx or .json",
                              "OUTPUT_REPORT_KIND", path=str(p))
        if inputs is not None:
            inputs.refuse(p, force)
        out.append(p)
    return out


def refuse_twice(targets: Sequence[Path]) -> None:
    """An OutputError before any work when two outputs are one file (``-o a.json -o ./a.json``,
    a report among the copies, ``x.xls`` and ``x.xlsx`` both copied to ``x.xlsx``): the
    second would fail once the first was written."""
    seen: dict[str, Path] = {}
    for target in targets:
        try:
            key = str(target.resolve())
        except (OSError, RuntimeError):
            key = os.path.abspath(target)
        key = os.path.normcase(key)
        if key in seen:
            raise OutputError(f"{target}: named twice as an output (the same file as {seen[key]})",
                              "OUTPUT_TWICE", file=str(target), other=str(seen[key]))
        seen[key] = target


def annotated_name(path: str | Path, root: Path, folder: Path) -> Path:
    """Where the annotated copy of the workbook at ``path`` goes: its place under the inputs'
    common folder ``root``, inside ``folder``, as .xlsx (an .xlsm's copy keeps .xlsm, with its
    macros)."""
    p = Path(path)
    try:
        relative = p.resolve().relative_to(root)
    except ValueError:
        relative = Path(p.name)
    return folder / relative.with_suffix(copy_suffix(p))


def copy_targets(paths: Sequence[Path], folder: Path, inputs: Inputs, force: bool = False) -> dict[str, Path]:
    """Each workbook's annotated copy (by the workbook's path as given), under ``folder`` as it
    lies under the workbooks' common folder; an OutputError before any work for a copy that
    would be an input or (without ``force``) replace a file."""
    from ..legacy.grid import SUFFIXES

    workbooks = [p for p in paths if p.suffix.lower() in SUFFIXES]
    if not workbooks:
        return {}
    root = Path(os.path.commonpath([str(p.resolve().parent) for p in workbooks]))
    targets = {str(p): annotated_name(p, root, folder) for p in workbooks}
    for target in targets.values():
        inputs.refuse(target, force)
    return targets


def write_annotated(report: AuditReport, targets: dict[str, Path], lang: str = "ja", force: bool = False,
                    jobs: int = 1, isolate: bool = True) -> list[Path]:
    """An annotated copy of every readable workbook audited, to its target
    (:func:`copy_targets`), each made and written in a worker (here without ``isolate``); each
    copy's losses (none for a package edited directly), or why it could not be made, are
    recorded on its file."""
    from functools import partial

    from ..batch.pool import Limits, Task, run_in_workers

    workbooks = [f for f in report.files if f.path in targets and any(m.readable for m in f.members)]
    if not workbooks:
        return []
    plan = {f.path: ([x for m in f.members for x in m.report.findings], targets[f.path]) for f in workbooks}

    def done(index: int, got: tuple[list[Loss], str | None]) -> None:
        audited = workbooks[index]
        audited.losses, audited.annotation_failed = got
        if audited.annotation_failed is None:
            audited.annotated = str(targets[audited.path])

    task = Task(partial(_annotate_one, plan=plan, lang=lang, force=force), _annotation_crashed)
    paths = [Path(f.path) for f in workbooks]
    run_in_workers(paths, list(range(len(paths))), task, jobs, Limits(), done,
                   isolate=isolate)
    return [Path(f.annotated) for f in workbooks if f.annotated is not None]


def _annotate_one(path: Path, *, plan: dict[str, tuple[list[Finding], Path]], lang: str,
                  force: bool, scan_first: bool = True) -> tuple[list[Loss], str | None]:
    """A worker's annotated copy of the workbook at ``path``: its losses, or why it could not
    be made (a workbook that cannot be copied is said in the report, never a crash).
    ``scan_first`` (every worker task is given it) changes nothing here."""
    from .annotate import annotate

    findings, target = plan[str(path)]
    try:
        return annotate(path, findings, target, lang, force=force), None
    except Exception as exc:
        return [], f"{type(exc).__name__}: {exc}"


def _annotation_crashed(path: Path, reason: str) -> tuple[list[Loss], str | None]:
    return [], reason


def write_reports(report: AuditReport, outputs: list[Path], lang: str = "ja", force: bool = False,
                  inputs: Inputs | None = None) -> list[Path]:
    """Each report, written whole or not at all, one after another."""
    return [write_atomic(p, REPORT_KINDS[p.suffix.lower()](report, lang), force=force, inputs=inputs or ())
            for p in outputs]
