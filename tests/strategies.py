"""Hypothesis strategies for documents, built from the same rule tables as the engine."""
from __future__ import annotations

from hypothesis import strategies as st

from converter.rules.up.tables import STAT_IDS, TERRAINS, tables

_names = st.text(alphabet="アイウエオカキクケコサシスセソビームライフル砲剣01", min_size=1, max_size=8)


@st.composite
def up_weapon(draw, name: str) -> dict:
    t = tables()
    kind = draw(st.sampled_from(list(t.weapon_kinds)))
    max_range = t.max_melee_range() if kind == "melee" else 12
    rng = draw(st.integers(1, max_range))
    w: dict = {"name": name, "kind": kind, "range": rng,
               "damage": {"dice": draw(st.integers(1, 6)), "fixed": draw(st.integers(10, 40))}}
    if draw(st.booleans()):
        w["post_move"] = draw(st.booleans())
    if draw(st.booleans()):
        w["min_range"] = draw(st.integers(1, rng))
    if draw(st.booleans()):
        w["attribute"] = draw(st.sampled_from(list(t.attributes)))
    w["accuracy"] = draw(st.sampled_from(sorted(t.accuracy)))
    if draw(st.booleans()):
        utype = draw(st.sampled_from(list(t.usage_types)))
        amount = draw(st.sampled_from(t.usage_amounts(utype)))
        row = t.usage_row(utype, amount)
        red = draw(st.sampled_from(["up", "percent"] if row.get("percent") else ["up"]))
        w["usage"] = {"type": utype, "amount": amount, "reduction": red}
    if draw(st.booleans()):
        w["terrain"] = {k: draw(st.sampled_from(t.weapon_terrain_grades))
                        for k in draw(st.lists(st.sampled_from(TERRAINS), unique=True, min_size=1))}
    if draw(st.integers(0, 4)) == 0:
        mtype = draw(st.sampled_from(list(t.map_types)))
        w["map"] = {"type": mtype, "friend_foe": draw(st.booleans())}
        if t.map_types[mtype].get("radius"):
            w["map"]["radius"] = draw(st.integers(1, max_range))
    if draw(st.booleans()):
        w["combo"] = draw(st.sampled_from(list(t.combo)))
    effects = []
    for eid, spec in t.effects.items():
        if draw(st.integers(0, 3)) == 0:
            e: dict = {"id": eid}
            if "max_level" in spec:
                e["level"] = draw(st.integers(1, spec["max_level"]))
                if draw(st.booleans()):
                    e["always"] = draw(st.booleans())
            effects.append(e)
    if effects:
        w["effects"] = effects
    if draw(st.booleans()):
        w["morale"] = draw(st.sampled_from(list(t.morale)))
    return w


@st.composite
def up_unit(draw) -> dict:
    """A schema-valid unit: stats on their steps within the size's maxima, priced options."""
    t = tables()
    size = t.sizes[draw(st.sampled_from(list(t.sizes)))]
    stats = {}
    for sid in STAT_IDS:
        rule = size.stats[sid]
        top = (rule.max_raise if rule.max_raise is not None else 2) // rule.step
        stats[sid] = rule.base + draw(st.integers(0, top)) * rule.step
    movement = draw(st.lists(st.sampled_from(TERRAINS), unique=True, min_size=1, max_size=4))
    doc: dict = {"system": "up", "format": 1, "name": draw(_names), "budget": draw(st.integers(500, 5000)),
                 "size": size.id, "stats": stats, "movement": movement}
    names = draw(st.lists(_names, unique=True, max_size=4))
    if names:
        doc["weapons"] = [draw(up_weapon(n)) for n in names]
        if len(names) > 1 and draw(st.booleans()):
            doc["weapons"][1]["variant_of"] = names[0]
    abilities = []
    if draw(st.booleans()):
        abilities.append({"id": "bunshin", "level": draw(st.integers(1, 7))})
    if draw(st.booleans()):
        abilities.append({"id": "barrier1", "armor": draw(st.integers(1, 10)), "narrowed": draw(st.booleans()),
                          "en_cost": draw(st.sampled_from(list(t.ability_en_costs)))})
    if draw(st.booleans()):
        abilities.append({"id": "stat_bonus", "name": "補助AI",
                          "bonuses": [{"stats": ["melee", "shooting"], "amount": draw(st.integers(1, 20))}],
                          "morale": draw(st.sampled_from(list(t.morale)))})
    if draw(st.booleans()):
        abilities.append({"id": "hp_regen", "grade": draw(st.sampled_from(list(t.regen_grades)))})
    if abilities:
        doc["abilities"] = abilities
    if draw(st.booleans()):
        doc["notes"] = draw(st.sampled_from(["=SUM(A1)", "+1 強化", "-メモ", "@作者", "普通のメモ"]))
    if draw(st.integers(0, 3)) == 0:
        doc["transformation"] = {"group": "G", "forms": [{"name": "B", "up": draw(st.integers(500, 3000))}],
                                 "one_way": draw(st.booleans())}
    return doc
