"""The audit as one self-contained HTML page: the summary and the settings in force, the roster
(sortable and filterable by a few lines of inline script, readable without it), each sheet's
findings and its points spent by category against its budget, and each system's party chart.

Everything is inline (styles, script, charts as SVG text): the page opens from a file, fetches
nothing, and every text a sheet supplies goes through Jinja2's autoescape.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..core.texts import texts
from ..io.files import utf8
from .party import left_out_text
from .party_chart import Bar, party_chart_svg
from .report import ROSTER_COLUMNS, AuditMember, AuditReport
from .tables import duplicates_frame, member_finding_rows, roster_frame, settings_rows, summary_rows

if TYPE_CHECKING:
    import jinja2
    import pandas

TEMPLATE = "report.html.j2"
OUTLIER_CODE = "AUDIT_PARTY_OUTLIER"
STATUSES = ("error", "warning", "ok", "unreadable")
#: the roster's columns that hold numbers (sorted as numbers, aligned right)
NUMERIC_COLUMNS = frozenset(("computed", "declared", "budget", "figure", "errors", "warnings", "infos",
                             "approved", "drift"))
#: a category's colour in the spent bars, by its place among the report's categories
PALETTE = ("#4a78b5", "#e39c37", "#5aa469", "#c75d5d", "#8a6bbf", "#3fa7a3", "#b5835a", "#d77fb3",
           "#7f8c8d", "#a3b53f")


@dataclass(slots=True)
class Cell:
    """One table cell as the page shows it; ``number`` sorts it when it is one."""

    text: str
    number: float | None = None


@dataclass(slots=True)
class Segment:
    """Points spent on one category (the first segment of the priced lines' pointers)."""

    category: str
    label: str
    cost: int
    colour: str
    percent: float = 0.0


@dataclass(slots=True)
class MemberView:
    anchor: str
    title: str
    file: str
    subtitle: str
    status: str
    findings: list[dict[str, Any]]
    segments: list[Segment] = field(default_factory=list)
    computed: int | None = None
    budget: int | None = None
    budget_percent: float | None = None


def _cell(value: Any) -> Cell:
    """A DataFrame value as text (missing as empty), a number kept for sorting."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is _na():
        return Cell("")
    if isinstance(value, bool):
        return Cell(str(value))
    if isinstance(value, (int, float)) or hasattr(value, "__index__"):
        number = float(value)
        return Cell(f"{number:g}" if not number.is_integer() else str(int(number)), number)
    return Cell(str(value))


@lru_cache(maxsize=1)
def _na() -> Any:
    import pandas

    return pandas.NA


def frame_cells(frame: "pandas.DataFrame") -> list[list[Cell]]:
    """Every row of ``frame`` as cells, in order."""
    return [[_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]


def member_status(member: AuditMember) -> str:
    """What the roster filters on: unreadable, error, warning or ok (infos and approvals are ok)."""
    if not member.readable:
        return "unreadable"
    levels = {f.level.value for f in member.report.findings}
    return "error" if "error" in levels else "warning" if "warning" in levels else "ok"


def spent_by_category(member: AuditMember) -> dict[str, int]:
    """The member's priced lines summed by the first segment of their pointers (size, stats,
    weapons, attributes, ...), in the order the engine priced them."""
    out: dict[str, int] = {}
    for line in member.report.breakdown:
        category = line.pointer.strip("/").split("/", 1)[0] or "-"
        out[category] = out.get(category, 0) + line.cost
    return out


def _member_view(index: int, member: AuditMember, spent: dict[str, int], colours: dict[str, str],
                 lang: str) -> MemberView:
    t = texts(lang)
    fr, rec = member.report, member.record
    file = rec.file if rec is not None else fr.path
    where = file + (f" ({rec.sheet})" if rec is not None and rec.sheet else "")
    subtitle = t["audit_html_member_of"].format(system=fr.system or "-", player=member.player or "-")
    rows = member_finding_rows(member, lang)
    for row in rows:
        row["severity_text"] = t.get(f"report_{row['severity']}", row["severity"])
    view = MemberView(f"m-{index}", member.name or t["audit_html_unnamed"], where, subtitle,
                      member_status(member), rows, computed=fr.computed, budget=fr.budget)
    if spent:
        positive = sum(c for c in spent.values() if c > 0)
        scale = max(positive, fr.budget or 0, 1)
        view.segments = [Segment(k, t.get(f"audit_html_part_{k}", k), c, colours[k], 100 * max(c, 0) / scale)
                         for k, c in spent.items()]
        if fr.budget:
            view.budget_percent = 100 * fr.budget / scale
    return view


def party_charts(report: AuditReport, lang: str) -> list[dict[str, Any]]:
    """One chart per system of the party view, with its caption (median, outliers by name)."""
    return [{"anchor": f"party-{n}", "system": system, "caption": caption,
             "svg": party_chart_svg(system, view, bars, lang) if bars else None}
            for n, (system, view, caption, bars) in enumerate(party_captions(report, lang))]


def party_captions(report: AuditReport, lang: str) -> list[tuple[str, dict[str, Any], str, list[Bar]]]:
    """Each system's party view with its caption and its members' bars (no chart drawn: the
    browser page titles its tables with the captions, without matplotlib)."""
    t = texts(lang)
    captions = []
    sep = "、" if lang == "ja" else ", "
    for system, view in report.party.items():
        counted = {(x["file"], x["name"]) for x in view["members"]}  # each character once
        members = [m for m in report.members if m.readable and m.report.system == system
                   and (m.report.path, m.name) in counted]
        groups = [g for g in view.get("groups", []) if g["budget"] is not None]
        bars = [Bar(m.name or m.report.path, float(m.figure), m.report.budget if groups else None,
                    any(f.code == OUTLIER_CODE for f in m.report.findings))
                for m in members if m.figure is not None]
        figure = view["figure"].get(lang, view["figure"]["ja"])
        outliers = [b.label for b in bars if b.outlier]
        median = "-" if view.get("median") is None else f"{view['median']:g}"
        if len(groups) > 1:  # one median per budget: a 50 PP character is not compared with 150
            median = sep.join(t["audit_html_party_group_median"].format(
                median="-" if g["median"] is None else f"{g['median']:g}", budget=g["budget"], members=g["members"])
                for g in groups)
        caption = t["audit_html_party_caption"].format(
            figure=figure, median=median, tolerance=round(float(view.get("tolerance") or 0) * 100),
            outliers=sep.join(outliers) if outliers else t["audit_html_party_no_outlier"])
        if view.get("left_out"):
            caption += t["audit_html_party_left_out"].format(names=sep.join(
                left_out_text(x, lang) for x in view["left_out"]))
        captions.append((system, view, caption, bars))
    return captions


@lru_cache(maxsize=1)
def page_template() -> "jinja2.Template":
    """The page's Jinja2 template, compiled once a process."""
    import jinja2

    source = resources.files(__package__).joinpath("templates", TEMPLATE).read_text("utf-8")
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    return env.from_string(source)


def html_report_bytes(report: AuditReport, lang: str = "ja") -> bytes:
    """The whole folder's audit as one HTML page in ``lang``, UTF-8."""
    t = texts(lang)
    members = report.members
    spent = [spent_by_category(m) for m in members]
    categories = list(dict.fromkeys(k for s in spent for k in s))
    colours = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(categories)}
    roster = roster_frame(report, lang)
    rows = []
    for i, (m, cells) in enumerate(zip(members, frame_cells(roster), strict=True)):
        status = member_status(m)
        rows.append({"anchor": f"m-{i}", "system": m.report.system or "", "player": m.player or "",
                     "status": status, "cells": cells + [Cell(t[f"audit_html_status_{status}"])]})
    charts = party_charts(report, lang)  # each SVG inlined as it is: matplotlib escapes its text
    duplicates = duplicates_frame(report, lang)
    page = page_template().render(
        t=t, lang=lang, summary=summary_rows(report, lang), settings=settings_rows(report, lang),
        columns=list(roster.columns) + [t["audit_html_status"]],
        numeric=[c in NUMERIC_COLUMNS for c in ROSTER_COLUMNS] + [False], rows=rows,
        systems=sorted({r["system"] for r in rows if r["system"]}),
        players=sorted({r["player"] for r in rows if r["player"]}),
        statuses=[(s, t[f"audit_html_status_{s}"]) for s in STATUSES],
        charts=charts, duplicate_columns=list(duplicates.columns), duplicates=frame_cells(duplicates),
        members=[_member_view(i, m, s, colours, lang) for i, (m, s) in enumerate(zip(members, spent, strict=True))])
    return utf8(page)  # a name's foreign bytes as their escapes, never an abort
