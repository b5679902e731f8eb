"""The `mailgear` workbook: a pilot and the pilot's mail gear on one sheet, a rules sheet and the
group's catalog sheet, on the one workbook mechanism (``writer.py`` / ``reader.py``).

The engine (``rules/mailgear/engine.py``) gives every derived value the sheet shows; the cached
result of each formula is the engine's. A few helper cells (a name's look-up key, which copy of
an option a row is, the catalog row an item matched) have no engine value: their cached results
are computed here the way the formula computes them, and the LibreOffice test holds them too.

Written values of a document (its ``derived`` objects) never replace a formula, since other
formulas read those cells: one that differs from the engine's is a note on its cell and is kept
(``kept.py``), so that check still compares it; one that agrees reads back as its cell computes
it (``computed_cell`` names the cell).
"""
from __future__ import annotations

import dataclasses
import json
from collections import Counter
from functools import cached_property
from collections.abc import Mapping
from typing import Any

from ...core.coerce import as_mapping
from ...core.errors import OutputError
from ...core.evaluation import Evaluation
from ...core.findings import Finding
from ...core.pointers import get, parse
from ...rules.mailgear.catalog import Catalog, as_catalog
from ...rules.mailgear.engine import price_pilot
from ...rules.mailgear.tables import tables
from ..layout import Field, Layout, Table, col_index, col_letter, defined_name, load_layout, parse_a1
from ..system_sheet import FALSE, TRUE, SystemSheet
from .catalog_sheet import CatalogSheet, further_effect, to_rows
from .formulas import MailgearFormulas, excel_key, number_or_zero
from .rules_sheet import mailgear_lists, skill_names, write_rules_sheet
from .view import (BANDS, EFFECT_COLUMNS, ITEM_EFFECTS, boosts_shown, effect_entries, is_number,
                   item_effect_rows, item_entry, shown, skill_entry)

_WEAPON_DERIVED = ("damage", *(f"hit_{b}" for b in BANDS))


def _scalar(value: Any) -> bool:
    return isinstance(value, str) or is_number(value)


def _as_cell_text(value: Any) -> str:
    """A value as a formula's ``&""`` gives the text of the cell the writer wrote it to."""
    from ..writer import cell_text

    if value is None:
        return ""
    if isinstance(value, bool):
        return TRUE if value else FALSE
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return cell_text(value)
    return cell_text(json.dumps(value, ensure_ascii=False))


class MailgearSheet(SystemSheet):
    system = "mailgear"

    @cached_property
    def layout(self) -> Layout:
        """The TOML layout plus one field per gear stat and one computed cell per derived value,
        labelled from tables.toml."""
        base = load_layout(self.system)
        t = tables()
        sb, db = base.raw["stat_block"], base.raw["derived_block"]
        stats = tuple(Field(f"/gear/stats/{sid}", t.stat_labels[sid], f"{sb['value_col']}{sb['first_row'] + k}",
                            "int") for k, sid in enumerate(t.stat_ids))
        derived = tuple({"name": f"mailgear.derived.{did}", "label": d.label,
                         "cell": f"{db['value_col']}{db['first_row'] + k}", "formula": f"derived.{did}"}
                        for k, (did, d) in enumerate(t.derived.items()))
        return dataclasses.replace(base, fields=base.fields + stats, computed=base.computed + derived)

    @cached_property
    def f(self) -> MailgearFormulas:
        return MailgearFormulas(self.layout)

    @cached_property
    def catalog_sheet(self) -> CatalogSheet:
        return CatalogSheet(self.layout)

    # --- what the mechanism asks ---------------------------------------------------------------
    def lists(self) -> dict[str, list[tuple[Any, str]]]:
        return mailgear_lists()

    def write_rules(self, wb, ws, options, fmt) -> None:
        write_rules_sheet(wb, ws, self.layout.rules_sheet, dict(options), fmt)

    def write_rules_for(self, wb, ws, options, fmt, doc, context) -> None:
        """The rules sheet, then the catalog sheet from ``context["catalog"]`` (empty without),
        its further option effects counted for the pilot's options that take them."""
        self.write_rules(wb, ws, options, fmt)
        cached = self.cached(doc, options, context) if doc else None
        self.catalog_sheet.write(wb, as_catalog(context.get("catalog")), fmt, self.lists(),
                                 cached.catalog_uses() if cached else {},
                                 cached.ladder_amounts() if cached else {})

    def formula(self, name: str, table: Table | None = None, index: int | None = None) -> str:
        return self.f.formula(name, table, index)

    def cached(self, doc, options, context) -> "_Cached":
        return _Cached(self, doc, options, as_catalog(context.get("catalog")))

    def shown(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return shown(doc)

    def check_capacity(self, doc) -> None:
        slots = self.layout.raw["boost_block"]["slots"]
        gear = doc.get("gear")
        boosts = gear.get("boosts") if isinstance(gear, Mapping) else None
        if isinstance(boosts, list) and len(boosts) > slots:
            raise OutputError(f"専用機の強化: the sheet holds {slots} boosts, the document has "
                              f"{len(boosts)} (/gear/boosts)")
        items = doc.get("equipment")
        more = item_effect_rows(items if isinstance(items, list) else [])
        rows = self.layout.table("effects").rows
        if len(more) > rows:
            raise OutputError(f"追加効果: the sheet holds {rows} further skill or stat effects of items, "
                              f"the document has {len(more)} (/equipment)")

    # --- blocks --------------------------------------------------------------------------------
    def write_blocks(self, writer, ws, doc, cached: "_Cached") -> None:
        """The catalog's own word on itself in A1, then 性能, 専用機の強化, 派生値 and スキル効果."""
        t, f, fmt = tables(), self.f, writer.fmt
        about = cached.catalog.raw.get("about") if cached.catalog is not None else None
        if isinstance(about, str) and about:
            # The first cell a reader sees says what the catalog is (e.g. invented sample data).
            ws.write_string(0, 0, about, writer.wb.add_format({"bold": True, "font_color": "#9C0006"}))
        sb = self.layout.raw["stat_block"]
        for key, head in (("label_col", "性能"), ("value_col", "基本値"), ("catalog_col", "カタログ"),
                          ("boost_col", "専用機"), ("option_col", "オプション"), ("final_col", "最終値")):
            ws.write(sb["header_row"] - 1, col_index(sb[key]), head, fmt["h"])
        for sid in t.stat_ids:
            r = f.stat_row(sid) - 1
            for col, formula, name in (("catalog_col", f.stat_catalog(sid), None),
                                       ("boost_col", f.stat_boost(sid), None),
                                       ("option_col", f.stat_option(sid), None),
                                       ("final_col", f.stat_final(sid), f"mailgear.derived.stats.{sid}")):
                writer.computed(ws, r, col_index(sb[col]), formula, cached.stat(sid, col), name)
        bb = self.layout.raw["boost_block"]
        ws.write(bb["header_row"] - 1, col_index(bb["input_col"]), "専用機の強化", fmt["h"])
        ws.write(bb["header_row"] - 1, col_index(bb["applied_col"]), "強化値", fmt["h"])
        boosts = (doc.get("gear") or {}).get("boosts") if doc and isinstance(doc.get("gear"), Mapping) else None
        boosts = boosts if isinstance(boosts, list) else []
        for k in range(bb["slots"]):
            r = bb["first_row"] - 1 + k
            writer.input(ws, r, col_index(bb["input_col"]), boosts[k] if k < len(boosts) else None, "enum",
                         f"mailgear.gear.boosts.{k}", list_id="stats", pointer=f"/gear/boosts/{k}")
            writer.computed(ws, r, col_index(bb["applied_col"]), f.boost_applied(k), cached.boost(k),
                            f"mailgear.gear.boosts.{k}.applied")
        db = self.layout.raw["derived_block"]
        for key, head in (("label_col", "派生値"), ("value_col", "値"), ("dice_col", "ダイス"),
                          ("fixed_col", "固定値")):
            ws.write(db["header_row"] - 1, col_index(db[key]), head, fmt["h"])
        for did in t.derived:
            r = f.derived_row(did) - 1
            writer.computed(ws, r, col_index(db["dice_col"]), f.derived_dice(did), cached.parts(did)[0],
                            f"mailgear.derived.{did}.dice")
            writer.computed(ws, r, col_index(db["fixed_col"]), f.derived_fixed(did), cached.parts(did)[1],
                            f"mailgear.derived.{did}.fixed")
        kb = self.layout.raw["skill_block"]
        for key, head in (("label_col", "スキル効果"), ("max_col", "最大"), ("learned_col", "習得"),
                          ("option_col", "オプション"), ("effective_col", "実効"), ("bonus_col", "判定"),
                          ("effect_col", "効果")):
            ws.write(kb["header_row"] - 1, col_index(kb[key]), head, fmt["h"])
        for sid, s in t.skills.items():
            r = f.skill_row(sid) - 1
            ws.write(r, col_index(kb["label_col"]), s.label, fmt["label"])
            ws.write_number(r, col_index(kb["max_col"]), s.max_level, fmt["calc"])
            for col, formula, name in (
                    ("learned_col", f.skill_learned(sid), f"mailgear.skill_levels.{sid}.learned"),
                    ("option_col", f.skill_option(sid), f"mailgear.skill_levels.{sid}.option"),
                    ("effective_col", f.skill_effective(sid), f"mailgear.derived.skills.{sid}"),
                    ("bonus_col", f.skill_bonus(sid), f"mailgear.derived.skill_bonuses.{sid}")):
                writer.computed(ws, r, col_index(kb[col]), formula, cached.skill(sid, col), name)
            ws.write(r, col_index(kb["effect_col"]), s.effect)
        self.f.keys.write(writer, ws, cached.typed_name)  # each typed name folded, right of the tables

    def decorate_table(self, writer, ws, table: Table) -> None:
        """Red: an unknown or repeated skill, a level over its maximum or not a whole number from
        1; a third copy of an option; a row without a kind. Item names: the catalog's dropdown."""
        hr, n = table.header_row - 1, table.rows
        bad = writer.fmt["bad"]

        def red(key: str, criteria: str) -> None:
            c = table.col(key)
            ws.conditional_format(hr + 1, c, hr + n, c, {"type": "formula", "format": bad,
                                                         "criteria": criteria})

        if table.id == "skills":
            s, lv, mx, cn, first = (table.cell(k, 0) for k in ("skill", "level", "max", "canon", "first"))
            red("skill", f'=OR(AND({s}="",{lv}<>""),AND({s}<>"",{cn}=""),'
                         f'AND({cn}<>"",ISNUMBER({lv}),{number_or_zero(lv)}>=1,{first}=0))')
            red("level", f'=OR(AND({first}=1,{lv}>{mx}),AND({cn}<>"",OR(NOT(ISNUMBER({lv})),{number_or_zero(lv)}<1)))')
        elif table.id == "effects":
            # A filled 追加効果 row whose 装備の行 holds no item (MG_ITEM_EFFECT_UNATTACHED).
            red("item", self.f.effect_unattached(table, 0))
        elif table.id == "equipment":
            # The row numbers a 追加効果 row names its item by, left of the table.
            ws.write(hr, col_index(table.first_col) - 1, "行", writer.fmt["label"])
            for i in range(n):
                ws.write_number(hr + 1 + i, col_index(table.first_col) - 1, i + 1, writer.fmt["label"])
            name, kind, copy_ = (table.cell(k, 0) for k in ("name", "kind", "copy"))
            # A third copy of an option (MG_OPTION_COPIES: a warning that it adds nothing, an error
            # under option_copies=error): red under either reading, as the check names it.
            red("name", f'=AND({copy_}<>"",{number_or_zero(copy_)}>{tables().option_copies})')
            inputs = [table.col(c.key) for c in table.columns if not c.computed]
            row = f"${col_letter(min(inputs))}{hr + 2}:${col_letter(max(inputs))}{hr + 2}"
            red("kind", f'=AND({kind}="",COUNTA({row})>0)')
            weapon, option = tables().kinds["weapon"], tables().kinds["option"]
            nc = table.col("name")
            for i in range(n):
                k = table.cell("kind", i, True)
                ws.data_validation(hr + 1 + i, nc, hr + 1 + i, nc, {
                    "validate": "list", "show_error": False,
                    "source": f'=IF({k}="{weapon}",catalog.weapons.name,IF({k}="{option}",'
                              f'catalog.options.name,catalog.weapons.name))'})

    def finish(self, writer, ws) -> None:
        """Catalog dropdowns, red cells on the pilot and gear, and the document's written values."""
        f, fmt = self.f, writer.fmt
        bad = fmt["bad"]
        cell = {fld.pointer: fld.cell for fld in self.layout.fields}
        comp = {c["name"]: c["cell"] for c in self.layout.computed}
        for pointer, source in (("/pilot/level", "catalog.levels.level"),
                                ("/gear/rank", "catalog.gear_ranks.rank"),
                                ("/gear/model", "catalog.models.name")):
            r, c = parse_a1(cell[pointer])
            ws.data_validation(r, c, r, c, {"validate": "list", "source": f"={source}", "show_error": False})

        def red(at: str, criteria: str) -> None:
            r, c = parse_a1(at)
            ws.conditional_format(r, c, r, c, {"type": "formula", "format": bad, "criteria": criteria})

        level, exp = cell["/pilot/level"], cell["/pilot/experience"]
        red(level, f'=AND({level}<>"",COUNTA(catalog.levels.level)>0,OR(ISNA(MATCH({level},'
                   f'catalog.levels.level,0)),AND(ISNUMBER({exp}),{comp["mailgear.pilot.level_expected"]}<>{level})))')
        rank, points = cell["/gear/rank"], cell["/pilot/rank_points"]
        red(rank, f'=AND(COUNTA(catalog.gear_ranks.rank)>0,ISNUMBER({points}),'
                  f'{comp["mailgear.gear.rank_expected"]}<>{rank})')
        custom = cell["/gear/custom"]
        mark = tables().custom_mark
        red(custom, f'=AND({custom}<>"",({custom}="{TRUE}")<>(RIGHT({rank},{len(mark)})="{mark}"))')
        slots = comp["mailgear.derived.slots_used"]
        red(slots, f"={slots}>{tables().slots}")
        # 専用機: exactly three different eligible items (seed 001, 専用機について).
        bb = self.layout.raw["boost_block"]
        is_custom = comp["mailgear.gear.is_custom"]
        every = f.boost_range()
        for k in range(bb["slots"]):
            b = f.boost_cell(k).replace("$", "")
            before = f"COUNTIF({f.boost_range().split(':')[0]}:{f.boost_cell(k - 1)},{b})>0" if k else "FALSE"
            count = f'AND(COUNTA({every})<>{tables().custom_count},OR({b}<>""{",COUNTA(" + every + ")=0" if k == 0 else ""}))'
            red(b, f'=OR(AND({b}<>"",{is_custom}="{FALSE}"),AND({is_custom}="{TRUE}",OR(AND({b}<>"",'
                   f'OR(ISNA(MATCH({b},list.boost_stats,0)),{before})),{count})))')
        self._declared(writer, ws)
        writer.widen(ws, col_index(self.layout.raw["skill_block"]["label_col"]), 24)

    # --- written (declared) values ---------------------------------------------------------------
    def _declared(self, writer, ws) -> None:
        """A note on each cell whose written derived value (the document's ``derived``) differs
        from the engine's; the formula stays, since other cells read it. Keeping the written
        values is ``kept.py``'s (``computed_cell`` says where each is shown)."""
        if not writer.doc:
            return
        equipment = writer.doc.get("equipment")
        for ptr in self.derived_pointers(len(equipment) if isinstance(equipment, list) else 0):
            value = get(writer.doc, ptr)
            at = self.declared_cell(ptr)
            if at is None or not _scalar(value):
                continue
            engine = writer.cached.d.get(ptr)
            if not (type(value) is type(engine) and value == engine):
                ws.write_comment(at[0], at[1], f"文書に書かれた値: {value}\n計算値と違います"
                                 f"（check は MG_DERIVED_MISMATCH で報告します）", {"x_scale": 2})

    def computed_cell(self, pointer: str) -> tuple[str, int | None] | None:
        """The defined name (and row) of the cell that computes the derived value at ``pointer``
        (a document may write it), or None."""
        t = tables()
        parts = parse(pointer)
        if parts[0] == "derived":
            if len(parts) == 2 and (parts[1] in t.derived or parts[1] == "slots_used"):
                return f"mailgear.derived.{parts[1]}", None
            if len(parts) == 3 and parts[1] == "stats" and parts[2] in t.stat_ids:
                return f"mailgear.derived.stats.{parts[2]}", None
            if len(parts) == 3 and parts[1] in ("skills", "skill_bonuses") and parts[2] in t.skills:
                return f"mailgear.derived.{parts[1]}.{parts[2]}", None
        if (len(parts) == 4 and parts[0] == "equipment" and parts[1].isdigit() and parts[2] == "derived"
                and parts[3] in _WEAPON_DERIVED):
            return f"mailgear.equipment.{parts[3]}", int(parts[1])
        return None

    def declared_cell(self, pointer: str) -> tuple[int, int] | None:
        """(row, col) of a written derived value's cell on the pilot sheet."""
        found = self.computed_cell(pointer)
        if found is None:
            return None
        name, index = found
        if index is not None:
            table = self.layout.table("equipment")
            if index >= table.rows:
                return None
            return parse_a1(table.cell(name.rsplit(".", 1)[1], index))
        f = self.f
        comp = {c["name"]: c["cell"] for c in self.layout.computed}
        if name in comp:
            return parse_a1(comp[name])
        _, _, group, sid = name.split(".")
        if group == "stats":
            return parse_a1(f.stat_cell(sid, "final_col").replace("$", ""))
        col = "effective_col" if group == "skills" else "bonus_col"
        return parse_a1(f.skill_cell(sid, col).replace("$", ""))

    # --- reading -------------------------------------------------------------------------------
    def after_read(self, doc, rd) -> None:
        """専用機の強化: the filled boost cells, in order."""
        bb = self.layout.raw["boost_block"]
        boosts: list[Any] = []
        for k in range(bb["slots"]):
            v = rd.value(f"mailgear.gear.boosts.{k}", "enum", f"/gear/boosts/{len(boosts)}", list_id="stats")
            if v is not None:
                boosts.append(v)
        rd.cells.setdefault("/gear/boosts", rd.cell_of("mailgear.gear.boosts.0"))
        if boosts:
            doc.setdefault("gear", {})["boosts"] = boosts

    def after_tables(self, doc, rd) -> None:
        """Table rows back into skills and equipment entries (each item with its 追加効果 rows),
        and where check's findings on them, the derived values, the slots and the boosts are shown."""
        skills = [skill_entry(r) for r in doc.get("skills", [])]
        rows = doc.get("equipment", [])
        more = self._attach_effects(doc, rd, len(rows))
        items = [item_entry(r, [x for _, x in more.get(i, [])]) for i, r in enumerate(rows)]
        doc["skills"], doc["equipment"] = skills, items
        for i, attached in more.items():
            k = len(effect_entries(rows[i]))
            for j, extra in attached:
                for eff in effect_entries(extra):
                    for field, col in (("skill", "effect_skill"), ("levels", "effect_levels"),
                                       ("stat", "effect_stat"), ("amount", "effect_amount")):
                        at = rd.cells.get(f"/{ITEM_EFFECTS}/{j}/{col}")
                        if field in eff and at:
                            rd.cells.setdefault(f"/equipment/{i}/effects/{k}/{field}", at)
                            rd.cells.setdefault(f"/equipment/{i}/effects/{k}", at)
                    k += 1
        for i in range(len(skills)):
            at = rd.cells.get(f"/skills/{i}/skill")
            if at:
                rd.cells.setdefault(f"/skills/{i}/id", at)
                rd.cells.setdefault(f"/skills/{i}/name", at)
        for i in range(len(items)):
            for ptr, key in (("bands", "band_cr"), ("effects", "effect_skill")):
                at = rd.cells.get(f"/equipment/{i}/{key}")
                if at:
                    rd.cells.setdefault(f"/equipment/{i}/{ptr}", at)
        for pointer in self.derived_pointers(len(items)):
            found = self.computed_cell(pointer)
            if found:
                rd.cells.setdefault(pointer, rd.cell_of(*found))
        rd.cells.setdefault("/equipment", rd.cell_of("mailgear.derived.slots_used"))

    def _attach_effects(self, doc, rd, items: int) -> dict[int, list[tuple[int, dict[str, Any]]]]:
        """The 追加効果 rows read, by the item they name: item index → [(row index, row)]. A row
        naming no item (its 装備の行 blank, not a row of the table, or an empty row) goes under
        ``extra.item_effects`` with a warning (MG_ITEM_EFFECT_UNATTACHED) at its 装備の行."""
        rows = doc.pop(ITEM_EFFECTS, [])
        eq = self.layout.table("equipment")
        first = eq.column_name(eq.columns[0].key)
        index_of = {rd.cells.get(f"/equipment/{k}"): k for k in range(items)}
        out: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        for j, row in enumerate(rows):
            n = row.get("item")
            k = None
            if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= rd.rows(eq):
                k = index_of.get(rd.cell_of(first, n - 1))
            if k is not None:
                out.setdefault(k, []).append((j, row))
                continue
            extra = doc.setdefault("extra", {})
            if not isinstance(extra, dict):
                continue
            kept = extra.setdefault(ITEM_EFFECTS, [])
            if isinstance(kept, list):
                kept.append(row)
                at = rd.cells.get(f"/{ITEM_EFFECTS}/{j}/item") or rd.cells.get(f"/{ITEM_EFFECTS}/{j}", "")
                rd.findings.append(Finding("MG_ITEM_EFFECT_UNATTACHED", f"/extra/{ITEM_EFFECTS}/{len(kept) - 1}",
                                           {"item": n if n is not None else "—"}, at))
        return out

    def derived_pointers(self, items: int) -> list[str]:
        t = tables()
        out = [f"/derived/{d}" for d in (*t.derived, "slots_used")]
        out += [f"/derived/stats/{s}" for s in t.stat_ids]
        out += [f"/derived/{g}/{s}" for g in ("skills", "skill_bonuses") for s in t.skills]
        out += [f"/equipment/{i}/derived/{k}" for i in range(items) for k in _WEAPON_DERIVED]
        return out

    def read_context(self, rd) -> dict[str, Any]:
        """The catalog sheet, when it holds a catalog; its findings name its cells."""
        cat = self.catalog_sheet.read(rd)
        return {"catalog": cat} if cat is not None else {}

    def input_parts(self) -> dict[str, tuple[str, ...]]:
        """The pilot sheet's blocks of inputs (the gear's 機体名, ランク and 専用機; the typed base
        stats; the 専用機 boosts; the input columns of スキル, 装備 and 追加効果) and each catalog
        table's input columns (``catalog.<table>``): what the input-only functions read."""
        t, layout = tables(), self.layout
        out = {"gear": tuple(defined_name(p, self.system) for p in ("/gear/model", "/gear/rank", "/gear/custom")),
               "stats": tuple(defined_name(f"/gear/stats/{sid}", self.system) for sid in t.stat_ids),
               "boosts": tuple(f"mailgear.gear.boosts.{k}" for k in range(layout.raw["boost_block"]["slots"]))}
        for table in ("skills", "equipment", "effects"):
            tb = layout.table(table)
            out[table] = tuple(tb.column_name(c.key) for c in tb.columns if not c.computed)
        for ct in self.catalog_sheet.tables:
            out[f"catalog.{ct.id}"] = tuple(f"catalog.{ct.id}.{c.key}" for c in ct.columns if not c.computed)
        return out


# --- the engine's value of every computed cell -------------------------------------------------------

class _Cached:
    """What each computed cell shows: the engine's derived values, and the helper cells as their
    formulas compute them."""

    def __init__(self, sheet: MailgearSheet, doc, opts, catalog: Catalog | None) -> None:
        self.t = tables()
        self.sheet, self.opts, self.catalog = sheet, opts, catalog
        self.view = shown(doc) if doc else {}
        self.p: Evaluation = price_pilot(doc if doc else {"system": "mailgear"}, opts, catalog=catalog)
        self.d = {ptr: d.value for ptr, d in self.p.derived.items()}
        raw = catalog.raw if catalog is not None else {}
        cs = sheet.catalog_sheet
        self.cat_rows = {tid: to_rows(cs.by_id[tid], cs.entries(raw, tid)[0])
                         for tid in ("weapons", "options", "model_stats", "option_effects")}
        equipment = sheet.layout.table("equipment").rows
        more = self.view.get(ITEM_EFFECTS, [])
        self.effect_at = [n if is_number(n) and n == int(n) and 1 <= n <= equipment else "" for n in
                          (r.get("item") for r in more)]
        self.items: list[dict[str, Any]] = []
        for i, r in enumerate(self.view.get("equipment", [])):
            self.items.append(self._item(i, r))
        self.effect_rows = [self._effect_row(at, r) for at, r in zip(self.effect_at, more, strict=True)]
        uses = self.catalog_uses()
        self.cat_effects = [further_effect(r, uses) for r in self.cat_rows["option_effects"]]
        self.skill_rows = self._skill_rows(self.view.get("skills", []))

    def typed_name(self, place: str, i: int) -> Any:
        """The name the ``i``-th cell of ``place`` holds (``MailgearFormulas.keys``), None if blank."""
        if place == "model":
            gear = self.view.get("gear")
            return gear.get("model") if isinstance(gear, Mapping) else None
        rows = self.view.get(place)
        rows = rows if isinstance(rows, list) else []
        row = rows[i] if i < len(rows) and isinstance(rows[i], Mapping) else {}
        return row.get("skill" if place == "skills" else "name")

    def ladder_amounts(self) -> dict[str, Any]:
        """Ladder table → the pilot's amount it is read with (the catalog's 到達 cells)."""
        pilot = as_mapping(self.view.get("pilot"))
        return {table: get(pilot, pointer.removeprefix("/pilot"))
                for table, pointer in MailgearFormulas.LADDER_AMOUNTS.items()}

    def catalog_uses(self) -> dict[str, int]:
        """Catalog name key → the counted options taking their effects from the catalog under it
        (the equipment's カタログ追加効果 cells; the catalog sheet's このシートで)."""
        return dict(Counter(it["cat_key"] for it in self.items if it["cat_key"]))

    # --- pilot and gear scalars ------------------------------------------------------------------
    def scalar(self, name: str) -> Any:
        if name.startswith("derived."):
            return self.d.get(f"/derived/{name.split('.', 1)[1]}", "")
        pilot = as_mapping(self.view.get("pilot"))
        gear = as_mapping(self.view.get("gear"))
        if name == "slots_used":
            return self.d.get("/derived/slots_used", 0)
        if name in ("level_expected", "rank_expected"):
            table, amount = (("levels", pilot.get("experience")) if name == "level_expected"
                             else ("gear_ranks", pilot.get("rank_points")))
            if not is_number(amount) or self.catalog is None:
                return ""
            value = self.catalog.ladder_value(table, amount)
            return "" if value is None else value
        if name == "is_custom":
            return TRUE if self._is_custom(gear) else FALSE
        if name == "catalog_row":
            return self._model_row(gear)
        raise KeyError(name)

    def _is_custom(self, gear: Mapping[str, Any]) -> bool:
        custom = gear.get("custom")
        if isinstance(custom, bool):
            return custom
        rank = gear.get("rank")
        return isinstance(rank, str) and rank.endswith(self.t.custom_mark)

    def _model_row(self, gear: Mapping[str, Any]) -> Any:
        rank = gear.get("rank")
        want = f"{excel_key(gear.get('model'))}|{str(rank or '').replace(self.t.custom_mark, '')}".upper()
        return next((p + 1 for p, row in enumerate(self.cat_rows["model_stats"])
                     if f"{excel_key(row.get('model'))}|{row.get('rank') or ''}".upper() == want), "")

    # --- 性能 and 専用機 -------------------------------------------------------------------------
    def stat(self, sid: str, col: str) -> Any:
        gear = as_mapping(self.view.get("gear"))
        label = self.t.stat_labels[sid]
        if col == "catalog_col":
            row = self._model_row(gear)
            v = self.cat_rows["model_stats"][row - 1].get(sid) if row else None
            return v if is_number(v) else ""
        if col == "boost_col":
            return sum(self.boost(k) or 0 for k, b in enumerate(self._boost_cells()) if b == label)
        if col == "option_col":
            return self._option_total("stat", label)
        return self.d.get(f"/derived/stats/{sid}", "")

    def _option_total(self, what: str, label: str) -> Any:
        """The counted options' raises of a stat (or skill): rows, 追加効果 rows, the catalog's
        further effects times the options taking them (formulas.stat_option, skill_option)."""
        name, amount = ("eff_skill", "eff_levels") if what == "skill" else ("eff_stat", "eff_amount")
        total = sum(r[amount] for r in (*self.items, *self.effect_rows) if r[name] == label)
        total += sum(x[amount] * x["used"] for x in self.cat_effects if x[what] == label)
        return total if what == "stat" else (total if total > 0 else "")

    def _boost_cells(self) -> list[str]:
        gear = as_mapping(self.view.get("gear"))
        slots = self.sheet.layout.raw["boost_block"]["slots"]
        cells = [self._label("stats", b) for b in boosts_shown(gear.get("boosts"))]
        return (cells + [""] * slots)[:slots]

    def _label(self, list_id: str, value: Any) -> str:
        labels = dict(mailgear_lists()[list_id])
        if isinstance(value, str) and value in labels:
            return labels[value]
        return "" if value is None else str(value)

    def boost(self, k: int) -> Any:
        gear = as_mapping(self.view.get("gear"))
        cells = self._boost_cells()
        eligible = {self.t.stat_labels[s]: a for s, a in self.t.custom_boosts.items()}
        applied = 0
        for j, b in enumerate(cells[:k + 1]):
            ok = (self._is_custom(gear) and b != "" and b in eligible and b not in cells[:j]
                  and applied < self.t.custom_count)
            if j == k:
                return eligible[b] if ok else ""
            applied += bool(ok)
        return ""

    # --- 派生値 -------------------------------------------------------------------------------
    def parts(self, did: str) -> tuple[Any, Any]:
        """(dice, fixed) of a derived value: the dice added to the base roll, and the fixed part."""
        d = self.p.derived.get(f"/derived/{did}")
        if d is None:
            return "", ""
        if d.roll is None:
            return 0, d.value
        if did == "fortune":  # an expression: its dice include the base roll's
            return d.roll.dice - self.t.rolls["base_dice"], d.roll.fixed
        return d.roll.dice, d.roll.fixed

    # --- スキル ---------------------------------------------------------------------------------
    def _skill_rows(self, rows: list[Any]) -> list[dict[str, Any]]:
        names = {excel_key(n): label for n, label in skill_names()}
        maxima = {s.label: s.max_level for s in self.t.skills.values()}
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for row in rows:
            text = row.get("skill")
            canon = names.get(excel_key(text), "") if text is not None and text != "" else ""
            level = row.get("level")
            valid = bool(canon) and is_number(level) and level >= 1
            first = 1 if valid and canon not in seen else 0
            if valid:
                seen.add(canon)
            if text in (None, "") and level is None:
                out.append({"canon": "", "max": "", "first": ""})
            else:
                out.append({"canon": canon, "max": maxima.get(canon, ""), "first": first, "level": level})
        return out

    def skill(self, sid: str, col: str) -> Any:
        label = self.t.skills[sid].label
        if col == "learned_col":
            levels = [r["level"] for r in self.skill_rows if r["canon"] == label and r["first"] == 1]
            return levels[0] if levels else ""
        if col == "option_col":
            return self._option_total("skill", label)
        key = "skills" if col == "effective_col" else "skill_bonuses"
        return self.d.get(f"/derived/{key}/{sid}", "")

    # --- 装備 ---------------------------------------------------------------------------------
    def _catalog_row(self, table: str, key: str) -> int | None:
        """The row (1 = the first) of the catalog's ``table`` whose name has ``key``."""
        return next((p + 1 for p, row in enumerate(self.cat_rows[table]) if excel_key(row.get("name")) == key), None)

    def _item(self, i: int, row: Mapping[str, Any]) -> dict[str, Any]:
        """The helper cells of one equipment row, as their formulas compute them."""
        t = self.t
        kind = self._label("kinds", row.get("kind"))
        weapon, option = t.kinds["weapon"], t.kinds["option"]
        key = excel_key(row.get("name"))
        table = "weapons" if kind == weapon else "options" if kind == option else None
        cat_row = self._catalog_row(table, key) if table else None
        copies = 1 + sum(1 for it in self.items if it["kind"] == option and it["key"] == key)
        out: dict[str, Any] = {"kind": kind, "key": key, "catalog_row": cat_row or "",
                               "copy": copies if kind == option else ""}
        slots = row.get("slots")
        if is_number(slots):
            used = slots if slots >= 1 else 1
        elif slots is None and table and cat_row:
            v = self.cat_rows[table][cat_row - 1].get("slots")
            used = v if is_number(v) and v >= 1 else 1
        else:
            used = 1
        out["used_slots"] = used
        counted = kind == option and copies <= t.option_copies
        own = any(row.get(c) is not None for c in EFFECT_COLUMNS) or i + 1 in self.effect_at
        out["cat_key"] = key if counted and not own else ""
        source = row if own else (self.cat_rows["options"][cat_row - 1] if cat_row and counted else {})
        out.update(self._effect_cells(source, counted))
        return out

    def _effect_cells(self, source: Mapping[str, Any], counted: bool) -> dict[str, Any]:
        """The skill and stat effect cells an item row or a 追加効果 row shows: each effect's label
        and amount when it counts (a counted option, a listed name, a usable amount), else blank."""
        out: dict[str, Any] = {}
        for what, name_col, amount_col, list_id in (("skill", "effect_skill", "effect_levels", "skills"),
                                                    ("stat", "effect_stat", "effect_amount", "stats")):
            name = self._label(list_id, source.get(name_col)) if source.get(name_col) is not None else ""
            amount = source.get(amount_col)
            ok = counted and name in dict(mailgear_lists()[list_id]).values() and is_number(amount) \
                and (what == "stat" or amount >= 1)
            out[f"eff_{what}"] = name if ok else ""
            out["eff_levels" if what == "skill" else "eff_amount"] = amount if ok else ""
        return out

    def _effect_row(self, at: Any, row: Mapping[str, Any]) -> dict[str, Any]:
        """The helper cells of one 追加効果 row, as their formulas compute them."""
        t = self.t
        item = self.items[at - 1] if at != "" and at <= len(self.items) else None
        name = self.view["equipment"][at - 1].get("name") if item is not None else None
        out: dict[str, Any] = {"at": at, "item_name": "" if item is None else _as_cell_text(name)}
        counted = item is not None and item["kind"] == t.kinds["option"] and item["copy"] <= t.option_copies
        out.update(self._effect_cells(row, counted))
        return out

    def row(self, table: Table, i: int, key: str) -> Any:
        if table.id == "skills":
            return self.skill_rows[i].get(key, "")
        if table.id == "effects":
            return self.effect_rows[i][key]
        if key in _WEAPON_DERIVED:
            return self.d.get(f"/equipment/{i}/derived/{key}", "")
        return self.items[i][key]


SHEET = MailgearSheet()
