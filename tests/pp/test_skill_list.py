"""A group's own skill list: from a file (text, JSON, TOML) or the sheet's ``skill_list``; it
makes names known, adds sub-categories and pairs skills with attributes."""
from __future__ import annotations

from pathlib import Path

import pytest

from converter.core.errors import InputError, MechasheetError
from converter.io.context import load_skill_list
from converter.rules.pp.skills import SkillListError, name_key, skill_list

from .conftest import character, found, priced, skill

TEXT = """# 卓の技能リスト
運転: 自動車、二輪車
事務

料理  # 趣味の技能
"""
JSON = """{
  "skills": [
    "運転",
    {"name": "事務", "attribute": "精神"},
    {"name": "直接砲撃", "specializations": ["レーザー兵器"]}
  ]
}
"""
TOML = """[[skills]]
name = "運転"
specializations = ["自動車"]
attribute = "reflex"

[[skills]]
name = "事務"
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_text_file_one_name_per_line(tmp_path: Path) -> None:
    """A text file: one name a line, ``name: spec、spec``, comments and blank lines skipped."""
    defs = load_skill_list(_write(tmp_path, "skills.txt", TEXT))
    assert [d.label for d in defs] == ["運転", "事務", "料理"]
    assert [s.label for s in defs[0].specializations] == ["自動車", "二輪車"]


def test_json_file(tmp_path: Path) -> None:
    """A JSON file: names or tables; an attribute may be written in Japanese."""
    defs = load_skill_list(_write(tmp_path, "skills.json", JSON))
    assert [d.label for d in defs] == ["運転", "事務", "直接砲撃"]
    assert defs[1].attribute == "mind"


def test_toml_file(tmp_path: Path) -> None:
    """A TOML file of [[skills]] tables."""
    defs = load_skill_list(_write(tmp_path, "skills.toml", TOML))
    assert [(d.label, d.attribute) for d in defs] == [("運転", "reflex"), ("事務", None)]


def test_file_list_makes_names_known(tmp_path: Path) -> None:
    """With the group's list, its skills and sub-categories raise no finding."""
    defs = load_skill_list(_write(tmp_path, "skills.txt", TEXT))
    doc = character(skills=[skill("運転", 2, ("自動車", 3), attribute="reflex"), skill("料理", 1, attribute="mind")])
    assert found(priced(doc)) == [("PP_SKILL_UNKNOWN", "/skills/0/name"),
                                  ("PP_SKILL_UNKNOWN", "/skills/1/name")]
    assert found(priced(doc, skills=defs)) == []


def test_group_list_adds_subcategories_to_a_seed_skill(tmp_path: Path) -> None:
    """A group list naming a seed skill adds sub-categories and keeps the seed's."""
    defs = load_skill_list(_write(tmp_path, "skills.json", JSON))
    known = skill_list(defs)
    fire = known.resolve("直接砲撃")
    assert fire is not None and fire.id == "direct_fire"
    assert [s.label for s in fire.specializations][-1] == "レーザー兵器"
    assert fire.specialization("ビーム兵器") is not None


def test_group_attribute_gives_the_dice(tmp_path: Path) -> None:
    """A group's pairing of a skill with an attribute gives that skill's dice."""
    defs = load_skill_list(_write(tmp_path, "skills.json", JSON))
    pricing = priced(character(attributes={"mind": 4}, skills=[skill("事務", 2)]), skills=defs)
    assert pricing.value("/derived/skills/0/pool") == "4D10（各+2）"


def test_sheet_skill_list() -> None:
    """The sheet's own ``skill_list`` works like a file's list."""
    doc = character(skill_list=["料理", {"name": "運転", "specializations": ["自動車"]}],
                    skills=[skill("料理", 1, attribute="mind"), skill("運転", 1, ("自動車", 2), attribute="reflex")])
    assert found(priced(doc)) == []


def test_sheet_skill_list_bad_entry() -> None:
    """A malformed entry of the sheet's list is an error at that entry."""
    doc = character(skill_list=["料理", {"name": ""}, 3])
    assert found(priced(doc)) == [("PP_SKILL_LIST_ENTRY", "/skill_list/1"),
                                  ("PP_SKILL_LIST_ENTRY", "/skill_list/2")]


def test_names_match_across_widths_and_brackets() -> None:
    """Full/half width, brackets and spaces do not make two names differ."""
    assert name_key("〈知識／戦術〉") == name_key("<知識/戦術>") == name_key("知識/ 戦術")
    assert name_key("ＡＢＣ") == name_key("ABC")


@pytest.mark.parametrize("name,text,where", [
    ("bad.txt", "運転\n: 自動車\n", "bad.txt: line 2"),
    ("dup.txt", "運転\n事務\n〈運転〉\n", "dup.txt: line 3"),
    ("bad.json", '[\n  "運転",\n  "事務",\n]\n', "bad.json: line 4"),
    ("entry.json", '[\n  "運転",\n  {"nam": "事務"}\n]\n', "entry.json: line 3"),
    ("attr.json", '{"skills": [\n "a",\n {"name": "b", "attribute": "運"}]}', "attr.json: line 3"),
    ("bad.toml", '[[skills]]\nname = "運転"\nname2 = \n', "line 3"),
    ("entry.toml", '[[skills]]\nname = "運転"\n\n[[skills]]\nspecializations = []\n',
     "entry.toml: line 4"),
])
def test_errors_name_file_and_line(tmp_path: Path, name: str, text: str, where: str) -> None:
    """A malformed list stops with an error naming the file and the line."""
    path = _write(tmp_path, name, text)
    with pytest.raises(SkillListError) as exc:
        load_skill_list(path)
    assert where in str(exc.value).replace(str(tmp_path) + "/", "")


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    """A file that is not there is an input error (exit code 2), naming the file."""
    with pytest.raises(InputError) as exc:
        load_skill_list(tmp_path / "nope.txt")
    assert "nope.txt" in str(exc.value)
    assert isinstance(exc.value, MechasheetError) and exc.value.exit_code == 2


def test_not_a_list(tmp_path: Path) -> None:
    """A JSON file holding neither a list nor {"skills": [...]} is refused."""
    with pytest.raises(SkillListError, match="expected a list"):
        load_skill_list(_write(tmp_path, "x.json", '{"names": []}'))
