"""Excel formulas of the `mailgear` sheet: seed 001's derived values in spreadsheet language.

Every figure comes from the rules sheet, the catalog sheet (by defined name) or ``tables.toml``
through this module; LibreOffice, Gnumeric and the formulas package hold each formula to the
engine. Names are matched as the engine matches them: both keys are rendered from the tables'
``[name_key]`` (``converter.core.names``), folded over several cells (:func:`key_stage`; Excel
nests at most 64 functions); :func:`excel_key` is the Excel key in Python, for the cached
results of the key cells.
"""
from __future__ import annotations

from functools import cached_property

from ...rules.mailgear.tables import tables
from ..layout import Layout, Table, col_letter, defined_name, parse_a1
from ..name_keys import NameKeyCells, esc, table_place
from ..system_sheet import FALSE, TRUE


def key_stages() -> int:
    """How many cells a name's key is folded over."""
    return tables().names.excel_stages()


def key_stage(k: int, ref: str) -> str:
    """Excel: stage ``k`` of a name's key: the name's cell ``ref`` for the first, the stage
    before's after it; the last one's result is the name as compared (``[name_key]``)."""
    return tables().names.excel_stage(k, ref)


def key_stage_values(value: object) -> list[str]:
    """What each stage computes for a cell holding ``value`` (their cached results)."""
    return tables().names.excel_stage_values(value)


def number_or_zero(expr: str) -> str:
    """Excel: ``expr`` when it is a number, else 0: what ``N()`` means here, which Gnumeric
    computes as #NUM! on an empty cell."""
    return f"IF(ISNUMBER({expr}),{expr},0)"


def excel_key(value: object) -> str:
    """What :func:`key` computes, in Python (the cached result of a key cell)."""
    return tables().names.excel_value(value)


def roll_text(dice: str, fixed: str) -> str:
    """Excel: engine.roll_bonus — ``+5``, ``+1d+3``, ``+1d``, ``+0``."""
    return (f'IF({dice}>0,"+"&{dice}&"d","")&IF(OR({fixed}<>0,{dice}=0),'
            f'IF({fixed}>=0,"+","")&{fixed},"")')


def roll_expression(dice: str, fixed: str) -> str:
    """Excel: engine.roll_expression — the whole roll, ``2d6+2`` (武運)."""
    r = tables().rolls
    return (f'({r["base_dice"]}+{dice})&"d{r["die"]}"&IF({fixed}<>0,'
            f'IF({fixed}>0,"+","")&{fixed},"")')


class MailgearFormulas:
    """Formula strings for every computed cell of the `mailgear` layout."""

    def __init__(self, layout: Layout) -> None:
        self.l = layout
        self.t = tables()
        raw = layout.raw
        self.sb, self.bb = raw["stat_block"], raw["boost_block"]
        self.db, self.kb = raw["derived_block"], raw["skill_block"]
        self.kinds = self.t.kinds

    # --- cells ---------------------------------------------------------------------------------
    def field(self, pointer: str) -> str:
        f = next(f for f in self.l.fields if f.pointer == pointer)
        r, c = parse_a1(f.cell)
        return f"${col_letter(c)}${r + 1}"

    def stat_row(self, sid: str) -> int:
        return self.sb["first_row"] + self.t.stat_ids.index(sid)

    def stat_cell(self, sid: str, col: str) -> str:
        return f"${self.sb[col]}${self.stat_row(sid)}"

    def boost_cell(self, k: int, col: str = "input_col") -> str:
        return f"${self.bb[col]}${self.bb['first_row'] + k}"

    def boost_range(self, col: str = "input_col") -> str:
        first = self.bb["first_row"]
        return f"${self.bb[col]}${first}:${self.bb[col]}${first + self.bb['slots'] - 1}"

    def derived_row(self, did: str) -> int:
        return self.db["first_row"] + list(self.t.derived).index(did)

    def derived_cell(self, did: str, col: str) -> str:
        return f"${self.db[col]}${self.derived_row(did)}"

    def skill_row(self, sid: str) -> int:
        return self.kb["first_row"] + list(self.t.skills).index(sid)

    def skill_cell(self, sid: str, col: str) -> str:
        return f"${self.kb[col]}${self.skill_row(sid)}"

    def _computed_cell(self, name: str) -> str:
        cell = next(c["cell"] for c in self.l.raw["computed"] if c["name"] == name)
        r, c = parse_a1(cell)
        return f"${col_letter(c)}${r + 1}"

    # --- pilot and gear scalars ------------------------------------------------------------------
    @staticmethod
    def _ladder(reached: str, values: str, amount: str) -> str:
        """The value of the first row with the highest threshold ``amount`` reaches (engine:
        Catalog.ladder_value); ``reached`` is the catalog's column of thresholds reached."""
        return (f'IF(ISNUMBER({amount}),IF(COUNT({reached})=0,"",'
                f'INDEX({values},MATCH(MAX({reached}),{reached},0))),"")')

    def level_expected(self) -> str:
        return "=" + self._ladder("catalog.levels.reached", "catalog.levels.level",
                                  self.field("/pilot/experience"))

    def rank_expected(self) -> str:
        return "=" + self._ladder("catalog.gear_ranks.reached", "catalog.gear_ranks.rank",
                                  self.field("/pilot/rank_points"))

    #: the catalog ladders and the pilot's amount each is read with
    LADDER_AMOUNTS = {"levels": "/pilot/experience", "gear_ranks": "/pilot/rank_points"}

    def catalog_reached(self, table: str, threshold: str) -> str:
        """A ladder row's threshold when the pilot's amount reaches it, else blank."""
        amount = defined_name(self.LADDER_AMOUNTS[table], self.l.system)
        return (f'=IF(AND(ISNUMBER({threshold}),ISNUMBER({amount})),'
                f'IF({threshold}<={amount},{threshold},""),"")')

    def slots_used(self) -> str:
        return "=SUM(mailgear.equipment.used_slots)"

    def is_custom(self) -> str:
        """専用機: the ○/× typed, else the rank's ＋ (seed 001, 専用機について)."""
        c, rank = self.field("/gear/custom"), self.field("/gear/rank")
        mark = self.t.custom_mark
        return (f'=IF({c}="{TRUE}","{TRUE}",IF({c}="{FALSE}","{FALSE}",'
                f'IF(RIGHT({rank},{len(mark)})="{mark}","{TRUE}","{FALSE}")))')

    def catalog_row(self) -> str:
        """The catalog row of the gear's model at its rank (letters without ＋)."""
        rank = self.field("/gear/rank")
        value = f'{self.keys.key("model", 0)}&"|"&SUBSTITUTE({rank},"{self.t.custom_mark}","")'
        return f'=IFERROR(MATCH({esc(value)},catalog.model_stats.key,0),"")'

    # --- name keys: a typed name folded in stages, right of the tables ---------------------------
    @cached_property
    def keys(self) -> NameKeyCells:
        """Where names are folded (layout ``[name_keys]``): the skill table's スキル, the
        equipment's 名称, the gear's 機体名."""
        r, c = parse_a1(self.field("/gear/model").replace("$", ""))
        return NameKeyCells(self.l, {"skills": table_place(self.l.table("skills"), "skill"),
                                     "equipment": table_place(self.l.table("equipment"), "name"),
                                     "model": (col_letter(c), r + 1, 1)})

    # --- 性能 ---------------------------------------------------------------------------------
    def stat_catalog(self, sid: str) -> str:
        row = self._computed_cell("mailgear.gear.catalog_row")
        v = f"INDEX(catalog.model_stats.{sid},{row})"
        return f'=IF({row}="","",IF(ISNUMBER({v}),{v},""))'

    def stat_boost(self, sid: str) -> str:
        return (f'=SUMIF({self.boost_range()},"{self.t.stat_labels[sid]}",'
                f'{self.boost_range("applied_col")})')

    def stat_option(self, sid: str) -> str:
        """Counted options' raises of the stat: their rows, their 追加効果 rows, and the catalog's
        further effects of those taking the catalog's (engine: _gear_stats)."""
        label = self.t.stat_labels[sid]
        return (f'=SUMIFS(mailgear.equipment.eff_amount,mailgear.equipment.eff_stat,"{label}")'
                f'+SUMIFS(mailgear.effects.eff_amount,mailgear.effects.eff_stat,"{label}")'
                f'+SUMPRODUCT((catalog.option_effects.effect_stat="{label}")'
                f'*catalog.option_effects.eff_amount*catalog.option_effects.used)')

    def stat_final(self, sid: str) -> str:
        """Typed base (else the catalog's) + 専用機 + options (engine: _gear_stats)."""
        v, cat, b, o = (self.stat_cell(sid, k) for k in ("value_col", "catalog_col", "boost_col",
                                                         "option_col"))
        return f'=IF(ISNUMBER({v}),{v}+{b}+{o},IF(AND({v}="",{cat}<>""),{cat}+{b}+{o},""))'

    def boost_applied(self, k: int) -> str:
        """A boost counts on a 専用機 when eligible, not chosen before, and among the first three."""
        cell = self.boost_cell(k)
        conds = [f'{self._computed_cell("mailgear.gear.is_custom")}="{TRUE}"', f'{cell}<>""',
                 f"ISNUMBER(MATCH({cell},list.boost_stats,0))"]
        if k:
            first = self.bb["first_row"]
            before = f"${self.bb['input_col']}${first}:${self.bb['input_col']}${first + k - 1}"
            applied = f"${self.bb['applied_col']}${first}:${self.bb['applied_col']}${first + k - 1}"
            conds += [f"COUNTIF({before},{cell})=0", f"COUNT({applied})<{self.t.custom_count}"]
        return f'=IF(AND({",".join(conds)}),INDEX(rules.stats.2,MATCH({cell},rules.stats.1,0)),"")'

    # --- スキル効果 -----------------------------------------------------------------------------
    def skill_learned(self, sid: str) -> str:
        """The level of the skill's first row with a whole level from 1 (engine: _learned_skills)."""
        label = self.t.skills[sid].label
        crit = f'mailgear.skills.canon,"{label}",mailgear.skills.first,1'
        return f'=IF(COUNTIFS({crit})>0,SUMIFS(mailgear.skills.level,{crit}),"")'

    def skill_option(self, sid: str) -> str:
        """Counted options' raises of the skill, as stat_option; blank when none (every raise is
        a level of at least 1)."""
        label = self.t.skills[sid].label
        total = (f'SUMIF(mailgear.equipment.eff_skill,"{label}",mailgear.equipment.eff_levels)'
                 f'+SUMIF(mailgear.effects.eff_skill,"{label}",mailgear.effects.eff_levels)'
                 f'+SUMPRODUCT((catalog.option_effects.effect_skill="{label}")'
                 f'*catalog.option_effects.eff_levels*catalog.option_effects.used)')
        return f'=IF({total}>0,{total},"")'

    def skill_effective(self, sid: str) -> str:
        """Learned (capped) + counted options, never above the maximum (seed 001, オプション)."""
        j, k, mx = (self.skill_cell(sid, c) for c in ("learned_col", "option_col", "max_col"))
        return f'=IF(AND({j}="",{k}=""),"",MIN(MIN({number_or_zero(j)},{mx})+{number_or_zero(k)},{mx}))'

    def skill_bonus(self, sid: str) -> str:
        """Levels 1–3 add their value; level 4 adds ＋１ｄ (seed 001, スキルの説明)."""
        lv = self.skill_cell(sid, "effective_col")
        return f'=IF({lv}="","",IF({lv}={self.t.rolls["die_at_level"]},"+1d","+"&{lv}))'

    # --- 派生値 -------------------------------------------------------------------------------
    def _parts(self, did: str) -> tuple[str, str, str | None]:
        """(dice, fixed, the stat cell or None): every skill aimed at ``did`` (engine: _derive_values)."""
        d = self.t.derived[did]
        base = self.stat_cell(d.stat, "final_col") if d.stat else None
        dice: list[str] = []
        fixed: list[str] = [base] if base else []
        for s in self.t.skills_aimed_at(d):
            lv = number_or_zero(self.skill_cell(s.id, 'effective_col'))
            if s.target == "all_rolls":  # 天賦の才: the option natural_talent (engine: _talent_counts)
                lv = (f'IF(mailgear.options.natural_talent="rolls_and_fortune",{lv},0)' if did == "fortune"
                      else f'IF(mailgear.options.natural_talent="separate",0,{lv})')
            if d.kind == "roll" and s.per_level == 1:
                die = f"{lv}={self.t.rolls['die_at_level']}"
                if did == "fortune":
                    die = f'AND({die},mailgear.options.miracle_four<>"plus")'
                dice.append(f"IF({die},1,0)")
                fixed.append(f"IF({die},0,{lv})")
            else:
                fixed.append(lv if s.per_level == 1 else f"{lv}*{s.per_level}")
        return "+".join(dice) or "0", "+".join(fixed) or "0", base

    def derived_dice(self, did: str) -> str:
        dice, _, base = self._parts(did)
        return f'=IF({base}="","",{dice})' if base else f"={dice}"

    def derived_fixed(self, did: str) -> str:
        _, fixed, base = self._parts(did)
        return f'=IF({base}="","",{fixed})' if base else f"={fixed}"

    def derived(self, did: str) -> str:
        d = self.t.derived[did]
        n, o = self.derived_cell(did, "dice_col"), self.derived_cell(did, "fixed_col")
        if d.kind == "value":
            body = o
        elif did == "fortune":  # 武運: rolled per mission, so the expression (「[２ｄ＋ミラクル]」)
            body = roll_expression(n, o)
        else:
            body = roll_text(n, o)
        return f'=IF({o}="","",{body})'

    # --- スキル表 -----------------------------------------------------------------------------
    def skill_canon(self, table: Table, i: int) -> str:
        s = table.cell("skill", i, True)
        return (f'=IF({s}="","",IFERROR(INDEX(rules.skill_names.2,'
                f'MATCH({esc(self.keys.key("skills", i))},rules.skill_names.3,0)),""))')

    def skill_max(self, table: Table, i: int) -> str:
        c = table.cell("canon", i, True)
        return f'=IF({c}="","",INDEX(rules.skills.2,MATCH({c},rules.skills.1,0)))'

    def skill_first(self, table: Table, i: int) -> str:
        """1 on the first row of a skill with a whole level from 1: the row the engine counts."""
        s, lv, c = (table.cell(k, i, True) for k in ("skill", "level", "canon"))
        top = table.header_row + 1
        cc, lc = col_letter(table.col("canon")), col_letter(table.col("level"))
        crange, lrange = f"${cc}${top}:{c}", f"${lc}${top}:{lv}"
        same = f"SUMPRODUCT(({crange}={c})*ISNUMBER({lrange})*({lrange}>=1))"
        return (f'=IF(AND({s}="",{lv}=""),"",IF(AND({c}<>"",ISNUMBER({lv})),'
                f'IF(AND({lv}>=1,{same}=1),1,0),0))')

    # --- 装備 ---------------------------------------------------------------------------------
    def _row(self, table: Table, i: int) -> dict[str, str]:
        return {c.key: table.cell(c.key, i, True) for c in table.columns}

    @staticmethod
    def _inputs(table: Table, i: int) -> str:
        cols = [table.col(c.key) for c in table.columns if not c.computed]
        r = table.header_row + 1 + i
        return f"${col_letter(min(cols))}{r}:${col_letter(max(cols))}{r}"

    def _blank(self, table: Table, i: int) -> str:
        return f"COUNTA({self._inputs(table, i)})=0"

    def item_key(self, table: Table, i: int) -> str:
        return f'=IF({self._blank(table, i)},"",{self.keys.key("equipment", i)})'

    def item_catalog_row(self, table: Table, i: int) -> str:
        c = self._row(table, i)
        look = {k: f'IFERROR(MATCH({esc(c["key"])},catalog.{k}s.key,0),"")' for k in ("weapon", "option")}
        return (f'=IF({self._blank(table, i)},"",IF({c["kind"]}="{self.kinds["weapon"]}",{look["weapon"]},'
                f'IF({c["kind"]}="{self.kinds["option"]}",{look["option"]},"")))')

    def item_copy(self, table: Table, i: int) -> str:
        """Which copy of the same option this row is (names compared as the engine does)."""
        c = self._row(table, i)
        top = table.header_row + 1
        kc, nc = col_letter(table.col("kind")), col_letter(table.col("key"))
        return (f'=IF({c["kind"]}<>"{self.kinds["option"]}","",SUMPRODUCT((${nc}${top}:{c["key"]}={c["key"]})'
                f'*(${kc}${top}:{c["kind"]}="{self.kinds["option"]}")))')

    def item_slots(self, table: Table, i: int) -> str:
        c = self._row(table, i)
        row = c["catalog_row"]

        def cat(tab: str) -> str:
            v = f"INDEX(catalog.{tab}.slots,{row})"
            return f"IF(AND(ISNUMBER({v}),{v}>=1),{v},1)"

        from_catalog = (f'IF({row}="",1,IF({c["kind"]}="{self.kinds["weapon"]}",{cat("weapons")},'
                        f'{cat("options")}))')
        s = c["slots"]
        return (f'=IF({self._blank(table, i)},"",IF(ISNUMBER({s}),IF({s}>=1,{s},1),'
                f'IF({s}="",{from_catalog},1)))')

    @staticmethod
    def _own(table: Table, i: int) -> str:
        """Excel: the row states its own effects (an effect cell, or a 追加効果 row naming it)."""
        first, last = table.col("effect_skill"), table.col("effect_text")
        r = table.header_row + 1 + i
        head = f"${col_letter(first)}${table.header_row}"  # its row number: ROW() below the header's
        return (f"OR(COUNTA(${col_letter(first)}{r}:${col_letter(last)}{r})>0,"
                f"COUNTIF(mailgear.effects.at,ROW()-ROW({head}))>0)")

    def _counted(self, c: dict[str, str]) -> str:
        """Excel: the row is an option that counts (not a third copy)."""
        return f'AND({c["kind"]}="{self.kinds["option"]}",{number_or_zero(c["copy"])}<={self.t.option_copies})'

    def item_cat_key(self, table: Table, i: int) -> str:
        """The name key of a counted option taking its effects from the catalog (no own effects):
        the catalog's further effects (オプションの追加効果) of that name count for it."""
        c = self._row(table, i)
        return f'=IF(AND({self._counted(c)},NOT({self._own(table, i)})),{c["key"]},"")'

    def _effect(self, table: Table, i: int, what: str, value: bool) -> str:
        """The skill (or stat) effect a counted option row adds: its own, else the catalog's."""
        c = self._row(table, i)
        name_col, amount_col, lst = {"skill": ("effect_skill", "effect_levels", "skills"),
                                     "stat": ("effect_stat", "effect_amount", "stats")}[what]
        own = self._own(table, i)

        def pick(name: str, amount: str) -> str:
            ok = f"AND(ISNUMBER(MATCH({name},list.{lst},0)),ISNUMBER({amount}))"
            if what == "skill":
                ok = f"AND({ok},{number_or_zero(amount)}>=1)"
            return f'IF({ok},{amount if value else name},"")'

        row = c["catalog_row"]
        cat = pick(f"INDEX(catalog.options.{name_col},{row})", f"INDEX(catalog.options.{amount_col},{row})")
        counted = f'OR({c["kind"]}<>"{self.kinds["option"]}",{number_or_zero(c["copy"])}>{self.t.option_copies})'
        return (f'=IF({counted},"",IF({own},{pick(c[name_col], c[amount_col])},'
                f'IF({row}="","",{cat})))')

    def item_eff_skill(self, table: Table, i: int) -> str:
        return self._effect(table, i, "skill", False)

    def item_eff_levels(self, table: Table, i: int) -> str:
        return self._effect(table, i, "skill", True)

    def item_eff_stat(self, table: Table, i: int) -> str:
        return self._effect(table, i, "stat", False)

    def item_eff_amount(self, table: Table, i: int) -> str:
        return self._effect(table, i, "stat", True)

    def item_hit(self, table: Table, i: int, band: str) -> str:
        """The weapon's hit bonus in ``band``: its own bands if any is marked, else the catalog's."""
        c = self._row(table, i)
        first, last = table.col("band_cr"), table.col("band_lr")
        r = table.header_row + 1 + i
        own = f"COUNTA(${col_letter(first)}{r}:${col_letter(last)}{r})>0"
        row = c["catalog_row"]
        has = (f'IF({own},{c["band_" + band]}="{TRUE}",IF({row}="",FALSE,'
               f'INDEX(catalog.weapons.band_{band},{row})="{TRUE}"))')
        hit = self.t.bands[band].hit
        value = f"mailgear.derived.{hit}"
        return f'=IF({c["kind"]}<>"{self.kinds["weapon"]}","",IF(AND({has},{value}<>""),{value},""))'

    def item_damage(self, table: Table, i: int) -> str:
        """[２ｄ＋壊し屋＋出力＋武器の追加ダメージ]: the damage roll plus the weapon's extra."""
        c = self._row(table, i)
        e, row = c["extra_damage"], c["catalog_row"]
        extra = (f'IF(ISNUMBER({e}),{e},IF({e}="",IF({row}="",0,'
                 f'{number_or_zero(f"INDEX(catalog.weapons.extra_damage,{row})")}),0))')
        dice, fixed = "mailgear.derived.damage.dice", "mailgear.derived.damage.fixed"
        return (f'=IF(OR({c["kind"]}<>"{self.kinds["weapon"]}",{fixed}=""),"",'
                f'{roll_text(dice, f"({fixed}+{extra})")})')

    # --- 追加効果 ------------------------------------------------------------------------------
    def effect_at(self, table: Table, i: int) -> str:
        """The equipment row the 追加効果 row names: a whole number within the table, else blank."""
        n = table.cell("item", i, True)
        return (f'=IF(ISNUMBER({n}),IF(AND({n}=INT({n}),{n}>=1,{n}<=ROWS(mailgear.equipment.used_slots)),'
                f'{n},""),"")')

    def effect_item_name(self, table: Table, i: int) -> str:
        at = table.cell("at", i, True)
        return (f'=IF({at}="","",IF(INDEX(mailgear.equipment.used_slots,{at})="","",'
                f'INDEX(mailgear.equipment.name,{at})&""))')

    def _extra(self, table: Table, i: int, what: str, value: bool) -> str:
        """What a 追加効果 row adds: its skill (or stat) effect when its item is a counted option."""
        at = table.cell("at", i, True)
        name_col, amount_col, lst = {"skill": ("effect_skill", "effect_levels", "skills"),
                                     "stat": ("effect_stat", "effect_amount", "stats")}[what]
        name, amount = table.cell(name_col, i, True), table.cell(amount_col, i, True)
        option = self.kinds["option"]
        ok = [f'INDEX(mailgear.equipment.kind,{at})="{option}"',
              f"{number_or_zero(f'INDEX(mailgear.equipment.copy,{at})')}<={self.t.option_copies}",
              f"ISNUMBER(MATCH({name},list.{lst},0))", f"ISNUMBER({amount})"]
        if what == "skill":
            ok.append(f"{number_or_zero(amount)}>=1")
        return f'=IF({at}="","",IF(AND({",".join(ok)}),{amount if value else name},""))'

    def effect_eff_skill(self, table: Table, i: int) -> str:
        return self._extra(table, i, "skill", False)

    def effect_eff_levels(self, table: Table, i: int) -> str:
        return self._extra(table, i, "skill", True)

    def effect_eff_stat(self, table: Table, i: int) -> str:
        return self._extra(table, i, "stat", False)

    def effect_eff_amount(self, table: Table, i: int) -> str:
        return self._extra(table, i, "stat", True)

    def effect_unattached(self, table: Table, i: int) -> str:
        """Excel: a filled 追加効果 row whose 装備の行 holds no item (MG_ITEM_EFFECT_UNATTACHED)."""
        at = table.cell("at", i)
        return (f'=IF({self._blank(table, i)},FALSE,IF({at}="",TRUE,'
                f'INDEX(mailgear.equipment.used_slots,{at})=""))')

    # --- カタログ -------------------------------------------------------------------------------
    @staticmethod
    def catalog_key_stage(k: int, ref: str) -> str:
        """A catalog row's name folded to stage ``k`` (the stages before the key column)."""
        return "=" + key_stage(k, ref)

    @staticmethod
    def catalog_model_key(model: str, rank: str, before: str) -> str:
        """``before``: the row's next-to-last stage of the model's name."""
        return f'=IF(AND({model}="",{rank}=""),"",{key_stage(key_stages() - 1, before)}&"|"&{rank})'

    @staticmethod
    def catalog_item_key(name: str, before: str) -> str:
        """``before``: the row's next-to-last stage of the name."""
        return f'=IF({name}="","",{key_stage(key_stages() - 1, before)})'

    @staticmethod
    def catalog_effect_levels(k: str, skill: str, levels: str) -> str:
        """A further effect's skill levels, 0 when it is not a whole skill effect."""
        return (f'=IF(AND({k}<>"",ISNUMBER(MATCH({skill},list.skills,0)),ISNUMBER({levels}),'
                f'{number_or_zero(levels)}>=1),{levels},0)')

    @staticmethod
    def catalog_effect_amount(k: str, stat: str, amount: str) -> str:
        """A further effect's stat amount, 0 when it is not a whole stat effect."""
        return f'=IF(AND({k}<>"",ISNUMBER(MATCH({stat},list.stats,0)),ISNUMBER({amount})),{amount},0)'

    @staticmethod
    def catalog_effect_used(k: str) -> str:
        """How many counted options of the pilot sheet take this entry's effects from the catalog."""
        return f'=IF({k}="",0,SUMPRODUCT((mailgear.equipment.cat_key={k})*1))'

    def formula(self, name: str, table: Table | None = None, index: int | None = None) -> str:
        """The formula named in the layout (``derived.move``, ``item_hit_cr``, ...)."""
        if name.startswith("derived."):
            return self.derived(name.split(".", 1)[1])
        if name.startswith("item_hit_"):
            assert table is not None and index is not None, name  # a column of the equipment table
            return self.item_hit(table, index, name.rsplit("_", 1)[1])
        method = getattr(self, name)
        return method(table, index) if table is not None else method()
