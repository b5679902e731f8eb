"""Writing the `up` workbook: the empty template, or the template filled with a document.

XlsxWriter writes each formula with its cached result (computed by the engine), so any reader —
pandas, python-calamine, a file preview — sees the right totals without recalculating.
Text beginning with = + - @ is written as text, never as a formula.
"""
from __future__ import annotations

import datetime as dt
import io
import json
from typing import Any, Mapping

from ..errors import OutputError
from ..rules.options import resolve_options
from ..rules.up.engine import _variant_changes, default_terrain, price_unit, price_weapon
from ..rules.pricing import Pricing
from ..rules.up.tables import STAT_IDS, TERRAINS, tables
from .layout import Layout, Table, a1, col_index, defined_name, load_layout, parse_a1
from .up_formulas import UpFormulas
from .up_rules_sheet import FALSE, TRUE, label_of, up_lists, write_rules_sheet

FIXED_DATE = dt.datetime(2026, 1, 1)  # keeps template bytes stable


def _get(obj: Any, path: str) -> Any:
    """obj['a']['b'] for 'a.b'; list indices as digits; None where absent."""
    for part in path.split("."):
        if isinstance(obj, Mapping):
            obj = obj.get(part)
        elif isinstance(obj, list) and part.isdigit():
            obj = obj[int(part)] if int(part) < len(obj) else None
        else:
            return None
    return obj


def build_workbook(doc: Mapping[str, Any] | None, options: Mapping[str, str] | None = None) -> bytes:
    """The workbook as bytes: the template when ``doc`` is None, else the filled sheet."""
    import xlsxwriter

    layout = load_layout("up")
    opts = resolve_options("up", options)
    _check_capacity(doc, layout)
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False,
                                   "strings_to_numbers": False, "strings_to_urls": False})
    wb.set_properties({"title": layout.title, "author": "mechasheet", "created": FIXED_DATE,
                       "comments": f"mechasheet template {layout.template}"})
    wb.set_custom_property("mechasheet.template", layout.template)
    fmt = {
        "h": wb.add_format({"bold": True, "bg_color": "#DDE3EA", "border": 1}),
        "title": wb.add_format({"bold": True, "font_size": 14}),
        "label": wb.add_format({"bold": True}),
        "input": wb.add_format({"locked": False, "bg_color": "#FFF9DB", "border": 1}),
        "calc": wb.add_format({"locked": True, "bg_color": "#EEEEEE", "border": 1}),
        "bad": wb.add_format({"bg_color": "#FFC7CE", "font_color": "#9C0006"}),
    }
    ws_in = wb.add_worksheet(layout.input_sheet)
    sheets = {layout.input_sheet: ws_in}
    for tb in layout.tables:
        if tb.sheet not in sheets:
            sheets[tb.sheet] = wb.add_worksheet(tb.sheet)
    ws_rules = wb.add_worksheet(layout.rules_sheet)
    ws_data = wb.add_worksheet(layout.data_sheet)
    ws_data.hide()
    write_rules_sheet(wb, ws_rules, layout.rules_sheet, opts, fmt)

    pricing = price_unit(doc, opts) if doc else Pricing()
    cached = _Cached(doc, pricing, opts)
    f = UpFormulas(layout)
    writer = _SheetWriter(wb, layout, fmt)

    ws_in.write(0, 1, layout.title, fmt["title"])
    ws_in.set_column(1, 1, 20)
    ws_in.set_column(2, 8, 11)
    for fld in layout.fields:
        writer.field(ws_in, fld, _get(doc, fld.pointer.strip("/").replace("/", ".")) if doc else None)

    # 機体性能
    sb = layout.raw["stat_block"]
    hr = sb["header_row"] - 1
    for key, head in (("label_col", "機体性能"), ("value_col", "最終値"), ("base_col", "基本値"),
                      ("raise_col", "上昇"), ("step_col", "刻み"), ("max_col", "上限"), ("cost_col", "ＵＰ")):
        ws_in.write(hr, col_index(sb[key]), head, fmt["h"])
    t = tables()
    for sid in STAT_IDS:
        row = f.stat_row(sid) - 1
        ws_in.write(row, col_index(sb["label_col"]), t.stat_labels[sid], fmt["label"])
        value = _get(doc, f"stats.{sid}") if doc else None
        writer.input(ws_in, row, col_index(sb["value_col"]), value, "int", f"up.stats.{sid}",
                     pointer=f"/stats/{sid}")
        for key, formula, name in (("base_col", f.stat_base(sid), "base"), ("raise_col", f.stat_raise(sid), "raise"),
                                   ("step_col", f.stat_step(sid), "step"), ("max_col", f.stat_max(sid), "max"),
                                   ("cost_col", f.stat_cost(sid), "cost")):
            writer.computed(ws_in, row, col_index(sb[key]), formula, cached.stat(sid, name),
                            f"up.stats.{sid}.{name}")
        # Red when the raise breaks the step or the maximum (the engine's UP_STAT_STEP / UP_STAT_MAX).
        v, rs, st, mx = (f"{sb[k]}{row + 1}" for k in ("value_col", "raise_col", "step_col", "max_col"))
        ws_in.conditional_format(row, col_index(sb["value_col"]), row, col_index(sb["value_col"]), {
            "type": "formula", "format": fmt["bad"],
            "criteria": f'=AND(${v}<>"",${rs}<>"",OR(MOD(${rs},${st})<>0,AND(${mx}<>"",${v}>${mx})))'})

    # 移動タイプ・地形適応
    tb = layout.raw["terrain_block"]
    hr = tb["header_row"] - 1
    for key, head in (("label_col", "地形"), ("movement_col", "移動タイプ"), ("grade_col", "地形適応"),
                      ("default_col", "基本適応"), ("cost_col", "地形適応ＵＰ")):
        ws_in.write(hr, col_index(tb[key]), head, fmt["h"])
    movement = (doc.get("movement") or []) if doc else []
    terrain = (doc.get("terrain") or {}) if doc else {}
    base = default_terrain(movement if isinstance(movement, list) else [], t)
    for key in TERRAINS:
        row = f.terrain_row(key) - 1
        ws_in.write(row, col_index(tb["label_col"]), t.movement_types[key], fmt["label"])
        writer.input(ws_in, row, col_index(tb["movement_col"]), key in movement if doc else None, "bool",
                     f"up.movement.{key}", pointer="/movement", keep_false=False)
        writer.input(ws_in, row, col_index(tb["grade_col"]), terrain.get(key), "enum",
                     f"up.terrain.{key}", list_id="grades", pointer=f"/terrain/{key}")
        writer.computed(ws_in, row, col_index(tb["default_col"]), f.terrain_default(key), base[key],
                        f"up.terrain.{key}.default")
        writer.computed(ws_in, row, col_index(tb["cost_col"]), f.terrain_cost(key),
                        cached.line(f"/terrain/{key}"), f"up.terrain.{key}.cost")
    r, c = parse_a1(tb["movement_cost_cell"])
    ws_in.write(r, c - 1, "移動タイプＵＰ", fmt["label"])
    writer.computed(ws_in, r, c, f.movement_cost(), cached.line("/movement"), "up.movement.cost")

    # Repeating groups.
    formula_of = {"boost_cost": f.boost_cost, "weapon_full_cost": f.weapon_full_cost,
                  "weapon_cost": f.weapon_cost, "variant_changes": f.variant_changes,
                  "effective_damage": f.effective_damage,
                  "effective_accuracy": f.effective_accuracy, "ability_cost": f.ability_cost}
    for table in layout.tables:
        ws = sheets[table.sheet]
        if table.sheet != layout.input_sheet:
            ws.write(0, 0, f"{layout.title}: {table.label}", fmt["title"])
        ws.write(table.header_row - 2, col_index(table.first_col), table.label, fmt["label"])
        rows = _rows(doc, table)
        writer.table(ws, table, rows, formula_of, cached)

    # Totals and the other computed scalars.
    computed_formula = {"total": f.total, "remainder": f.remainder, "base_up": f.base_up_cell,
                        "weapon_cap": f.weapon_cap, "transformation": f.transformation}
    for comp in layout.computed:
        r, c = parse_a1(comp["cell"])
        ws_in.write(r, c - 1, comp["label"], fmt["label"])
        value = cached.scalar(comp["formula"])
        if comp["name"] == "up.totals.computed" and doc and doc.get("declared_total") not in (None, value):
            # A document whose written total differs keeps it, as a hand-typed total would be.
            writer.input(ws_in, r, c, doc["declared_total"], "int", comp["name"], pointer="/declared_total")
        else:
            writer.computed(ws_in, r, c, computed_formula[comp["formula"]](), value, comp["name"])
    # Red total: over budget, or a typed total that differs from the formula's (UP_OVER_BUDGET,
    # UP_TOTAL_MISMATCH).
    total_cell = next(x["cell"] for x in layout.computed if x["name"] == "up.totals.computed")
    formula_cell = next(x["cell"] for x in layout.computed if x["name"] == "up.totals.formula")
    budget = "$" + next(x.cell for x in layout.fields if x.pointer == "/budget")[0] + "$" + \
        next(x.cell for x in layout.fields if x.pointer == "/budget")[1:]
    r, c = parse_a1(total_cell)
    ws_in.conditional_format(r, c, r, c, {"type": "formula", "format": fmt["bad"], "criteria":
                             f'=OR({total_cell}<>{formula_cell},AND({budget}<>"",'
                             f'MAX({total_cell},{formula_cell})>{budget}))'})

    # Identity and content the layout has no place for.
    ws_data.write_string(0, 0, "template")
    ws_data.write_string(0, 1, layout.template)
    wb.define_name("mechasheet.template", f"='{layout.data_sheet}'!$B$1")
    ws_data.write_string(1, 0, "extra")
    extra = _unmapped(doc, layout) if doc else {}
    ws_data.write_string(1, 1, json.dumps(extra, ensure_ascii=False, sort_keys=True) if extra else "")
    wb.define_name("up.extra", f"='{layout.data_sheet}'!$B$2")

    for ws in sheets.values():
        ws.protect("", {"format_columns": True, "format_rows": True, "insert_rows": True,
                        "delete_rows": True, "sort": True, "autofilter": True})
    wb.close()
    return buf.getvalue()


def _check_capacity(doc, layout: Layout) -> None:
    """A document with more rows than the sheet holds is an error, never a silent cut."""
    if not doc:
        return
    for table in layout.tables:
        rows = _rows(doc, table)
        if len(rows) > table.rows:
            raise OutputError(f"{table.label}: the document has {len(rows)} rows, the sheet holds "
                              f"{table.rows} ({table.pointer})")
    for i, ab in enumerate(doc.get("abilities") or []):
        if len((ab or {}).get("bonuses") or []) > 2:
            raise OutputError(f"特殊能力 {i + 1}: the sheet holds 2 stat bonus lines, the document has "
                              f"{len(ab['bonuses'])} (/abilities/{i}/bonuses)")


def _rows(doc, table: Table) -> list[Any]:
    if not doc:
        return []
    value = _get(doc, table.pointer.strip("/").replace("/", "."))
    return value if isinstance(value, list) else []


_TOP_KEYS = {"system", "format", "name", "pilot", "budget", "size", "stats", "movement", "terrain",
             "morale_boosts", "weapons", "abilities", "transformation", "carrier", "declared_total",
             "notes", "extra"}


def _unmapped(doc, layout: Layout) -> dict[str, Any]:
    """What the sheet has no cell for: the document's extra plus unknown top-level keys."""
    out = dict(doc.get("extra") or {})
    for key, value in doc.items():
        if key not in _TOP_KEYS:
            out.setdefault("_unmapped", {})[key] = value
    # Effects the sheet has no column for are kept here, by weapon row, and restored on reading.
    columns = {c.key.split(".")[1] for c in layout.table("weapons").columns if c.key.startswith("effects.")}
    for i, w in enumerate(doc.get("weapons") or []):
        extra = [e for e in (w.get("effects") or []) if isinstance(w, Mapping)
                 and (e.get("id") if isinstance(e, Mapping) else e) not in columns]
        if extra:
            out.setdefault("_unmapped_effects", {})[str(i)] = extra
    return out


class _Cached:
    """The engine's values for every computed cell (what Excel would show after recalculating)."""

    def __init__(self, doc, pricing: Pricing, opts) -> None:
        self.doc = doc
        self.p = pricing
        self.opts = opts
        self.lines = {line.pointer: line.cost for line in pricing.lines}
        t = tables()
        self.size = t.sizes.get(doc.get("size")) if doc else None

    def line(self, pointer: str) -> int:
        return self.lines.get(pointer, 0)

    def stat(self, sid: str, what: str) -> Any:
        if self.size is None:
            return 0 if what == "cost" else ""
        rule = self.size.stats[sid]
        value = _get(self.doc, f"stats.{sid}")
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
        if name == "remainder":
            return "" if not isinstance(budget, int) else budget - self.p.total
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
        if key == "effective_damage":
            return self.p.derived.get(where + "/effective_damage", "")
        if key == "effective_accuracy":
            return self.p.derived.get(where + "/effective_accuracy", "")
        if key == "variant_changes":
            weapons = self.doc["weapons"]
            base = weapons[i].get("variant_of")
            names = [w.get("name") for w in weapons]
            if not base or base not in names or names.index(base) == i:
                return ""
            return _variant_changes(weapons[i], weapons[names.index(base)], tables())
        if key == "full_cost":
            w = self.doc["weapons"][i]
            probe = Pricing()
            wp = price_weapon(w, self.doc, tables(), self.opts, where, probe)
            return wp.cost(tables().raw["effects_rules"]["percent_floor"])[0] if wp.ok else ""
        raise KeyError(key)


class _SheetWriter:
    """Writes inputs (unlocked, validated) and computed cells (locked, with cached results)."""

    def __init__(self, wb, layout: Layout, fmt) -> None:
        self.wb = wb
        self.layout = layout
        self.fmt = fmt
        self.lists = up_lists()

    def field(self, ws, fld, value) -> None:
        r, c = parse_a1(fld.cell)
        ws.write(r, c - 1, fld.label, self.fmt["label"])
        self.input(ws, r, c, value, fld.kind, defined_name(fld.pointer, self.layout.system),
                   list_id=fld.list, lo=fld.min, hi=fld.max, pointer=fld.pointer)

    def input(self, ws, r: int, c: int, value: Any, kind: str, name: str | None = None, *,
              list_id: str | None = None, lo: int | None = None, hi: int | None = None,
              pointer: str = "", keep_false: bool = True, in_table: bool = False) -> None:
        fmt = self.fmt["input"]
        if kind == "bool":
            if value is True:
                ws.write_string(r, c, TRUE, fmt)
            elif value is False and keep_false:
                ws.write_string(r, c, FALSE, fmt)
            else:
                ws.write_blank(r, c, None, fmt)
            ws.data_validation(r, c, r, c, {"validate": "list", "source": [TRUE, FALSE]})
        elif kind in ("enum", "enum_int"):
            labels = dict(self.lists[list_id]) if list_id else {}
            if value is None:
                ws.write_blank(r, c, None, fmt)
            elif value in labels:
                shown = labels[value]
                if kind == "enum_int":
                    ws.write_number(r, c, int(shown), fmt)
                else:
                    ws.write_string(r, c, shown, fmt)
            else:  # not in the list: kept as typed, so the check can name it
                self._raw(ws, r, c, value, fmt)
            ws.data_validation(r, c, r, c, {"validate": "list", "source": f"=list.{list_id}",
                                            "error_title": "選択肢にありません",
                                            "error_message": "一覧から選んでください。"})
            if not in_table:
                self.not_in_list(ws, r, c, r, list_id)
        elif kind == "int":
            self._raw(ws, r, c, value, fmt)
            rule = {"validate": "integer", "criteria": "between",
                    "minimum": -10 ** 6 if lo is None else lo, "maximum": 10 ** 7 if hi is None else hi,
                    "error_title": "整数を入力してください",
                    "error_message": f"{'' if lo is None else lo}〜{'' if hi is None else hi} の整数を入力します。"}
            ws.data_validation(r, c, r, c, rule)
        else:
            self._raw(ws, r, c, value, fmt)
        if name:
            self.wb.define_name(name, f"='{ws.name}'!{a1(r, c, True)}")

    def not_in_list(self, ws, first_row: int, col: int, last_row: int, list_id: str) -> None:
        """Red where a cell holds a value its dropdown does not offer (pasted or legacy)."""
        ref = a1(first_row, col)
        ws.conditional_format(first_row, col, last_row, col, {
            "type": "formula", "format": self.fmt["bad"],
            "criteria": f'=AND({ref}<>"",ISNA(MATCH({ref},list.{list_id},0)))'})

    def _raw(self, ws, r: int, c: int, value: Any, fmt) -> None:
        if value is None:
            ws.write_blank(r, c, None, fmt)
        elif isinstance(value, bool):
            ws.write_string(r, c, TRUE if value else FALSE, fmt)
        elif isinstance(value, (int, float)):
            ws.write_number(r, c, value, fmt)
        elif isinstance(value, str):
            ws.write_string(r, c, value, fmt)  # never a formula, whatever it starts with
        else:
            ws.write_string(r, c, json.dumps(value, ensure_ascii=False), fmt)

    def computed(self, ws, r: int, c: int, formula: str, value: Any, name: str | None = None) -> None:
        ws.write_formula(r, c, formula, self.fmt["calc"], "" if value is None else value)
        if name:
            self.wb.define_name(name, f"='{ws.name}'!{a1(r, c, True)}")

    def table(self, ws, table: Table, rows: list[Any], formula_of, cached: _Cached) -> None:
        first_col = col_index(table.first_col)
        hr = table.header_row - 1
        last_col = first_col + len(table.columns) - 1
        ws.add_table(hr, first_col, hr + table.rows, last_col, {
            "name": f"{self.layout.system}_{table.id}", "style": "Table Style Light 9",
            "autofilter": False,
            "columns": [{"header": col.header} for col in table.columns]})
        for j, col in enumerate(table.columns):
            ws.set_column(first_col + j, first_col + j, col.width or max(6, len(col.header) * 2 + 1))
        for i in range(table.rows):
            row_doc = rows[i] if i < len(rows) else None
            r = hr + 1 + i
            for j, col in enumerate(table.columns):
                c = first_col + j
                if col.computed:
                    value = cached.row(table, i, col.key) if row_doc is not None else ""
                    ws.write_formula(r, c, formula_of[col.computed](table, i), self.fmt["calc"], value)
                    continue
                value = _cell_value(row_doc, col) if row_doc is not None else None
                kind = "int" if col.kind == "effect_level" else col.kind
                kind = "bool" if kind in ("effect_flag", "effect_bool") else kind
                kind = "text" if kind in ("effect_text", "stat_list") else kind
                self.input(ws, r, c, value, kind, list_id=col.list, lo=col.min, hi=col.max,
                           in_table=True)
        for j, col in enumerate(table.columns):
            self.wb.define_name(table.column_name(col.key),
                                f"={table.column_range(col.key)}")
            if col.kind in ("enum", "enum_int") and not col.computed:
                self.not_in_list(ws, hr + 1, first_col + j, hr + table.rows, col.list)
        if table.id == "weapons":
            # Red: a 使用回数 amount the table does not have (UP_USAGE_AMOUNT).
            ut, ua = a1(hr + 1, table.col("usage.type")), a1(hr + 1, table.col("usage.amount"))
            en = label_of("usage_types", "en")
            ws.conditional_format(hr + 1, table.col("usage.amount"), hr + table.rows, table.col("usage.amount"), {
                "type": "formula", "format": self.fmt["bad"],
                "criteria": f'=AND({ua}<>"",IF({ut}="{en}",ISNA(MATCH({ua},rules.usage.1,0)),'
                            f'ISNA(MATCH({ua},rules.usage.2,0))))'})
        if table.id == "weapons":
            cost, cap = table.col("cost"), None
            budget = next(x.cell for x in self.layout.fields if x.pointer == "/budget")
            cc = a1(hr + 1, cost)
            ws.conditional_format(hr + 1, cost, hr + table.rows, cost, {
                "type": "formula", "format": self.fmt["bad"],
                "criteria": f"=AND({cc}<>\"\",'{self.layout.input_sheet}'!${budget[0]}${budget[1:]}<>\"\","
                            f"{cc}*{tables().raw['weapon_cap']['budget_divisor']}>'{self.layout.input_sheet}'!${budget[0]}${budget[1:]})"})


def _cell_value(row: Mapping[str, Any], col) -> Any:
    """The value a table cell shows for one row object."""
    key = col.key
    if col.kind.startswith("effect_"):
        _, eid, *rest = key.split(".")
        effects = {(e.get("id") if isinstance(e, Mapping) else e): e for e in row.get("effects") or []}
        if eid not in effects:
            return None
        eff = effects[eid] if isinstance(effects[eid], Mapping) else {"id": eid}
        if col.kind == "effect_flag":
            return True
        if col.kind == "effect_level":
            return eff.get("level", 1)
        return eff.get(rest[0])
    if col.kind == "stat_list":
        stats = _get(row, key)
        if not stats:
            return None
        labels = dict(up_lists()["pilot_stats"])
        return "・".join(labels.get(s, str(s)) for s in stats)
    return _get(row, key)
