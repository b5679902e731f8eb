"""The `up` workbook: its lists, rules sheet, formulas and the engine's values for each cell."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...core.errors import OutputError
from ...core.evaluation import Evaluation
from ...core.pointers import get, pointer
from ...rules.up.engine import price_unit
from ...rules.up.stats import default_terrain
from ...rules.up.tables import STAT_IDS, TERRAINS, tables
from ..layout import Table, a1, col_index, parse_a1, sheet_cell
from ..system_sheet import SystemSheet
from .formulas import UpFormulas
from .rules_sheet import label_of, up_lists, write_rules_sheet

_ROW_FORMULAS = ("boost_cost", "weapon_full_cost", "weapon_cost", "variant_changes",
                 "effective_damage", "effective_accuracy", "ability_cost")
_SCALAR_FORMULAS = {"total": "total", "remainder": "remainder", "base_up": "base_up_cell",
                    "weapon_cap": "weapon_cap", "transformation": "transformation"}


class UpSheet(SystemSheet):
    system = "up"

    def lists(self) -> dict[str, list[tuple[Any, str]]]:
        return up_lists()

    def write_rules(self, wb, ws, options, fmt) -> None:
        write_rules_sheet(wb, ws, self.layout.rules_sheet, dict(options), fmt)

    def formula(self, name: str, table: Table | None = None, index: int | None = None) -> str:
        f = UpFormulas(self.layout)
        if name in _ROW_FORMULAS:
            return getattr(f, name)(table, index)
        return getattr(f, _SCALAR_FORMULAS[name])()

    def cached(self, doc, options, context) -> "_Cached":
        return _Cached(doc, price_unit(doc, options) if doc else Evaluation(), options)

    def write_blocks(self, writer, ws, doc, cached) -> None:
        """機体性能 (final values typed, the rest computed) and 移動タイプ・地形適応."""
        f = UpFormulas(self.layout)
        t = tables()
        # 機体性能
        sb = self.layout.raw["stat_block"]
        hr = sb["header_row"] - 1
        for key, head in (("label_col", "機体性能"), ("value_col", "最終値"), ("base_col", "基本値"),
                          ("raise_col", "上昇"), ("step_col", "刻み"), ("max_col", "上限"), ("cost_col", "ＵＰ")):
            ws.write(hr, col_index(sb[key]), head, writer.fmt["h"])
        t = tables()
        for sid in STAT_IDS:
            row = f.stat_row(sid) - 1
            ws.write(row, col_index(sb["label_col"]), t.stat_labels[sid], writer.fmt["label"])
            value = get(doc, pointer("stats", sid)) if doc else None
            writer.input(ws, row, col_index(sb["value_col"]), value, "int", f"up.stats.{sid}",
                         pointer=f"/stats/{sid}")
            for key, formula, name in (("base_col", f.stat_base(sid), "base"), ("raise_col", f.stat_raise(sid), "raise"),
                                       ("step_col", f.stat_step(sid), "step"), ("max_col", f.stat_max(sid), "max"),
                                       ("cost_col", f.stat_cost(sid), "cost")):
                writer.computed(ws, row, col_index(sb[key]), formula, cached.stat(sid, name),
                                f"up.stats.{sid}.{name}")
            # Red when the raise breaks the step or the maximum (the engine's UP_STAT_STEP / UP_STAT_MAX).
            v, rs, st, mx = (f"{sb[k]}{row + 1}" for k in ("value_col", "raise_col", "step_col", "max_col"))
            ws.conditional_format(row, col_index(sb["value_col"]), row, col_index(sb["value_col"]), {
                "type": "formula", "format": writer.fmt["bad"],
                "criteria": f'=AND(${v}<>"",${rs}<>"",OR(MOD(${rs},${st})<>0,AND(${mx}<>"",${v}>${mx})))'})

        # 移動タイプ・地形適応
        tb = self.layout.raw["terrain_block"]
        hr = tb["header_row"] - 1
        for key, head in (("label_col", "地形"), ("movement_col", "移動タイプ"), ("grade_col", "地形適応"),
                          ("default_col", "基本適応"), ("cost_col", "地形適応ＵＰ")):
            ws.write(hr, col_index(tb[key]), head, writer.fmt["h"])
        movement = (doc.get("movement") or []) if doc else []
        terrain = (doc.get("terrain") or {}) if doc else {}
        base = default_terrain(movement if isinstance(movement, list) else [], t)
        for key in TERRAINS:
            row = f.terrain_row(key) - 1
            ws.write(row, col_index(tb["label_col"]), t.movement_types[key], writer.fmt["label"])
            writer.input(ws, row, col_index(tb["movement_col"]), key in movement if doc else None, "bool",
                         f"up.movement.{key}", pointer="/movement", keep_false=False)
            writer.input(ws, row, col_index(tb["grade_col"]), terrain.get(key), "enum",
                         f"up.terrain.{key}", list_id="grades", pointer=f"/terrain/{key}")
            writer.computed(ws, row, col_index(tb["default_col"]), f.terrain_default(key), base[key],
                            f"up.terrain.{key}.default")
            writer.computed(ws, row, col_index(tb["cost_col"]), f.terrain_cost(key),
                            cached.line(f"/terrain/{key}"), f"up.terrain.{key}.cost")
        r, c = parse_a1(tb["movement_cost_cell"])
        ws.write(r, c - 1, "移動タイプＵＰ", writer.fmt["label"])
        writer.computed(ws, r, c, f.movement_cost(), cached.line("/movement"), "up.movement.cost")


    def decorate_table(self, writer, ws, table: Table) -> None:
        if table.id != "weapons":
            return
        hr = table.header_row - 1
        # Red: a 使用回数 amount the table does not have (UP_USAGE_AMOUNT).
        ut, ua = a1(hr + 1, table.col("usage.type")), a1(hr + 1, table.col("usage.amount"))
        en = label_of("usage_types", "en")
        ws.conditional_format(hr + 1, table.col("usage.amount"), hr + table.rows, table.col("usage.amount"), {
            "type": "formula", "format": writer.fmt["bad"],
            "criteria": f'=AND({ua}<>"",IF({ut}="{en}",ISNA(MATCH({ua},rules.usage.1,0)),'
                        f'ISNA(MATCH({ua},rules.usage.2,0))))'})
        # Red: a second variant of one base weapon (UP_VARIANT_SECOND, an error under
        # variants_per_base=one): an earlier row names the same base, which is a weapon here and
        # not itself a variant.
        vc = table.col("variant_of")
        vo, first_vo = a1(hr + 1, vc), a1(hr + 1, vc, True)
        names, bases = table.column_name("name"), table.column_name("variant_of")
        base = f"MATCH({vo},{names},0)"
        ws.conditional_format(hr + 1, vc, hr + table.rows, vc, {
            "type": "formula", "format": writer.fmt["bad"],
            "criteria": f'=AND({vo}<>"",up.options.variants_per_base="one",COUNTIF({first_vo}:{vo},{vo})>1,'
                        f'NOT(ISNA({base})),IFERROR(INDEX({bases},{base})="",FALSE))'})
        # Red: a free B placed on a melee or beam weapon, which has none (UP_TERRAIN_B_NOT_RANGED).
        tb = table.col("terrain_b")
        kind, attr = a1(hr + 1, table.col("kind")), a1(hr + 1, table.col("attribute"))
        ws.conditional_format(hr + 1, tb, hr + table.rows, tb, {
            "type": "formula", "format": writer.fmt["bad"],
            "criteria": f'=AND({a1(hr + 1, tb)}<>"",OR({kind}="{label_of("weapon_kinds", "melee")}",'
                        f'{attr}="{label_of("attributes", "beam")}"))'})
        # Red: a weapon over 1/5 of the budget or below zero (UP_WEAPON_OVER_CAP, UP_WEAPON_NEGATIVE).
        cost = table.col("cost")
        budget = self._abs("/budget")
        cc = a1(hr + 1, cost)
        div = tables().raw["weapon_cap"]["budget_divisor"]
        ws.conditional_format(hr + 1, cost, hr + table.rows, cost, {
            "type": "formula", "format": writer.fmt["bad"],
            "criteria": f"=AND({cc}<>\"\",OR({cc}<0,AND({budget}<>\"\",{cc}*{div}>{budget})))"})

    def _abs(self, pointer: str) -> str:
        cell = next(x.cell for x in self.layout.fields if x.pointer == pointer)
        r, c = parse_a1(cell)
        return sheet_cell(self.layout.input_sheet, r, c)

    def finish(self, writer, ws) -> None:
        # Red total: over budget, or a typed total that differs from the formula's
        # (UP_OVER_BUDGET, UP_TOTAL_MISMATCH).
        total_cell = next(x["cell"] for x in self.layout.computed if x["name"] == "up.totals.computed")
        formula_cell = next(x["cell"] for x in self.layout.computed if x["name"] == "up.totals.formula")
        budget = self._abs("/budget").split("!")[1]
        r, c = parse_a1(total_cell)
        ws.conditional_format(r, c, r, c, {"type": "formula", "format": writer.fmt["bad"], "criteria":
                              f'=OR({total_cell}<>{formula_cell},AND({budget}<>"",'
                              f'MAX({total_cell},{formula_cell})>{budget}))'})

    def check_capacity(self, doc) -> None:
        for i, ab in enumerate(doc.get("abilities") or []):
            if isinstance(ab, Mapping) and len(ab.get("bonuses") or []) > 2:
                raise OutputError(f"特殊能力 {i + 1}: the sheet holds 2 stat bonus lines, the document has "
                                  f"{len(ab['bonuses'])} (/abilities/{i}/bonuses)")

    def normal(self, doc, read) -> dict[str, Any]:
        """Movement is a set the sheet lists in its table's order, and an effect's level column
        shows 1 where the document gives none: the sheet states both so."""
        out = super().normal(copy.deepcopy(dict(doc)), read)
        order = list(self.layout.raw["terrain_block"]["terrains"])
        if isinstance(out.get("movement"), list):
            out["movement"] = sorted(out["movement"], key=lambda m: order.index(m) if m in order else len(order))
        levelled = {c.key.split(".")[1] for c in self.layout.table("weapons").columns if c.kind == "effect_level"}
        weapons = out.get("weapons")
        for w in weapons if isinstance(weapons, list) else []:
            effects = w.get("effects") if isinstance(w, dict) else None
            for eff in effects if isinstance(effects, list) else []:
                if isinstance(eff, dict) and eff.get("id") in levelled and "level" not in eff:
                    eff["level"] = 1
        return out

    def after_read(self, doc, rd) -> None:
        stats = {}
        for sid in self.layout.raw["stat_block"]["stats"]:
            v = rd.value(f"up.stats.{sid}", "int", f"/stats/{sid}")
            if v is not None:
                stats[sid] = v
        if stats:
            doc["stats"] = stats
        movement, terrain = [], {}
        for key in self.layout.raw["terrain_block"]["terrains"]:
            if rd.value(f"up.movement.{key}", "bool", "/movement"):
                movement.append(key)
            g = rd.value(f"up.terrain.{key}", "enum", f"/terrain/{key}", list_id="grades")
            if g is not None:
                terrain[key] = g
        doc["movement"] = movement
        if terrain:
            doc["terrain"] = terrain
        if "transformation" in doc:
            doc["transformation"].setdefault("forms", [])


class _Cached:
    """The engine's values for every computed cell (what Excel would show after recalculating)."""

    def __init__(self, doc, pricing: Evaluation, opts) -> None:
        self.doc = doc
        self.p = pricing
        self.opts = opts
        self.lines = {line.pointer: line.cost for line in pricing.lines}
        t = tables()
        size = doc.get("size") if doc else None
        self.size = t.sizes.get(size) if isinstance(size, str) else None

    def line(self, pointer: str) -> int:
        return self.lines.get(pointer, 0)

    def stat(self, sid: str, what: str) -> Any:
        if self.size is None:
            return 0 if what == "cost" else ""
        rule = self.size.stats[sid]
        value = get(self.doc, pointer("stats", sid))
        if what == "base":
            return rule.base
        if what == "step":
            return rule.step
        if what == "max":
            return "" if rule.max_raise is None else rule.base + rule.max_raise
        if what == "raise":
            return "" if not isinstance(value, int) else value - rule.base
        return self.line(f"/stats/{sid}")

    def scalar(self, name: str) -> Any:
        budget = self.doc.get("budget") if self.doc else None
        if name == "total":
            return self.p.total
        if name == "remainder":  # 総ＵＰ − the 合計ＵＰ cell, which holds a differing written total
            declared = self.doc.get("declared_total") if self.doc else None
            shown = declared if isinstance(declared, int) and not isinstance(declared, bool) else self.p.total
            return "" if not isinstance(budget, int) else budget - shown
        if name == "base_up":
            return self.size.base_up if self.size else ""
        if name == "weapon_cap":
            if not isinstance(budget, int):
                return ""
            cap = budget / tables().raw["weapon_cap"]["budget_divisor"]
            return int(cap) if cap.is_integer() else cap
        if name == "transformation":
            return self.line("/transformation")
        raise KeyError(name)

    def row(self, table: Table, i: int, key: str) -> Any:
        where = f"{table.pointer}/{i}"
        if key in ("cost",):
            return self.lines.get(where, "")
        if key in ("effective_damage", "effective_accuracy", "variant_changes", "full_cost"):
            return self.p.value(f"{where}/{key}", "")
        raise KeyError(key)




SHEET = UpSheet()
