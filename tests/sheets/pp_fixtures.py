"""Session fixtures for the pp workbook tests: every case written once, probed for red cells, and
recalculated by LibreOffice in one call."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from converter.sheets import sheet_bytes, template_bytes

from .conftest import HELPER_COL, with_rule_probes
from .libreoffice import recalculate

ROOT = Path(__file__).resolve().parents[2]
PP_SAMPLES = sorted((ROOT / "samples" / "pp").glob("*.json"))
BROKEN_PP = sorted((ROOT / "samples" / "broken" / "pp").glob("*.json"))
GENERATED_PP = 12
# A group's own list given as context (`mechasheet write DOC --skills FILE`).
CONTEXT_SKILLS = [{"name": "射撃", "attribute": "sense", "specializations": ["拳銃", "小銃"]},
                  "応急手当"]
# Readings that make the option-dependent rules bite (docs/rules-pp.md: feats, unknown skills, 0).
STRICT = {"feats": "unused", "unknown_skills": "reject", "attribute_zero": "forbid"}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def generated_characters() -> list[dict]:
    """GENERATED_PP characters from the shared strategy, the same on every run."""
    from hypothesis import HealthCheck, given, settings

    from ..strategies import pp_character

    found: list[dict] = []

    @settings(max_examples=GENERATED_PP * 3, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(pp_character())
    def collect(doc: dict) -> None:
        if len(found) < GENERATED_PP and doc.get("skills") and len(doc["skills"]) > 2:
            found.append(doc)

    collect()
    return found


# A group's skills in the sheet's own list (the document's skill_list), and how a player types
# them into a written sheet: half-width katakana (voiced and semi-voiced pairs, the マ row: what
# ASC keys got wrong), full-width katakana where the list has half width, full-width lower-case
# letters. The sheet's key must fold each as the engine does (issue 18).
TYPED_LIST = [{"name": "ドッグファイト", "attribute": "reflex"}, {"name": "ﾏﾆﾋﾟｭﾚｰﾀｰ", "attribute": "body"},
              "ECM"]
TYPED_SKILLS = [{"name": "ﾄﾞｯｸﾞﾌｧｲﾄ", "level": 2}, {"name": "〈マニピュレーター〉", "level": 1},
                {"name": "ｅｃｍ", "level": 1}]


def listed(doc: dict) -> dict:
    """The document with TYPED_LIST in its own skill list."""
    d = json.loads(json.dumps(doc))
    d["skill_list"] = [*d.get("skill_list", []), *TYPED_LIST]
    return d


def edited(doc: dict) -> dict:
    """The character with 【肉体】 one higher, the first skill one level up (or a skill added) and
    TYPED_SKILLS after the others."""
    d = json.loads(json.dumps(doc))
    d["attributes"]["body"] = d["attributes"].get("body", 1) + 1
    if d.get("skills"):
        d["skills"][0]["level"] = d["skills"][0].get("level", 0) + 1
    else:
        d["skills"] = [{"name": "知識／戦術", "level": 2}]
    d["skills"] += TYPED_SKILLS
    return d


def strict_case() -> dict:
    """The pilot with 【社会】 0, a skill no list has and a 特技: red under STRICT readings."""
    d = load(ROOT / "samples" / "pp" / "pilot_with_machine.json")
    d["attributes"]["social"] = 0
    d["skills"].append({"name": "料理", "level": 1})
    d["feats"] = [{"name": "精密射撃"}, {"name": "エース"}]
    d.pop("declared_total")
    return d


def context_case() -> dict:
    """The ordinary person with a skill and a sub-category only the group's list has."""
    d = load(ROOT / "samples" / "pp" / "ordinary_person.json")
    d["skills"].append({"name": "〈射撃〉", "level": 1, "specializations": [{"name": "拳銃", "level": 3}]})
    d.pop("declared_total")
    return d


# A group's list with a Latin-letter skill, typed in other widths and cases (issue 16.9).
WIDTH_SKILLS = ["AI", {"name": "ｵﾍﾟﾚｰｼｮﾝ", "attribute": "mind"}]


def widths_case() -> dict:
    """The ordinary person with ＡＩ (full width), ai (lower case) and オペレーション (full-width
    katakana where the list has half width): each the group's skill, in the sheet as in the engine."""
    d = load(ROOT / "samples" / "pp" / "ordinary_person.json")
    d["skills"] += [{"name": "ＡＩ", "level": 2}, {"name": "オペレーション", "level": 1}]
    d.pop("declared_total")
    return d


def widths_lower_case() -> dict:
    d = widths_case()
    d["skills"][-2]["name"] = "〈ai〉"
    return d


def evasion_case(main_system_evasion: int | None, typed: dict | None) -> dict:
    """The pilot (機動性 2, 作業性 1) with メインシステムの回避修正 ``main_system_evasion`` and 回避修正
    typed as ``typed``; None leaves either out (issue 16.8)."""
    d = load(ROOT / "samples" / "pp" / "pilot_with_machine.json")
    d["machine"].pop("main_system_evasion")
    d["machine"].pop("evasion_modifier")
    if main_system_evasion is not None:
        d["machine"]["main_system_evasion"] = main_system_evasion
    if typed is not None:
        d["machine"]["evasion_modifier"] = typed
    return d


# Seed 003 ②, ②－ａ: 回避修正 = メインシステムの回避修正 ＋ 機動性, and ＋ 作業性 (the second figure).
EVASION_CASES = {
    # 1 + 2 = 3 agrees; 受け typed 3 where 1 + 1 = 2: a warning, red.
    "evasion-differs": (1, {"dodge": 3, "parry": 3}),
    # nothing typed: 2 + 2 = 4 and 2 + 1 = 3 shown, nothing red.
    "evasion-derived": (2, None),
    # an older sheet: 3 and 2 typed, no main system modifier: nothing derived, nothing red.
    "evasion-older": (None, {"dodge": 3, "parry": 2}),
}
# The older sheet with メインシステムの回避修正 2 typed into its cell, as a player would: both sums
# appear (4, 3) and both typed figures (3, 2) turn red.
EVASION_TYPED_IN = ("evasion-typed-in", "evasion-older", {"pp.machine.main_system_evasion": 2})


@dataclass
class Case:
    """One workbook of the LibreOffice run: what was written, and where its probes are."""

    name: str
    doc: dict | None
    options: dict[str, str] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    written: Path | None = None  # as mechasheet wrote it (cached results)
    recalculated: Path | None = None  # after LibreOffice
    probes: dict[str, str] = field(default_factory=dict)  # helper cell → the cell it judges
    typed: dict[str, Any] = field(default_factory=dict)  # defined name → a value typed after writing
    source: Path | None = None  # what LibreOffice was given, before the probes (typed into)


def cases() -> list[Case]:
    out = [Case("template", None)]
    out += [Case(p.stem, load(p)) for p in PP_SAMPLES + BROKEN_PP]
    out += [Case(f"{p.stem}.edited", listed(load(p))) for p in PP_SAMPLES]
    out.append(Case("strict", strict_case(), options=dict(STRICT)))
    out.append(Case("context", context_case(), context={"skills": CONTEXT_SKILLS}))
    out.append(Case("widths", widths_case(), options=dict(STRICT), context={"skills": WIDTH_SKILLS}))
    out.append(Case("widths-lower", widths_lower_case(), options=dict(STRICT),
                    context={"skills": WIDTH_SKILLS}))
    out += [Case(name, evasion_case(*args)) for name, args in EVASION_CASES.items()]
    name, base, typed = EVASION_TYPED_IN
    out.append(Case(name, evasion_case(*EVASION_CASES[base]), typed=typed))
    out += [Case(f"generated-{k:02d}", doc) for k, doc in enumerate(generated_characters())]
    return out


def cell_of(wb, name: str, index: int = 0) -> str:
    """'Sheet!A1' of a defined name (the index-th cell of a column name)."""
    sheet, ref = next(iter(wb.defined_names[name].destinations))
    ref = ref.replace("$", "").split(":")[0]
    col = "".join(ch for ch in ref if ch.isalpha())
    return f"{sheet}!{col}{int(''.join(ch for ch in ref if ch.isdigit())) + index}"


def type_into(path: Path, values: dict[tuple[str, int], Any]) -> None:
    """Type values into a written sheet, as a player would: (defined name, index) → value."""
    import openpyxl

    wb = openpyxl.load_workbook(path)
    for (name, index), value in values.items():
        sheet, ref = cell_of(wb, name, index).split("!")
        wb[sheet][ref] = value
    wb.save(path)


def edit_inputs(path: Path, doc: dict) -> None:
    """Type the edited values into a written sheet."""
    new = edited(doc)
    typed = {("pp.attributes.body", 0): new["attributes"]["body"],
             ("pp.skills.name", 0): new["skills"][0]["name"],
             ("pp.skills.level", 0): new["skills"][0]["level"]}
    first = len(new["skills"]) - len(TYPED_SKILLS)
    for i, skill in enumerate(TYPED_SKILLS, start=first):
        typed |= {("pp.skills.name", i): skill["name"], ("pp.skills.level", i): skill["level"]}
    type_into(path, typed)


def pp_workbooks(tmp_path_factory) -> dict[str, Case]:
    """Every case written, red-cell probes added, and all recalculated in one LibreOffice call
    (the session fixture of that name in conftest.py)."""
    base = tmp_path_factory.mktemp("pp-lo")
    src = base / "src"
    src.mkdir()
    all_cases = cases()
    for case in all_cases:
        data = template_bytes("pp") if case.doc is None else \
            sheet_bytes(case.doc, case.options, case.context)
        case.written = src / f"{case.name}.written.xlsx"
        case.written.write_bytes(data)
        source = case.written
        if case.name.endswith(".edited") or case.typed:
            source = src / f"{case.name}.typed.xlsx"
            source.write_bytes(data)
            if case.typed:
                type_into(source, {(name, 0): value for name, value in case.typed.items()})
            else:
                edit_inputs(source, case.doc)
        case.source = source
        case.probes = with_rule_probes(source, src / f"{case.name}.xlsx")
    out = recalculate([src / f"{c.name}.xlsx" for c in all_cases], base / "out", base / "profile")
    for case, path in zip(all_cases, out, strict=True):
        case.recalculated = path
    return {c.name: c for c in all_cases}


__all__ = ["BROKEN_PP", "CONTEXT_SKILLS", "EVASION_CASES", "EVASION_TYPED_IN", "WIDTH_SKILLS", "Case", "GENERATED_PP", "HELPER_COL", "PP_SAMPLES", "ROOT",
           "STRICT", "TYPED_LIST", "TYPED_SKILLS", "cell_of", "edited", "generated_characters", "listed", "load",
           "pp_workbooks"]
