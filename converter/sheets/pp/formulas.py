"""Excel formulas of the `pp` sheet: seed 003's arithmetic in spreadsheet language.

Every figure comes from the rules sheet by defined name (``rules.attribute.per``,
``rules.skill_meanings``, ...), written there from ``tables.toml``; the initiative formulas are
built from the tables' ``[initiative]`` terms. LibreOffice, Gnumeric and the formulas package
hold each formula to the engine (``rules/pp/engine.py``), including the cases where the engine
leaves a value out (an attribute it cannot read blanks the initiative, a level it cannot read
prices nothing). A typed skill name is looked up by its key, folded from the tables'
``[name_key]`` over the 技能 table's 照合 cells (``converter.sheets.name_keys``), as the rules
sheet's keys are.

A ladder from ``start`` to ``v`` where each new value costs ``per`` × the value is
``per × (v(v+1) − start(start+1)) / 2``; going below the start gives the refund (1→0: −1).
"""
from __future__ import annotations

from functools import cached_property

from ...rules.pp.tables import ATTRIBUTE_IDS, tables
from ..layout import Layout, Table, col_letter, parse_a1, sheet_prefix
from ..name_keys import NameKeyCells, esc, table_place
from ..system_sheet import TRUE


def _ladder(per: str, value: str, start: str) -> str:
    return f"{per}*({value}*({value}+1)-{start}*({start}+1))/2"


def is_whole(ref: str) -> str:
    """TRUE when ``ref`` holds a whole number (never an error, whatever the cell holds)."""
    return f"IF(ISNUMBER({ref}),{ref}=INT({ref}),FALSE)"


class PpFormulas:
    """Formula strings for every computed cell of the `pp` layout."""

    def __init__(self, layout: Layout) -> None:
        self.l = layout
        self.t = tables()
        self.inp = sheet_prefix(layout.input_sheet)
        self.ab = layout.raw["attribute_block"]
        self.fields = {f.pointer: f for f in layout.fields}

    # --- references -------------------------------------------------------------------------
    def field(self, pointer: str) -> str:
        f = self.fields[pointer]
        r, c = parse_a1(f.cell)
        return f"{sheet_prefix(f.sheet or self.l.input_sheet)}${col_letter(c)}${r + 1}"

    def attribute_row(self, aid: str) -> int:
        """One-based row of an attribute (its field's row)."""
        return parse_a1(self.fields[f"/attributes/{aid}"].cell)[0] + 1

    def attribute_cell(self, aid: str, col_key: str) -> str:
        return f"{self.inp}${self.ab[col_key]}${self.attribute_row(aid)}"

    def dice_range(self) -> str:
        c = self.ab["dice_col"]
        rows = [self.attribute_row(a) for a in ATTRIBUTE_IDS]
        return f"{self.inp}${c}${rows[0]}:${c}${rows[-1]}"

    def computed_cell(self, name: str) -> str:
        comp = next(c for c in self.l.computed if c["name"] == name)
        r, c = parse_a1(comp["cell"])
        return f"{sheet_prefix(comp.get('sheet') or self.l.input_sheet)}${col_letter(c)}${r + 1}"

    # --- 能力値 -------------------------------------------------------------------------------
    def attribute_dice(self, aid: str) -> str:
        """The value the engine counts: blank is the start (1); unreadable or below 0 is blank."""
        v = self.attribute_cell(aid, "value_col")
        return (f'=IF({v}="",rules.attribute.start,IF({is_whole(v)},'
                f'IF({v}>=rules.attribute.min,{v},""),""))')

    def attribute_meaning(self, aid: str) -> str:
        d = self.attribute_cell(aid, "dice_col")
        return f'=IF({d}="","",IFERROR(VLOOKUP({d},rules.attribute_meanings,2,FALSE),""))'

    def attribute_cost(self, aid: str) -> str:
        d = self.attribute_cell(aid, "dice_col")
        return f'=IF({d}="",0,{_ladder("rules.attribute.per", d, "rules.attribute.start")})'

    # --- 技能 ---------------------------------------------------------------------------------
    def _row(self, table: Table, i: int):
        def c(key: str) -> str:
            return table.cell(key, i, True)
        return c

    def level_ok(self, level: str) -> str:
        """The engine prices a level that is blank (the start, 0) or a whole number ≥ 0."""
        return f'IF({level}="",TRUE,IF({is_whole(level)},{level}>=rules.skill.start,FALSE))'

    @staticmethod
    def _level(level: str) -> str:
        return f'IF({level}="",rules.skill.start,{level})'

    @cached_property
    def keys(self) -> NameKeyCells:
        """Where the typed skill names are folded to their keys (layout ``[name_keys]``)."""
        return NameKeyCells(self.l, {"skills": table_place(self.l.table("skills"), "name")})

    def skill_label(self, table: Table, i: int) -> str:
        """The list's name of the skill the row names: its key (the last 照合 cell) on the rules
        sheet's keys, taken literally (no wildcards)."""
        c = self._row(table, i)
        return (f'=IF({c("name")}="","",IFERROR(INDEX(rules.skill_names.2,'
                f'MATCH({esc(self.keys.key("skills", i))},rules.skill_names.1,0)),""))')

    def skill_meaning(self, table: Table, i: int) -> str:
        c = self._row(table, i)
        lv = c("level")
        return (f'=IF(OR({c("name")}="",NOT({self.level_ok(lv)})),"",'
                f'IFERROR(VLOOKUP({self._level(lv)},rules.skill_meanings,2,FALSE),""))')

    def skill_cost(self, table: Table, i: int) -> str:
        c = self._row(table, i)
        lv = c("level")
        return (f'=IF({c("name")}="","",IF({self.level_ok(lv)},'
                f'{_ladder("rules.skill.per", self._level(lv), "rules.skill.start")},0))')

    def skill_dice(self, table: Table, i: int) -> str:
        """The chosen attribute's value, else the list's attribute for the skill."""
        c = self._row(table, i)
        default = f'INDEX(rules.skill_names.3,MATCH({c("label")},rules.skill_names.2,0))'
        attr = f'IF({c("attribute")}="",{default},{c("attribute")})'
        return (f'=IF(OR({c("name")}="",NOT({self.level_ok(c("level"))})),"",'
                f'IFERROR(INDEX({self.dice_range()},MATCH({attr},list.attributes,0)),""))')

    def skill_pool(self, table: Table, i: int) -> str:
        """As the engine's dice_pool: 4D10（各+2）; ? when no attribute gives the dice."""
        c = self._row(table, i)
        lv = self._level(c("level"))
        return (f'=IF(OR({c("name")}="",NOT({self.level_ok(c("level"))})),"",'
                f'IF({c("dice")}="","?",{c("dice")})&"D10"&IF({lv}>0,"（各+"&{lv}&"）",""))')

    def specialization_cost(self, table: Table, i: int, slot: int) -> str:
        """＊技能の専門化: above the skill's level, each new level costs the level (× per)."""
        c = self._row(table, i)
        name, lv = c(f"specializations.{slot}.name"), c(f"specializations.{slot}.level")
        base = self._level(c("level"))
        return (f'=IF({name}="","",IF(AND({c("name")}<>"",{self.level_ok(c("level"))},{is_whole(lv)}),'
                f'IF({lv}>{base},{_ladder("rules.specialization.per", lv, base)},0),0))')

    def skill_counted_level(self, table: Table, i: int, skill_id: str) -> str:
        """The level this row gives the seed skill ``skill_id`` (its name resolved to the skill,
        a level the engine reads: blank is 0, else a whole number ≥ 0), blank when none."""
        c = self._row(table, i)
        lv = c("level")
        return (f'=IF({c("label")}="{next(s["label"] for s in self.t.seed_skills if s["id"] == skill_id)}",'
                f'IF({self.level_ok(lv)},{self._level(lv)},""),"")')

    def skill_level_of(self, skill_id: str) -> str:
        """The level the engine counts for a seed skill: the highest among the rows naming it
        (0 when none), as 〈知識／戦術〉 in the initiative: the MAX of its helper column."""
        skills = self.l.table("skills")
        return f"MAX(0,{skills.column_name(f'counted.{skill_id}')})"

    # --- 特技 ---------------------------------------------------------------------------------
    def feat_cost(self, table: Table, i: int) -> str:
        return f'=IF({table.cell("name", i, True)}="","",IF(pp.options.feats="unused",0,rules.feat.per))'

    # --- 合計 ---------------------------------------------------------------------------------
    def attributes_cost(self) -> str:
        c = self.ab["cost_col"]
        rows = [self.attribute_row(a) for a in ATTRIBUTE_IDS]
        return f"=SUM({self.inp}${c}${rows[0]}:${c}${rows[-1]})"

    def skills_cost(self) -> str:
        return f'=SUM({self.l.table("skills").column_name("cost")})'

    def specializations_cost(self) -> str:
        skills = self.l.table("skills")
        slots = [c.key for c in skills.columns if c.key.startswith("specializations.") and c.key.endswith(".cost")]
        return "=" + "+".join(f"SUM({skills.column_name(k)})" for k in slots)

    def combat_boost_cost(self) -> str:
        cb = self.field("/combat_boost")
        return (f'=IF({is_whole(cb)},MAX(0,{cb}-rules.combat_boost.start)*rules.combat_boost.per,0)')

    def feats_cost(self) -> str:
        return f'=SUM({self.l.table("feats").column_name("cost")})'

    def total(self) -> str:
        parts = ("pp.costs.attributes", "pp.costs.skills", "pp.costs.specializations",
                 "pp.costs.combat_boost", "pp.costs.feats")
        return "=" + "+".join(self.computed_cell(p) for p in parts)

    def budget(self) -> str:
        """総ＰＰ: the sheet's, else the seed's general 50."""
        b = self.field("/budget")
        return f'=IF({b}="",rules.budget.start,IF({is_whole(b)},{b},""))'

    def remainder(self) -> str:
        b, total = self.computed_cell("pp.totals.budget"), self.computed_cell("pp.totals.formula")
        return f'=IF({b}="","",{b}-{total})'

    # --- イニシアティブ値 ------------------------------------------------------------------------
    def _terms(self, kind: str, speed: str | None = None) -> tuple[list[str], list[str]]:
        """(conditions, values) of an initiative from the tables' terms; a value the engine
        cannot read leaves the initiative out, as the engine does."""
        conds, values = [], []
        machine = {f.id: f for f in self.t.machine_fields}
        for term in self.t.initiative[kind]:
            what, _, key = term.partition(":")
            if what == "attribute":
                d = self.attribute_cell(key, "dice_col")
                conds.append(f'{d}<>""')
                values.append(d)
            elif what == "skill":
                values.append(self.skill_level_of(key))
            elif what == "machine":
                ref = speed if key == "speed" and speed else self.field(f"/machine/{key}")
                default = machine[key].default
                if default is None or (key == "speed" and speed):
                    conds.append(is_whole(ref))
                    values.append(ref)
                else:
                    conds.append(f'IF({ref}="",TRUE,{is_whole(ref)})')
                    values.append(f'IF({ref}="",{default},{ref})')
            else:
                raise ValueError(f"initiative term {term!r}")
        return conds, values

    def _initiative(self, kind: str, speed: str | None = None) -> str:
        conds, values = self._terms(kind, speed)
        return f'=IF(AND({",".join(conds)}),{"+".join(values)},"")'

    def initiative(self) -> str:
        return self._initiative("personal")

    def unit_initiative(self) -> str:
        return self._initiative("unit")

    def alt_unit_initiative(self, table: Table, i: int) -> str:
        speed = table.cell("speed", i, True)
        return f'=IF({speed}="","",{self._initiative("unit", speed)[1:]})'

    # --- 機体 ---------------------------------------------------------------------------------
    def weapon_gauges(self, table: Table, i: int) -> str:
        """④ダメージ決定: the gauges of the weapon's 破壊力."""
        return f'=IFERROR(VLOOKUP({table.cell("damage", i, True)},rules.damage_classes,3,FALSE),"")'

    def weapon_evasion(self, table: Table, i: int) -> str:
        """②回避判定: a melee weapon's is 〈機動格闘〉＋作業性＋its own; any other's its own."""
        c = self._row(table, i)
        ev, work = c("evasion_target"), self.field("/machine/workability")
        melee = f'IF({is_whole(work)},{self.skill_level_of("mobile_melee")}+{work}+{ev},"")'
        return f'=IF({is_whole(ev)},IF({c("melee")}="{TRUE}",{melee},{ev}),"")'

    def evasion_sum(self, part: str) -> str:
        """回避修正: the figure ``part`` as the sum of its fields (メインシステムの回避修正＋機動性,
        ＋作業性), blank unless every term is a whole number, as the engine derives it."""
        terms = [self.field(f"/machine/{fid}") for fid in self.t.machine_field("evasion_modifier").sum_of(part)]
        return f'=IF(AND({",".join(is_whole(x) for x in terms)}),{"+".join(terms)},"")'

    def explosion_penetration(self) -> str:
        """■機体の破壊: 機体重量（トン数、端数切り上げ）＋１Ｄ１０."""
        w = self.field("/machine/weight")
        dice = self.t.raw["explosion"]["dice"]
        return f'=IF(ISNUMBER({w}),IF({w}>=0,ROUNDUP({w},0)&"+{dice}",""),"")'
