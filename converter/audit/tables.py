"""The audit as tables (pandas DataFrames): the roster, every finding with its cell, the party,
the duplicates and the settings in force. The xlsx report writes them as sheets; the HTML report
renders the same frames, so both say the same thing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..core.texts import texts
from .report import ROSTER_COLUMNS, AuditMember, AuditReport, approval

if TYPE_CHECKING:
    import pandas

    from .house import HouseRules

FINDING_COLUMNS = ("file", "sheet", "name", "severity", "code", "cell", "pointer", "message", "hint", "approved_by")
PARTY_COLUMNS = ("system", "file", "name", "player", "value", "budget", "median", "note")
DUPLICATE_COLUMNS = ("kind", "key", "files")


def headers(columns: tuple[str, ...], lang: str) -> list[str]:
    """The columns' headings in ``lang`` (texts.toml: audit_col_<column>)."""
    t = texts(lang)
    return [t[f"audit_col_{c}"] for c in columns]


def roster_frame(report: AuditReport, lang: str = "ja") -> "pandas.DataFrame":
    """The roster with its headings and how each member was read (読み方) in ``lang``."""
    t = texts(lang)
    frame = report.roster_frame()
    frame["source"] = [t.get(f"audit_source_{s}", s) if s else s for s in frame["source"]]
    frame.columns = headers(ROSTER_COLUMNS, lang)
    return frame


def member_finding_rows(member: AuditMember, lang: str = "ja") -> list[dict[str, Any]]:
    """One row per finding of one member (FINDING_COLUMNS), in its report's order."""
    fr, rec = member.report, member.record
    rows = []
    for f in fr.findings:
        approved = approval(f)
        rows.append({"file": rec.file if rec is not None else fr.path,
                     "sheet": rec.sheet if rec is not None else None, "name": member.name,
                     "severity": f.level.value, "code": f.code, "cell": f.cell, "pointer": f.pointer,
                     "message": f.message(lang), "hint": f.hint(lang),
                     "approved_by": approved["by"] if approved is not None else None})
    return rows


def finding_rows(report: AuditReport, lang: str = "ja") -> list[dict[str, Any]]:
    """One row per finding of every member, in the report's order."""
    return [row for m in report.members for row in member_finding_rows(m, lang)]


def summary_rows(report: AuditReport, lang: str = "ja") -> list[tuple[str, int]]:
    """The summary's counts with their headings in ``lang`` (the key itself where it has none)."""
    t = texts(lang)
    return [(t.get(f"audit_col_{k}", k), v) for k, v in report.summary().items()]


def findings_frame(report: AuditReport, lang: str = "ja") -> "pandas.DataFrame":
    import pandas

    t = texts(lang)
    rows = [{**row, "severity": t[f"report_{row['severity']}"]} for row in finding_rows(report, lang)]
    frame = pandas.DataFrame(rows, columns=list(FINDING_COLUMNS))
    frame.columns = headers(FINDING_COLUMNS, lang)
    return frame


def party_frame(report: AuditReport, lang: str = "ja") -> "pandas.DataFrame":
    import pandas

    frame = pandas.DataFrame(party_rows(report, lang), columns=list(PARTY_COLUMNS))
    frame.columns = headers(PARTY_COLUMNS, lang)
    return frame


def party_rows(report: AuditReport, lang: str = "ja") -> list[dict[str, Any]]:
    """One row per member of each system's party view (PARTY_COLUMNS): those counted with the
    median they are compared with, then those left out with why (plain values: the browser page
    shows them without pandas)."""
    from .party import left_out_reason

    rows = []
    for system, view in report.party.items():
        medians = {g["budget"]: g["median"] for g in view.get("groups", [])}
        for member in view["members"]:  # the median the member is compared with: its budget's
            rows.append({"system": system, **{k: member.get(k) for k in ("file", "name", "player", "value", "budget")},
                         "median": medians.get(member.get("budget"), view["median"]), "note": None})
        for member in view.get("left_out", []):  # named, not counted
            rows.append({"system": system, **{k: member.get(k) for k in ("file", "name", "player", "value", "budget")},
                         "median": None, "note": left_out_reason(member, lang)})
    return rows


def duplicates_frame(report: AuditReport, lang: str = "ja") -> "pandas.DataFrame":
    import pandas

    t = texts(lang)
    rows = [{"kind": t[f"audit_duplicate_{d['kind']}"], "key": duplicate_match(d, lang, report.members),
             "files": "\n".join(d["files"])} for d in report.duplicates]
    frame = pandas.DataFrame(rows, columns=list(DUPLICATE_COLUMNS))
    frame.columns = headers(DUPLICATE_COLUMNS, lang)
    return frame


def duplicate_match(group: Mapping[str, Any], lang: str = "ja", members: Sequence[AuditMember] = ()) -> str:
    """What a group of duplicates shares, as a GM reads it: the whole content (not its SHA-256),
    the name as the first of ``members`` bearing it typed it (「超鋼神ダイガイオー（up）」), the player."""
    from .duplicates import name_key

    t = texts(lang)
    if group["kind"] == "content":
        return t["audit_duplicate_match_content"]
    system, _, key = str(group["key"]).partition(":") if group["kind"] == "name" else ("", "", str(group["key"]))
    typed = next((str(m.name if group["kind"] == "name" else m.player) for m in members
                  if name_key((m.name if group["kind"] == "name" else m.player) or "") == key
                  and (not system or m.report.system == system)), key)
    if group["kind"] == "name":
        return t["audit_duplicate_match_name"].format(name=typed, system=system)
    return typed


def settings_rows(report: AuditReport, lang: str = "ja") -> list[tuple[str, str]]:
    """What was in force, printed at the top of every report: the rules readings given (--rule
    and the house rules), the house rules' file, budgets, party limits and approvals."""
    return in_force(report.house, report.options)


def in_force(house: "HouseRules", options: Mapping[str, str]) -> list[tuple[str, str]]:
    """The settings of a run (the rules readings given, the house rules), as (setting, value)."""
    rows: list[tuple[str, str]] = [(f"--rule {k}", v) for k, v in sorted(options.items())]
    if house.path:
        rows.append(("house", house.path + (f" ({house.name})" if house.name else "")))
        if house.budget_all is not None:
            rows.append(("budget.per_character", str(house.budget_all)))
        rows += [(f"budget.{s}", str(v)) for s, v in sorted(house.budget_systems.items())]
        rows += [(f"budget.players.{p}", str(v)) for p, v in sorted(house.budget_players.items())]
        for a in house.approved:
            what = " ".join(x for x in (a.code or "", a.pointer or "") if x)
            rows.append((f"approved {a.file}", f"{what} — {a.by}" + (f" ({a.note})" if a.note else "")))
    rows.append(("party.characters_per_player", str(house.characters_per_player or "∞")))
    rows.append(("party.balance_tolerance", f"{house.balance_tolerance:g}"))
    return rows
