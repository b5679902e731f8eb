"""The party view: the unit level (ユニット・レベル) over several pilot sheets (seed 001, ５．).

「部隊を構成するキャラクター全員の「経験」と「階級」を足します。次にそれを人数で割り（切捨て）、
以下の表に照らし合わせて決定します」: the floor of the mean of 経験 + 階級, then the catalog's table.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ...core.findings import Finding
from ...core.pointers import pointer
from ...core.coerce import as_int, as_mapping
from ...core.sets import Member, SetOutcome
from .catalog import Catalog, as_catalog, missing_table


@dataclass(frozen=True)
class PartyLevel:
    """The party's figures: who counted, the mean and its floor, and the table's unit level."""

    members: int
    total: int
    mean: Fraction | None
    floor: int | None
    unit_level: Any  # the catalog's value (a number or a letter); None without the table
    findings: tuple[Finding, ...] = ()

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {"members": self.members, "total": self.total,
                "mean": None if self.mean is None else float(self.mean), "floor": self.floor,
                "unit_level": self.unit_level, "findings": [f.to_dict(lang) for f in self.findings]}


def party_unit_level(docs: Sequence[Mapping[str, Any]],
                     catalog: Catalog | Mapping[str, Any] | None = None) -> PartyLevel:
    """Unit level of the party whose sheets are ``docs`` (pure; pointers are ``/<index>/...``).

    A sheet without a whole 経験 or 階級 is left out with a finding rather than guessed.
    """
    findings: list[Finding] = []
    sums: list[int] = []
    for k, doc in enumerate(docs):
        pilot = as_mapping(as_mapping(doc).get("pilot"))
        exp, points = as_int(pilot.get("experience")), as_int(pilot.get("rank_points"))
        if exp is None or points is None:
            field = "experience" if exp is None else "rank_points"
            findings.append(Finding("MG_PARTY_MEMBER_INVALID", pointer(k, "pilot", field),
                                    {"member": pilot.get("name") or f"#{k + 1}",
                                     "value": pilot.get(field)}))
            continue
        sums.append(exp + points)
    if not sums:
        findings.append(Finding("MG_PARTY_EMPTY"))
        return PartyLevel(0, 0, None, None, None, tuple(findings))
    total = sum(sums)
    floor = total // len(sums)  # 「人数で割り（切捨て）」
    unit_level = None
    cat = as_catalog(catalog)
    if cat is not None and cat.has("unit_levels"):
        unit_level = cat.ladder_value("unit_levels", floor)
        if unit_level is None:
            findings.append(Finding("MG_UNIT_LEVEL_BELOW_TABLE", "", {"value": floor}))
    else:
        findings.append(missing_table("unit_levels"))
    return PartyLevel(len(sums), total, Fraction(total, len(sums)), floor, unit_level, tuple(findings))


def party_check(members: Sequence[Member]) -> SetOutcome:
    """The set check mailgear declares: the party's unit level over the pilots checked together.

    A pilot present twice (its JSON and its filled sheet) counts once; the catalog is the first
    one a member was checked with (the one named on the command line wins over a workbook's)."""
    pilots, seen = [], set()
    for m in members:
        pilot = as_mapping(m.document.get("pilot"))
        key = (str(pilot.get("name")), str(pilot.get("player")))
        if key in seen:
            continue
        seen.add(key)
        pilots.append(m.document)
    if not pilots:
        return SetOutcome("mailgear.party")
    catalog = next((m.context["catalog"] for m in members if m.context.get("catalog") is not None), None)
    return SetOutcome("mailgear.party", summary=party_unit_level(pilots, catalog))
