"""Every kind of priced line says how its cost was reached, in Japanese and in English: the item,
the rule (the parts and percentages the seed prices) and the cost, worked out by hand on the M
size (基本ＵＰ 400; figures from seed 000's size table as tests/up/conftest.py copies them)."""
from __future__ import annotations

from typing import Any

import pytest

from converter.core.evaluation import CostLine

from .conftest import melee, priced, ranged, unit


def line(doc: dict[str, Any], pointer: str, **options: str) -> tuple:
    """(item, rule, cost, item in English, rule in English) of the line at ``pointer``."""
    found = [x for x in priced(doc, **options).lines if x.pointer == pointer]
    assert len(found) == 1, found
    x: CostLine = found[0]
    return x.item, x.rule, x.cost, x.item_in("en"), x.rule_in("en")


CASES = [
    ("size", unit(), "/size", ("サイズ Ｍ", "基本ＵＰ", 400, "Size M", "base UP")),
    # ＨＰ: 5 per step at 18: +50 is 10 steps, 180.
    ("stat", unit(stats={"hp": 250}), "/stats/hp",
     ("ＨＰ 200→250", "+50 = 10段階 × 18", 180, "HP 200→250", "+50 = 10 steps × 18")),
    # 移動力 (60 at M): 「＋１で表の値、さらに＋１で２倍」: +2 is 60 + 120.
    ("move +2", unit(stats={"move": 8}), "/stats/move",
     ("移動力 6→8", "+2: 60 + 120", 180, "Move 6→8", "+2: 60 + 120")),
    # Beyond +2, each point doubles again (option move_beyond_two=double).
    ("move +3", unit(stats={"move": 9}), "/stats/move",
     ("移動力 6→9", "+3: 60 + 120 + 240", 420, "Move 6→9", "+3: 60 + 120 + 240")),
    # Each movement type beyond the two a unit has costs 基本ＵＰ/5 = 80; each one fewer refunds it.
    ("movement added", unit(movement=["air", "land", "space"]), "/movement",
     ("移動タイプ 空・陸・宇宙", "1種追加 × 基本ＵＰ/5 (80)", 80, "Movement types Air, Land, Space",
      "1 added × base UP/5 (80)")),
    ("movement removed", unit(movement=["space"]), "/movement",
     ("移動タイプ 宇宙", "1種削減 × 基本ＵＰ/5 (80)", -80, "Movement types Space", "1 removed × base UP/5 (80)")),
    # 地形適応 (optional rule): A→S 70; B→C refunds 40.
    ("terrain up", unit(terrain={"land": "S"}), "/terrain/land",
     ("地形適応 陸 A→S", "地形適応（選択ルール）", 70, "Terrain adaptation Land A→S",
      "terrain adaptation (optional rule)")),
    ("terrain down", unit(terrain={"sea": "C"}), "/terrain/sea",
     ("地形適応 海 B→C", "地形適応（選択ルール）", -40, "Terrain adaptation Sea B→C",
      "terrain adaptation (optional rule)")),
    # 装甲+5 at 15 each = 75, 高揚 −20 %: 60.
    ("boost", unit(morale_boosts=[{"stat": "armor", "raise": 5, "morale": "elated"}]), "/morale_boosts/0",
     ("装甲（装甲+5）", "75 −20%", 60, "Armor (Armor +5)", "75 −20%")),
    # 移動力 at its base: a boost of +1 is the first point, 60; 強気 −30 %: 42.
    ("boost move from base", unit(morale_boosts=[{"stat": "move", "raise": 1, "morale": "confident"}]),
     "/morale_boosts/0", ("移動力（移動力+1）", "60 −30%", 42, "Move (Move +1)", "60 −30%")),
    # 移動力 already +1: a boost of +1 is the second point, 120; 強気 −30 %: 84.
    ("boost move", unit(stats={"move": 7}, morale_boosts=[{"name": "ブースト", "stat": "move", "raise": 1,
                                                           "morale": "confident"}]), "/morale_boosts/0",
     ("ブースト（移動力+1）", "120 −30%", 84, "ブースト (Move +1)", "120 −30%")),
    ("melee", unit(weapons=[melee()]), "/weapons/0",
     ("武器「格闘」", "射程1 40", 40, "Weapon '格闘'", "range 1 40")),
    # 射撃 usable after moving: the P column, 射程3 80.
    ("ranged P", unit(weapons=[ranged(range=3, post_move=True)]), "/weapons/0",
     ("武器「射撃」", "射程3P 80", 80, "Weapon '射撃'", "range 3P 80")),
    # 射程3 60, 射程1以内 −15, 2D+15 (one die 40 + 5 × 5), 命中+10 40: 150.
    ("parts", unit(weapons=[ranged(range=3, min_range=2, damage={"dice": 2, "fixed": 15}, accuracy=10)]),
     "/weapons/0",
     ("武器「射撃」", "射程3 60 + 射程1以内攻撃不可 -15 + ダメージ2D+15 65 + 命中+10% 40", 150, "Weapon '射撃'",
      "range 3 60 + no attack within range 1 -15 + damage 2D+15 65 + accuracy +10% 40")),
    # Each percentage, then their sum.
    ("percent", unit(weapons=[melee(post_move=False)]), "/weapons/0",
     ("武器「格闘」", "(射程1 40) × (移動後攻撃不可 −30% −30%)", 28, "Weapon '格闘'",
      "(range 1 40) × (no attack after moving −30% −30%)")),
    # −30 % and −50 %: −80 %, floored at −50 % (the floor and the sum applied).
    ("floor", unit(weapons=[melee(post_move=False, combo="only")]), "/weapons/0",
     ("武器「格闘」", "(射程1 40) × (移動後攻撃不可 −30%, 合体攻撃専用 −50%、下限 −50%)", 20, "Weapon '格闘'",
      "(range 1 40) × (no attack after moving −30%, combo attacks only −50%, floor −50%)")),
    # 撃ち分け, one place changed: 1/4 of the larger full cost, 50: 12.5, rounded half up.
    ("variant", unit(weapons=[ranged(name="A"), ranged(name="B", variant_of="A", range=2)]), "/weapons/1",
     ("武器「B」", "撃ち分け（Aから1箇所変更）: max(50, 30) × 1/4", 13, "Weapon 'B'",
      "variant of A, 1 place(s) changed: max(50, 30) × 1/4")),
    ("ability", unit(abilities=[{"id": "mind_block"}]), "/abilities/0",
     ("特殊能力「マインドブロック」", "マインドブロック", 80, "Ability 'Mind Block'", "Mind Block")),
    # 80 × (100 − 30 − 20) %: 40.
    ("ability percents", unit(abilities=[{"id": "mind_block", "en_cost": 10, "morale": "elated"}]), "/abilities/0",
     ("特殊能力「マインドブロック」", "(マインドブロック) × (ＥＮ消費10 −30%, 気力制限（高揚） −20%)", 40,
      "Ability 'Mind Block'", "(Mind Block) × (EN use 10 −30%, morale limit (Elated) −20%)")),
    # −50 % and −70 % floored at −70 % (option ability_floor): 80 × 30 % = 24.
    ("ability floor", unit(abilities=[{"id": "mind_block", "en_cost": 20, "morale": "limit_break"}]), "/abilities/0",
     ("特殊能力「マインドブロック」", "(マインドブロック) × (ＥＮ消費20 −50%, 気力制限（限界突破） −70%)", 24,
      "Ability 'Mind Block'", "(Mind Block) × (EN use 20 −50%, morale limit (Limit Break) −70%)")),
    ("shield", unit(abilities=[{"id": "shield", "armor": 5, "uses": 3}]), "/abilities/0",
     ("特殊能力「シールド装備」", "装甲+5 × 3", 15, "Ability 'shield'", "armor +5 × 3")),
    ("shield narrowed", unit(abilities=[{"id": "shield", "armor": 5, "narrowed": True}]), "/abilities/0",
     ("特殊能力「シールド装備」", "(装甲+5 × 5) × (ビームのみ／実弾のみ −40%)", 15, "Ability 'shield'",
      "(armor +5 × 5) × (beam only / solid only −40%)")),
    ("bunshin", unit(abilities=[{"id": "bunshin", "level": 2}]), "/abilities/0",
     ("特殊能力「分身」", "Lv2 × 60", 120, "Ability 'afterimages'", "Lv2 × 60")),
    # バリア１: 装甲 price 15 × 0.9 per point.
    ("barrier", unit(abilities=[{"id": "barrier1", "armor": 10}]), "/abilities/0",
     ("特殊能力「バリア１」", "装甲+10 × 15 × 9/10", 135, "Ability 'Barrier 1'", "armor +10 × 15 × 9/10")),
    ("regen", unit(abilities=[{"id": "hp_regen", "grade": "medium"}]), "/abilities/0",
     ("特殊能力「ＨＰ回復」", "基本ＵＰ/5 (80) × 2（中）", 160, "Ability 'HP regeneration'",
      "base UP/5 (80) × 2 (medium)")),
    ("no hands", unit(abilities=[{"id": "no_manipulator"}]), "/abilities/0",
     ("特殊能力「マニュピレータなし」", "−基本ＵＰ/5", -80, "Ability 'no manipulators'", "−base UP/5")),
    # 【格闘】【射撃】 together 10 per +1; 【回避】 15.
    ("stat bonus", unit(abilities=[{"id": "stat_bonus", "bonuses": [{"stats": ["melee", "shooting"], "amount": 2},
                                                                      {"stats": ["evasion"], "amount": 1}]}]),
     "/abilities/0",
     ("特殊能力「能力値ボーナス」", "【格闘】【射撃】+2 × 10 + 【回避】+1 × 15", 35, "Ability 'stat bonus'",
      "Melee/Shooting +2 × 10 + Evasion +1 × 15")),
    # (400 + 1000) / 50 + 100 = 128.
    ("transformation", unit(transformation={"forms": [{"name": "B", "up": 1000}]}), "/transformation",
     ("変形", "自形態400 + 他形態1000: 1400/50 + 100", 128, "Transformation",
      "this form 400 + other forms 1000: 1400/50 + 100")),
    ("one way", unit(transformation={"forms": [{"name": "B", "up": 1000}], "one_way": True}), "/transformation",
     ("変形", "自形態400 + 他形態1000: (1400/50 + 100) × 1/2（回数制限）", 64, "Transformation",
      "this form 400 + other forms 1000: (1400/50 + 100) × 1/2 (one way)")),
    ("drop-off", unit(transformation={"forms": [{"name": "B", "up": 1000}], "drop_off": True}), "/transformation",
     ("変形", "自形態400 + 他形態1000: (1400/50 + 100) × 2（脱落型）", 256, "Transformation",
      "this form 400 + other forms 1000: (1400/50 + 100) × 2 (drop-off)")),
    ("combined", unit(transformation={"combination": "combined"}), "/transformation",
     ("変形", "自形態400 + 他形態0: 合体後のユニットは変形・合体のＵＰを払わない", 0, "Transformation",
      "this form 400 + other forms 0: a combined unit pays no UP for transforming or combining")),
]


@pytest.mark.parametrize(("doc", "pointer", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_line(doc: dict[str, Any], pointer: str, expected: tuple) -> None:
    """An up priced line has its expected item, rule and cost, in Japanese and in English."""
    assert line(doc, pointer) == expected
