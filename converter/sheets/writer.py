"""Writing a workbook from a layout: the empty template, or the template filled with a document.

One mechanism for every system: the layout (``<system>/layout.toml``) places fields, computed
cells and tables; the system's :class:`~converter.sheets.system_sheet.SystemSheet` supplies its lists,
rules sheet, formulas and the engine's values. XlsxWriter stores each formula with its cached
result, so any reader sees the right totals without recalculating. Text beginning with
= + - @ is written as text, never as a formula.
"""
from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ..core.errors import OutputError
from ..core.pointers import get, pointer
from ..rules.options import resolve_options
from .kept import differences, encode, split_for_cells, write as write_kept
from .page_setup import (HEADER_LINES, LINE_HEIGHT, MIN_WIDTH, VALUE_WIDTH, column_width, measured_widths,
                         row_heights, set_up_page, sheet_print)
from .layout import Layout, Table, a1, col_index, defined_name, parse_a1, sheet_cell
from .reader import opened, read_cells
from .system_sheet import TRUE, FALSE
from .typed_inputs import SHOWN, TypedCells, gated
from .xlwings_flavour import FLAVOUR_PROPERTY, XLWINGS

if TYPE_CHECKING:
    from .system_sheet import Cached, SystemSheet
    from .xlwings_flavour import XlwingsFormulas

FIXED_DATE = dt.datetime(2026, 1, 1)  # keeps template bytes stable


@dataclass(frozen=True)
class Appendix:
    """A visible sheet of plain rows written after the template's own sheets (a converted
    document's 変換メモ). It has no defined names, so the reader never sees it, and the template
    itself never has one."""

    title: str
    rows: Sequence[Sequence[Any]]
    widths: Sequence[float] = ()
    headings: frozenset[int] = frozenset({0})  # the rows written as headings


def build_workbook(sheet: "SystemSheet", doc: Mapping[str, Any] | None,
                   options: Mapping[str, str] | None = None,
                   context: Mapping[str, Any] | None = None, appendix: Appendix | None = None,
                   formulas: str = "native") -> bytes:
    """The workbook as bytes: the template when ``doc`` is None, else the filled sheet.

    ``context`` carries what a system's engine takes besides the document (mailgear's
    ``catalog``, pp's ``skills``). A filled sheet is built, read back with the normal reader,
    and built again with what the cells could not say kept in its data sheet (``kept.py``);
    when the cells say everything, the first build is the workbook. ``appendix`` adds one
    visible sheet of rows after the others (only to a filled sheet). ``formulas`` is the
    flavour of the computed cells: native formulas, or our Excel functions (``xlwings_flavour``)."""
    opts = resolve_options(sheet.system, options)
    _check_capacity(sheet, doc)
    flavour = _flavour(sheet, formulas)
    if doc is None:
        return _build(sheet, None, opts, context, "", None, flavour)
    data = _build(sheet, doc, opts, context, "", appendix, flavour)
    with opened(data) as named:
        read, rd = read_cells(sheet, named)
        text = encode(differences(sheet, sheet.normal(doc, read), read, rd))
    return _build(sheet, doc, opts, context, text, appendix, flavour) if text else data


def _flavour(sheet: "SystemSheet", formulas: str) -> "XlwingsFormulas | None":
    from .xlwings_flavour import FORMULAS, XLWINGS, xlwings_formulas

    if formulas not in FORMULAS:
        raise ValueError(f"formulas: {formulas!r} (one of {', '.join(FORMULAS)})")
    return xlwings_formulas(sheet.layout) if formulas == XLWINGS else None


def _build(sheet: "SystemSheet", doc: Mapping[str, Any] | None, opts: Mapping[str, str],
           context: Mapping[str, Any] | None, kept_text: str, appendix: Appendix | None,
           flavour: "XlwingsFormulas | None" = None) -> bytes:
    """One build of the workbook, ``kept_text`` in its data sheet; ``flavour`` marked in its
    properties and data sheet when there is one."""
    import xlsxwriter

    from .xlsx_worksheet import FastFormulaWorksheet

    layout = sheet.layout
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False,
                                   "strings_to_numbers": False, "strings_to_urls": False})
    wb.worksheet_class = FastFormulaWorksheet
    _properties(wb, layout, flavour)
    fmt = _formats(wb)
    worksheets = _worksheets(wb, layout)
    ws_in, ws_rules = worksheets[layout.input_sheet], wb.add_worksheet(layout.rules_sheet)
    ws_data = wb.add_worksheet(layout.data_sheet)
    ws_data.hide()
    sheet.write_rules_for(wb, ws_rules, opts, fmt, doc, dict(context or {}))

    cached = sheet.cached(doc, opts, dict(context or {}))
    writer = SheetWriter(wb, sheet, fmt)
    writer.flavour = flavour
    if flavour is not None:
        flavour.bind({name: ref for name, _, ref, _ in wb.defined_names})
    view = sheet.shown(doc) if doc else doc  # the document as the sheet lays it out
    writer.doc, writer.cached = view, cached
    _write_inputs(writer, worksheets, ws_in, view, cached)
    _write_computed(writer, worksheets, doc, cached)
    sheet.finish(writer, ws_in)
    writer.typed.red_rules(worksheets, _column_runs, fmt["bad"])
    writer.flush()
    _write_data_sheet(wb, ws_data, layout, flavour, kept_text)
    for ws in worksheets.values():  # the character's or unit's own sheets: measured widths
        writer.fit_columns(ws)
    if appendix is not None:
        worksheets[appendix.title] = _appendix(wb, appendix, fmt)
    for ws in wb.worksheets():  # every printed sheet, the rules and a catalog sheet too
        if ws is not ws_data:
            set_up_page(ws, sheet_print(layout.raw, ws.name), layout.title,
                        ws.dim_rowmax or 0, ws.dim_colmax or 0)
    for ws in worksheets.values():
        ws.protect("", {"format_columns": True, "format_rows": True, "insert_rows": True,
                        "delete_rows": True, "sort": True, "autofilter": True})
    wb.close()
    return buf.getvalue()


def _properties(wb, layout: Layout, flavour: "XlwingsFormulas | None") -> None:
    """The workbook's title and the template (and flavour) it is."""
    wb.set_properties({"title": layout.title, "author": "mechasheet", "created": FIXED_DATE,
                       "comments": f"mechasheet template {layout.template}"})
    wb.set_custom_property("mechasheet.template", layout.template)
    if flavour is not None:
        wb.set_custom_property(FLAVOUR_PROPERTY, XLWINGS)


def _formats(wb) -> dict[str, Any]:
    """The cell formats every sheet shares, by role."""
    return {
        "h": wb.add_format({"bold": True, "bg_color": "#DDE3EA", "border": 1}),
        "th": wb.add_format({"bold": True, "text_wrap": True, "valign": "top"}),  # a table's header
        "title": wb.add_format({"bold": True, "font_size": 14}),
        "label": wb.add_format({"bold": True, "valign": "top"}),  # beside a wrapped text's first line
        # Inputs and computed cells wrap a text longer than their column (a memo, a name).
        "input": wb.add_format({"locked": False, "bg_color": "#FFF9DB", "border": 1,
                                "text_wrap": True, "valign": "top"}),
        "calc": wb.add_format({"locked": True, "bg_color": "#EEEEEE", "border": 1,
                               "text_wrap": True, "valign": "top"}),
        "bad": wb.add_format({"bg_color": "#FFC7CE", "font_color": "#9C0006"}),
    }


def _worksheets(wb, layout: Layout) -> dict[str, Any]:
    """The document's own sheets by name: the input sheet, then those of fields and computed
    cells placed on another sheet, then the tables', in order of first use."""
    worksheets = {layout.input_sheet: wb.add_worksheet(layout.input_sheet)}
    for name in [f.sheet for f in layout.fields] + [c.get("sheet") for c in layout.computed] \
            + [tb.sheet for tb in layout.tables]:
        if name and name not in worksheets:
            worksheets[name] = wb.add_worksheet(name)
    return worksheets


def _write_inputs(writer: "SheetWriter", worksheets: Mapping[str, Any], ws_in,
                  view: Mapping[str, Any] | None, cached: "Cached") -> None:
    """The title, the fields, the system's blocks and the tables, filled from the document as
    the sheet lays it out (``view``)."""
    layout, fmt = writer.layout, writer.fmt
    ws_in.write(0, 1, layout.title, fmt["title"])
    for fld in layout.fields:
        writer.field(worksheets[fld.sheet or layout.input_sheet], fld,
                     get(view, fld.pointer) if view else None)
    writer.sheet.write_blocks(writer, ws_in, view, cached)
    titled: set[str] = set()
    sheet_titles = layout.raw.get("sheet_titles", {})
    for table in layout.tables:
        ws = worksheets[table.sheet]
        if table.sheet != layout.input_sheet and table.sheet not in titled:
            titled.add(table.sheet)
            ws.write(0, 0, f"{layout.title}: {sheet_titles.get(table.sheet, table.label)}", fmt["title"])
        ws.write(table.header_row - 2, col_index(table.first_col), table.label, fmt["label"])
        writer.table(ws, table, rows_of(view, table), cached)


def _write_computed(writer: "SheetWriter", worksheets: Mapping[str, Any], doc: Mapping[str, Any] | None,
                    cached: "Cached") -> None:
    """The layout's computed cells with the engine's values; a written total that differs is
    kept as typed, as a hand-typed total would be."""
    layout = writer.layout
    declared = layout.raw.get("declared_total")
    errors = layout.raw.get("input_errors")  # the 入力エラー cell and the totals it gates
    errors_ref, gates = "", set()
    if errors:
        ws = worksheets[errors.get("sheet") or layout.input_sheet]
        r, c = parse_a1(errors["cell"])
        ws.write(r, c - 1, errors["label"], writer.fmt["label"])
        writer.computed(ws, r, c, writer.typed.count_formula(_column_runs), writer.typed.errors, errors["name"])
        errors_ref, gates = sheet_cell(ws.name, r, c), set(errors["gates"])
    for comp in layout.computed:
        ws = worksheets[comp.get("sheet") or layout.input_sheet]
        r, c = parse_a1(comp["cell"])
        ws.write(r, c - 1, comp["label"], writer.fmt["label"])
        value = cached.scalar(comp["formula"])
        if comp["name"] == declared and doc and doc.get("declared_total") not in (None, value):
            writer.input(ws, r, c, doc["declared_total"], "int", comp["name"], pointer="/declared_total")
        elif comp["name"] in gates:
            formula = gated(writer.sheet.formula(comp["formula"]), errors_ref)
            writer.computed(ws, r, c, formula, SHOWN if writer.typed.errors else value, comp["name"])
        else:
            writer.computed(ws, r, c, writer.sheet.formula(comp["formula"]), value, comp["name"])


def _write_data_sheet(wb, ws_data, layout: Layout, flavour: "XlwingsFormulas | None", kept_text: str) -> None:
    """The hidden data sheet: the template's identity, the flavour, what the cells cannot say."""
    ws_data.write_string(0, 0, "template")
    ws_data.write_string(0, 1, layout.template)
    wb.define_name("mechasheet.template", "=" + sheet_cell(layout.data_sheet, 0, 1))
    if flavour is not None:
        ws_data.write_string(0, 3, "formulas")
        ws_data.write_string(0, 4, XLWINGS)
        wb.define_name(FLAVOUR_PROPERTY, "=" + sheet_cell(layout.data_sheet, 0, 4))
    write_kept(wb, ws_data, layout.data_sheet, layout.system, kept_text)


def _appendix(wb, appendix: Appendix, fmt: Mapping[str, Any]):
    """The appendix sheet: its heading rows styled, every value as a value (text as text)."""
    ws = wb.add_worksheet(appendix.title)
    for c, width in enumerate(appendix.widths):
        ws.set_column(c, c, width)
    for r, row in enumerate(appendix.rows):
        for c, value in enumerate(row):
            style = fmt["h"] if r in appendix.headings else None
            if value is None:
                continue
            if isinstance(value, bool):
                ws.write_boolean(r, c, value, style)
            elif isinstance(value, (int, float)):
                ws.write_number(r, c, value, style)
            else:
                ws.write_string(r, c, str(value), style)
    return ws


def _check_capacity(sheet: "SystemSheet", doc) -> None:
    """A document with more rows than the sheet holds is an error, never a silent cut."""
    if not doc:
        return
    for table in sheet.layout.tables:
        rows = rows_of(doc, table)
        if len(rows) > table.rows:
            raise OutputError(f"{table.label}: the document has {len(rows)} rows, the sheet holds "
                              f"{table.rows} ({table.pointer})")
    sheet.check_capacity(doc)


def rows_of(doc, table: Table) -> list[Any]:
    if not doc:
        return []
    value = get(doc, table.pointer)
    return value if isinstance(value, list) else []


def cell_text(text: str) -> str:
    """What a cell can hold of ``text``: at most 32,767 characters, no lone surrogate (U+FFFD in
    its place). The whole text is kept beside the cells (``kept.py``), so nothing is lost."""
    if _LONE_SURROGATE.search(text):
        text = _LONE_SURROGATE.sub("\ufffd", text)
    return split_for_cells(text)[0] if len(text) > 16_383 else text


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _column_runs(cells: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """``cells`` as ranges (first row, col, last row, col): runs of consecutive rows per column."""
    runs: list[list[int]] = []
    for r, c in sorted(set(cells), key=lambda rc: (rc[1], rc[0])):
        if runs and runs[-1][1] == c and runs[-1][2] == r - 1:
            runs[-1][2] = r
        else:
            runs.append([r, c, r, c])
    return [(r0, c0, r1, c0) for r0, c0, r1, _ in runs]


class SheetWriter:
    """Writes inputs (unlocked, validated) and computed cells (locked, with cached results)."""

    def __init__(self, wb, sheet: "SystemSheet", fmt) -> None:
        self.wb = wb
        self.sheet = sheet
        self.layout = sheet.layout
        self.fmt = fmt
        self.lists = sheet.lists()
        self.doc: Mapping[str, Any] | None = None  # the document as shown (sheet.shown), for hooks
        self.cached: "Cached | None" = None
        self.flavour: "XlwingsFormulas | None" = None  # the computed cells' functions, if flavoured
        # Each worksheet's validation rules, in order of first use, with the cells they cover.
        self._validations: dict[tuple[Any, str], tuple[dict[str, Any], list[tuple[int, int]]]] = {}
        # Per worksheet: each column's least width (a table column's, a dropdown's longest
        # label, a free-text field's) and the helper columns hidden from view and print.
        self._floors: dict[str, dict[int, float]] = {}
        self._helpers: dict[str, set[int]] = {}
        self.typed = TypedCells()  # number and ○ cells: red when the formulas cannot count them

    def fold(self, ws, col: int) -> None:
        """Column ``col`` of ``ws`` is a helper column: folded away, out of print."""
        self._helpers.setdefault(ws.name, set()).add(col)

    def widen(self, ws, col: int, width: float) -> None:
        """Column ``col`` of ``ws`` at least ``width`` units wide."""
        floors = self._floors.setdefault(ws.name, {})
        floors[col] = max(width, floors.get(col, 0.0))

    def fit_columns(self, ws) -> None:
        """Every column of ``ws`` as wide as its longest label and its floor; helper columns
        (a table's working columns) folded away in an outline group, so they do not print."""
        helpers = self._helpers.get(ws.name, set())
        wrapped = (self.fmt["input"], self.fmt["calc"])
        widths = measured_widths(ws, self._floors.get(ws.name, {}), wrapped,
                                            (self.fmt["th"],))
        for r, height in row_heights(ws, widths, wrapped).items():
            ws.set_row(r, height)
        for c in sorted(set(widths) | helpers):
            ws.set_column(c, c, widths.get(c, MIN_WIDTH), None,
                          {"hidden": True, "level": 1} if c in helpers else {})
        for c in sorted(helpers):
            if c + 1 not in helpers:  # the group's button, on the column after it
                ws.set_column(c + 1, c + 1, widths.get(c + 1, MIN_WIDTH), None,
                              {"collapsed": True})

    def validate(self, ws, r: int, c: int, rule: dict[str, Any]) -> None:
        """``rule`` on cell (r, c); written once per rule and worksheet by :meth:`flush`."""
        key = (ws, json.dumps(rule, ensure_ascii=False, sort_keys=True))
        self._validations.setdefault(key, (rule, []))[1].append((r, c))
        source = rule.get("source")
        if isinstance(source, str) and source.startswith("=list."):  # room for its longest label
            self.widen(ws, c, column_width(
                (str(label) for _, label in self.lists.get(source[len("=list."):], ())),
                cap=VALUE_WIDTH))
        elif isinstance(source, list):
            self.widen(ws, c, column_width(source))

    def flush(self) -> None:
        """Each rule as one validation over all its cells: a table's column is one range, and
        the sheet carries tens of validations instead of one per input cell."""
        for (ws, _), (rule, cells) in self._validations.items():
            ranges = _column_runs(cells)
            (r0, c0, r1, c1) = ranges[0]
            refs = " ".join(a1(first, col) if first == last else f"{a1(first, col)}:{a1(last, col)}"
                            for first, col, last, _ in ranges)
            ws.data_validation(r0, c0, r1, c1, {**rule, "multi_range": refs} if len(ranges) > 1 else rule)
        self._validations.clear()

    def field(self, ws, fld, value) -> None:
        r, c = parse_a1(fld.cell)
        ws.write(r, c - 1, fld.label, self.fmt["label"])
        if fld.kind == "text":  # a name or a memo: the width the layout gives typed text
            self.widen(ws, c, self.layout.raw.get("print", {}).get("text_width", MIN_WIDTH))
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
            self.validate(ws, r, c, {"validate": "list", "source": [TRUE, FALSE]})
        elif kind in ("enum", "enum_int"):
            labels = dict(self.lists[list_id]) if list_id else {}
            if value is None:
                ws.write_blank(r, c, None, fmt)
            elif isinstance(value, Hashable) and value in labels:  # a list or object: kept as typed
                shown = labels[value]
                if kind == "enum_int":
                    ws.write_number(r, c, int(shown), fmt)
                else:
                    ws.write_string(r, c, shown, fmt)
            else:  # not in the list: kept as typed, so the check can name it
                self._raw(ws, r, c, value, fmt)
            self.validate(ws, r, c, {"validate": "list", "source": f"=list.{list_id}",
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
            self.validate(ws, r, c, rule)
        elif kind == "number":
            self._raw(ws, r, c, value, fmt)
            self.validate(ws, r, c, {
                "validate": "decimal", "criteria": "between",
                "minimum": -10 ** 6 if lo is None else lo, "maximum": 10 ** 7 if hi is None else hi,
                "error_title": "数値を入力してください",
                "error_message": f"{'' if lo is None else lo}〜{'' if hi is None else hi} の数値を入力します。"})
        elif kind == "suggest":
            # A dropdown of suggestions that takes any text too (a skill no list has).
            self._raw(ws, r, c, value, fmt)
            self.validate(ws, r, c, {"validate": "list", "source": f"=list.{list_id}",
                                            "error_type": "information",
                                            "error_title": "一覧にない名前です",
                                            "error_message": "このまま使えます（一覧にないものとして確認します）。"})
        else:
            self._raw(ws, r, c, value, fmt)
        self._typed(ws, r, c, kind, value, list_id)
        if name:
            self.wb.define_name(name, "=" + sheet_cell(ws.name, r, c))

    def _typed(self, ws, r: int, c: int, kind: str, value: Any, list_id: str | None) -> None:
        """The cell to the 入力エラー count, with what it shows (a list's value as its label)."""
        items = dict(self.lists.get(list_id or "", []))
        labels = [str(label) for label in items.values()]
        if kind in ("enum", "enum_int") and isinstance(value, Hashable) and value in items:
            value = int(items[value]) if kind == "enum_int" else items[value]
        elif kind == "bool" and not isinstance(value, bool):
            value = None  # written blank
        self.typed.add(ws.name, r, c, kind, value, labels)

    def not_in_list(self, ws, first_row: int, col: int, last_row: int, list_id: str | None) -> None:
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
            ws.write_string(r, c, cell_text(value), fmt)  # never a formula, whatever it starts with
        else:
            ws.write_string(r, c, cell_text(json.dumps(value, ensure_ascii=False)), fmt)

    def computed(self, ws, r: int, c: int, formula: str, value: Any, name: str | None = None) -> None:
        if self.flavour is not None:
            formula = self.flavour.cell(name, formula)
        ws.write_formula(r, c, formula, self.fmt["calc"], "" if value is None else value)
        if name:
            self.wb.define_name(name, "=" + sheet_cell(ws.name, r, c))

    def table(self, ws, table: Table, rows: list[Any], cached: "Cached") -> None:
        first_col = col_index(table.first_col)
        hr = table.header_row - 1
        last_col = first_col + len(table.columns) - 1
        ws.add_table(hr, first_col, hr + table.rows, last_col, {
            "name": f"{self.layout.system}_{table.id}", "style": "Table Style Light 9",
            "autofilter": False,
            "columns": [{"header": col.header, "header_format": self.fmt["th"]}
                        for col in table.columns]})
        ws.set_row(hr, HEADER_LINES * LINE_HEIGHT)
        for j, col in enumerate(table.columns):
            if col.width:
                self.widen(ws, first_col + j, col.width)
            if col.helper:
                self.fold(ws, first_col + j)
        for i in range(table.rows):
            row_doc = rows[i] if i < len(rows) else None
            r = hr + 1 + i
            for j, col in enumerate(table.columns):
                c = first_col + j
                if col.computed:
                    value = cached.row(table, i, col.key) if row_doc is not None else ""
                    formula = self.sheet.formula(col.computed, table, i)
                    if self.flavour is not None:
                        formula = self.flavour.row(table, i, col.key, formula)
                    ws.write_formula(r, c, formula, self.fmt["calc"], value)
                    continue
                value = _cell_value(row_doc, col, self.lists) if row_doc is not None else None
                kind = "int" if col.kind == "effect_level" else col.kind
                kind = "bool" if kind in ("effect_flag", "effect_bool") else kind
                kind = "text" if kind in ("effect_text", "stat_list", "enum_list") else kind
                self.input(ws, r, c, value, kind, list_id=col.list, lo=col.min, hi=col.max,
                           in_table=True)
        for j, col in enumerate(table.columns):
            self.wb.define_name(table.column_name(col.key),
                                f"={table.column_range(col.key)}")
            if col.kind in ("enum", "enum_int") and not col.computed:
                self.not_in_list(ws, hr + 1, first_col + j, hr + table.rows, col.list)
        self.sheet.decorate_table(self, ws, table)


def _cell_value(row: Mapping[str, Any], col, lists) -> Any:
    """The value a table cell shows for one row object."""
    key = col.key
    if col.kind.startswith("effect_"):
        _, eid, *rest = key.split(".")
        listed = row.get("effects") if isinstance(row, Mapping) else None
        effects: dict[Any, Any] = {}
        for e in listed if isinstance(listed, list) else []:
            eid_of = e.get("id") if isinstance(e, Mapping) else e
            if isinstance(eid_of, Hashable):  # a list or object where an id goes shows nothing
                effects[eid_of] = e
        if eid not in effects:
            return None
        eff = effects[eid] if isinstance(effects[eid], Mapping) else {"id": eid}
        if col.kind == "effect_flag":
            return True
        if col.kind == "effect_level":
            return eff.get("level", 1)
        return eff.get(rest[0])
    if col.kind in ("stat_list", "enum_list"):
        values = get(row, column_pointer(key))
        if not values:
            return None
        if not isinstance(values, list):
            return values  # kept as it is, so the check can name it
        labels = dict(lists[col.list or "pilot_stats"])
        return "・".join(labels.get(s, str(s)) for s in values)
    return get(row, column_pointer(key))


def column_pointer(key: str) -> str:
    """The pointer inside a row object of a column key (``usage.type`` → ``/usage/type``)."""
    return pointer(*key.split("."))
