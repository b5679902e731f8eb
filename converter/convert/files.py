"""The CLI's front end for a conversion: a sheet or JSON document read, the result written as
.json or .xlsx (atomically, never over an input), the account rendered as text.

io and sheets are imported inside the functions that need them (the package imports core and
rules only at module level).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.findings import Finding
from ..core.texts import texts
from .conversion import Conversion

SHEET_SUFFIXES = (".xlsx", ".xlsm")
OUTPUT_SUFFIXES = (".json", *SHEET_SUFFIXES)


def read_document(path: str | Path) -> tuple[dict[str, Any], Any]:
    """(the document, the catalog its workbook holds if any) of a JSON file or one of our sheets."""
    p = Path(path)
    if p.suffix.lower() in SHEET_SUFFIXES:
        from ..sheets import read_workbook

        got = read_workbook(p)
        return got.document, got.context.get("catalog")
    from ..io.files import load_json_document

    return load_json_document(p), None


def load_catalog(path: str | Path | None) -> Any:
    if not path:
        return None
    from ..sheets.source import load_catalog as _load

    return _load(path)


def convert_file(src: str | Path, to: str, output: str | Path | None = None, mapping: str | None = None,
                 catalog: str | None = None, force: bool = False, lang: str = "ja") -> tuple[Conversion, Path | None]:
    """`mechasheet convert`: SRC's document in ``to``'s system, written at ``output`` when given
    (never over an input); the conversion and where it went."""
    from . import convert
    from ..io.files import refuse_inputs

    inputs = [str(p) for p in (src, mapping, catalog) if p]
    if output:
        refuse_inputs(output, inputs)
    doc, own_catalog = read_document(src)
    chosen = load_catalog(catalog) or own_catalog
    result = convert(doc, to=to, mapping=mapping, catalog=chosen)
    errors = source_errors(doc, chosen)
    if errors:  # converted all the same, but the GM is told (the CLI exits 1)
        result.findings.insert(0, Finding("CONVERT_SOURCE_ERRORS", "", {"file": str(src), "count": len(errors),
                                                                       "codes": sorted(set(errors))[:10]}))
    return result, write_output(result, output, inputs, force, chosen, lang) if output else None


def source_errors(doc: Any, catalog: Any = None) -> list[str]:
    """The codes of the errors the source's own check finds (a sheet with errors converts, said so)."""
    from ..check import check_document

    context = {}
    if catalog is not None and doc.get("system") == "mailgear":
        from ..rules.mailgear.catalog import as_catalog

        context["catalog"] = as_catalog(catalog)
    report = check_document(dict(doc), None, "", context)
    return [f.code for f in report.findings if f.level.value == "error"]


def write_output(conversion: Conversion, path: str | Path, inputs: list[str], force: bool = False,
                 catalog: Any = None, lang: str = "ja") -> Path:
    """The converted document as JSON or as the target's filled template, written whole or not
    at all, never replacing an input."""
    from ..io.files import dump_document, write_atomic

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise InputError(f"{p}: the output must end in {', '.join(OUTPUT_SUFFIXES)}", "CONVERT_OUTPUT_SUFFIX",
                         file=str(p), allowed=list(OUTPUT_SUFFIXES))
    if suffix == ".json":
        return write_atomic(p, dump_document(conversion.document), force, inputs=inputs)
    return write_atomic(p, workbook_bytes(conversion, catalog, lang), force, inputs=inputs)


def workbook_bytes(conversion: Conversion, catalog: Any = None, lang: str = "ja") -> bytes:
    """The target's filled template with the account as a visible 変換メモ sheet after its own
    sheets (an appendix given to the writer: the template and the reader stay as they are)."""
    from ..sheets import sheet_bytes
    from ..sheets.writer import Appendix
    from .memo import TITLE, WIDTHS, memo_rows

    context = {"catalog": catalog} if catalog is not None and conversion.target_system == "mailgear" else None
    rows, headings = memo_rows(conversion, lang)
    return sheet_bytes(conversion.document, None, context, Appendix(TITLE, rows, WIDTHS, headings))


def _finding_line(f: Finding, lang: str) -> str:
    """A finding as one line, its severity in the reader's language (警告, not warning)."""
    where = f" {f.pointer}" if f.pointer else ""
    return f"  [{texts(lang)['report_' + f.level.value]}]{where} {f.message(lang)}\n"


def _authority(source: str, t: dict[str, str]) -> str:
    """An anchor's authority in the reader's words: the tool's proposal and the catalog said in
    the run's language, a seed's line as it is."""
    return "; ".join(t.get(f"convert_authority_{part}", part) for part in source.split("; "))


def _grouped(entries: list[Any], lang: str) -> list[str]:
    """The entries of one side, one reason per group: each (kind, row) once, with the pointers it
    covers beneath it (wrapped), in the order they first appear."""
    t = texts(lang)
    groups: dict[tuple[str, str], list[str]] = {}
    for e in entries:
        how = e.row.how(lang) if e.row is not None else t["convert_unlisted"]
        groups.setdefault((e.kind, how), []).append(e.pointer)
    out = []
    for (kind, how), pointers in groups.items():
        out.append(f"  {t['convert_kind_' + kind]:<6} {how}\n")
        line = "      "
        for ptr in pointers:
            if len(line) + len(ptr) > 100 and line.strip():
                out.append(line.rstrip() + "\n")
                line = "      "
            line += ptr + " "
        out.append(line.rstrip() + "\n")
    return out


def render_text(conversion: Conversion, lang: str = "ja") -> str:
    """The account as a terminal reads it: anchors, the source and target fields grouped by their
    kind and reason (each reason once), the conversion's findings, the target engine's findings
    and the GM's decisions; the count of what the GM decides covers all three."""
    t = texts(lang)
    acc = conversion.account
    out = [t["convert_heading"].format(source=acc.source_system, target=acc.target_system) + "\n"]
    if acc.anchors:
        out.append(t["convert_anchors"] + "\n")
        for a in acc.anchors:
            values = " / ".join(f"{v:g}" for v in a.values)
            out.append(f"  {a.system:<8} {a.quantity:<10} {a.field:<32} {values}  ({_authority(a.source, t)})\n")
    for side in ("source", "target"):
        counts = ", ".join(f"{t['convert_kind_' + k]} {n}" for k, n in acc.counts(side).items())
        out.append(t[f"convert_{side}_fields"].format(counts=counts) + "\n")
        out.extend(_grouped(acc.source if side == "source" else acc.target, lang))
    if conversion.findings:
        out.append(t["convert_findings"] + "\n")
        out.extend(_finding_line(f, lang) for f in conversion.findings)
    checked = conversion.to_decide
    total = conversion.total
    decide = (len(checked) + len(acc.decisions)
              + sum(1 for f in conversion.findings if f.level.value != "info"))
    out.append(t["convert_checked"].format(system=acc.target_system,
                                           total="—" if total is None else total, count=decide) + "\n")
    out.extend(_finding_line(f, lang) for f in checked)
    if acc.decisions:
        out.append(t["convert_decisions"] + "\n")
        out.extend(f"  {k}. {d['en' if lang == 'en' else 'ja']}\n" for k, d in enumerate(acc.decisions, 1))
    return "".join(out)


def result_text(conversion: Conversion, written: Path | None, lang: str = "ja", form: str = "text") -> str:
    """What ``mechasheet convert`` prints: the account and where the document went; or both as JSON
    (``form`` "json", the document itself when it was not written)."""
    if form == "json":
        import json

        out = {"conversion": conversion.to_dict(lang), "output": str(written) if written else None}
        if written is None:
            out["document"] = conversion.document
        return json.dumps(out, ensure_ascii=False, indent=2) + "\n"
    t = texts(lang)
    return render_text(conversion, lang) + (t["convert_written"].format(path=written) if written
                                            else t["convert_not_written"]) + "\n"
