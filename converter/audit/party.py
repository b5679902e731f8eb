"""The party view of each system and its balance: one figure per member (party.toml: up's and
pp's computed totals, mailgear's 経験＋階級 from which the unit level is taken), the party's
median, and the members further from it than the house rules' tolerance.

A party of fewer than three has no outlier: with two, each is as far from the median as the other.
"""
from __future__ import annotations

import statistics
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping

from ..core import pointers
from ..core.coerce import as_int
from ..core.findings import Finding
from ..core.texts import texts
from .house import HouseRules
from .report import AuditMember

MIN_PARTY = 3  # members needed before one can stand out


@lru_cache(maxsize=1)
def party_figures() -> dict[str, dict[str, Any]]:
    """party.toml: per system, which figure the party view compares."""
    return tomllib.loads(resources.files(__package__).joinpath("party.toml").read_text("utf-8"))


def party_figure(system: str | None, doc: Mapping[str, Any], computed: int | None) -> float | None:
    """A member's figure for its system's party view; None when the sheet does not give it."""
    spec = party_figures().get(system or "")
    if spec is None:
        return None
    if spec["figure"] == "total":
        return computed
    values = [as_int(pointers.get(doc, p)) for p in spec["pointers"]]
    return None if None in values else sum(v for v in values if v is not None)


#: findings that leave a member out of its party's balance, and the reason the view gives:
#: each character counted once (a copy or a second file of one name out), and sheets over
#: budget out of the median (they are errors of their own already)
LEFT_OUT_BY = {"AUDIT_DUPLICATE_FILE": "copy", "AUDIT_DUPLICATE_NAME": "same_name",
               "AUDIT_OVER_HOUSE_BUDGET": "over_budget"}


def _left_out(m: AuditMember, flagged: list[Finding]) -> tuple[str, str] | None:
    """Why ``m`` is not counted in its party's balance, and the other file it repeats (if any);
    None when it is counted."""
    for f in flagged:
        reason = LEFT_OUT_BY.get(f.code)
        if reason is not None:
            return reason, str(f.params.get("other") or "")
    fr = m.report
    if fr.computed is not None and fr.budget is not None and fr.computed > fr.budget:
        return "over_budget", ""
    return None


def party_views(members: list[AuditMember], house: HouseRules, sets: Mapping[str, Any],
                flagged: Iterable[tuple[int, Finding]] = ()) -> tuple[dict[str, Any], list[tuple[int, Finding]]]:
    """Each system's view (members, median, outliers, groups, the set checks' figures such as
    mailgear's unit level) and the outliers' findings, by member index.

    ``flagged``: the folder's findings so far by member index; a copy, a second file of one
    character and a sheet over its budget are named in ``left_out``, not counted. Members are
    compared within their own budget (party.toml's ``group``)."""
    views: dict[str, Any] = {}
    findings: list[tuple[int, Finding]] = []
    tolerance = house.balance_tolerance
    found: dict[int, list[Finding]] = {}
    for i, f in flagged:
        found.setdefault(i, []).append(f)
    by_system: dict[str, list[tuple[int, AuditMember]]] = {}
    left_out: dict[str, list[dict[str, Any]]] = {}
    for i, m in enumerate(members):
        if not (m.readable and m.report.system in party_figures()):
            continue
        system = m.report.system
        why = _left_out(m, found.get(i, []))
        if why is None:
            by_system.setdefault(system, []).append((i, m))
        else:
            left_out.setdefault(system, []).append({"file": m.report.path, "name": m.name, "player": m.player,
                                                    "value": _number(m.figure), "budget": m.report.budget,
                                                    "reason": why[0], "other": why[1] or None})
    for system in left_out:
        by_system.setdefault(system, [])
    for system, party in by_system.items():
        spec = party_figures()[system]
        groups: dict[str, list[tuple[int, AuditMember]]] = {}
        for i, m in party:
            key = str(m.report.budget) if spec["group"] == "budget" and m.report.budget is not None else ""
            groups.setdefault(key, []).append((i, m))
        view_groups = []
        outliers = []
        for key, group in sorted(groups.items(), key=lambda item: (len(item[0]), item[0])):
            values = [m.figure for _, m in group if m.figure is not None]
            median = statistics.median(values) if values else None
            for i, m in group:
                if median is None or m.figure is None or len(values) < MIN_PARTY or median <= 0:
                    continue
                off = abs(m.figure - median) / median
                if off > tolerance:
                    outliers.append(m.name or m.report.path)
                    findings.append((i, Finding("AUDIT_PARTY_OUTLIER", "", {
                        "figure_ja": spec["figure_ja"], "figure_en": spec["figure_en"], "value": _number(m.figure),
                        "median": _number(median), "percent": round(off * 100),
                        "tolerance": round(tolerance * 100)})))
            view_groups.append({"budget": int(key) if key else None, "median": _number(median),
                                "members": len(group)})
        values = [m.figure for _, m in party if m.figure is not None]
        views[system] = {
            "figure": {"ja": spec["figure_ja"], "en": spec["figure_en"]},
            "members": [{"file": m.report.path, "name": m.name, "player": m.player, "value": _number(m.figure),
                         "budget": m.report.budget} for _, m in party],
            "left_out": left_out.get(system, []),
            "median": _number(statistics.median(values)) if values else None,
            "tolerance": tolerance, "outliers": outliers, "groups": view_groups,
            "sets": {name: _summary(s) for name, s in sets.items() if name.startswith(system + ".")}}
    return views, findings


def left_out_text(entry: dict[str, Any], lang: str) -> str:
    """A member the party view does not count, and why: 「名前（a.xlsx の写し）」."""
    return texts(lang)["audit_party_left_entry"].format(name=entry.get("name") or entry["file"], file=entry["file"],
                                                         why=left_out_reason(entry, lang))


def left_out_reason(entry: dict[str, Any], lang: str) -> str:
    """Why the party view does not count a member: 「a.xlsx とまったく同じファイル」."""
    return texts(lang)[f"audit_party_left_{entry['reason']}"].format(other=entry.get("other") or "")


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(float(value), 2)


def _summary(summary: Any) -> Any:
    to_dict = getattr(summary, "to_dict", None)
    return to_dict() if to_dict is not None else summary
