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
        if kind == "ranged" and w.get("attribute", "solid") == "solid" and draw(st.booleans()):
            w["terrain_b"] = draw(st.sampled_from(TERRAINS))  # where the free B went
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


# --- pp (seed 003) -------------------------------------------------------------------------------
# Names from an alphabet the sheet's name key and the engine's agree on (no Latin letters, whose
# case Excel ignores; no brackets or spaces, which both drop).
_pp_names = st.text(alphabet="アイウエオカキクケコ射撃運転料理整備01", min_size=1, max_size=6)


def _pp_tables():
    from converter.rules.pp.tables import tables as pp_tables

    return pp_tables()


@st.composite
def pp_skill(draw, names: list[str], specializations: list[str]) -> dict:
    """A skill row: a seed skill (as the seed or a synonym spells it) or another name, a level
    0..8, sometimes an attribute, and up to four sub-categories (the sheet's slots)."""
    from converter.rules.pp.tables import ATTRIBUTE_IDS

    s: dict = {"name": draw(st.sampled_from(names) | _pp_names), "level": draw(st.integers(0, 8))}
    if draw(st.integers(0, 3)) == 0:
        s["attribute"] = draw(st.sampled_from(list(ATTRIBUTE_IDS)))
    if draw(st.integers(0, 2)) == 0:
        spec_names = draw(st.lists(st.sampled_from(specializations) | _pp_names, unique=True,
                                   min_size=1, max_size=4))
        s["specializations"] = [{"name": n, "level": draw(st.integers(1, 8))} for n in spec_names]
    if draw(st.integers(0, 4)) == 0:
        s["notes"] = draw(st.sampled_from(["=1+1", "メモ", "+2"]))
    return s


@st.composite
def pp_machine(draw) -> dict:
    """A machine block: every described figure, up to 8 weapons and 3 conditional speeds."""
    t = _pp_tables()
    m: dict = {"name": draw(_pp_names), "speed": draw(st.integers(0, 10)),
               "mobility": draw(st.integers(-3, 6)), "workability": draw(st.integers(-3, 6)),
               "armor": draw(st.integers(0, 12)), "durability": draw(st.integers(0, 10)),
               "toughness": draw(st.integers(0, 10)), "size_modifier": draw(st.integers(-3, 3)),
               "evasion_modifier": {"dodge": draw(st.integers(-3, 6)), "parry": draw(st.integers(-3, 6))}}
    if draw(st.booleans()):  # 回避修正 then derived: typed as its sums, typed otherwise, or left out
        m["main_system_evasion"] = mse = draw(st.integers(-3, 3))
        typed = draw(st.sampled_from(["sums", "other", "none"]))
        if typed == "sums":
            m["evasion_modifier"] = {"dodge": mse + m["mobility"], "parry": mse + m["workability"]}
        elif typed == "none":
            del m["evasion_modifier"]
    if draw(st.booleans()):
        m["main_system"] = draw(_pp_names)
    if draw(st.booleans()):
        m["main_system_modifier"] = draw(st.integers(-3, 3))
    if draw(st.booleans()):
        m["weight"] = draw(st.integers(0, 400)) / 10
    if draw(st.booleans()):
        m["escape"] = draw(st.booleans())
    weapons = []
    for name in draw(st.lists(_pp_names, max_size=8)):
        w: dict = {"name": name, "hit_target": draw(st.integers(0, 12)),
                   "evasion_target": draw(st.integers(0, 12)), "penetration": draw(st.integers(0, 20)),
                   "damage": draw(st.sampled_from(list(t.damage_classes)))}
        if draw(st.booleans()):
            w["melee"] = draw(st.booleans())
        if draw(st.booleans()):
            w["tracking"] = draw(st.integers(0, 6))
        if draw(st.booleans()):
            w["engagements"] = draw(st.lists(st.sampled_from(list(t.engagements)), unique=True,
                                             min_size=1, max_size=3))
        weapons.append(w)
    if weapons:
        m["weapons"] = weapons
    if draw(st.booleans()):
        m["alt_speeds"] = [{"condition": draw(_pp_names), "speed": draw(st.integers(0, 10))}
                           for _ in range(draw(st.integers(1, 3)))]
    return m


@st.composite
def pp_character(draw) -> dict:
    """A `pp` character the sheet can hold: attributes 0..12, up to 12 skills with up to four
    specializations, CB, 特技, a group skill list, and sometimes a machine."""
    from converter.rules.pp.tables import ATTRIBUTE_IDS

    t = _pp_tables()
    seed_names = [n for s in t.seed_skills for n in [s["label"], *s.get("synonyms", ())]]
    seed_specs = [x["label"] for s in t.seed_skills for x in s.get("specializations", ())]
    group = draw(st.lists(_pp_names, unique=True, max_size=3))
    doc: dict = {"system": "pp", "format": 1, "name": draw(_pp_names),
                 "attributes": {a: draw(st.integers(0, 12)) for a in ATTRIBUTE_IDS}}
    if draw(st.booleans()):
        doc["budget"] = draw(st.integers(1, 300))
    if group:
        doc["skill_list"] = [n if k % 2 else {"name": n, "attribute": draw(st.sampled_from(list(ATTRIBUTE_IDS))),
                                               "specializations": ["整備"]}
                             for k, n in enumerate(group)]
    skills = [draw(pp_skill(seed_names + group, seed_specs + ["整備"])) for _ in range(draw(st.integers(0, 12)))]
    if skills:
        doc["skills"] = skills
    if draw(st.booleans()):
        doc["combat_boost"] = draw(st.integers(3, 8))
    feats = [{"name": n} for n in draw(st.lists(_pp_names, max_size=6))]
    if feats:
        doc["feats"] = feats
    if draw(st.integers(0, 2)) == 0:
        doc["machine"] = draw(pp_machine())
    if draw(st.booleans()):
        doc["player"] = draw(_pp_names)
    if draw(st.booleans()):
        doc["notes"] = draw(st.sampled_from(["=SUM(A1)", "+1 強化", "-メモ", "@作者", "普通のメモ"]))
    return doc


@st.composite
def pp_fighter(draw) -> dict:
    """A `pp` character with what the samples lack: 〈機動格闘〉 (sometimes on two rows, the higher
    counting), 〈知識／戦術〉 at times, and a machine with a melee weapon (its 回避目標値 adds
    〈機動格闘〉＋作業性)."""
    doc = draw(pp_character())
    skills = doc.setdefault("skills", [])[:9]
    for _ in range(draw(st.integers(1, 2))):
        skills.append({"name": draw(st.sampled_from(["機動格闘", "〈機動格闘〉"])), "level": draw(st.integers(0, 8))})
    if draw(st.booleans()):
        skills.append({"name": "知識／戦術", "level": draw(st.integers(0, 8))})
    doc["skills"] = draw(st.permutations(skills))
    machine = doc.setdefault("machine", draw(pp_machine()))
    machine.setdefault("workability", draw(st.integers(0, 5)))
    weapons = machine.setdefault("weapons", [])[:7]
    weapons.append({"name": "ナイフ", "melee": True, "hit_target": draw(st.integers(0, 12)),
                    "evasion_target": draw(st.integers(0, 12)), "penetration": 3, "damage": "M"})
    machine["weapons"] = weapons
    return doc


# --- mailgear (seed 001) ---------------------------------------------------------------------------
# Names from an alphabet the sheet's look-up key (Excel's ASC) and the engine's name_key agree on.
_mg_names = st.text(alphabet="アイウエオカキクケコ剣盾砲01", min_size=1, max_size=6)


def _mg_tables():
    from converter.rules.mailgear.tables import tables as mg_tables

    return mg_tables()


@st.composite
def mailgear_effects(draw, further: int = 1) -> list:
    """An option's effects: skill effects (by id, label or synonym) and stat effects, at most
    ``further`` beyond one of each (the sheet's 追加効果 rows), and any number of text effects."""
    t = _mg_tables()
    effects: list = []
    skills = draw(st.integers(0, 1 + further))
    stats = draw(st.integers(0, 1 + max(0, further - max(0, skills - 1))))
    for _ in range(skills):
        sid = draw(st.sampled_from(list(t.skills)))
        names = [sid, t.skills[sid].label, *t.raw["skills"][sid].get("synonyms", [])]
        effects.append({"skill": draw(st.sampled_from(names)), "levels": draw(st.integers(1, 2))})
    for _ in range(stats):
        effects.append({"stat": draw(st.sampled_from(list(t.stat_ids))), "amount": draw(st.integers(-2, 5))})
    effects += [{"text": x} for x in draw(st.lists(_mg_names, max_size=2))]
    return draw(st.permutations(effects)) if effects else effects


@st.composite
def mailgear_item(draw, names: list[str]) -> dict:
    """A weapon (bands in any order) or an option (effects known, none, or left to the catalog)."""
    t = _mg_tables()
    name = draw(st.sampled_from(names))
    if draw(st.booleans()):
        item: dict = {"kind": "weapon", "name": name}
        if draw(st.integers(0, 3)):
            item["bands"] = draw(st.lists(st.sampled_from(list(t.bands)), min_size=1, max_size=4, unique=True))
        if draw(st.booleans()):
            item["extra_damage"] = draw(st.integers(-2, 8))
        if draw(st.booleans()):
            item["energy"] = draw(st.integers(0, 4))
    else:
        item = {"kind": "option", "name": name}
        if draw(st.integers(0, 3)):
            item["effects"] = draw(mailgear_effects())
        if draw(st.booleans()):
            item["durability"] = draw(st.integers(0, 30))
        if draw(st.booleans()):
            item["uses"] = draw(st.one_of(st.none(), st.integers(1, 3)))
    if draw(st.booleans()):
        item["slots"] = draw(st.integers(1, 2))
    if draw(st.booleans()):
        item["arm"] = draw(st.sampled_from([*t.hold_labels, None]))
    return item


@st.composite
def mailgear_pilot(draw, names: list[str] | None = None, stats_from_catalog: bool = False) -> dict:
    """A pilot sheet: skills by id, label or synonym within their maxima; a gear whose rank may be a
    専用機 with three boosts; up to seven items from ``names`` (a catalog's) or made-up names;
    sometimes written derived values. ``stats_from_catalog``: some stats left to the catalog."""
    t = _mg_tables()
    rank = draw(st.sampled_from("EDCBA")) + draw(st.sampled_from(["", "", t.custom_mark]))
    stats = {sid: draw(st.integers(20, 120) if sid == "durability" else st.integers(0, 8)) for sid in t.stat_ids}
    if stats_from_catalog:
        for sid in draw(st.lists(st.sampled_from(list(t.stat_ids)), unique=True, max_size=13)):
            del stats[sid]
    gear: dict = {"model": draw(st.sampled_from(names or ["試験機"])), "rank": rank, "stats": stats}
    if rank.endswith(t.custom_mark):
        gear["boosts"] = draw(st.lists(st.sampled_from(list(t.custom_boosts)), min_size=3, max_size=3,
                                       unique=True))
        if draw(st.booleans()):
            gear["custom"] = True
    skills = []
    for sid in draw(st.lists(st.sampled_from(list(t.skills)), unique=True, max_size=7)):
        level = draw(st.integers(1, t.skills[sid].max_level))
        form = draw(st.integers(0, 3))
        if form == 0:
            skills.append({"name": draw(st.sampled_from([t.skills[sid].label,
                                                          *t.raw["skills"][sid].get("synonyms", [])])),
                           "level": level})
        else:
            skills.append({"id": sid, "level": level})
    item_names = (names or []) + draw(st.lists(_mg_names, min_size=1, max_size=3))
    doc: dict = {"system": "mailgear", "format": 1,
                 "pilot": {"name": draw(_mg_names), "experience": draw(st.integers(0, 120)),
                           "rank_points": draw(st.integers(0, 90)), "level": draw(st.sampled_from("EDCBAS"))},
                 "skills": skills, "gear": gear,
                 "equipment": [draw(mailgear_item(item_names)) for _ in range(draw(st.integers(0, 7)))]}
    if draw(st.booleans()):
        doc["pilot"]["player"] = draw(_mg_names)
    if draw(st.integers(0, 3)) == 0:
        doc["derived"] = {"move": draw(st.integers(0, 9)), "fortune": draw(st.sampled_from(["2d6", "2d6+1", "3d6"])),
                          "skills": {draw(st.sampled_from(list(t.skills))): draw(st.integers(1, 4))}}
    if draw(st.booleans()):
        doc["notes"] = draw(st.sampled_from(["=SUM(A1)", "+1 強化", "-メモ", "@作者", "普通のメモ"]))
    return doc


@st.composite
def mailgear_catalog(draw) -> dict:
    """A catalog in the shape of schemas/mailgear-catalog.schema.json (rising ladders, models with
    ranks, weapons, options with up to three skill and stat effects beyond one of each)."""
    t = _mg_tables()

    def ladder(key: str, val: str, values) -> list:
        steps = draw(st.lists(st.integers(1, 20), max_size=6))
        at, rows = 0, []
        for k, step in enumerate(steps):
            rows.append({key: at, val: values[k % len(values)]})
            at += step
        return rows

    names = draw(st.lists(_mg_names, unique=True, max_size=9))
    raw: dict = {"catalog": "mailgear", "format": 1, "name": draw(_mg_names),
                 "levels": ladder("experience", "level", "EDCBAS"),
                 "gear_ranks": ladder("rank_points", "rank", ["E", "D", "C", "C+", "B", "B+"]),
                 "unit_levels": ladder("min", "unit_level", [1, 2, 3, "Ⅳ"])}
    models = []
    for name in names[:3]:
        ranks = draw(st.lists(st.sampled_from("EDCBA"), unique=True, min_size=1, max_size=3))
        models.append({"name": name, "ranks": {r: {sid: draw(st.integers(0, 9)) for sid in t.stat_ids}
                                               for r in ranks}})
        if draw(st.booleans()):
            models[-1]["notes"] = draw(_mg_names)
    raw["models"] = models
    raw["weapons"] = [{"name": n, "bands": sorted(draw(st.lists(st.sampled_from(list(t.bands)), min_size=1,
                                                                 unique=True)), key=list(t.bands).index),
                       "extra_damage": draw(st.integers(0, 8)), "energy": draw(st.integers(0, 4))}
                      for n in names[3:6]]
    raw["options"] = [{"name": n, "effects": draw(mailgear_effects(3))} for n in names[6:]]
    if draw(st.booleans()):
        raw["about"] = "架空のデータ / invented"
    return raw
