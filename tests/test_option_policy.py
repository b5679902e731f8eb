"""A rules option that sets how much a finding matters changes that finding only: in a document
with other findings too, the option's code takes the option's severity (or is dropped when set
off) and every other finding keeps its own, under each of the option's values.

(mailgear's option_copies is being changed (issue 16) and is left to its own tests.)
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

from converter import evaluate
from converter.core.findings import Finding

from .pp.conftest import character, skill
from .up.conftest import melee, unit

def _up(**doc: Any) -> dict:
    """A unit with ＨＰ off its step (an error) and a last weapon whose written cost is wrong (a
    warning) beside what the case adds."""
    weapons = doc.pop("weapons", [melee(name="格闘")])
    return unit(stats={"hp": 207, **doc.pop("stats", {})},
                weapons=weapons + [melee(name="高い", declared_cost=41)], **doc)


def _up_levels(pointer_of_weapon: str) -> dict:
    """The other findings of :func:`_up` with their own severities."""
    return {("UP_STAT_STEP", "/stats/hp"): "error",
            ("UP_WEAPON_COST_MISMATCH", f"{pointer_of_weapon}/declared_cost"): "warning"}


# The other findings of _pp (操縦 9, a feat twice, over a budget of 1) with their own severities.
PP_OTHERS = {("PP_SKILL_MAX", "/skills/0/level"): "error", ("PP_FEAT_DUPLICATE", "/feats/1/name"): "warning",
             ("PP_OVER_BUDGET", "/budget"): "error"}


def _pp(**doc: Any) -> dict:
    skills = [skill("操縦", 9)] + doc.pop("skills", [])
    return character(skills=skills, feats=[{"name": "狙撃"}, {"name": "狙撃"}], budget=1, **doc)


AB = [melee(name="A"), melee(name="B", variant_of="A", range=2), melee(name="C", variant_of="A", range=3)]

# (option, value, the document, the option's code and pointer, its severity or None if dropped,
#  the other findings with their severities)
CASES: list[tuple[str, str, Callable[[], dict], tuple[str, str], str | None, dict]] = [
    ("move_beyond_two", "double", lambda: _up(stats={"move": 9}), ("UP_MOVE_BEYOND_TWO", "/stats/move"),
     "warning", _up_levels("/weapons/1")),
    ("move_beyond_two", "forbid", lambda: _up(stats={"move": 9}), ("UP_MOVE_BEYOND_TWO", "/stats/move"),
     "error", _up_levels("/weapons/1")),
    ("variants_per_base", "one", lambda: _up(weapons=list(AB)), ("UP_VARIANT_SECOND", "/weapons/2/variant_of"),
     "error", _up_levels("/weapons/3")),
    ("variants_per_base", "warning", lambda: _up(weapons=list(AB)), ("UP_VARIANT_SECOND", "/weapons/2/variant_of"),
     "warning", _up_levels("/weapons/3")),
    ("weapon_cap", "warning", lambda: _up(budget=1000, weapons=[melee(accuracy=50)]),
     ("UP_WEAPON_OVER_CAP", "/weapons/0"), "warning", _up_levels("/weapons/1")),
    ("weapon_cap", "error", lambda: _up(budget=1000, weapons=[melee(accuracy=50)]),
     ("UP_WEAPON_OVER_CAP", "/weapons/0"), "error", _up_levels("/weapons/1")),
    ("weapon_cap", "off", lambda: _up(budget=1000, weapons=[melee(accuracy=50)]),
     ("UP_WEAPON_OVER_CAP", "/weapons/0"), None, _up_levels("/weapons/1")),
    ("feats", "used", lambda: _pp(), ("PP_FEATS_NOT_IN_USE", "/feats"), None, PP_OTHERS),
    ("feats", "unused", lambda: _pp(), ("PP_FEATS_NOT_IN_USE", "/feats"), "warning", PP_OTHERS),
    ("combat_boost_raise", "allowed", lambda: _pp(combat_boost=4), ("PP_COMBAT_BOOST_RAISED", "/combat_boost"),
     None, PP_OTHERS),
    ("combat_boost_raise", "gm_growth", lambda: _pp(combat_boost=4), ("PP_COMBAT_BOOST_RAISED", "/combat_boost"),
     "warning", PP_OTHERS),
    ("specializations_per_skill", "any", lambda: _pp(skills=[skill("直接砲撃", 1, ("ビーム兵器", 2), ("実弾兵器", 2))]),
     ("PP_SPECIALIZATION_SECOND", "/skills/1/specializations/1"), None, PP_OTHERS),
    ("specializations_per_skill", "one", lambda: _pp(skills=[skill("直接砲撃", 1, ("ビーム兵器", 2), ("実弾兵器", 2))]),
     ("PP_SPECIALIZATION_SECOND", "/skills/1/specializations/1"), "error", PP_OTHERS),
    ("unknown_skills", "accept", lambda: _pp(skills=[skill("料理", 1, attribute="mind")]), ("PP_SKILL_UNKNOWN", "/skills/1/name"),
     "info", PP_OTHERS),
    ("unknown_skills", "reject", lambda: _pp(skills=[skill("料理", 1, attribute="mind")]), ("PP_SKILL_UNKNOWN", "/skills/1/name"),
     "error", PP_OTHERS),
    ("attribute_zero", "refund", lambda: _pp(attributes={"social": 0}), ("PP_ATTRIBUTE_ZERO", "/attributes/social"),
     "warning", PP_OTHERS),
    ("attribute_zero", "forbid", lambda: _pp(attributes={"social": 0}), ("PP_ATTRIBUTE_ZERO", "/attributes/social"),
     "error", PP_OTHERS),
]


def _levels(findings: list[Finding]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for f in findings:
        assert (f.code, f.pointer) not in out, f
        out[(f.code, f.pointer)] = f.level.value
    return out


@pytest.mark.parametrize(("option", "value", "make", "target", "level", "others"), CASES,
                         ids=[f"{c[0]}={c[1]}" for c in CASES])
def test_an_option_changes_its_finding_only(option: str, value: str, make: Callable[[], dict],
                                            target: tuple[str, str], level: str | None, others: dict) -> None:
    """An option sets its own finding's level (or drops it) and leaves every other finding as it was."""
    found = _levels(evaluate(make(), {option: value}).findings)
    assert found.pop(target, None) == level
    assert found == others
