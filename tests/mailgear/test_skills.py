"""The 24 skills: their maxima, names a sheet may use, and skills that cannot come from the rules
(seed 001, ４．スキルの説明: 「どんな方法を使っても、それを上回ることはありません」)."""
from __future__ import annotations

import pytest

from converter.rules.mailgear import evaluate as price
from converter.rules.mailgear.tables import tables

from .conftest import SEED_SKILLS, codes, only, pilot, skills


def test_the_tables_hold_exactly_the_seeds_24_skills() -> None:
    """tables.toml lists the seed's 24 skills, with the seed's labels and maxima."""
    t = tables()
    assert len(SEED_SKILLS) == 24
    assert {s.label: (s.id, s.max_level) for s in t.skills.values()} == SEED_SKILLS


@pytest.mark.parametrize("label", list(SEED_SKILLS))
def test_a_skill_at_its_maximum_is_fine(label: str) -> None:
    """Every skill may stand at its maximum level."""
    sid, top = SEED_SKILLS[label]
    result = price(pilot(skills=skills(**{sid: top})))
    assert codes(result) == set()
    assert result.value(f"/derived/skills/{sid}") == top


@pytest.mark.parametrize("label", list(SEED_SKILLS))
def test_a_skill_above_its_maximum_is_an_error(label: str) -> None:
    """One level above the maximum is MG_SKILL_OVER_MAX, and the sheet shows the maximum."""
    sid, top = SEED_SKILLS[label]
    result = price(pilot(skills=skills(**{sid: top + 1})))
    assert codes(result) == {("MG_SKILL_OVER_MAX", "/skills/0/level")}
    assert only(result, "MG_SKILL_OVER_MAX").params["max"] == top
    assert result.value(f"/derived/skills/{sid}") == top


@pytest.mark.parametrize("written", ["エリートコース", "ｴﾘｰﾄ･ｺｰｽ", "エリート・コース", "elite_course"])
def test_a_skill_is_found_by_its_written_name(written: str) -> None:
    """A legacy sheet's name (half-width, without ・, or the id) finds the skill."""
    result = price(pilot(skills=[{"name": written, "level": 2}]))
    assert codes(result) == set()
    assert result.value("/derived/skills/elite_course") == 2


@pytest.mark.parametrize("written", ["クール&クール", "ワンショットワンキル", "火事場の馬鹿力",
                                     "グラス・スプリンガー"])
def test_synonyms_from_the_tables_are_read(written: str) -> None:
    """Spellings listed as synonyms (ASCII &, no dots, common variants) find their skill."""
    assert tables().skill_id(written) is not None


def test_a_name_not_among_the_24_is_an_error() -> None:
    """A skill the rules do not have (by name or by id) is MG_SKILL_UNKNOWN at that field."""
    result = price(pilot(skills=[{"name": "ニュータイプ", "level": 1},
                                 {"id": "newtype", "level": 1}]))
    assert codes(result) == {("MG_SKILL_UNKNOWN", "/skills/0/name"),
                             ("MG_SKILL_UNKNOWN", "/skills/1/id")}


def test_the_same_skill_twice_is_an_error() -> None:
    """A skill listed twice (even under another spelling) is MG_SKILL_DUPLICATE; the first counts."""
    result = price(pilot(skills=[{"id": "iron_wall", "level": 2}, {"name": "鉄壁", "level": 3}]))
    assert codes(result) == {("MG_SKILL_DUPLICATE", "/skills/1")}
    assert result.value("/derived/skills/iron_wall") == 2


@pytest.mark.parametrize("level", [0, -1, "2", 1.5, None])
def test_a_level_that_is_not_a_whole_number_from_1_is_an_error(level) -> None:
    """Learned skills start at level 1 (「習得したばかりのスキルのレベルは１です」)."""
    result = price(pilot(skills=[{"id": "support", "level": level}]))
    assert codes(result) == {("MG_SKILL_LEVEL_INVALID", "/skills/0/level")}
    assert "/derived/skills/support" not in result.derived


def test_an_id_and_a_name_that_disagree_are_warned_and_the_id_wins() -> None:
    """Both given but naming two skills: a warning, and the id is used."""
    result = price(pilot(skills=[{"id": "iron_wall", "name": "熱血", "level": 1}]))
    assert codes(result) == {("MG_SKILL_ID_NAME_MISMATCH", "/skills/0/name")}
    assert result.value("/derived/skills/iron_wall") == 1


def test_the_level_up_history_is_not_claimed() -> None:
    """Many skills at a low level letter pass: the seed's level-up history is not checked."""
    many = {sid: 1 for sid, _ in list(SEED_SKILLS.values())[:10]}
    result = price(pilot(skills=skills(**many)))
    assert codes(result) == set()
