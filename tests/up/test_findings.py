"""Unit-level findings: budget, written total, the 1/5 weapon cap, schema + engine deduplication
in check_document, and malformed documents that must be reported, never crash the engine."""
from __future__ import annotations

from typing import Any

import pytest

from converter import check_document
from converter.core.findings import Severity

from .conftest import finding, found, melee, priced, unit

EXPENSIVE = melee(name="高い", accuracy=50)                              # 40 + 260 = 300
AT_CAP = melee(name="上限", damage={"dice": 4, "fixed": 18})             # 40 + 120 + 40 = 200


# --- budget and written total --------------------------------------------------------------------

def test_over_budget_is_an_error() -> None:
    """Total 480 on a budget of 450: UP_OVER_BUDGET with the excess."""
    p = priced(unit(budget=450, weapons=[melee(range=2)]))
    assert found(p) == [("UP_OVER_BUDGET", "/budget")]
    f = finding(p, "UP_OVER_BUDGET")
    assert f.level is Severity.ERROR
    assert dict(f.params) == {"total": 480, "budget": 450, "over": 30}


def test_spending_the_whole_budget_is_fine() -> None:
    """Total equal to the budget is not over it."""
    assert found(priced(unit(budget=480, weapons=[melee(range=2)]))) == []


def test_written_total_mismatch_is_an_error() -> None:
    """declared_total 401 against a computed 400 is UP_TOTAL_MISMATCH."""
    p = priced(unit(declared_total=401))
    assert found(p) == [("UP_TOTAL_MISMATCH", "/declared_total")]
    assert dict(finding(p, "UP_TOTAL_MISMATCH").params) == {"declared": 401, "computed": 400}


def test_written_total_matching_is_fine() -> None:
    """declared_total equal to the computed total: no finding."""
    assert found(priced(unit(declared_total=400))) == []


def test_written_total_is_not_compared_with_a_partial_total() -> None:
    """When an item cannot be priced, the written total is not compared (the sum is partial)."""
    p = priced(unit(declared_total=999, weapons=[melee(range=9)]))
    assert found(p) == [("UP_WEAPON_RANGE", "/weapons/0/range")]


# --- one weapon at most 1/5 of the budget ---------------------------------------------------------

def test_weapon_over_a_fifth_of_budget_warns() -> None:
    """A 300 UP weapon on a budget of 1000 (cap 200): UP_WEAPON_OVER_CAP, a warning by default."""
    p = priced(unit(budget=1000, weapons=[EXPENSIVE]))
    assert found(p) == [("UP_WEAPON_OVER_CAP", "/weapons/0")]
    f = finding(p, "UP_WEAPON_OVER_CAP")
    assert f.level is Severity.WARNING
    assert f.params["cost"] == 300 and f.params["cap"] == 200


def test_weapon_cap_shows_a_fractional_cap_as_a_decimal() -> None:
    """A budget of 1001 caps a weapon at 200.2 UP; the message says 200.2, not 1001/5."""
    p = priced(unit(budget=1001, weapons=[EXPENSIVE]))
    f = finding(p, "UP_WEAPON_OVER_CAP")
    assert f.params["cap"] == 200.2
    assert "200.2" in f.message("ja") and "1001/5" not in f.message("en")


def test_weapon_at_exactly_a_fifth_is_fine() -> None:
    """Exactly 1/5 of the budget is allowed (「５分の１まで」)."""
    assert found(priced(unit(budget=1000, weapons=[AT_CAP]))) == []


def test_weapon_cap_as_error() -> None:
    """weapon_cap=error makes the same finding an error."""
    p = priced(unit(budget=1000, weapons=[EXPENSIVE]), weapon_cap="error")
    assert finding(p, "UP_WEAPON_OVER_CAP").level is Severity.ERROR


def test_weapon_cap_off() -> None:
    """weapon_cap=off does not check the cap."""
    assert found(priced(unit(budget=1000, weapons=[EXPENSIVE]), weapon_cap="off")) == []


def test_weapon_cap_applies_to_a_variants_own_cost() -> None:
    """A 撃ち分け variant is capped at its fraction (75), not the full cost it is based on."""
    variant = {**EXPENSIVE, "name": "派生", "variant_of": "高い", "range": 2}
    p = priced(unit(budget=1000, weapons=[EXPENSIVE, variant]))
    assert found(p) == [("UP_WEAPON_OVER_CAP", "/weapons/0")]


# --- check_document: schema and engine, one finding per problem -----------------------------------

DUPLICATED = [
    # (what, document overrides, pointer, the engine's code)
    ("stat step", {"stats": {"hp": 203}}, "/stats/hp", "UP_STAT_STEP"),
    ("stat max", {"stats": {"hp": 405}}, "/stats/hp", "UP_STAT_MAX"),
    ("accuracy", {"weapons": [melee(accuracy=35)]}, "/weapons/0/accuracy", "UP_ACCURACY_STEP"),
    ("usage amount", {"weapons": [melee(usage={"type": "ammo", "amount": 7})]},
     "/weapons/0/usage/amount", "UP_USAGE_AMOUNT"),
    ("effect level", {"weapons": [melee(effects=[{"id": "move_down", "level": 4}])]},
     "/weapons/0/effects/0/level", "UP_EFFECT_LEVEL"),
    ("effect id", {"weapons": [melee(effects=[{"id": "laser"}])]},
     "/weapons/0/effects/0/id", "UP_EFFECT_UNKNOWN"),
    ("damage dice", {"weapons": [melee(damage={"dice": 0, "fixed": 10})]},
     "/weapons/0/damage/dice", "UP_DAMAGE_BELOW_BASE"),
    ("damage fixed", {"weapons": [melee(damage={"dice": 1, "fixed": 9})]},
     "/weapons/0/damage/fixed", "UP_DAMAGE_BELOW_BASE"),
    ("weapon kind", {"weapons": [melee(kind="thrown")]}, "/weapons/0/kind", "UP_WEAPON_KIND"),
    ("map type", {"weapons": [melee(map={"type": "ring"})]}, "/weapons/0/map/type", "UP_MAP_TYPE"),
    ("combo", {"weapons": [melee(combo="triple")]}, "/weapons/0/combo", "UP_WEAPON_COMBO"),
    ("weapon morale", {"weapons": [melee(morale="angry")]}, "/weapons/0/morale", "UP_MORALE_UNKNOWN"),
    ("weapon terrain", {"weapons": [melee(terrain={"air": "X"})]}, "/weapons/0/terrain/air",
     "UP_TERRAIN_GRADE"),
    # A wrong type is the schema's root cause (issue 11): its finding, not the engine's, is kept.
    ("weapon not an object", {"weapons": ["ビームライフル"]}, "/weapons/0", "SCHEMA_TYPE"),
    ("bunshin level", {"abilities": [{"id": "bunshin", "level": 8}]}, "/abilities/0/level",
     "UP_ABILITY_LEVEL"),
    ("shield uses", {"abilities": [{"id": "shield", "armor": 5, "uses": 2}]}, "/abilities/0/uses",
     "UP_SHIELD_USES"),
    ("en cost", {"abilities": [{"id": "mind_block", "en_cost": 7}]}, "/abilities/0/en_cost",
     "UP_ABILITY_EN_COST"),
    ("ability id", {"abilities": [{"id": "teleport"}]}, "/abilities/0/id", "UP_ABILITY_UNKNOWN"),
    ("stat bonus amount", {"abilities": [{"id": "stat_bonus",
                                          "bonuses": [{"stats": ["melee"], "amount": 0}]}]},
     "/abilities/0/bonuses/0/amount", "UP_STAT_BONUS_INVALID"),
    ("stat bonus stat", {"abilities": [{"id": "stat_bonus",
                                        "bonuses": [{"stats": ["luck"], "amount": 5}]}]},
     "/abilities/0/bonuses/0/stats/0", "UP_STAT_BONUS_INVALID"),
    ("movement duplicate", {"movement": ["land", "space", "land"]}, "/movement",
     "UP_MOVEMENT_DUPLICATE"),
    ("movement unknown", {"movement": ["land", "space", "mud"]}, "/movement/2", "UP_MOVEMENT_UNKNOWN"),
    ("movement empty", {"movement": []}, "/movement", "UP_MOVEMENT_EMPTY"),
    ("unit terrain", {"terrain": {"land": "D"}}, "/terrain/land", "UP_TERRAIN_GRADE"),
    ("boost stat", {"morale_boosts": [{"stat": "luck", "raise": 10, "morale": "confident"}]},
     "/morale_boosts/0/stat", "UP_BOOST_INVALID"),
    ("partial places", {"transformation": {"forms": [{"name": "B", "up": 600}], "changed_places": 7}},
     "/transformation/changed_places", "UP_TRANSFORM_PARTIAL"),
    ("size", {"size": "XL"}, "/size", "UP_SIZE_UNKNOWN"),
]


@pytest.mark.parametrize(("what", "overrides", "where", "code"), DUPLICATED,
                         ids=[row[0] for row in DUPLICATED])
def test_schema_and_engine_report_a_problem_once(what: str, overrides: dict[str, Any], where: str,
                                                 code: str) -> None:
    """A problem both the schema and the engine see is one finding, the engine's, at one pointer."""
    doc = unit(**{k: v for k, v in overrides.items() if k != "size"})
    if "size" in overrides:
        doc["size"] = overrides["size"]
    report = check_document(doc)
    assert [f.code for f in report.findings if f.pointer == where] == [code]


def test_schema_only_findings_are_kept() -> None:
    """A field the engine does not read (an unknown key) is still reported by the schema."""
    report = check_document(unit(colour="赤"))
    assert [(f.code, f.pointer) for f in report.findings] == [("SCHEMA_ADDITIONAL", "")]


def test_a_misspelled_key_is_the_root_cause() -> None:
    """weapns for weapons: a misspelling named first; the total is partial, so no mismatch."""
    doc = unit(weapons=[melee()])
    doc["weapns"] = doc.pop("weapons")
    doc["declared_total"] = 999
    report = check_document(doc)
    assert [(f.code, f.pointer) for f in report.findings] == [("SCHEMA_MISSPELLED", ""),
                                                              ("ENGINE_INCOMPLETE", "")]
    assert report.findings[0].params == {"field": "weapns", "guess": "weapons"}


def test_a_number_typed_as_text_says_so_once() -> None:
    """"range": "4", "dice": "1": the type error only, never the table's follow-up messages."""
    report = check_document(unit(weapons=[melee(range="1", damage={"dice": "1", "fixed": 10})]))
    codes = [(f.code, f.pointer) for f in report.findings]
    assert sorted(codes[:2]) == [("SCHEMA_TYPE", "/weapons/0/damage/dice"), ("SCHEMA_TYPE", "/weapons/0/range")]
    assert codes[2:] == [("ENGINE_INCOMPLETE", "")]
    assert "整数が必要です" in report.findings[0].message("ja")
    assert "a whole number expected" in report.findings[0].message("en")


def test_japanese_movement_names_are_not_refunded() -> None:
    """["陸", "宇宙"]: not among the choices; the engine does not price one type fewer."""
    doc = unit(movement=["陸", "宇宙"])
    doc["declared_total"] = 400
    report = check_document(doc)
    assert [f.code for f in report.findings] == ["UP_MOVEMENT_UNKNOWN", "UP_MOVEMENT_UNKNOWN",
                                                 "ENGINE_INCOMPLETE"]
    assert all(line.pointer != "/movement" for line in report.breakdown)


def test_a_missing_field_never_reads_none() -> None:
    """A unit without its size, a document without a system: SCHEMA_REQUIRED, no 「None」."""
    doc = unit()
    del doc["size"]
    report = check_document(doc)
    assert [(f.code, f.params.get("field")) for f in report.findings][0] == ("SCHEMA_REQUIRED", "size")
    assert not any("None" in f.message(lang) for f in report.findings for lang in ("ja", "en"))
    report = check_document({"format": 1})
    assert [(f.code, f.params) for f in report.findings] == [
        ("SCHEMA_REQUIRED", {"field": "system", "label_ja": "システム", "label_en": "system"})]


def test_partial_total_is_flagged_in_the_report() -> None:
    """An unpriceable item adds ENGINE_INCOMPLETE (info) to the report."""
    report = check_document(unit(weapons=[melee(range=9)]))
    assert [f.code for f in report.findings] == ["UP_WEAPON_RANGE", "ENGINE_INCOMPLETE"]


def test_clean_document_has_no_finding() -> None:
    """The minimal unit passes schema and rules."""
    report = check_document(unit())
    assert report.findings == [] and report.valid and report.computed == 400


# --- malformed documents -------------------------------------------------------------------------

MALFORMED = [
    # (what, document overrides, pointer, code)
    ("weapons not a list", {"weapons": {"a": 1}}, "/weapons", "UP_ITEM_MALFORMED"),
    ("abilities not a list", {"abilities": "mind_block"}, "/abilities", "UP_ITEM_MALFORMED"),
    ("boost not an object", {"morale_boosts": ["パワー+10"]}, "/morale_boosts/0", "UP_ITEM_MALFORMED"),
    ("damage as text", {"weapons": [melee(damage="2D+10")]}, "/weapons/0/damage", "UP_ITEM_MALFORMED"),
    ("usage as text", {"weapons": [melee(usage="弾数8")]}, "/weapons/0/usage", "UP_ITEM_MALFORMED"),
    ("map as text", {"weapons": [melee(map="self_centered")]}, "/weapons/0/map", "UP_ITEM_MALFORMED"),
    ("effects not a list", {"weapons": [melee(effects="snipe")]}, "/weapons/0/effects",
     "UP_ITEM_MALFORMED"),
    ("unit terrain as list", {"terrain": ["A"]}, "/terrain", "UP_ITEM_MALFORMED"),
    ("weapon terrain as list", {"weapons": [melee(terrain=["A"])]}, "/weapons/0/terrain",
     "UP_ITEM_MALFORMED"),
    ("kind as list", {"weapons": [melee(kind=["melee"])]}, "/weapons/0/kind", "UP_WEAPON_KIND"),
    ("morale as list", {"weapons": [melee(morale=["confident"])]}, "/weapons/0/morale",
     "UP_MORALE_UNKNOWN"),
    ("ability id as list", {"abilities": [{"id": ["shield"]}]}, "/abilities/0/id", "UP_ABILITY_UNKNOWN"),
    ("movement item as list", {"movement": [["land"], "space"]}, "/movement/0", "UP_MOVEMENT_UNKNOWN"),
    ("bonus as text", {"abilities": [{"id": "stat_bonus", "bonuses": ["格闘+5"]}]},
     "/abilities/0/bonuses/0", "UP_STAT_BONUS_INVALID"),
    ("transformation as text", {"transformation": "ゲッター"}, "/transformation", "UP_TRANSFORM_INVALID"),
    ("variant_of as list", {"weapons": [melee(variant_of=["格闘"])]}, "/weapons/0/variant_of",
     "UP_VARIANT_BASE_MISSING"),
]


# A list where a name belongs is not among the choices (an enum error, not a type error): the
# engine's message, naming the choices, is kept.
ENGINE_MESSAGE_SHOWN = {"kind as list": "UP_WEAPON_KIND", "morale as list": "UP_MORALE_UNKNOWN",
                        "ability id as list": "UP_ABILITY_UNKNOWN",
                        "movement item as list": "UP_MOVEMENT_UNKNOWN"}


@pytest.mark.parametrize(("what", "overrides", "where", "code"), MALFORMED,
                         ids=[row[0] for row in MALFORMED])
def test_malformed_item_is_reported_not_raised(what: str, overrides: dict[str, Any], where: str,
                                               code: str) -> None:
    """A value of the wrong shape is an engine finding at its pointer; pricing goes on. In the
    report, where the schema names the root cause (a wrong type), its finding is the one shown;
    a value of the right type the tables lack keeps the engine's message (issue 11)."""
    p = priced(unit(**overrides))
    assert (code, where) in found(p)
    assert p.lines[0].pointer == "/size"
    report = check_document(unit(**overrides))
    shown = ENGINE_MESSAGE_SHOWN.get(what, "SCHEMA_TYPE")
    assert [f.code for f in report.findings if f.pointer == where] == [shown]
    assert report.findings[0].code == shown and report.findings[-1].code == "ENGINE_INCOMPLETE"
    assert not report.valid


def test_a_gm_reads_the_sheet_label_not_the_json_key(tmp_path) -> None:
    """An empty パワー cell and no ○ in 移動タイプ (issue 35.2): the message names パワー at its cell, in
    both languages, and the movement hint says a ○ is needed."""
    import openpyxl

    from converter import check_paths
    from converter.sheets import write_sheet

    sheet = write_sheet(unit(), tmp_path / "unit.xlsx")
    wb = openpyxl.load_workbook(sheet)
    ws = wb["ユニット"]
    ws["C14"] = None  # パワー
    for row in range(19, 23):  # 移動タイプ: 空 陸 海 宇宙
        ws[f"C{row}"] = None
    wb.save(sheet)
    errors = [f for f in check_paths([sheet]).files[0].findings if f.level is Severity.ERROR]
    power = next(f for f in errors if f.code == "SCHEMA_REQUIRED")
    assert (power.cell, power.message("ja"), power.hint("ja")) == \
        ("ユニット!C14", "必須の項目「パワー」がありません", "「パワー」を記入してください")
    assert power.message("en") == 'the required field "power" is missing'
    movement = next(f for f in errors if f.code == "UP_MOVEMENT_EMPTY")
    assert "○" in movement.hint("ja") and "○" in movement.hint("en")
    assert not any("power" in f.message("ja") or "movement" in f.message("ja") for f in errors)


def test_one_typed_value_gives_one_error(tmp_path) -> None:
    """「実弾」 typed at 武装!F4 (issue 35.10): the reader's SHEET_ENUM_UNKNOWN, the sheet's own red
    cell with its list's choices, and not also the rules' UP_WEAPON_ATTRIBUTE for the same cell."""
    import openpyxl

    from converter import check_paths
    from converter.sheets import write_sheet

    sheet = write_sheet(unit(weapons=[melee()]), tmp_path / "unit.xlsx")
    wb = openpyxl.load_workbook(sheet)
    wb["武装"]["F4"] = "実弾"
    wb.save(sheet)
    errors = [f for f in check_paths([sheet]).files[0].findings if f.level is Severity.ERROR]
    assert [(f.code, f.cell) for f in errors] == [("SHEET_ENUM_UNKNOWN", "武装!F4")]
    assert "「実弾」は選択肢にありません" in errors[0].message("ja") and "実体" in errors[0].message("ja")


def test_the_sheets_words_win_over_the_schemas_and_the_rules() -> None:
    """Where the reader named a typed value, the schema's (whose choices are ids) and the rules'
    findings at it or below it are dropped: one error at the value, in the sheet's words."""
    from converter.check.checker import _read_as_typed
    from converter.core.findings import Finding

    read = [Finding("SHEET_ENUM_UNKNOWN", "/x", {"value": "ほげ", "choices": ["あ"]}, "A1")]
    schema = [Finding("SCHEMA_ENUM", "/x", {"value": "ほげ", "choices": ["a"]})]
    rules = [Finding("UP_MORALE_UNKNOWN", "/x", {"value": "ほげ"}), Finding("UP_MORALE_UNKNOWN", "/y", {"value": "x"})]
    assert [f.pointer for f in _read_as_typed(read, {}, schema + rules)] == ["/y"]
