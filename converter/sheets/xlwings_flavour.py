"""The xlwings flavour of a template: computed cells that call our Excel functions.

`mechasheet template up --formulas xlwings` writes the same sheets, names and inputs as the
native template; only the cells listed here call a function of ``converter.excel.udfs`` instead
of a native formula. Each call's arguments are input cells or ranges of input cells only (a
function whose range held its own cell would be a circular reference), so the whole-sheet
functions (``UP_TOTAL``, ``PP_TOTAL``, ``MAILGEAR_*``) are not used: every total stays the
native SUM of the cost cells, now the functions' figures. Every other computed cell keeps its
native formula (docs/excel-plugin.md lists them, and why). The writer asks :meth:`cell` and
:meth:`row` for every computed cell it writes; the native template never constructs this class,
so its bytes are untouched.
"""
from __future__ import annotations

from typing import Callable

from .layout import Layout, Table, col_letter, parse_a1, sheet_prefix

FORMULAS = ("native", "xlwings")  # what ``--formulas`` offers; native is the default
FLAVOUR_PROPERTY = "mechasheet.formulas"  # custom property (and defined name) naming the flavour
XLWINGS = "xlwings"


class XlwingsFormulas:
    """Each flavoured computed cell's function call; the native formula for the others."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.system = layout.system
        self._inp = sheet_prefix(layout.input_sheet)
        self._cells: dict[str, str | Callable[[], str]] = {}
        self._rows: dict[tuple[str, str], Callable[[Table, int], str]] = {}
        self._rules = ""  # the rules sheet's ルール選択 block, once the writer has named it
        getattr(self, f"_{self.system}")()

    # --- what the writer asks ------------------------------------------------------------------
    def bind(self, names: dict[str, str]) -> None:
        """The workbook's defined names once the rules sheet is written (name → reference): the
        functions are given the ルール選択 block, so that they price under the sheet's readings
        as the native formulas do."""
        from ..io.xlsx_package import parse_reference
        from ..rules.options import option_declarations

        areas = [parse_reference(names[f"{self.system}.options.{o}"]) for o in option_declarations(self.system)
                 if f"{self.system}.options.{o}" in names]
        if areas and all(a is not None for a in areas):
            top, bottom = min(a.top for a in areas), max(a.bottom for a in areas)
            col = areas[0].left
            self._rules = (f"{sheet_prefix(areas[0].sheet)}${col_letter(col - 1)}${top + 1}:"
                           f"${col_letter(col)}${bottom + 1}")

    def _with_rules(self) -> str:
        return f",{self._rules}" if self._rules else ""

    def cell(self, name: str | None, native: str) -> str:
        """The formula of the computed cell named ``name``."""
        got = self._cells.get(name or "", native)
        return got() if callable(got) else got

    def row(self, table: Table, index: int, key: str, native: str) -> str:
        """The formula of column ``key`` in row ``index`` of ``table``."""
        make = self._rows.get((table.id, key))
        return make(table, index) if make else native

    def flavoured(self) -> tuple[list[str], list[tuple[str, str]]]:
        """(cell names, (table, column) pairs) that call a function: the docs' list, and the
        test's proof that each is one."""
        return sorted(self._cells), sorted(self._rows)

    # --- references -------------------------------------------------------------------------------
    def _field(self, pointer: str) -> str:
        """The absolute reference of a field's input cell."""
        fld = next(f for f in self.layout.fields if f.pointer == pointer)
        r, c = parse_a1(fld.cell)
        return f"{sheet_prefix(fld.sheet or self.layout.input_sheet)}${col_letter(c)}${r + 1}"

    def _block(self, block: str, col_key: str, row: int) -> str:
        return f"{self._inp}${self.layout.raw[block][col_key]}${row}"

    def _block_range(self, block: str, col_key: str, first: int, count: int) -> str:
        col = self.layout.raw[block][col_key]
        return f"{self._inp}${col}${first}:${col}${first + count - 1}"

    @staticmethod
    def _inputs(table: Table) -> str:
        """Every row of a table's input columns (first to last; the computed ones come after)."""
        inputs = [c for c in table.columns if not c.computed]
        if any(c.computed for c in table.columns[:len(inputs)]):
            raise ValueError(f"{table.id}: a computed column among the input columns")
        first = table.column_range(inputs[0].key)
        last = table.column_range(inputs[-1].key)
        return first.split(":")[0] + ":" + last.split(":")[-1]

    # --- up ---------------------------------------------------------------------------------------
    def _up(self) -> None:
        from ..rules.up.tables import STAT_IDS, TERRAINS, tables

        sb, tb = self.layout.raw["stat_block"], self.layout.raw["terrain_block"]
        size, budget = self._field("/size"), self._field("/budget")
        labels = tables().stat_labels
        for k, sid in enumerate(STAT_IDS):
            value = self._block("stat_block", "value_col", sb["first_row"] + k)
            self._cells[f"up.stats.{sid}.cost"] = (
                lambda value=value, sid=sid: f'=IF(OR({size}="",{value}=""),0,'
                                             f'UP_STAT_COST({size},"{labels[sid]}",{value}{self._with_rules()}))')
        movement = self._block_range("terrain_block", "movement_col", tb["first_row"], len(TERRAINS))
        weapons, abilities = self.layout.table("weapons"), self.layout.table("abilities")
        self._rows[("weapons", "cost")] = lambda t, i: (
            f'=IF({t.cell("name", i, True)}="","",'
            f'UP_WEAPON_COST({self._inputs(weapons)},{i + 1},{movement},{budget}{self._with_rules()}))')
        self._rows[("abilities", "cost")] = lambda t, i: (
            f'=IF({t.cell("id", i, True)}="","",'
            f'UP_ABILITY_COST({self._inputs(abilities)},{i + 1},{size}{self._with_rules()}))')

    # --- pp ---------------------------------------------------------------------------------------
    def _pp(self) -> None:
        from ..rules.pp.tables import ATTRIBUTE_IDS
        from .pp.rules_sheet import pp_lists

        labels = dict(pp_lists()["attributes"])
        for aid in ATTRIBUTE_IDS:
            value = self._field(f"/attributes/{aid}")
            self._cells[f"pp.attributes.{aid}.cost"] = f'=PP_ATTRIBUTE_COST("{labels[aid]}",{value})'
        self._rows[("skills", "cost")] = lambda t, i: (
            f'=IF({t.cell("name", i, True)}="","",PP_SKILL_COST({t.cell("name", i, True)},{t.cell("level", i, True)}))')
        skills = self.layout.table("skills")
        slots = sum(1 for c in skills.columns if c.key.endswith(".cost") and c.key.startswith("specializations."))
        for slot in range(slots):
            self._rows[("skills", f"specializations.{slot}.cost")] = self._specialization(slot)

    @staticmethod
    def _specialization(slot: int) -> Callable[[Table, int], str]:
        def make(t: Table, i: int) -> str:
            name, level = t.cell("name", i, True), t.cell("level", i, True)
            spec, spec_level = (t.cell(f"specializations.{slot}.{k}", i, True) for k in ("name", "level"))
            return (f'=IF({spec}="","",IF({name}="",0,'
                    f'PP_SPECIALIZATION_COST({name},{level},{spec},{spec_level})))')
        return make


def xlwings_formulas(layout: Layout) -> XlwingsFormulas:
    """The flavour for a layout; OutputError for a system with no function a computed cell can
    call (mailgear: its functions all read the whole pilot sheet, whose every derived cell lies
    among the inputs they would read)."""
    if not hasattr(XlwingsFormulas, f"_{layout.system}"):
        from ..core.errors import OutputError
        from ..core.texts import texts

        raise OutputError(" / ".join(texts(lang)["excel_flavour_none"].format(system=layout.system)
                                     for lang in ("ja", "en")))
    return XlwingsFormulas(layout)
