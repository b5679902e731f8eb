"""The `pp` workbook (seed 003): its lists, rules sheet, formulas and the engine's values.

The character sheet holds the attributes (with each value's meaning), skills with up to four
specializations each, combat boost, 特技, budget and totals, and the initiative values; the
機体 sheet holds the machine block and its weapons. Everything is placed by
``pp/layout.toml`` and written by the one workbook mechanism (``writer.py``, ``reader.py``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.coerce import as_int
from ...core.errors import OutputError
from ...rules.pp.engine import price_character
from ...rules.pp.skills import SkillList
from ...rules.pp.tables import ATTRIBUTE_IDS, tables
from ...core.evaluation import Evaluation
from ..layout import Layout, Table, a1, col_index, parse_a1
from .formulas import PpFormulas, is_whole
from .rules_sheet import (SkillSources, pp_lists, read_context_skills, skill_sources,
                             write_rules_sheet)
from ..system_sheet import SystemSheet
from ..writer import rows_of

_SLOTS = "specializations"
_EMPTY = {"system": "pp", "format": 1, "attributes": {}}  # what the template's cells show


class PpSheet(SystemSheet):
    system = "pp"

    def lists(self) -> dict[str, list[tuple[Any, str]]]:
        return pp_lists()

    def write_rules(self, wb, ws, options, fmt) -> None:
        write_rules_sheet(wb, ws, self.layout.rules_sheet, options, fmt, SkillSources())

    def write_rules_for(self, wb, ws, options, fmt, doc, context) -> None:
        write_rules_sheet(wb, ws, self.layout.rules_sheet, options, fmt, skill_sources(doc, context))

    def formula(self, name: str, table: Table | None = None, index: int | None = None) -> str:
        f = PpFormulas(self.layout)
        if ":" in name:  # specialization_cost:<slot>, evasion_sum:<part>
            fn, arg = name.split(":")
            if table is None:
                return getattr(f, fn)(arg)
            return getattr(f, fn)(table, index, int(arg) if arg.isdigit() else arg)
        if table is not None:
            return getattr(f, name)(table, index)
        return getattr(f, name)()

    def cached(self, doc, options, context) -> "_Cached":
        sources = skill_sources(doc, context)
        d = doc if doc else _EMPTY
        return _Cached(self.layout, d, price_character(d, options, skills=sources.context), sources.merged)

    # --- blocks and red cells -------------------------------------------------------------------
    def write_blocks(self, writer, ws, doc, cached: "_Cached") -> None:
        """能力値: 意味, ＰＰ and ダイス beside each typed value; red above 12 or below 0."""
        f = PpFormulas(self.layout)
        ab = self.layout.raw["attribute_block"]
        hr = ab["header_row"] - 1
        for key, head in (("label_col", "能力値"), ("value_col", "値"), ("meaning_col", "意味"),
                          ("cost_col", "ＰＰ"), ("dice_col", "ダイス")):
            ws.write(hr, col_index(ab[key]), head, writer.fmt["h"])
        for aid in ATTRIBUTE_IDS:
            row = f.attribute_row(aid) - 1
            for key, formula, what in (("dice_col", f.attribute_dice(aid), "dice"),
                                       ("meaning_col", f.attribute_meaning(aid), "meaning"),
                                       ("cost_col", f.attribute_cost(aid), "cost")):
                writer.computed(ws, row, col_index(ab[key]), formula, cached.attribute(aid, what),
                                f"pp.attributes.{aid}.{what}")
            # PP_ATTRIBUTE_MAX, PP_ATTRIBUTE_BELOW_MINIMUM, PP_ATTRIBUTE_ZERO under attribute_zero=forbid
            v = f"${ab['value_col']}${row + 1}"
            _red(writer, ws, row, col_index(ab["value_col"]), row,
                 f'AND(ISNUMBER({v}),OR({v}>rules.attribute.max,{v}<rules.attribute.min,'
                 f'AND({v}<rules.attribute.start,pp.options.attribute_zero="forbid")))')
        f.keys.write(writer, ws, cached.typed_name)  # each typed skill name folded, right of the table

    def decorate_table(self, writer, ws, table: Table) -> None:
        f = PpFormulas(self.layout)
        first, last = table.header_row, table.header_row + table.rows - 1  # zero-based data rows

        def ref(key: str) -> str:
            return f"${table.cell(key, 0)}"

        if table.id == "skills":
            name, level = ref("name"), ref("level")
            # PP_SKILL_MAX, PP_SKILL_BELOW_ZERO
            _red(writer, ws, first, table.col("level"), last,
                 f'AND({name}<>"",ISNUMBER({level}),OR({level}>rules.skill.max,{level}<rules.skill.start))')
            # PP_SKILL_UNKNOWN under unknown_skills=reject: no list has the name
            _red(writer, ws, first, table.col("name"), last,
                 f'AND({name}<>"",{ref("label")}="",pp.options.unknown_skills="reject")')
            for slot in range(self.slots(table)):
                sname, slevel = ref(f"{_SLOTS}.{slot}.name"), ref(f"{_SLOTS}.{slot}.level")
                # PP_SPECIALIZATION_MAX (only where the engine reaches the slot)
                _red(writer, ws, first, table.col(f"{_SLOTS}.{slot}.level"), last,
                     f'AND({name}<>"",{sname}<>"",{f.level_ok(level)},ISNUMBER({slevel}),'
                     f'{slevel}>rules.specialization.max)')
        elif table.id in ("weapons", "alt_speeds"):
            t = tables()
            described = t.weapon_fields if table.id == "weapons" else [t.machine_field("speed")]
            fields = {x.id: x for x in described}
            for col in table.columns:
                spec = fields.get(col.key)
                if spec is not None and spec.minimum is not None and not col.computed:
                    # PP_MACHINE_MINIMUM
                    _red(writer, ws, first, table.col(col.key), last,
                         f'AND(ISNUMBER({ref(col.key)}),{ref(col.key)}<{spec.minimum})')

    def finish(self, writer, ws) -> None:
        f = PpFormulas(self.layout)
        # PP_COMBAT_BOOST_BELOW_START
        r, c = parse_a1(next(x.cell for x in self.layout.fields if x.pointer == "/combat_boost"))
        cb = a1(r, c, True)
        _red(writer, ws, r, c, r, f"AND(ISNUMBER({cb}),{cb}<rules.combat_boost.start)")
        # PP_OVER_BUDGET, PP_TOTAL_MISMATCH: on the total, as the up sheet does
        total = f.computed_cell("pp.totals.computed").split("!")[1]
        formula = f.computed_cell("pp.totals.formula").split("!")[1]
        budget = f.computed_cell("pp.totals.budget").split("!")[1]
        r, c = parse_a1(total)
        _red(writer, ws, r, c, r, f'OR({total}<>{formula},AND({budget}<>"",MAX({total},{formula})>{budget}))')
        # PP_EVASION_MODIFIER_MISMATCH (a warning): a typed 回避修正 figure other than its sum
        for pid, _, _ in tables().machine_field("evasion_modifier").parts:
            fld = next(x for x in self.layout.fields if x.pointer == f"/machine/evasion_modifier/{pid}")
            mws = writer.wb.get_worksheet_by_name(fld.sheet or self.layout.input_sheet)
            r, c = parse_a1(fld.cell)
            typed = a1(r, c, True)
            sum_ = f.computed_cell(f"pp.derived.machine.evasion_modifier.{pid}").split("!")[1]
            _red(writer, mws, r, c, r, f'AND({is_whole(typed)},{sum_}<>"",{typed}<>{sum_})')
        # PP_MACHINE_MINIMUM on the machine block (its own sheet)
        for spec in tables().machine_fields:
            shown = next((x for x in self.layout.fields if x.pointer == f"/machine/{spec.id}"), None)
            if shown is None or spec.minimum is None:
                continue
            mws = writer.wb.get_worksheet_by_name(shown.sheet or self.layout.input_sheet)
            r, c = parse_a1(shown.cell)
            ref = a1(r, c, True)
            _red(writer, mws, r, c, r, f"AND(ISNUMBER({ref}),{ref}<{spec.minimum})")

    @staticmethod
    def slots(table: Table) -> int:
        return len([c for c in table.columns if c.key.startswith(f"{_SLOTS}.") and c.key.endswith(".name")])

    # --- what the sheet cannot hold -------------------------------------------------------------
    def check_capacity(self, doc) -> None:
        table = self.layout.table("skills")
        n = self.slots(table)
        for i, s in enumerate(rows_of(doc, table)):
            specs = s.get(_SLOTS) if isinstance(s, Mapping) else None
            if isinstance(specs, list) and len(specs) > n:
                raise OutputError(f"{table.label} {i + 1}: the sheet holds {n} specializations per "
                                  f"skill, the document has {len(specs)} (/skills/{i}/{_SLOTS})")

    def read_context(self, rd) -> dict[str, Any]:
        skills = read_context_skills(rd)
        return {"skills": skills} if skills else {}


def _red(writer, ws, first_row: int, col: int, last_row: int, criteria: str) -> None:
    ws.conditional_format(first_row, col, last_row, col, {"type": "formula", "format": writer.fmt["bad"],
                                                          "criteria": "=" + criteria})


class _Cached:
    """The engine's value of every computed cell (what a spreadsheet shows after recalculating)."""

    def __init__(self, layout: Layout, doc: Mapping[str, Any], pricing: Evaluation, known: SkillList) -> None:
        self.layout = layout
        self.doc = doc
        self.p = pricing
        self.known = known
        self.lines = {line.pointer: line.cost for line in pricing.lines}

    def _derived(self, key: str) -> Any:
        value = self.p.value(key)
        return "" if value is None else value

    def _sum(self, test) -> int:
        return sum(cost for ptr, cost in self.lines.items() if test(ptr.split("/")))

    def attribute(self, aid: str, what: str) -> Any:
        if what == "cost":
            return self.lines.get(f"/attributes/{aid}", 0)
        return self._derived(f"/derived/attributes/{aid}/{what}")

    def scalar(self, name: str) -> Any:
        p = self.p
        values = {
            "total": lambda: p.total,
            "remainder": lambda: "" if p.remainder is None else p.remainder,
            "budget": lambda: "" if p.budget is None else p.budget,
            "attributes_cost": lambda: self._sum(lambda s: s[1] == "attributes"),
            "skills_cost": lambda: self._sum(lambda s: s[1] == "skills" and len(s) == 4),
            "specializations_cost": lambda: self._sum(lambda s: s[1] == "skills" and len(s) > 4),
            "combat_boost_cost": lambda: self.lines.get("/combat_boost", 0),
            "feats_cost": lambda: self._sum(lambda s: s[1] == "feats"),
            "initiative": lambda: self._derived("/derived/initiative"),
            "unit_initiative": lambda: self._derived("/derived/unit_initiative"),
            "explosion_penetration": lambda: self._derived("/derived/machine/explosion_penetration"),
        }
        if name.startswith("evasion_sum:"):
            return self._derived(f"/derived/machine/evasion_modifier/{name.split(':')[1]}")
        return values[name]()

    def typed_name(self, place: str, i: int) -> Any:
        """The name the ``i``-th 技能 row holds (``PpFormulas.keys``), None if blank."""
        rows = rows_of(self.doc, self.layout.table(place))
        row = rows[i] if i < len(rows) else None
        return row.get("name") if isinstance(row, Mapping) else None

    def row(self, table: Table, i: int, key: str) -> Any:
        row = rows_of(self.doc, table)[i]
        row = row if isinstance(row, Mapping) else {}
        if table.id == "skills":
            return self._skill(i, row, key)
        if table.id == "feats":
            return self.lines.get(f"/feats/{i}", "")
        if table.id == "alt_speeds":
            return self._derived(f"/derived/machine/alt_speeds/{i}/unit_initiative")
        if table.id == "weapons":
            what = {"gauges": "gauges", "effective_evasion": "evasion_target"}[key]
            return self._derived(f"/derived/machine/weapons/{i}/{what}")
        raise KeyError((table.id, key))

    def _skill(self, i: int, row: Mapping[str, Any], key: str) -> Any:
        if key.startswith(f"{_SLOTS}."):
            slot = int(key.split(".")[1])
            specs = row.get(_SLOTS)
            spec = specs[slot] if isinstance(specs, list) and slot < len(specs) else None
            if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
                return ""
            return self.lines.get(f"/skills/{i}/{_SLOTS}/{slot}/level", 0)
        name = row.get("name")
        if not isinstance(name, str):
            return ""
        if key.startswith("counted."):
            return self._counted_level(row, name, key.split(".", 1)[1])
        if key == "label":
            d = self.known.resolve(name)
            return d.label if d else ""
        if key == "cost":
            return self.lines.get(f"/skills/{i}/level", 0)
        return self._derived(f"/derived/skills/{i}/{key}")

    def _counted_level(self, row: Mapping[str, Any], name: str, skill_id: str) -> Any:
        """The level the row gives ``skill_id`` as the engine reads it (a whole level ≥ the
        start, blank the start), blank when the row names another skill or its level is unread."""
        d = self.known.resolve(name)
        if d is None or d.id != skill_id:
            return ""
        start = tables().skill_ladder.start
        level = as_int(row.get("level", start)) if row.get("level") not in (None, "") else start
        return level if level is not None and level >= start else ""


SHEET = PpSheet()
