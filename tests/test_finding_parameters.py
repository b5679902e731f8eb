"""Every finding the three engines report, with its parameters written out by hand.

Each code of up, mailgear and pp (their set checks, the mailgear catalog's checks and pp's group
skill lists included) is raised here by a small document, and the finding must carry exactly the parameters below: the
same values of the same types (a cap of 200 UP is the integer 200, never 200.0; a list stays a
list), and exactly the placeholders its catalog template names (so every parameter is shown, and
none is left in braces). Figures are worked out from the rules in the comments; names are the
rule tables' labels in Japanese and English.

Codes left out are listed in NOT_HERE with the reason.
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from converter.core.findings import Finding, catalog
from converter.rules.mailgear import evaluate as price_pilot, party_unit_level
from converter.rules.mailgear.catalog import Catalog
from converter.rules.pp.engine import price_character
from converter.rules.pp.skills import SkillEntryError, SkillListError, parse_entry, parse_skill_list
from converter.rules.up import check_transformation_sets
from converter.rules.up.engine import price_unit

from .mailgear.conftest import example_catalog, option, pilot, skills, weapon
from .pp.conftest import character, machine, skill, weapon as machine_weapon
from .up.conftest import melee, ranged, unit

#: Engine codes with no case here, and why.
NOT_HERE = {
    "MG_CATALOG_SCHEMA": "raised by the schema validation of a catalog file (converter/schema.py), not an engine",
    "MG_ITEM_EFFECT_UNATTACHED": "raised by the mailgear sheet reader (a 追加効果 row naming no item), "
                                 "tested in tests/sheets/test_mailgear_sheets.py",
}

#: Parameters a finding carries beyond what its templates show, and why.
NOT_SHOWN = {
    "UP_USAGE_REDUCTION_INFERRED": {"matched"},  # the comparison as a word for programs (none, match, mismatch)
    "MG_CUSTOM_BOOST_INELIGIBLE": {"value"},  # the value as written, beside its label pair
}

UP_SIZES = ["SSS", "SS", "S", "M", "L", "LL", "LLL"]
MORALE_JA = ["充実", "高揚", "強気", "超強気", "限界突破"]
MORALE_EN = ["Fulfilled", "Elated", "Confident", "Super Confident", "Limit Break"]
EFFECTS = ["barrier_pierce", "snipe", "skill_based", "cross_stat", "capture", "stat_down", "move_down",
           "capture_only"]
ABILITIES = ["shield", "bunshin", "stat_bonus", "barrier1", "barrier2", "mind_block", "hp_regen", "en_regen",
             "multi_seat", "no_manipulator"]
MAP_TYPES = ["self_centered", "self_destruct", "pilot_inclusive", "target_point", "target_point_safe",
             "directional", "spread", "jet"]
# 弾数 in the order of the seed's 使用回数 table (16 … 1).
AMMO = [16, 12, 8, 5, 3, 2, 1]
ATTRIBUTES = ["body", "reflex", "sense", "mind", "social"]
DIRECT_FIRE_JA = ["実弾兵器", "大口径実弾兵器", "ビーム兵器", "投射兵器"]
DIRECT_FIRE_EN = ["solid weapons", "large-caliber solid weapons", "beam weapons", "projectile weapons"]


@dataclass(frozen=True)
class Case:
    """A document run through an engine, and its one finding of ``code`` at ``pointer``."""

    id: str
    code: str
    pointer: str
    params: dict[str, Any]
    run: Callable[[], list[Finding]]


def up(doc: dict[str, Any], **options: str) -> Callable[[], list[Finding]]:
    return lambda: price_unit(doc, options).findings


def up_size(size: Any) -> dict[str, Any]:
    doc = unit()
    doc["size"] = size
    return doc


def mg(doc: dict[str, Any], catalog: Any = None, **options: str) -> Callable[[], list[Finding]]:
    return lambda: price_pilot(doc, options, catalog=example_catalog() if catalog == "example" else catalog).findings


def pp(doc: dict[str, Any], **options: str) -> Callable[[], list[Finding]]:
    return lambda: price_character(doc, options).findings


def catalog_findings(**tables: Any) -> Callable[[], list[Finding]]:
    return lambda: Catalog.from_data({"catalog": "mailgear", "format": 1, **tables}).findings


def party(*docs: dict[str, Any], catalog: Any = None) -> Callable[[], list[Finding]]:
    return lambda: list(party_unit_level(list(docs), catalog).findings)


def places() -> Callable[[], list[Finding]]:
    """Two forms of a partial transformation: A types 2 changed places, B types 3; they differ in 3."""
    def form(name: str, other: str, typed: int, **extra: Any) -> dict[str, Any]:
        return unit(name=name, transformation={"group": "ゼータ", "forms": [{"name": other, "up": 400}],
                                               "changed_places": typed}, **extra)

    a = form("A", "B", 2)
    b = form("B", "A", 3, weapons=[ranged(name="砲")], stats={"hp": 205}, movement=["air", "land", "space"])
    return lambda: [f for _, f in check_transformation_sets([(d, price_unit(d)) for d in (a, b)])]


def forms() -> Callable[[], list[Finding]]:
    """Form A lists form B at 999 UP; B's own document totals 400 (an M unit, nothing bought)."""
    a = unit(name="A", transformation={"group": "合体", "forms": [{"name": "B", "up": 999}]})
    b = unit(name="B", transformation={"group": "合体", "forms": [{"name": "A", "up": 400}]})
    docs = [a, b]
    return lambda: [f for _, f in check_transformation_sets([(d, price_unit(d)) for d in docs])]


M = {"size_ja": "Ｍ", "size_en": "M"}
HP = {"label_ja": "ＨＰ", "label_en": "HP"}
ARMOR = {"label_ja": "装甲", "label_en": "Armor"}
IRON_WALL = {"label_ja": "鉄壁", "label_en": "Iron Wall"}
SENSOR = {"label_ja": "センサー", "label_en": "Sensor"}
BODY = {"label_ja": "【肉体】", "label_en": "Body"}
PILOTING = {"name_ja": "操縦", "name_en": "Piloting"}
DIRECT_FIRE = {"skill_ja": "直接砲撃", "skill_en": "Direct Fire"}
BEAM = {"name_ja": "ビーム兵器", "name_en": "beam weapons"}
AGS = option()  # Ａ．Ｇ．Ｓ: 鉄壁 +1 (seed 001's own example)
A, B = ranged(name="A"), ranged(name="B", variant_of="A", range=2)

UP_CASES = [
    Case("size", "UP_SIZE_UNKNOWN", "/size", {"value": "XL", "choices": UP_SIZES}, up(up_size("XL"))),
    Case("stat", "UP_VALUE_NOT_INTEGER", "/stats/hp", {**HP, "value": "多い"}, up(unit(stats={"hp": "多い"}))),
    # M: ＨＰ 200, step 5. 207 is +7: the steps around it are 205 and 210.
    Case("stat", "UP_STAT_STEP", "/stats/hp",
         {**HP, "value": 207, "base": 200, "step": 5, **M, "hint": [205, 210]}, up(unit(stats={"hp": 207}))),
    # A boost of ＨＰ+7 counts from 0: the steps around it are 5 and 10.
    Case("boost", "UP_STAT_STEP", "/morale_boosts/0/raise",
         {**HP, "value": 7, "base": 0, "step": 5, **M, "hint": [5, 10]},
         up(unit(morale_boosts=[{"stat": "hp", "raise": 7, "morale": "elated"}]))),
    # M: 装甲 20, at most +15: 36 is over the maximum 35.
    Case("stat", "UP_STAT_MAX", "/stats/armor",
         {**ARMOR, "value": 36, "base": 20, "max": 35, "max_raise": 15, **M}, up(unit(stats={"armor": 36}))),
    Case("stat", "UP_STAT_BELOW_BASE", "/stats/hp", {**HP, "value": 195, "base": 200, **M},
         up(unit(stats={"hp": 195}))),
    # M: 移動力 6; 9 is +3, one past the seed's +2.
    Case("stat", "UP_MOVE_BEYOND_TWO", "/stats/move", {"value": 9, "raise_by": 3}, up(unit(stats={"move": 9}))),
    Case("boost", "UP_BOOST_INVALID", "/morale_boosts/0/stat", {"stat": "luck", "value": 10},
         up(unit(morale_boosts=[{"stat": "luck", "raise": 10}]))),
    # 装甲 30 is +10; a boost of +6 makes +16, past +15: the boosted value 36 over the maximum 35.
    Case("boost", "UP_BOOST_OVER_MAX", "/morale_boosts/0", {**ARMOR, "value": 36, "max": 35},
         up(unit(stats={"armor": 30}, morale_boosts=[{"stat": "armor", "raise": 6, "morale": "elated"}]))),
    Case("boost", "UP_MORALE_UNKNOWN", "/morale_boosts/0/morale",
         {"value": "激怒", "choices_ja": MORALE_JA, "choices_en": MORALE_EN},
         up(unit(morale_boosts=[{"stat": "armor", "raise": 1, "morale": "激怒"}]))),
    Case("movement", "UP_MOVEMENT_EMPTY", "/movement", {}, up(unit(movement=[]))),
    Case("movement", "UP_MOVEMENT_UNKNOWN", "/movement/1",
         {"value": "underground", "choices": ["air", "land", "sea", "space"]},
         up(unit(movement=["land", "underground"]))),
    Case("movement", "UP_MOVEMENT_DUPLICATE", "/movement", {"value_ja": "陸", "value_en": "Land"},
         up(unit(movement=["land", "land", "space"]))),
    Case("unit", "UP_TERRAIN_GRADE", "/terrain/sea", {"value": "Z", "choices": ["S", "A", "B", "C"]},
         up(unit(terrain={"sea": "Z"}))),
    Case("weapon", "UP_TERRAIN_GRADE", "/weapons/0/terrain/sea", {"value": "Q", "choices": ["S", "A", "B", "C", "-"]},
         up(unit(weapons=[melee(terrain={"sea": "Q"})]))),
    # 陸・宇宙: 海 is B before purchases; A is a change the table forbids.
    Case("terrain", "UP_TERRAIN_FORBIDDEN", "/terrain/sea", {"terrain_ja": "海", "terrain_en": "Sea"},
         up(unit(terrain={"sea": "A"}), terrain="forbidden")),
    Case("weapon", "UP_WEAPON_KIND", "/weapons/0/kind", {"value": "beam", "choices": ["melee", "ranged"]},
         up(unit(weapons=[melee(kind="beam")]))),
    Case("weapon", "UP_WEAPON_NAME_DUPLICATE", "/weapons/1/name", {"name": "格闘"},
         up(unit(weapons=[melee(), melee()]))),
    # 格闘: the table prices ranges 1-5.
    Case("melee", "UP_WEAPON_RANGE", "/weapons/0/range", {"value": 6, "max": 5}, up(unit(weapons=[melee(range=6)]))),
    Case("ranged", "UP_WEAPON_RANGE", "/weapons/0/range", {"value": 0, "max": "∞"},
         up(unit(weapons=[ranged(range=0)]))),
    Case("weapon", "UP_WEAPON_MIN_RANGE", "/weapons/0/min_range", {"value": 4, "range": 3},
         up(unit(weapons=[ranged(range=3, min_range=4)]))),
    Case("weapon", "UP_WEAPON_ATTRIBUTE", "/weapons/0/attribute",
         {"value": "fire", "choices_ja": ["実体", "ビーム", "無属性"], "choices_en": ["solid", "beam", "no attribute"]},
         up(unit(weapons=[melee(attribute="fire")]))),
    Case("weapon", "UP_DAMAGE_BELOW_BASE", "/weapons/0/damage/dice", {"dice": 0, "fixed": 10, "base": "1D10+10"},
         up(unit(weapons=[melee(damage={"dice": 0, "fixed": 10})]))),
    # 命中 +35 is not a step: the steps around it are +30 and +40.
    Case("weapon", "UP_ACCURACY_STEP", "/weapons/0/accuracy", {"value": 35, "hint": [30, 40]},
         up(unit(weapons=[melee(accuracy=35)]))),
    Case("text", "UP_ACCURACY_STEP", "/weapons/0/accuracy",
         {"value": "高い", "hint": [-10, 0, 5, 10, 15, 20, 25, 30, 40, 45, 50]},
         up(unit(weapons=[melee(accuracy="高い")]))),
    Case("weapon", "UP_USAGE_TYPE", "/weapons/0/usage/type", {"value": "fuel", "choices": ["en", "ammo"]},
         up(unit(weapons=[ranged(usage={"type": "fuel", "amount": 3})]))),
    # 弾数4 is not a row: the rows around it are 3 and 5.
    Case("weapon", "UP_USAGE_AMOUNT", "/weapons/0/usage/amount",
         {"type_ja": "弾数", "type_en": "ammo", "value": 4, "hint": [3, 5], "choices": AMMO},
         up(unit(weapons=[ranged(usage={"type": "ammo", "amount": 4})]))),
    # 弾数0: nothing below it; the row above is 1.
    Case("zero", "UP_USAGE_AMOUNT", "/weapons/0/usage/amount",
         {"type_ja": "弾数", "type_en": "ammo", "value": 0, "hint": [1], "choices": AMMO},
         up(unit(weapons=[ranged(usage={"type": "ammo", "amount": 0})]))),
    # A number not written: counted from 0 for the hint.
    Case("text", "UP_USAGE_AMOUNT", "/weapons/0/usage/amount",
         {"type_ja": "ＥＮ", "type_en": "EN", "value": "多め", "hint": [5], "choices": [5, 10, 15, 20, 30, 50]},
         up(unit(weapons=[ranged(usage={"type": "en", "amount": "多め"})]))),
    # 弾数16 is −10 UP only: no −% to choose.
    Case("weapon", "UP_USAGE_NO_PERCENT", "/weapons/0/usage/reduction",
         {"amount": 16, "up": -10, "type_ja": "弾数", "type_en": "ammo"},
         up(unit(weapons=[ranged(usage={"type": "ammo", "amount": 16, "reduction": "percent"})]))),
    Case("weapon", "UP_USAGE_REDUCTION", "/weapons/0/usage/reduction", {"value": "half"},
         up(unit(weapons=[ranged(usage={"type": "ammo", "amount": 8, "reduction": "half"})]))),
    Case("weapon", "UP_USAGE_REDUCTION_INFERRED", "/weapons/0/usage/reduction",
         {"choice": "−UP", "matched": "none", "matched_ja": "記入なし", "matched_en": "no cost is written"},
         up(unit(weapons=[ranged(usage={"type": "ammo", "amount": 8})]))),
    Case("weapon", "UP_MAP_TYPE", "/weapons/0/map/type", {"value": "ring", "choices": MAP_TYPES},
         up(unit(weapons=[ranged(map={"type": "ring"})]))),
    Case("weapon", "UP_MAP_RADIUS", "/weapons/0/map/radius", {"value": None},
         up(unit(weapons=[ranged(map={"type": "target_point"})]))),
    Case("weapon", "UP_WEAPON_COMBO", "/weapons/0/combo", {"value": "maybe", "choices": ["none", "usable", "only"]},
         up(unit(weapons=[melee(combo="maybe")]))),
    Case("weapon", "UP_EFFECT_UNKNOWN", "/weapons/0/effects/0", {"value": "fire", "choices": EFFECTS},
         up(unit(weapons=[melee(effects=["fire"])]))),
    Case("weapon", "UP_EFFECT_DUPLICATE", "/weapons/0/effects/1", {"effect_ja": "スナイプ", "effect_en": "snipe"},
         up(unit(weapons=[ranged(effects=["snipe", "snipe"])]))),
    Case("weapon", "UP_EFFECT_LEVEL", "/weapons/0/effects/0/level",
         {"effect_ja": "ステータス低下", "effect_en": "stat down", "value": 4, "max": 3},
         up(unit(weapons=[ranged(effects=[{"id": "stat_down", "level": 4, "target": "armor"}])]))),
    Case("weapon", "UP_EFFECT_TARGET", "/weapons/0/effects/0/target",
         {"effect_ja": "ステータス低下", "effect_en": "stat down"},
         up(unit(weapons=[ranged(effects=[{"id": "stat_down", "level": 1}])]))),
    # 格闘 not P −30 % and 合体攻撃専用 −50 %: −80 %, floored at the weapons' −50 %.
    Case("weapon", "UP_PERCENT_FLOOR", "/weapons/0", {"name": "格闘", "floor": -50},
         up(unit(weapons=[melee(post_move=False, combo="only")]))),
    # 命中+50: 40 + 260 = 300 UP on a budget of 1000, whose fifth is 200 (a whole number).
    Case("whole", "UP_WEAPON_OVER_CAP", "/weapons/0", {"name": "格闘", "cost": 300, "cap": 200},
         up(unit(budget=1000, weapons=[melee(accuracy=50)]))),
    # A fifth of 1001 is 200.2.
    Case("decimal", "UP_WEAPON_OVER_CAP", "/weapons/0", {"name": "格闘", "cost": 300, "cap": 200.2},
         up(unit(budget=1001, weapons=[melee(accuracy=50)]))),
    # 射程1 30 UP, 弾数1 −200 UP: −170.
    Case("weapon", "UP_WEAPON_NEGATIVE", "/weapons/0", {"name": "射撃", "cost": -170},
         up(unit(weapons=[ranged(usage={"type": "ammo", "amount": 1, "reduction": "up"})]))),
    Case("weapon", "UP_WEAPON_COST_MISMATCH", "/weapons/0/declared_cost", {"name": "格闘", "declared": 41, "computed": 40},
         up(unit(weapons=[melee(declared_cost=41)]))),
    Case("ability", "UP_SOURCE_WORK_ONLY", "/abilities/0", {"item_ja": "ＨＰ回復", "item_en": "HP regeneration"},
         up(unit(abilities=[{"id": "hp_regen"}]))),
    Case("P MAP", "UP_SOURCE_WORK_ONLY", "/weapons/0/post_move",
         {"item_ja": "Ｐ属性のＭＡＰ兵器", "item_en": "a MAP weapon usable after moving"},
         up(unit(weapons=[ranged(post_move=True, map={"type": "directional"})]))),
    Case("friend or foe", "UP_SOURCE_WORK_ONLY", "/weapons/0/map/friend_foe",
         {"item_ja": "敵味方識別", "item_en": "friend-or-foe recognition"},
         up(unit(weapons=[ranged(map={"type": "directional", "friend_foe": True})]))),
    Case("weapon", "UP_VARIANT_BASE_MISSING", "/weapons/0/variant_of", {"name": "X"},
         up(unit(weapons=[ranged(name="B", variant_of="X")]))),
    # A list where a name goes names it as its JSON text, Japanese as written.
    Case("list", "UP_VARIANT_BASE_MISSING", "/weapons/0/variant_of", {"name": '["ビーム"]'},
         up(unit(weapons=[ranged(name="B", variant_of=["ビーム"])]))),
    Case("weapon", "UP_VARIANT_CHAIN", "/weapons/2/variant_of", {"name": "B"},
         up(unit(weapons=[A, B, ranged(name="C", variant_of="B", range=3)]))),
    Case("weapon", "UP_VARIANT_SECOND", "/weapons/2/variant_of", {"base": "A", "first": "B"},
         up(unit(weapons=[A, B, ranged(name="C", variant_of="A", range=3)]))),
    Case("weapon", "UP_VARIANT_NO_CHANGE", "/weapons/1/variant_of", {"name": "A"},
         up(unit(weapons=[A, ranged(name="B", variant_of="A")]))),
    # Range, minimum range, attribute, accuracy and combo differ: 5 places, one past 4.
    Case("weapon", "UP_VARIANT_TOO_MANY_CHANGES", "/weapons/1/variant_of", {"name": "A", "changes": 5, "max": 4},
         up(unit(weapons=[A, ranged(name="B", variant_of="A", range=3, min_range=2, attribute="beam",
                                    accuracy=10, combo="usable")]))),
    Case("ability", "UP_ABILITY_UNKNOWN", "/abilities/0/id", {"value": "laser_eyes", "choices": ABILITIES},
         up(unit(abilities=[{"id": "laser_eyes"}]))),
    Case("shield", "UP_ABILITY_VALUE", "/abilities/0/armor", {"value": 0, "name_ja": "シールド装備", "name_en": "shield"},
         up(unit(abilities=[{"id": "shield", "armor": 0}]))),
    Case("barrier", "UP_ABILITY_VALUE", "/abilities/0/armor", {"value": "厚い", "name_ja": "バリア２", "name_en": "Barrier 2"},
         up(unit(abilities=[{"id": "barrier2", "armor": "厚い"}]))),
    # No bonus at all: the value shown is blank.
    Case("stat bonus", "UP_ABILITY_VALUE", "/abilities/0/bonuses",
         {"value": "", "name_ja": "能力値ボーナス", "name_en": "stat bonus"},
         up(unit(abilities=[{"id": "stat_bonus", "bonuses": []}]))),
    Case("bunshin", "UP_ABILITY_LEVEL", "/abilities/0/level",
         {"name_ja": "分身", "name_en": "afterimages", "value": 8, "max": 7},
         up(unit(abilities=[{"id": "bunshin", "level": 8}]))),
    Case("multi_seat", "UP_ABILITY_LEVEL", "/abilities/0/level",
         {"name_ja": "複座", "name_en": "multiple seats", "value": 0, "max": "∞"},
         up(unit(abilities=[{"id": "multi_seat", "level": 0}]))),
    Case("ability", "UP_ABILITY_GRADE", "/abilities/0/grade", {"value": "huge", "choices": ["small", "medium", "large"]},
         up(unit(abilities=[{"id": "en_regen", "grade": "huge"}]))),
    Case("ability", "UP_ABILITY_EN_COST", "/abilities/0/en_cost", {"value": 7, "choices": [5, 10, 15, 20]},
         up(unit(abilities=[{"id": "mind_block", "en_cost": 7}]))),
    Case("ability", "UP_ABILITY_COST_MISMATCH", "/abilities/0/declared_cost",
         {"name_ja": "マインドブロック", "name_en": "Mind Block", "declared": 79, "computed": 80},
         up(unit(abilities=[{"id": "mind_block", "declared_cost": 79}]))),
    Case("ability", "UP_SHIELD_USES", "/abilities/0/uses", {"value": 2, "choices": ["1", "3", "5"]},
         up(unit(abilities=[{"id": "shield", "armor": 5, "uses": 2}]))),
    # M: パワー 15.
    Case("ability", "UP_SHIELD_OVER_POWER", "/abilities/0/armor", {"value": 16, "power": 15},
         up(unit(abilities=[{"id": "shield", "armor": 16}]))),
    Case("stat", "UP_STAT_BONUS_INVALID", "/abilities/0/bonuses/0/stats/0", {"stats": ["luck"], "value": 2},
         up(unit(abilities=[{"id": "stat_bonus", "bonuses": [{"stats": ["luck"], "amount": 2}]}]))),
    Case("not an object", "UP_STAT_BONUS_INVALID", "/abilities/0/bonuses/0", {"stats": [], "value": "格闘+2"},
         up(unit(abilities=[{"id": "stat_bonus", "bonuses": ["格闘+2"]}]))),
    Case("ability", "UP_STAT_BONUS_MIXED", "/abilities/0/bonuses/0",
         {"stats_ja": ["【格闘】", "【回避】"], "stats_en": ["Melee", "Evasion"]},
         up(unit(abilities=[{"id": "stat_bonus", "bonuses": [{"stats": ["melee", "evasion"], "amount": 1}]}]))),
    Case("unit", "UP_TRANSFORM_INVALID", "/transformation", {"value": "yes"}, up(unit(transformation="yes"))),
    Case("combination", "UP_TRANSFORM_INVALID", "/transformation/combination", {"value": "merged"},
         up(unit(transformation={"combination": "merged"}))),
    # The form as written is shown.
    Case("form", "UP_TRANSFORM_INVALID", "/transformation/forms/0/up", {"value": {"name": "B", "up": -1}},
         up(unit(transformation={"forms": [{"name": "B", "up": -1}]}))),
    Case("unit", "UP_TRANSFORM_NO_FORMS", "/transformation/forms", {},
         up(unit(transformation={"group": "G", "forms": []}))),
    Case("unit", "UP_TRANSFORM_COMBINED", "/transformation/combination", {},
         up(unit(transformation={"combination": "combined"}))),
    # A 射程3 ranged weapon at A/A/A/− with its B unplaced: under the − it is −20 %, anywhere else
    # the B→A step adds 10 % (−10 %).
    Case("weapon", "UP_TERRAIN_B_ASSUMED", "/weapons/0/terrain_b",
         {"terrain_ja": "宇宙", "terrain_en": "Space", "percent": "−20%", "costliest": "−10%"},
         up(unit(weapons=[ranged(range=3, terrain={"air": "A", "land": "A", "sea": "A", "space": "-"})]))),
    Case("weapon", "UP_TERRAIN_B_NOT_RANGED", "/weapons/0/terrain_b", {"terrain_ja": "海", "terrain_en": "Sea"},
         up(unit(weapons=[melee(terrain_b="sea")]))),
    Case("unit", "UP_TRANSFORM_PARTIAL", "/transformation/changed_places", {"value": 7, "max": 6},
         up(unit(transformation={"forms": [{"name": "B", "up": 400}], "changed_places": 7}))),
    # A adds a weapon, raises HP and takes to the air (3 places); it types 2, B types 3.
    Case("set", "UP_TRANSFORM_PLACES_MISMATCH", "/transformation/changed_places",
         {"group": "ゼータ", "typed": 2, "counted": 3}, places()),
    Case("set", "UP_TRANSFORM_SET_MISMATCH", "/transformation/forms/0/up",
         {"group": "合体", "form": "B", "declared": 999, "computed": 400}, forms()),
    # Size M 400 + 射程2 格闘 80 = 480 on a budget of 450.
    Case("unit", "UP_OVER_BUDGET", "/budget", {"total": 480, "budget": 450, "over": 30},
         up(unit(budget=450, weapons=[melee(range=2)]))),
    Case("unit", "UP_TOTAL_MISMATCH", "/declared_total", {"declared": 401, "computed": 400},
         up(unit(declared_total=401))),
    Case("unit", "UP_ITEM_MALFORMED", "/weapons", {"field": "weapons", "expected": "[…]", "value": '"剣"'},
         up(unit(weapons="剣"))),
]

# The example catalog: experience 20 is level D (10-24), rank points 20 rank C (20-29).
GARM = {"model": "ガルム", "rank": "C"}
MG_CASES = [
    # 「３つ装備したとしても＋３レベルにはなりません」: the third Ａ．Ｇ．Ｓ, at most 2 count.
    Case("third", "MG_OPTION_COPIES", "/equipment/2", {"name": "Ａ．Ｇ．Ｓ", "copy": 3, "max": 2},
         mg(pilot(equipment=[option(), option(), option()]))),
    Case("id", "MG_SKILL_UNKNOWN", "/skills/0/id", {"value": "flying"},
         mg(pilot(skills=[{"id": "flying", "level": 1}]))),
    Case("name", "MG_SKILL_UNKNOWN", "/skills/0/name", {"value": "飛行"}, mg(pilot(skills=[{"name": "飛行", "level": 1}]))),
    Case("nothing", "MG_SKILL_UNKNOWN", "/skills/0", {"value": None}, mg(pilot(skills=[{"level": 1}]))),
    Case("skill", "MG_SKILL_ID_NAME_MISMATCH", "/skills/0/name", {"name": "熱血", **IRON_WALL},
         mg(pilot(skills=[{"id": "iron_wall", "name": "熱血", "level": 1}]))),
    Case("skill", "MG_SKILL_LEVEL_INVALID", "/skills/0/level", {**IRON_WALL, "value": 0},
         mg(pilot(skills=skills(iron_wall=0)))),
    Case("skill", "MG_SKILL_DUPLICATE", "/skills/1", {**IRON_WALL, "first": 0},
         mg(pilot(skills=skills(iron_wall=1) + skills(iron_wall=2)))),
    # 鉄壁: 最大レベル 4.
    Case("skill", "MG_SKILL_OVER_MAX", "/skills/0/level", {**IRON_WALL, "value": 5, "max": 4},
         mg(pilot(skills=skills(iron_wall=5)))),
    # 鉄壁 4 with Ａ．Ｇ．Ｓ +1 stops at 4: one level cut.
    Case("skill", "MG_SKILL_CAPPED", "/skills/0",
         {**IRON_WALL, "learned": 4, "bonus": 1, "max": 4, "cut": 1, "items": ["Ａ．Ｇ．Ｓ"]},
         mg(pilot(skills=skills(iron_wall=4), equipment=[AGS]))),
    Case("option", "MG_OPTION_SKILL_NOT_LEARNED", "/equipment/0", {"name": "Ａ．Ｇ．Ｓ", **IRON_WALL},
         mg(pilot(equipment=[AGS]))),
    Case("gear", "MG_STAT_INVALID", "/gear/stats/sensor", {**SENSOR, "value": "高い"},
         mg(pilot(stats={"sensor": "高い"}))),
    Case("gear", "MG_CUSTOM_RANK_MISMATCH", "/gear/custom", {"rank": "C", "custom_ja": "○", "custom_en": "yes"},
         mg(pilot(gear={"custom": True, "boosts": ["sensor", "cr", "sr"]}))),
    Case("gear", "MG_CUSTOM_BOOST_NOT_CUSTOM", "/gear/boosts", {"rank": "C"}, mg(pilot(gear={"boosts": ["sensor"]}))),
    Case("gear", "MG_CUSTOM_BOOST_COUNT", "/gear/boosts", {"count": 2, "required": 3},
         mg(pilot(gear={"rank": "C+", "boosts": ["sensor", "cr"]}))),
    Case("gear", "MG_CUSTOM_BOOST_DUPLICATE", "/gear/boosts/1", SENSOR,
         mg(pilot(gear={"rank": "C+", "boosts": ["sensor", "sensor", "cr"]}))),
    # 出力 is not among センサー〜キャパシティ.
    Case("gear", "MG_CUSTOM_BOOST_INELIGIBLE", "/gear/boosts/0",
         {"value": "output", "label_ja": "出力", "label_en": "Output",
          "choices_ja": ["センサー", "機動力", "CR", "SR", "MR", "LR", "受け", "カウンター", "耐久", "エネルギー",
                         "キャパシティ"],
          "choices_en": ["Sensor", "Mobility", "CR", "SR", "MR", "LR", "Guard", "Counter", "Durability", "Energy",
                         "Capacity"]},
         mg(pilot(gear={"rank": "C+", "boosts": ["output", "sensor", "cr"]}))),
    Case("catalog", "MG_GEAR_RANK_MISMATCH", "/gear/rank", {"rank": "B", "rank_points": 20, "expected": "C"},
         mg(pilot(gear={"model": "ガルム", "rank": "B"}), "example")),
    Case("catalog", "MG_MODEL_RANK_MISSING", "/gear/rank", {"model": "試作機", "rank": "C", "choices": ["E"]},
         mg(pilot(gear={"model": "試作機"}),
            {"gear_ranks": [{"rank_points": 0, "rank": "E"}, {"rank_points": 20, "rank": "C"}],
             "models": [{"name": "試作機", "ranks": {"E": {"sensor": 1}}}]})),
    Case("gear", "MG_SLOTS_OVER", "/equipment", {"used": 7, "max": 6},
         mg(pilot(equipment=[weapon(f"武器{k}") for k in range(7)]))),
    Case("gear", "MG_ARMS_OVER", "/equipment/1/arm",
         {"name": "剣", "arm_ja": "右腕", "arm_en": "right arm", "other": "ライフル", "arms": 2},
         mg(pilot(equipment=[weapon(arm="right"), weapon("剣", ("cr",), arm="right")]))),
    Case("option", "MG_OPTION_EFFECTS_UNKNOWN", "/equipment/0", {"name": "謎の箱"},
         mg(pilot(equipment=[{"kind": "option", "name": "謎の箱"}]))),
    Case("bands", "MG_ITEM_FIELD_INVALID", "/equipment/0/bands", {"name": "ライフル", "field": "bands", "value": ["xx"]},
         mg(pilot(equipment=[weapon(bands=("xx",))]))),
    Case("slots", "MG_ITEM_FIELD_INVALID", "/equipment/0/slots", {"name": "ライフル", "field": "slots", "value": 0},
         mg(pilot(equipment=[weapon(slots=0)]))),
    Case("kind", "MG_ITEM_FIELD_INVALID", "/equipment/0/kind", {"name": "ライフル", "field": "kind", "value": "armor"},
         mg(pilot(equipment=[weapon(kind="armor")]))),
    Case("arm", "MG_ITEM_FIELD_INVALID", "/equipment/0/arm", {"name": "ライフル", "field": "arm", "value": "tail"},
         mg(pilot(equipment=[weapon(arm="tail")]))),
    Case("extra damage", "MG_ITEM_FIELD_INVALID", "/equipment/0/extra_damage",
         {"name": "ライフル", "field": "extra_damage", "value": "大"}, mg(pilot(equipment=[weapon(extra_damage="大")]))),
    Case("effects", "MG_ITEM_FIELD_INVALID", "/equipment/0/effects/0",
         {"name": "Ａ．Ｇ．Ｓ", "field": "effects", "value": {"skill": "flying", "levels": 1}},
         mg(pilot(equipment=[option(skill="flying")]))),
    # 移動力 5 (the gear's own; no skill raises it).
    Case("derived", "MG_DERIVED_MISMATCH", "/derived/move",
         {"label_ja": "移動", "label_en": "Movement", "declared": 99, "computed": 5}, mg(pilot(derived={"move": 99}))),
    Case("catalog", "MG_LEVEL_UNKNOWN", "/pilot/level", {"value": "Z", "choices": ["E", "D", "C", "B", "A", "S"]},
         mg(pilot(gear=GARM, pilot={"name": "P", "experience": 20, "rank_points": 20, "level": "Z"}), "example")),
    Case("catalog", "MG_LEVEL_MISMATCH", "/pilot/level", {"level": "C", "experience": 20, "expected": "D"},
         mg(pilot(gear=GARM, pilot={"name": "P", "experience": 20, "rank_points": 20, "level": "C"}), "example")),
    Case("no catalog", "MG_CATALOG_TABLE_MISSING", "/pilot/level",
         {"table": "levels", "label": "レベル表", "enables_ja": "経験に対するレベル（アルファベット）",
          "enables_en": "the pilot's level letter against experience"}, mg(pilot())),
    Case("model", "MG_CATALOG_UNKNOWN_ITEM", "/gear/model",
         {"name": "試作機", "label_ja": "メイルギア一覧（ランク別の基本性能）", "label_en": "gear models (base stats by rank)"},
         mg(pilot(gear={"model": "試作機", "rank": "C"}), "example")),
    Case("catalog", "MG_CATALOG_UNKNOWN_ITEM", "/equipment/0/name",
         {"name": "謎の剣", "label_ja": "武器一覧", "label_en": "weapon list"},
         mg(pilot(gear=GARM, equipment=[weapon("謎の剣")]), "example")),
    # The catalog's ヒートナイフ adds 2.
    Case("catalog", "MG_CATALOG_MISMATCH", "/equipment/0/extra_damage",
         {"item": "ヒートナイフ", "field_ja": "extra_damage", "field_en": "extra_damage", "sheet": 3, "catalog": 2},
         mg(pilot(gear=GARM, equipment=[{"kind": "weapon", "name": "ヒートナイフ", "extra_damage": 3}]), "example")),
    Case("ladder", "MG_CATALOG_DUPLICATE", "/levels/1/level",
         {"table_ja": "レベル表", "table_en": "level table", "name": "E", "first": 0},
         catalog_findings(levels=[{"experience": 0, "level": "E"}, {"experience": 10, "level": "E"}])),
    Case("catalog", "MG_CATALOG_DUPLICATE", "/weapons/1/name",
         {"table_ja": "武器一覧", "table_en": "weapon list", "name": "剣", "first": 0},
         catalog_findings(weapons=[{"name": "剣", "bands": ["cr"]}, {"name": "剣", "bands": ["sr"]}])),
    Case("catalog", "MG_CATALOG_ORDER", "/levels/1/experience",
         {"table_ja": "レベル表", "table_en": "level table", "value": 10, "previous": 10},
         catalog_findings(levels=[{"experience": 10, "level": "E"}, {"experience": 10, "level": "D"}])),
    Case("catalog", "MG_CATALOG_RANK_UNKNOWN", "/models/0/ranks/S", {"model": "試作機", "rank": "S", "choices": ["C", "E"]},
         catalog_findings(gear_ranks=[{"rank_points": 0, "rank": "E"}, {"rank_points": 20, "rank": "C+"}],
                          models=[{"name": "試作機", "ranks": {"S": {"sensor": 1}}}])),
    Case("party", "MG_PARTY_EMPTY", "", {}, party()),
    # A pilot without a name is named by its place, from 1.
    Case("party", "MG_PARTY_MEMBER_INVALID", "/1/pilot/rank_points", {"member": "#2", "value": "多い"},
         party(pilot(), pilot(pilot={"experience": 10, "rank_points": "多い"}))),
    # 20 + 20 = 40 against a table whose first row starts at 50.
    Case("party", "MG_UNIT_LEVEL_BELOW_TABLE", "", {"value": 40},
         party(pilot(), catalog={"unit_levels": [{"min": 50, "unit_level": 1}]})),
]

PP_CASES = [
    # 回避 = メインシステムの回避修正 1 ＋ 機動性 2 = 3, written 4.
    Case("dodge", "PP_EVASION_MODIFIER_MISMATCH", "/machine/evasion_modifier/dodge",
         {"label_ja": "回避修正（回避）", "label_en": "evasion modifier (dodge)",
          "sum_ja": "メインシステムの回避修正 1 ＋ 機動性 2", "sum_en": "main system evasion modifier 1 + mobility 2",
          "value": 4, "expected": 3},
         pp(character(machine=machine(evasion_modifier={"dodge": 4, "parry": 2})))),
    Case("older", "PP_EVASION_MODIFIER_UNCHECKED", "/machine/main_system_evasion",
         {"missing_ja": "メインシステムの回避修正", "missing_en": "main system evasion modifier"},
         pp(character(machine={k: v for k, v in machine().items() if k != "main_system_evasion"}))),
    Case("budget", "PP_VALUE_NOT_INTEGER", "/budget", {"label_ja": "総ＰＰ", "label_en": "Budget", "value": "多い"},
         pp(character(budget="多い"))),
    Case("attribute", "PP_VALUE_NOT_INTEGER", "/attributes/body", {**BODY, "value": "強い"},
         pp(character(attributes={"body": "強い"}))),
    Case("skill", "PP_VALUE_NOT_INTEGER", "/skills/0/level", {"label_ja": "〈操縦〉", "label_en": "Piloting", "value": 2.5},
         pp(character(skills=[skill("操縦", 2.5)]))),
    Case("combat boost", "PP_VALUE_NOT_INTEGER", "/combat_boost",
         {"label_ja": "コンバット・ブースト", "label_en": "Combat boost", "value": None}, pp(character(combat_boost=None))),
    Case("specialization", "PP_VALUE_NOT_INTEGER", "/skills/0/specializations/0/level",
         {"label_ja": "〈直接砲撃〉（ビーム兵器）", "label_en": "Direct Fire (beam weapons)", "value": "高い"},
         pp(character(skills=[skill("直接砲撃", 1, ("ビーム兵器", "高い"))]))),
    Case("attribute", "PP_ATTRIBUTE_MAX", "/attributes/body", {**BODY, "value": 13, "max": 12},
         pp(character(attributes={"body": 13}))),
    Case("attribute", "PP_ATTRIBUTE_BELOW_MINIMUM", "/attributes/body", {**BODY, "value": -1, "min": 0},
         pp(character(attributes={"body": -1}))),
    # 1→0 gives back what 1 cost: 1 PP.
    Case("attribute", "PP_ATTRIBUTE_ZERO", "/attributes/body", {**BODY, "value": 0, "refund": 1},
         pp(character(attributes={"body": 0}))),
    Case("skill", "PP_SKILL_MAX", "/skills/0/level", {**PILOTING, "value": 9, "max": 8},
         pp(character(skills=[skill("操縦", 9)]))),
    Case("skill", "PP_SKILL_BELOW_ZERO", "/skills/0/level", {**PILOTING, "value": -1},
         pp(character(skills=[skill("操縦", -1)]))),
    Case("skill", "PP_SKILL_UNKNOWN", "/skills/0/name", {"name": "料理"}, pp(character(skills=[skill("料理", 1)]))),
    Case("skill", "PP_SKILL_DUPLICATE", "/skills/1/name", {**PILOTING, "first": 0},
         pp(character(skills=[skill("操縦", 1), skill("〈操縦〉", 2)]))),
    Case("skill", "PP_SKILL_NO_ATTRIBUTE", "/skills/0/attribute", {"skill_ja": "料理", "skill_en": "料理"},
         pp(character(skills=[skill("料理", 1)]))),
    Case("skill", "PP_SKILL_ATTRIBUTE", "/skills/0/attribute", {"value": "luck", "choices": ATTRIBUTES},
         pp(character(skills=[skill("操縦", 1, attribute="luck")]))),
    Case("list", "PP_SKILL_LIST_ENTRY", "/skill_list/0",
         {"detail_ja": "項目は技能名か表（{name = ...}）で書きます", "detail_en": "an entry is a name or a table ({name = ...})"},
         pp(character(skill_list=[5]))),
    Case("specialization", "PP_SPECIALIZATION_UNKNOWN", "/skills/0/specializations/0/name",
         {**DIRECT_FIRE, "name": "火炎放射", "choices_ja": DIRECT_FIRE_JA, "choices_en": DIRECT_FIRE_EN},
         pp(character(skills=[skill("直接砲撃", 1, ("火炎放射", 2))]))),
    # A group's skill and sub-categories have no English names: as written, in both languages.
    Case("group", "PP_SPECIALIZATION_UNKNOWN", "/skills/0/specializations/0/name",
         {"skill_ja": "料理", "skill_en": "料理", "name": "洋食", "choices_ja": ["和食"], "choices_en": ["和食"]},
         pp(character(skill_list=[{"name": "料理", "specializations": ["和食"]}],
                      skills=[skill("料理", 1, ("洋食", 2))]))),
    Case("specialization", "PP_SPECIALIZATION_DUPLICATE", "/skills/0/specializations/1/name", {**DIRECT_FIRE, **BEAM},
         pp(character(skills=[skill("直接砲撃", 1, ("ビーム兵器", 2), ("ビーム兵器", 3))]))),
    Case("specialization", "PP_SPECIALIZATION_MAX", "/skills/0/specializations/0/level",
         {**DIRECT_FIRE, **BEAM, "value": 9, "max": 8},
         pp(character(skills=[skill("直接砲撃", 1, ("ビーム兵器", 9))]))),
    Case("specialization", "PP_SPECIALIZATION_NOT_ABOVE", "/skills/0/specializations/0/level",
         {**DIRECT_FIRE, **BEAM, "value": 2, "level": 2},
         pp(character(skills=[skill("直接砲撃", 2, ("ビーム兵器", 2))]))),
    Case("specialization", "PP_SPECIALIZATION_SECOND", "/skills/0/specializations/1",
         {**DIRECT_FIRE, "name_ja": "実弾兵器", "name_en": "solid weapons"},
         pp(character(skills=[skill("直接砲撃", 1, ("ビーム兵器", 2), ("実弾兵器", 2))]),
            specializations_per_skill="one")),
    Case("boost", "PP_COMBAT_BOOST_BELOW_START", "/combat_boost", {"value": 2, "start": 3},
         pp(character(combat_boost=2))),
    Case("boost", "PP_COMBAT_BOOST_RAISED", "/combat_boost", {"value": 4, "start": 3},
         pp(character(combat_boost=4), combat_boost_raise="gm_growth")),
    Case("feats", "PP_FEATS_NOT_IN_USE", "/feats", {"count": 2},
         pp(character(feats=[{"name": "狙撃"}, {"name": "整備"}]), feats="unused")),
    Case("feats", "PP_FEAT_DUPLICATE", "/feats/1/name", {"name": "狙撃"},
         pp(character(feats=[{"name": "狙撃"}, {"name": "狙撃"}]))),
    Case("null", "PP_MACHINE_TYPE", "/machine/speed",
         {"label_ja": "スピード", "label_en": "speed", "value": "null", "expected_ja": "整数",
          "expected_en": "a whole number"}, pp(character(machine=machine(speed=None)))),
    Case("choices", "PP_MACHINE_TYPE", "/machine/weapons/0/engagements",
         {"label_ja": "使用できるエンゲージ", "label_en": "usable engagements", "value": '"long"',
          "expected_ja": "選択肢のリスト", "expected_en": "a list of the choices"},
         pp(character(machine=machine(weapons=[machine_weapon(engagements="long")])))),
    Case("machine", "PP_MACHINE_TYPE", "/machine/speed",
         {"label_ja": "スピード", "label_en": "speed", "value": '"速い"', "expected_ja": "整数",
          "expected_en": "a whole number"}, pp(character(machine=machine(speed="速い")))),
    Case("machine", "PP_MACHINE_MINIMUM", "/machine/armor", {"label_ja": "装甲値", "label_en": "armor", "value": -1,
                                                            "limit": 0},
         pp(character(machine=machine(armor=-1)))),
    Case("machine", "PP_MACHINE_CHOICE", "/machine/weapons/0/damage",
         {"label_ja": "破壊力", "label_en": "damage class", "value": "X", "choices": ["L", "M", "S", "D"]},
         pp(character(machine=machine(weapons=[machine_weapon(damage="X")])))),
    Case("machine", "PP_MACHINE_CHOICE_SPELLING", "/machine/weapons/0/damage",
         {"label_ja": "破壊力", "label_en": "damage class", "value": "大破", "expected": "D"},
         pp(character(machine=machine(weapons=[machine_weapon(damage="大破")])))),
    # Every attribute 2 costs 2 each: 10 PP; 操縦 3 costs 2 + 4 + 6 = 12: 22 on a budget of 20.
    Case("budget", "PP_OVER_BUDGET", "/budget", {"total": 22, "budget": 20, "over": 2},
         pp(character(budget=20, attributes=dict.fromkeys(ATTRIBUTES, 2), skills=[skill("操縦", 3)]))),
    Case("budget", "PP_UNDER_BUDGET", "/budget", {"total": 22, "budget": 50, "remainder": 28},
         pp(character(attributes=dict.fromkeys(ATTRIBUTES, 2), skills=[skill("操縦", 3)]))),
    Case("budget", "PP_TOTAL_MISMATCH", "/declared_total", {"declared": 23, "computed": 22},
         pp(character(budget=22, declared_total=23, attributes=dict.fromkeys(ATTRIBUTES, 2),
                      skills=[skill("操縦", 3)]))),
]



def skill_list(text: str, suffix: str) -> Callable[[], list[Finding]]:
    """The finding a group's skill list file (``list`` + ``suffix``) stops with."""
    def run() -> list[Finding]:
        try:
            parse_skill_list(text, f"list{suffix}", suffix)
        except SkillListError as exc:
            return [exc.finding]
        return []
    return run


def skill_entry(raw: Any) -> Callable[[], list[Finding]]:
    """The finding one entry of a skill list is refused with."""
    def run() -> list[Finding]:
        try:
            parse_entry(raw, "list")
        except SkillEntryError as exc:
            return [Finding(exc.code, "", exc.params)]
        return []
    return run


SKILL_LIST_CASES = [
    Case("text", "SKILL_LIST_NO_NAME", "", {"file": "list.txt", "line": 2}, skill_list("運転\n: 自動車\n", ".txt")),
    Case("text", "SKILL_LIST_EMPTY_SPECIALIZATION", "", {"file": "list.txt", "line": 1, "text": "自動車、"},
         skill_list("運転: 自動車、\n", ".txt")),
    Case("text", "SKILL_LIST_DUPLICATE", "", {"file": "list.txt", "line": 3, "entry": "", "name": "〈運転〉", "first": 1},
         skill_list("運転\n事務\n〈運転〉\n", ".txt")),
    Case("json", "SKILL_LIST_DUPLICATE", "", {"file": "list.json", "line": 3, "entry": " #2", "name": "〈運転〉",
                                              "first": "#1"},
         skill_list('[\n "運転",\n "〈運転〉"\n]', ".json")),
    Case("json", "SKILL_LIST_NO_LIST", "", {"file": "list.json"}, skill_list('{"names": []}', ".json")),
    # A trailing comma: the value expected on line 3, column 1.
    Case("json", "INPUT_NOT_JSON", "", {"file": "list.json", "line": 3, "column": 1},
         skill_list('[\n "運転",\n]', ".json")),
    Case("toml", "SKILL_LIST_NOT_TOML", "", {"file": "list.toml", "line": 3, "column": 9},
         skill_list('[[skills]]\nname = "運転"\nname2 = \n', ".toml")),
    # The list starts on line 2, its entry on line 3.
    Case("json", "SKILL_LIST_ENTRY", "",
         {"file": "list.json", "line": 3, "entry": " #1", "detail_ja": "項目は技能名か表（{name = ...}）で書きます",
          "detail_en": "an entry is a name or a table ({name = ...})"}, skill_list("\n[\n 5\n]\n", ".json")),
    # skills = [...] on line 2: its entries are placed there.
    Case("toml", "SKILL_LIST_ENTRY", "",
         {"file": "list.toml", "line": 2, "entry": " #2", "detail_ja": "項目は技能名か表（{name = ...}）で書きます",
          "detail_en": "an entry is a name or a table ({name = ...})"},
         skill_list('title = "技能"\nskills = ["運転", 5]\n', ".toml")),
    Case("entry", "SKILL_ENTRY_SHAPE", "", {}, skill_entry(5)),
    Case("entry", "SKILL_ENTRY_KEYS", "",
         {"keys": ["nam"], "known": ["name", "synonyms", "specializations", "attribute", "notes"]},
         skill_entry({"name": "運転", "nam": "事務"})),
    Case("entry", "SKILL_ENTRY_NO_NAME", "", {}, skill_entry({"name": " "})),
    Case("entry", "SKILL_ENTRY_LIST", "", {"name": "運転", "key": "synonyms"}, skill_entry({"name": "運転", "synonyms": "車"})),
    Case("entry", "SKILL_ENTRY_ATTRIBUTE", "", {"name": "運転", "value": "運", "choices": ATTRIBUTES},
         skill_entry({"name": "運転", "attribute": "運"})),
]

CASES = UP_CASES + MG_CASES + PP_CASES + SKILL_LIST_CASES
ENGINE_CODES = {c for c in catalog() if c.startswith(("UP_", "MG_", "PP_", "SKILL_"))} | {"INPUT_NOT_JSON"}


def _typed(value: Any) -> Any:
    """``value`` with the type of every number, text and list kept (200 and 200.0 differ)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_typed(v) for v in value])
    return (type(value).__name__, value)


def _placeholders(code: str) -> set[str]:
    e = catalog()[code]
    return {name for text in (e.ja, e.en, e.hint_ja, e.hint_en)
            for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_engine_code_has_a_case() -> None:
    """Each code of the engines is raised here, or said why not."""
    assert ENGINE_CODES - set(NOT_HERE) == {c.code for c in CASES}
    assert set(NOT_HERE) <= ENGINE_CODES


@pytest.mark.parametrize("case", CASES, ids=[f"{c.code}-{c.id}" for c in CASES])
def test_finding_carries_its_parameters(case: Case) -> None:
    """The one finding of the code at the pointer carries exactly these values, typed."""
    found = [f for f in case.run() if f.code == case.code and f.pointer == case.pointer]
    assert len(found) == 1
    assert _typed(dict(found[0].params)) == _typed(case.params)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.code}-{c.id}" for c in CASES])
def test_parameters_are_what_the_template_shows(case: Case) -> None:
    """The parameters are the template's placeholders (and those NOT_SHOWN lists)."""
    assert set(case.params) == _placeholders(case.code) | NOT_SHOWN.get(case.code, set())
