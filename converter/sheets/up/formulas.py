"""Excel formulas of the `up` sheet: the engine's rules written in spreadsheet language.

Every figure comes from the rules sheet (by defined name) or from ``tables.toml`` through this
module, never typed by hand; a LibreOffice recalculation test holds each formula to the engine.
Rounding is ``INT(x + 0.5)``: half up, as the engine's ``round_half_up`` (Excel's ROUND rounds
halves away from zero, which differs for negative costs).
"""
from __future__ import annotations

from ...rules.up.tables import STAT_IDS, TERRAINS, tables
from ..layout import Layout, Table, col_letter, parse_a1, sheet_prefix
from .rules_sheet import TRUE, label_of

STAT_COLS = {"base": 0, "step": 1, "max": 2, "price": 3}


class UpFormulas:
    """Formula strings for every computed cell of the `up` layout."""

    def __init__(self, layout: Layout) -> None:
        self.l = layout
        self.t = tables()
        raw = layout.raw
        self.inp = sheet_prefix(layout.input_sheet)
        self.sb = raw["stat_block"]
        self.tb = raw["terrain_block"]
        self.size = self._field("/size")
        self.budget = self._field("/budget")

    def _field(self, pointer: str) -> str:
        f = next(f for f in self.l.fields if f.pointer == pointer)
        r, c = parse_a1(f.cell)
        return f"{self.inp}${col_letter(c)}${r + 1}"

    def _size_col(self, stat: str, what: str) -> int:
        return 3 + STAT_IDS.index(stat) * 4 + STAT_COLS[what]

    def size_value(self, stat: str, what: str) -> str:
        return f"INDEX(rules.sizes,MATCH({self.size},list.sizes,0),{self._size_col(stat, what)})"

    def base_up(self) -> str:
        return f"INDEX(rules.sizes,MATCH({self.size},list.sizes,0),2)"

    # --- 機体性能 ---------------------------------------------------------------------------
    def stat_row(self, stat: str) -> int:
        return self.sb["first_row"] + STAT_IDS.index(stat)

    def stat_cell(self, stat: str, col_key: str, absolute: bool = True) -> str:
        d = "$" if absolute else ""
        return f"{self.inp}{d}{self.sb[col_key]}{d}{self.stat_row(stat)}"

    def stat_base(self, stat: str) -> str:
        return f'=IFERROR({self.size_value(stat, "base")},"")'

    def stat_step(self, stat: str) -> str:
        return f'=IFERROR({self.size_value(stat, "step")},"")'

    def stat_max(self, stat: str) -> str:
        if stat == "move":
            return '=""'
        return f'=IFERROR({self.size_value(stat, "base")}+{self.size_value(stat, "max")},"")'

    def stat_raise(self, stat: str) -> str:
        v, b = self.stat_cell(stat, "value_col"), self.stat_cell(stat, "base_col")
        return f'=IF(OR({v}="",{b}=""),"",{v}-{b})'

    def stat_cost(self, stat: str) -> str:
        r, s = self.stat_cell(stat, "raise_col"), self.stat_cell(stat, "step_col")
        price = self.size_value(stat, "price")
        body = f"{price}*(2^{r}-1)" if stat == "move" else f"{r}/{s}*{price}"
        return f'=IF(OR({r}="",{s}=""),0,IF({r}<=0,0,IF(MOD({r},{s})<>0,0,{body})))'

    # --- 移動タイプ・地形適応 -----------------------------------------------------------------
    def terrain_row(self, key: str) -> int:
        return self.tb["first_row"] + TERRAINS.index(key)

    def terrain_cell(self, key: str, col_key: str) -> str:
        return f"{self.inp}${self.tb[col_key]}${self.terrain_row(key)}"

    def movement_range(self) -> str:
        first = self.tb["first_row"]
        c = self.tb["movement_col"]
        return f"{self.inp}${c}${first}:${c}${first + len(TERRAINS) - 1}"

    def movement_cost(self) -> str:
        n = f'COUNTIF({self.movement_range()},"{TRUE}")'
        base = self.t.raw["movement"]["baseline_count"]
        div = self.t.raw["movement"]["price_divisor"]
        return f'=IFERROR(IF({n}=0,0,({n}-{base})*INT({self.base_up()}/{div})),0)'

    def terrain_default(self, key: str) -> str:
        raw = self.t.raw["terrain"]
        m = self.terrain_cell(key, "movement_col")
        return f'=IF({m}="{TRUE}","{raw["default_in_movement"]}","{raw["default_outside"]}")'

    def terrain_cost(self, key: str) -> str:
        g, d = self.terrain_cell(key, "grade_col"), self.terrain_cell(key, "default_col")
        return (f'=IF(OR({g}="",{g}={d},up.options.terrain="forbidden"),0,'
                f'IFERROR(INDEX(rules.unit_terrain.body,MATCH({d},list.grades,0),MATCH({g},list.grades,0)),0))')

    # --- 気力によるステータス上昇 --------------------------------------------------------------
    def boost_cost(self, table: Table, i: int) -> str:
        stat, rse, mor = (table.cell(k, i, True) for k in ("stat", "raise", "morale"))
        floor = ability_floor()
        sid = f'MATCH({stat},list.stats,0)'
        # Column of the stat's step and price in rules.sizes: 3 + 4*(index) (+1 for step, +3 price).
        row = f"MATCH({self.size},list.sizes,0)"
        step = f"INDEX(rules.sizes,{row},3+4*({sid}-1)+1)"
        price = f"INDEX(rules.sizes,{row},3+4*({sid}-1)+3)"
        already = f'MAX(0,{self.stat_cell("move", "value_col")}-{self.stat_cell("move", "base_col")})'
        move_full = f"{price}*(2^({already}+{rse})-2^{already})"
        full = f'IF({stat}="{label_of("stats", "move")}",{move_full},{rse}/{step}*{price})'
        pct = f'MAX({floor},IF({mor}="",0,VLOOKUP({mor},rules.morale,2,FALSE)))'
        return f'=IF(OR({stat}="",{rse}=""),"",IFERROR(INT({full}*(100+{pct})/100+0.5),""))'

    # --- 武装 -------------------------------------------------------------------------------
    def _w(self, table: Table, i: int):
        def c(key: str) -> str:
            return table.cell(key, i, True)
        return c

    def _range_price(self, c, melee: str, pv: str, rng: str) -> str:
        raw = self.t.raw
        n = len(raw["ranged"]["range_prices"])
        last_np, last_p = raw["ranged"]["range_prices"][-1], raw["ranged"]["post_move_range_prices"][-1]
        ranged = (f'IF({rng}<={n},INDEX(rules.ranged_range,{rng},IF({pv},3,2)),'
                  f'IF({pv},{last_p}+({rng}-{n})*{raw["ranged"]["beyond_post_move_price"]},'
                  f'{last_np}+({rng}-{n})*{raw["ranged"]["beyond_price"]}))')
        melee_max = len(raw["melee"]["range_prices"])
        return f'IF({melee},IF({rng}<={melee_max},INDEX(rules.melee_range,{rng},2),NA()),{ranged})'

    def _is_melee(self, c) -> str:
        return f'{c("kind")}="{label_of("weapon_kinds", "melee")}"'

    def _post_move(self, c) -> str:
        """Ｐ: blank means 格闘 yes, 射撃 no, ＭＡＰ兵器 no (engine.default_post_move)."""
        return (f'IF({c("post_move")}="",AND({self._is_melee(c)},{c("map.type")}=""),'
                f'{c("post_move")}="{TRUE}")')

    def _usage_index(self, c) -> str:
        en = label_of("usage_types", "en")
        return (f'IF({c("usage.type")}="{en}",MATCH({c("usage.amount")},rules.usage.1,0),'
                f'MATCH({c("usage.amount")},rules.usage.2,0))')

    def _usage_example(self, c) -> str:
        ammo = label_of("usage_types", "ammo")
        return f'AND(up.options.ammo3="example",{c("usage.type")}="{ammo}",{c("usage.amount")}=3)'

    def _usage_is_percent(self, c) -> str:
        idx = self._usage_index(c)
        return (f'OR({self._usage_example(c)},AND({c("usage.reduction")}="{label_of("reductions", "percent")}",'
                f'INDEX(rules.usage.4,{idx})<>""))')

    def _usage_up(self, c) -> str:
        return (f'IF({c("usage.type")}="",0,IF({self._usage_is_percent(c)},0,'
                f'INDEX(rules.usage.3,{self._usage_index(c)})))')

    def _usage_pct(self, c) -> str:
        return (f'IF({c("usage.type")}="",0,IF({self._usage_example(c)},-20,IF({self._usage_is_percent(c)},'
                f'INDEX(rules.usage.4,{self._usage_index(c)}),0)))')

    def _grade_pct(self, base: str, final: str) -> str:
        return (f'IF({final}="",0,INDEX(rules.weapon_terrain.body,MATCH("{base}",list.weapon_grades,0),'
                f'MATCH({final},list.weapon_grades,0)))')

    def _terrain_pct(self, c) -> str:
        raw = self.t.raw["weapon_terrain"]
        finals = {k: c(f"terrain.{k}") for k in TERRAINS}
        beam = f'{c("attribute")}="{label_of("attributes", "beam")}"'
        melee_terms = []
        for k in TERRAINS:
            mv = self.terrain_cell(k, "movement_col")
            outside = raw["melee_outside"][k]
            if k == "sea":
                inside_b = f'IF({beam},"{raw["beam_sea_melee"]}",IF({mv}="{TRUE}","A","{outside}"))'
            else:
                inside_b = f'IF({mv}="{TRUE}","A","{outside}")'
            melee_terms.append(
                f'IF({finals[k]}="",0,INDEX(rules.weapon_terrain.body,MATCH({inside_b},list.weapon_grades,0),'
                f'MATCH({finals[k]},list.weapon_grades,0)))')
        beam_terms = [self._grade_pct(raw["beam_sea_ranged"] if k == "sea" else raw["ranged_default"],
                                      finals[k]) for k in TERRAINS]
        candidates = {low: "+".join(self._grade_pct(raw["ranged_one_lower"] if k == low else raw["ranged_default"],
                                                    finals[k]) for k in TERRAINS) for low in TERRAINS}
        # The free B where the sheet places it (Ｂ位置), else where the weapon costs least.
        placed = c("terrain_b")
        ranged = f'MIN({",".join(candidates.values())})'
        for low in reversed(TERRAINS):
            ranged = f'IF({placed}="{label_of("terrains", low)}",{candidates[low]},{ranged})'
        return (f'IF({self._is_melee(c)},{"+".join(melee_terms)},'
                f'IF({beam},{"+".join(beam_terms)},{ranged}))')

    def _effects(self, c, melee: str) -> tuple[str, str]:
        """(UP parts, percent parts) of the special-effect columns."""
        e = {x["id"]: x for x in self.t.raw["effects"]}
        on = lambda key: f'{c("effects." + key)}="{TRUE}"'  # noqa: E731
        up = (f'IF({on("skill_based")},{e["skill_based"]["up"]},0)'
              f'+IF({on("cross_stat")},{e["cross_stat"]["up"]},0)')
        sd, md = c("effects.stat_down.level"), c("effects.move_down.level")
        pct = (f'IF({on("barrier_pierce")},{e["barrier_pierce"]["percent"]},0)'
               f'+IF({on("snipe")},{e["snipe"]["percent"]},0)'
               f'+IF({on("capture")},IF({melee},{e["capture"]["percent_melee"]},{e["capture"]["percent_ranged"]}),0)'
               f'+IF({sd}="",0,{sd}*{e["stat_down"]["percent_per_level"]}'
               f'+IF({on("stat_down.always")},{e["stat_down"]["always_percent"]},0))'
               f'+IF({md}="",0,{md}*{e["move_down"]["percent_per_level"]}'
               f'+IF({on("move_down.always")},{e["move_down"]["always_percent"]},0))'
               f'+IF({on("capture_only")},{e["capture_only"]["percent"]},0)')
        return up, pct

    def weapon_full_cost(self, table: Table, i: int) -> str:
        c = self._w(table, i)
        raw = self.t.raw
        melee, pv = self._is_melee(c), self._post_move(c)
        rng = c("range")
        dmg = raw["damage"]
        dead = (f'IF({c("min_range")}="",0,({c("min_range")}-1)*IF({melee},{raw["melee"]["dead_zone_price"]},'
                f'{raw["ranged"]["dead_zone_price"]}))')
        damage = (f'({c("damage.dice")}-IF(up.options.damage_dice="every_die",0,{dmg["base_dice"]}))*{dmg["die_price"]}'
                  f'+({c("damage.fixed")}-{dmg["base_fixed"]})*{dmg["fixed_price"]}')
        acc = f'VLOOKUP(IF({c("accuracy")}="",0,{c("accuracy")}),rules.accuracy,2,FALSE)'
        radius = (f'IF({c("map.type")}="",0,IF(VLOOKUP({c("map.type")},rules.map_types,3,FALSE)=1,'
                  f'{self._range_price(c, melee, pv, c("map.radius"))},0))')
        eff_up, eff_pct = self._effects(c, melee)
        parts = f'{self._range_price(c, melee, pv, rng)}+{dead}+{damage}+{acc}+{self._usage_up(c)}+{radius}+{eff_up}'
        opt = raw["map_options"]
        map_pct = (f'IF({c("map.type")}="",0,VLOOKUP({c("map.type")},rules.map_types,2,FALSE)'
                   f'+IF({pv},{opt["post_move_percent"]},0)+IF({c("map.friend_foe")}="{TRUE}",{opt["friend_foe_percent"]},0))')
        combo = f'IF({c("combo")}="",0,VLOOKUP({c("combo")},rules.combo,2,FALSE))'
        morale = f'IF({c("morale")}="",0,VLOOKUP({c("morale")},rules.morale,2,FALSE))'
        not_p = (f'IF(AND({melee},NOT({pv}),OR({c("map.type")}="",up.options.melee_map_not_p<>"withhold")),'
                 f'{raw["melee"]["not_post_move_percent"]},0)')
        pct = f'{not_p}+{self._usage_pct(c)}+{self._terrain_pct(c)}+{map_pct}+{combo}+{eff_pct}+{morale}'
        floor = raw["effects_rules"]["percent_floor"]
        return (f'=IF({c("name")}="","",IFERROR(INT(({parts})*(100+MAX({floor},{pct}))/100+0.5),""))')

    def _variant_changes(self, table: Table, c, m: str) -> str:
        """Changed places between this row and its base row, as the engine counts them: a cell
        left blank equals its default (P by kind, 最小射程 1, 実体, 命中 0, × for flags)."""
        def other(key: str) -> str:
            return f"INDEX({table.column_range(key)},{m})"

        attr = label_of("attributes", "solid")
        none = label_of("combo", "none")
        melee = label_of("weapon_kinds", "melee")

        def norm(key: str, ref) -> str:
            col = next(x for x in table.columns if x.key == key)
            if key == "post_move":
                kind, mtype = ref("kind"), ref("map.type")
                return f'IF({ref(key)}="",AND({kind}="{melee}",{mtype}=""),{ref(key)}="{TRUE}")'
            if col.kind in ("bool", "effect_flag", "effect_bool"):
                return f'IF({ref(key)}="{TRUE}",1,0)'
            defaults = {"min_range": "1", "accuracy": "0", "attribute": f'"{attr}"'}
            if key in defaults:
                return f'IF({ref(key)}="",{defaults[key]},{ref(key)})'
            if key == "combo":
                return f'IF({ref(key)}="{none}","",{ref(key)})'
            return ref(key)

        groups: dict[str, list[str]] = {}
        for col in table.columns:
            if col.computed or col.key in ("name", "morale", "variant_of", "declared_cost", "notes", "terrain_b"):
                continue
            if col.key.startswith("effects."):
                group = "effects." + col.key.split(".")[1]
            elif col.group:
                group = col.group
            elif col.key.startswith("damage."):
                group = "damage"
            else:
                group = col.key
            groups.setdefault(group, []).append(col.key)
        terms = []
        for keys in groups.values():
            pairs = [f"{norm(k, lambda x: other(x))}<>{norm(k, c)}" for k in keys]
            terms.append(f"({pairs[0]})" if len(pairs) == 1 else "OR(" + ",".join(pairs) + ")")
        return "(" + "+".join(terms) + ")"

    def variant_changes(self, table: Table, i: int) -> str:
        c = self._w(table, i)
        m = f'MATCH({c("variant_of")},{table.column_range("name")},0)'
        return f'=IF(OR({c("name")}="",{c("variant_of")}=""),"",IFERROR({self._variant_changes(table, c, m)},""))'

    def weapon_cost(self, table: Table, i: int) -> str:
        c = self._w(table, i)
        full = c("full_cost")
        m = f'MATCH({c("variant_of")},{table.column_range("name")},0)'
        changes = c("variant_changes")
        fr = self.t.raw["variants"]
        frac = (f'IF({changes}<={fr[0]["max_changes"]},{fr[0]["fraction"][0]}/{fr[0]["fraction"][1]},'
                f'IF({changes}<={fr[1]["max_changes"]},{fr[1]["fraction"][0]}/{fr[1]["fraction"][1]},'
                f'{fr[2]["fraction"][0]}/{fr[2]["fraction"][1]}))')
        base_full = f"INDEX({table.column_range('full_cost')},{m})"
        ok = (f'AND({changes}<>"",{m}<>{i + 1},INDEX({table.column_range("variant_of")},{m})="",'
              f'{base_full}<>"",{changes}<={fr[-1]["max_changes"]})')
        variant = f'IFERROR(IF({ok},INT(MAX({full},{base_full})*{frac}+0.5),{full}),{full})'
        return f'=IF(OR({c("name")}="",{full}=""),"",IF({c("variant_of")}="",{full},{variant}))'

    def effective_damage(self, table: Table, i: int) -> str:
        c = self._w(table, i)
        melee = self._is_melee(c)
        pairs = ";".join(f'"{a["label"]}",{a["damage_bonus"]}' for a in self.t.raw["attributes"])
        bonus = f'IFERROR(VLOOKUP({c("attribute")},{{{pairs}}},2,FALSE),0)'
        abil = self.l.table("abilities")
        no_hands = f'COUNTIF({abil.column_range("id")},"{label_of("abilities", "no_manipulator")}")=0'
        power = self.stat_cell("power", "value_col")
        return (f'=IF({c("name")}="","",{c("damage.dice")}&"D10+"&({c("damage.fixed")}+{bonus}'
                f'+IF(AND({melee},{no_hands}),{power},0)))')

    def effective_accuracy(self, table: Table, i: int) -> str:
        c = self._w(table, i)
        bonus = self.t.raw["guided"]["accuracy_bonus"]
        return (f'=IF({c("name")}="","",IF({c("accuracy")}="",0,{c("accuracy")})'
                f'+IF({c("guided")}="{TRUE}",{bonus},0))')

    # --- 特殊能力 ---------------------------------------------------------------------------
    def ability_cost(self, table: Table, i: int) -> str:
        c = self._w(table, i)
        t = self.t
        ab = t.abilities
        kind = c("id")
        lab = lambda k: label_of("abilities", k)  # noqa: E731
        row = f"MATCH({self.size},list.sizes,0)"
        armor_price = f"INDEX(rules.sizes,{row},{self._size_col('armor', 'price')})"
        base_up = self.base_up()

        def bonus(n: int) -> str:
            s, a = c(f"bonuses.{n}.stats"), c(f"bonuses.{n}.amount")
            count = f'(LEN({s})-LEN(SUBSTITUTE({s},"・",""))+1)'
            ap = t.raw["stat_bonus_attack_prices"]
            per = f'IF({count}=1,VLOOKUP({s},rules.pilot_stats,2,FALSE),CHOOSE({count},{ap["one"]},{ap["two"]},{ap["three"]}))'
            return f'IF(OR({s}="",{a}=""),0,{a}*{per})'

        def barrier(k: str) -> str:
            full_n, full_d = _frac(ab[k]["armor_factor"])
            nar_n, nar_d = _frac(ab[k]["narrowed_factor"])
            return (f'{c("armor")}*{armor_price}*IF({c("narrowed")}="{TRUE}",{nar_n}/{nar_d},{full_n}/{full_d})')

        shield = ab["shield"]
        uses = f'IF({c("uses")}="",{shield["price_per_armor"]},VLOOKUP({c("uses")},rules.shield_uses,2,FALSE))'
        regen = f'INT({base_up}/{ab["hp_regen"]["base_up_divisor"]})*VLOOKUP({c("grade")},rules.regen,2,FALSE)'
        up = (f'IF({kind}="{lab("shield")}",{c("armor")}*{uses},'
              f'IF({kind}="{lab("bunshin")}",{c("level")}*{ab["bunshin"]["price_per_level"]},'
              f'IF({kind}="{lab("stat_bonus")}",{bonus(0)}+{bonus(1)},'
              f'IF({kind}="{lab("barrier1")}",{barrier("barrier1")},'
              f'IF({kind}="{lab("barrier2")}",{barrier("barrier2")},'
              f'IF({kind}="{lab("mind_block")}",{ab["mind_block"]["up"]},'
              f'IF(OR({kind}="{lab("hp_regen")}",{kind}="{lab("en_regen")}"),{regen},'
              f'IF({kind}="{lab("multi_seat")}",{c("level")}*{ab["multi_seat"]["price_per_level"]},'
              f'IF({kind}="{lab("no_manipulator")}",{base_up}/{ab["no_manipulator"]["base_up_divisor"]},'
              f'NA())))))))))')
        floor = ability_floor()
        pct = (f'MAX({floor},IF(AND({kind}="{lab("shield")}",{c("narrowed")}="{TRUE}"),{shield["narrowed_percent"]},0)'
               f'+IF({c("en_cost")}="",0,VLOOKUP({c("en_cost")},rules.ability_en,2,FALSE))'
               f'+IF({c("morale")}="",0,VLOOKUP({c("morale")},rules.morale,2,FALSE)))')
        return f'=IF({kind}="","",IFERROR(INT(({up})*(100+{pct})/100+0.5),""))'

    # --- 合計 -------------------------------------------------------------------------------
    def subtotal(self) -> str:
        """Everything but the transformation cost (which is priced from this)."""
        parts = [f"IFERROR({self.base_up()},0)"]
        first = self.sb["first_row"]
        parts.append(f"SUM({self.inp}${self.sb['cost_col']}${first}:${self.sb['cost_col']}${first + 5})")
        parts.append(self.tb_cost_ref())
        tf = self.tb["first_row"]
        parts.append(f"SUM({self.inp}${self.tb['cost_col']}${tf}:${self.tb['cost_col']}${tf + 3})")
        for tid in ("morale_boosts", "weapons", "abilities"):
            parts.append(f"SUM({self.l.table(tid).column_range('cost')})")
        return "+".join(parts)

    def tb_cost_ref(self) -> str:
        r, c = parse_a1(self.tb["movement_cost_cell"])
        return f"{self.inp}${col_letter(c)}${r + 1}"

    def transformation(self) -> str:
        raw = self.t.raw["transformation"]
        forms = self.l.table("forms")
        ups = forms.column_range("up")
        f = {x.pointer: x for x in self.l.fields}

        def ref(p: str) -> str:
            r, c = parse_a1(f[p].cell)
            return f"{self.inp}${col_letter(c)}${r + 1}"

        comb, changed = ref("/transformation/combination"), ref("/transformation/changed_places")
        one_way, drop = ref("/transformation/one_way"), ref("/transformation/drop_off")
        group = ref("/transformation/group")
        partial = raw["partial"]
        disc = (f'IF({changed}="",0,IF({changed}<={partial[0]["max_changes"]},{partial[0]["discount"]},'
                f'IF({changed}<={partial[1]["max_changes"]},{partial[1]["discount"]},{partial[2]["discount"]})))')
        n_forms = f"COUNT({ups})"
        cost = (f'(({self.subtotal()}+SUM({ups}))/{raw["divisor"]}+{raw["addend"]}-{disc})'
                f'*IF({one_way}="{TRUE}",1/2,1)*IF({drop}="{TRUE}",1+{n_forms},1)')
        combined = label_of("combinations", "combined")
        return (f'=IF(AND({group}="",{n_forms}=0,{comb}=""),0,IF({comb}="{combined}",0,'
                f'IF({n_forms}=0,0,INT({cost}+0.5))))')

    def total(self) -> str:
        r, c = parse_a1(next(x["cell"] for x in self.l.computed if x["formula"] == "transformation"))
        return f"={self.subtotal()}+{self.inp}${col_letter(c)}${r + 1}"

    def remainder(self) -> str:
        r, c = parse_a1(next(x["cell"] for x in self.l.computed if x["name"] == "up.totals.computed"))
        return f'=IF({self.budget}="","",{self.budget}-{self.inp}${col_letter(c)}${r + 1})'

    def weapon_cap(self) -> str:
        div = self.t.raw["weapon_cap"]["budget_divisor"]
        return f'=IF({self.budget}="","",{self.budget}/{div})'

    def base_up_cell(self) -> str:
        return f'=IFERROR({self.base_up()},"")'


def ability_floor() -> str:
    """The floor of an ability's or a morale boost's percentages, as the ルール sheet's
    ``ability_floor`` choice gives it (the tables' row per value, the default last)."""
    t = tables()
    floors = t.raw["ability_rules"]["percent_floor"]
    default = t.raw["options"]["ability_floor"]["default"]
    expr = str(floors[default])
    for value, floor in floors.items():
        if value != default:
            expr = f'IF(up.options.ability_floor="{value}",{floor},{expr})'
    return expr


def _frac(value) -> tuple[int, int]:
    from fractions import Fraction
    f = Fraction(str(value))
    return f.numerator, f.denominator
