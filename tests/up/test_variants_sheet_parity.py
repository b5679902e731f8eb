"""撃ち分け place counting: values the sheet can tell apart are changes for the engine too."""
from __future__ import annotations

from converter.rules.up.weapons import variant_changes
from converter.rules.up.tables import tables

BASE = {"name": "a", "kind": "melee", "range": 1, "damage": {"dice": 1, "fixed": 10}}


def test_attribute_none_is_a_change_from_solid():
    """無属性 ("none") differs from 実体 (the default); only 合体攻撃 "none" means blank."""
    assert variant_changes(dict(BASE, attribute="none"), BASE, tables()) == 1
    assert variant_changes(dict(BASE, combo="none"), BASE, tables()) == 0


def test_melee_not_post_move_is_a_change():
    """A melee variant with P off differs from its base (P on by default); P on spelled out does not."""
    assert variant_changes(dict(BASE, post_move=False), BASE, tables()) == 1
    assert variant_changes(dict(BASE, post_move=True), BASE, tables()) == 0
    assert variant_changes(dict(BASE, guided=False), BASE, tables()) == 0


def test_melee_map_weapon_is_not_post_move_by_default():
    """A melee ＭＡＰ兵器 with Ｐ blank is not P (seed 000, Ｐ兵器): −30 % as a melee weapon made
    non-P, +100 % 自機中心型, and no P-MAP +20 % or its info finding."""
    from converter.rules.up import price_unit

    doc = {"system": "up", "format": 1, "name": "u", "budget": 5000, "size": "M",
           "stats": {"hp": 200, "en": 50, "armor": 20, "power": 15, "mobility": 15, "move": 6},
           "movement": ["land", "space"],
           "weapons": [dict(BASE, map={"type": "self_centered"})]}
    pricing = price_unit(doc)
    assert next(l.cost for l in pricing.lines if l.pointer == "/weapons/0") == 68  # 40 × 1.70
    assert not [f for f in pricing.findings if f.code == "UP_SOURCE_WORK_ONLY"]


def test_weapon_below_zero_is_a_warning():
    """A weapon whose fixed reductions exceed its price (1D+15 melee, 弾数5 as −80 UP: −15) warns."""
    from converter.rules.up import price_unit

    doc = {"system": "up", "format": 1, "name": "u", "budget": 5000, "size": "M",
           "stats": {"hp": 200, "en": 50, "armor": 20, "power": 15, "mobility": 15, "move": 6},
           "movement": ["land", "space"],
           "weapons": [dict(BASE, damage={"dice": 1, "fixed": 15},
                            usage={"type": "ammo", "amount": 5, "reduction": "up"})]}
    pricing = price_unit(doc)
    assert next(l.cost for l in pricing.lines if l.pointer == "/weapons/0") == -15
    assert [(f.code, f.pointer) for f in pricing.findings if f.code == "UP_WEAPON_NEGATIVE"] == [("UP_WEAPON_NEGATIVE", "/weapons/0")]
