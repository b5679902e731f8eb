"""The human text form of a check report, as a GM reads it: per file a header line (name, system,
total / budget, status), its findings aligned by severity, coloured on a terminal; with
``breakdown`` every priced line and derived value in a table; a closing summary.

Rendered with rich (alignment by display width, so Japanese lines up; colour only when asked).
Info findings that only say a catalog table is missing are folded into one line per run.
"""
from __future__ import annotations

import io
import json
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator

from ..core.findings import Finding, Severity
from ..core.source import shown_name
from ..core.texts import texts
from .report import CheckReport, FileReport

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
FOLDED_CODES = ("MG_CATALOG_TABLE_MISSING",)


@dataclass(frozen=True)
class TextOptions:
    """How the text report is shown."""

    lang: str = "ja"
    breakdown: bool = False  # every priced line and derived value, in tables
    quiet: bool = False  # only files with errors (and the summary)
    color: bool = False  # ANSI colour (a terminal, and NO_COLOR unset)
    width: int | None = None  # None: the terminal's, or wide enough not to wrap when piped


def text_options(lang: str = "ja", **options: Any) -> TextOptions:
    return TextOptions(lang=lang if lang in ("ja", "en") else "ja", **options)


def render_text(report: CheckReport, lang: str = "ja", **options: Any) -> str:
    """The whole report as text (every file, the set checks, the folded notes, the summary)."""
    opts = text_options(lang, **options)
    return "".join(render_file(fr, opts) for fr in report.files) + render_tail(report, opts)


def render_tail(report: CheckReport, opts: TextOptions) -> str:
    """What follows the files: the set checks, the folded notes, the summary."""
    out = io.StringIO()
    console = _console(out, opts)
    _print_set_findings(console, report, opts)
    party = report.sets.get("mailgear.party")
    if party is not None:
        _print_party(console, party, opts)
    _print_folded(console, [fr for fr in report.files if any(f.code in FOLDED_CODES for f in fr.findings)],
                  opts)
    _print_summary(console, report, opts)
    return out.getvalue()


def render_as_ready(fr: FileReport, fmt: str, opts: TextOptions) -> str:
    """What a run prints of one file as soon as it is ready: its text lines, its JSON line
    (``jsonl``), or nothing (``json`` prints the whole report at the end)."""
    if fmt == "jsonl":
        return json.dumps(fr.to_dict(opts.lang), ensure_ascii=False) + "\n"
    return render_file(fr, opts) if fmt == "text" else ""


def render_end(report: CheckReport, fmt: str, opts: TextOptions) -> str:
    """What a run prints last: the text's tail, the whole JSON report, or JSON Lines' closing
    ``run`` line (the report without its files, with the set checks' findings)."""
    data = report.to_dict(opts.lang)
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "jsonl":
        head = {k: v for k, v in data.items() if k != "files"}
        head["set_findings"] = [{"path": path, **f.to_dict(opts.lang)} for path, f in report.set_findings]
        return json.dumps({"kind": "run", **head}, ensure_ascii=False) + "\n"
    return render_tail(report, opts)


def render_findings(findings: Iterable[Finding], opts: TextOptions) -> str:
    """Findings alone, aligned, with hints (``read`` prints what it found this way)."""
    out = io.StringIO()
    _print_findings(_console(out, opts), list(findings), opts)
    return out.getvalue()


def render_file(fr: FileReport, opts: TextOptions) -> str:
    """One file's lines (for output streamed as each file is checked)."""
    out = io.StringIO()
    _print_file(_console(out, opts), fr, opts)
    return out.getvalue()


def _console(out: io.StringIO, opts: TextOptions):
    from rich.console import Console

    return Console(file=out, force_terminal=opts.color, no_color=not opts.color,
                   color_system="standard" if opts.color else None, highlight=False,
                   emoji=False, markup=False, soft_wrap=opts.width is None,
                   width=opts.width or 200)


@lru_cache(maxsize=2)
def _words(lang: str) -> dict[str, str]:
    """The report's words in ``lang`` (``report_*`` of core/texts.toml), without the prefix."""
    return {k[7:]: v for k, v in texts(lang).items() if k.startswith("report_")}


def _points(fr: FileReport, lang: str) -> str:
    """What the system's points are called (seed 000 ＵＰ, seed 003 ＰＰ)."""
    w = _words(lang)
    return w.get(f"points_{fr.system}", w["points_other"])


def _header(fr: FileReport, opts: TextOptions):
    from rich.text import Text

    w = _words(opts.lang)
    text = Text()
    text.append(shown_name(fr.path), style="bold")  # an ESC or newline in a name never reaches the terminal
    text.append(": ")
    if fr.kind == "unreadable":
        text.append(w["unreadable"], style="bold red")
        return text
    status = w["ok"] if fr.valid else w["invalid"]
    text.append(status, style="green" if fr.valid else "bold red")
    details = []
    if fr.computed is not None:
        total = f"{w['total']} {fr.computed}"
        if fr.budget is not None:
            total += f" / {w['budget'].format(points=_points(fr, opts.lang))} {fr.budget}"
        if fr.declared is not None:
            total += f", {w['declared']} {fr.declared}"
        details.append(total)
    label = w["catalog"] if fr.kind == "catalog" else fr.system
    if label:
        details.insert(0, label)
    if details:
        text.append(f" ({'; '.join(details)})")
    return text


def _print_file(console, fr: FileReport, opts: TextOptions) -> None:
    if opts.quiet and fr.valid:
        return
    console.print(_header(fr, opts))
    shown = [f for f in fr.findings if f.code not in FOLDED_CODES]
    _print_findings(console, shown, opts)
    if opts.breakdown and fr.evaluation is not None:
        _print_breakdown(console, fr, opts)


def _print_findings(console, findings: Iterable[Finding], opts: TextOptions, indent: str = "  ") -> None:
    """One line per finding, the severity and code columns padded to the same display width."""
    from rich.cells import cell_len
    from rich.text import Text

    w = _words(opts.lang)
    # a message may quote a file name or a value (other=..., a sheet's name): shown escaped
    rows = [(w[f.level.value], f.code, shown_name(f.cell or f.pointer or "-"), shown_name(f.message(opts.lang)),
             f.level, f) for f in findings]
    if not rows:
        return
    widths = [max(cell_len(str(r[k])) for r in rows) for k in range(3)]
    for level_word, code, where, message, level, finding in rows:
        line = Text(indent)
        line.append(level_word + " " * (widths[0] - cell_len(level_word)), style=_STYLE[level])
        line.append(" ")
        line.append(code + " " * (widths[1] - cell_len(code)), style="dim" if level is Severity.INFO else "")
        line.append(" ")
        line.append(where + " " * (widths[2] - cell_len(where)))
        line.append(" " + message)
        console.print(line)
        if level is not Severity.INFO:  # what to do about it, under the message
            hint = Text(indent + " " * (widths[0] + widths[1] + widths[2] + 3))
            hint.append("→ " + shown_name(finding.hint(opts.lang)), style="dim")
            console.print(hint)


def _print_breakdown(console, fr: FileReport, opts: TextOptions) -> None:
    """Every priced line (with the total) and every derived value, each in a table."""
    from rich import box
    from rich.table import Table

    w = _words(opts.lang)
    ev = fr.evaluation
    if ev is None:
        return
    if ev.lines:
        table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
        table.add_column(w["where"])
        table.add_column(w["item"])
        table.add_column(w["rule"])
        table.add_column(w["cost"].format(points=_points(fr, opts.lang)), justify="right")
        for line in ev.lines:
            table.add_row(line.pointer, line.item_in(opts.lang), line.rule_in(opts.lang), str(line.cost))
        table.add_row("", w["sum"], "" if ev.complete else w["incomplete"], str(ev.total),
                      style="bold")
        console.print(table)
    if ev.derived:
        table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
        table.add_column(w["where"])
        table.add_column(w["derived"])
        table.add_column(w["value"], justify="right")
        named = _id_labels(fr.system or "", opts.lang)
        for d in ev.derived.values():
            value = d.value_in(opts.lang)
            if isinstance(value, str):  # an id the tables name (reflex, piloting): the name
                value = named.get(value, value)
            table.add_row(d.pointer, d.label_in(opts.lang), "" if value is None else str(value))
        console.print(table)


@lru_cache(maxsize=None)
def _id_labels(system: str, lang: str) -> dict[str, str]:
    """Each id a system's tables name (an attribute, a skill) → its label in ``lang``, so that a
    derived value the engine keeps as an id (export reads it) is shown as the sheet names it."""
    from ..rules import system_ids
    from ..rules.tables_file import load_tables

    if system not in system_ids():
        return {}
    out: dict[str, str] = {}
    for rows in load_tables(system).values():
        if isinstance(rows, list):
            for row in rows:
                if isinstance(row, dict) and isinstance(row.get("id"), str) and isinstance(row.get("label"), str):
                    out.setdefault(row["id"], row.get("label_en") or row["label"] if lang == "en" else row["label"])
    return out


def _print_set_findings(console, report: CheckReport, opts: TextOptions) -> None:
    """What the set checks found in files already printed (a transformation form's listed UP)."""
    from rich.text import Text

    by_path: dict[str, list[Finding]] = {}
    for path, finding in report.set_findings:
        by_path.setdefault(path, []).append(finding)
    for path, findings in by_path.items():
        console.print(Text(shown_name(path), style="bold") + Text(": " + _words(opts.lang)["set"]))
        _print_findings(console, findings, opts)


def _print_party(console, party, opts: TextOptions) -> None:
    w = _words(opts.lang)
    if party.members:
        mean = f"{float(party.mean):.2f}".rstrip("0").rstrip(".")
        line = w["party"].format(members=party.members, mean=mean, floor=party.floor)
        line += w["unit_level"].format(level=party.unit_level) if party.unit_level is not None else ""
        console.print(line)
    _print_findings(console, [f for f in party.findings if f.code not in FOLDED_CODES], opts)


def _print_folded(console, files: list[FileReport], opts: TextOptions) -> None:
    """The catalog-table notes of the whole run in one line: which tables, in how many files."""
    if not files or opts.quiet:
        return
    from rich.text import Text

    w = _words(opts.lang)
    tables = dict.fromkeys(str(f.params.get("label") if opts.lang == "ja" else f.params.get("table"))
                           for fr in files for f in fr.findings if f.code in FOLDED_CODES)
    sep = "、" if opts.lang == "ja" else ", "
    line = Text()
    line.append(w["info"], style=_STYLE[Severity.INFO])
    line.append(" " + w["folded"].format(files=len(files), tables=sep.join(tables)))
    console.print(line)


def _print_summary(console, report: CheckReport, opts: TextOptions) -> None:
    s = report.summary()
    w = _words(opts.lang)
    given_files = [f for f in report.files if not f.counted]  # --catalog's file: not a file checked
    line = w["summary"].format(n=s["files"] - len(given_files),
                               bad=s["invalid"] - sum(1 for f in given_files if not f.valid),
                               errors=s["errors"], warnings=s["warnings"], infos=s["infos"])
    for given in given_files:
        levels = [x.level for x in given.findings]
        line += w["summary_given"].format(file=given.path, errors=levels.count(Severity.ERROR),
                                          warnings=levels.count(Severity.WARNING),
                                          infos=levels.count(Severity.INFO))
    console.print(line, style="bold" if report.valid else "bold red", markup=False)


PROGRESS_FROM = 6  # files: fewer finish before a bar would be worth drawing


class Progress(ExitStack):
    """The progress bar of a run that learns its total as it starts (``found``), ended with the
    context: a transient bar on standard error when it is a terminal and the run is long enough;
    nothing otherwise (piped, NO_COLOR is not asked)."""

    def __init__(self) -> None:
        super().__init__()
        self.advance: Callable[[], None] = lambda: None

    def found(self, total: int) -> None:
        import sys

        if total >= PROGRESS_FROM and getattr(sys.stderr, "isatty", lambda: False)():
            self.advance = self.enter_context(_progress_bar(total))


@contextmanager
def _progress_bar(total: int) -> Iterator[Callable[[], None]]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    with Bar(BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("check", total=total)
        yield lambda: progress.advance(task)
