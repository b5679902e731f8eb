"""Options raise skills, never past the maximum (seed 001, オプションの選択: 鉄壁 Lv4 with
Ａ．Ｇ．Ｓ stays Lv4); the sheet shows the capped level and a finding says what was cut."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from converter.rules.mailgear import evaluate as price

from .conftest import SEED_SKILLS, codes, only, option, pilot, skills


def test_the_seeds_own_example_stays_at_level_4() -> None:
    """鉄壁 4 + Ａ．Ｇ．Ｓ: effective 4, and MG_SKILL_CAPPED says one level was cut."""
    result = price(pilot(skills=skills(iron_wall=4), equipment=[option()]))
    assert result.value("/derived/skills/iron_wall") == 4
    assert codes(result) == {("MG_SKILL_CAPPED", "/skills/0")}
    params = only(result, "MG_SKILL_CAPPED").params
    assert (params["learned"], params["bonus"], params["max"], params["cut"]) == (4, 1, 4, 1)
    assert params["items"] == ["Ａ．Ｇ．Ｓ"]


def test_options_up_to_the_cap_are_not_a_finding() -> None:
    """鉄壁 2 + two Ａ．Ｇ．Ｓ reaches 4 exactly: no finding."""
    result = price(pilot(skills=skills(iron_wall=2), equipment=[option(), option()]))
    assert result.value("/derived/skills/iron_wall") == 4
    assert codes(result) == set()


def test_the_cut_counts_every_option_over_the_cap() -> None:
    """韋駄天 (max 3) at 2 with +2 from options: 1 cut, and both options are named."""
    result = price(pilot(skills=skills(fleet_footed=2),
                         equipment=[option("スラスター", "fleet_footed"),
                                    option("補助スラスター", "fleet_footed")]))
    assert result.value("/derived/skills/fleet_footed") == 3
    params = only(result, "MG_SKILL_CAPPED").params
    assert params["cut"] == 1 and params["items"] == ["スラスター", "補助スラスター"]


def test_a_learned_level_over_the_maximum_is_an_error_and_options_add_nothing() -> None:
    """Lv5 鉄壁 is an error on its own; an option on top is also cut."""
    result = price(pilot(skills=skills(iron_wall=5), equipment=[option()]))
    assert codes(result) == {("MG_SKILL_OVER_MAX", "/skills/0/level"), ("MG_SKILL_CAPPED", "/skills/0")}
    assert result.value("/derived/skills/iron_wall") == 4


def test_an_option_for_a_skill_not_learned_counts_from_zero() -> None:
    """An option raising a skill the pilot lacks gives its levels, with an info note."""
    result = price(pilot(equipment=[option()]))
    assert result.value("/derived/skills/iron_wall") == 1
    assert codes(result, info=True) >= {("MG_OPTION_SKILL_NOT_LEARNED", "/equipment/0")}
    assert codes(result) == set()


def test_the_capped_level_feeds_the_derived_values() -> None:
    """受け uses the capped level: 鉄壁 4 is +1d, however many options were added."""
    result = price(pilot(skills=skills(iron_wall=3), equipment=[option(), option()]))
    assert result.value("/derived/guard") == "+1d+2"


@given(st.sampled_from(sorted(SEED_SKILLS.values())), st.integers(1, 8), st.integers(0, 2))
def test_no_combination_passes_the_maximum(skill: tuple[str, int], learned: int, copies: int) -> None:
    """Whatever is learned and equipped, the effective level never exceeds the maximum."""
    sid, top = skill
    doc = pilot(skills=skills(**{sid: learned}),
                equipment=[option(f"オプション{k}", sid, 2) for k in range(copies)])
    assert price(doc).value(f"/derived/skills/{sid}") <= top
