"""The xlwings flavour of a template: computed cells that call our Excel functions.

`mechasheet template up --formulas xlwings` writes the same sheets, names and inputs as the
native template; only the cells listed here call a function of ``converter.excel.udfs`` instead
of a native formula. Each call's arguments are input cells or ranges of input cells only (a
function whose range held its own cell would be a circular reference), so the whole-sheet
functions (``UP_TOTAL``, ``PP_TOTAL``, ``MAILGEAR_SKILL_LEVEL`` …) are not used: every total
stays the native SUM of the cost cells, now the functions' figures, and mailgear's derived
values call the functions on the pilot sheet's blocks of inputs (``input_parts``). Every other
computed cell keeps its native formula (docs/excel-plugin.md lists them, and why). The writer asks :meth:`cell` and
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
        self._cells: dict[str, Callable[..., str]] = {}  # () → formula, once the names are bound
        self._rows: dict[tuple[str, str], Callable[..., str]] = {}  # (table, row index) → formula
        self._rules = ""  # the rules sheet's ルール選択 block, once the writer has named it
        self._names: dict[str, str] = {}  # the names defined before the input sheet (rules, catalog)
        getattr(self, f"_{self.system}")()

    # --- what the writer asks ------------------------------------------------------------------
    def bind(self, names: dict[str, str]) -> None:
        """The workbook's defined names once the rules sheet is written (name → reference): the
        functions are given the ルール選択 block, so that they price under the sheet's readings
        as the native formulas do."""
        from ..io.xlsx_package import parse_reference
        from ..rules.options import option_declarations

        self._names = dict(names)
        refs = [names[n] for n in (f"{self.system}.options.{o}" for o in option_declarations(self.system))
                if n in names]
        areas = [a for a in map(parse_reference, refs) if a is not None]
        if areas and len(areas) == len(refs):
            top, bottom = min(a.top for a in areas), max(a.bottom for a in areas)
            col = areas[0].left
            self._rules = (f"{sheet_prefix(areas[0].sheet)}${col_letter(col - 1)}${top + 1}:"
                           f"${col_letter(col)}${bottom + 1}")

    def _with_rules(self) -> str:
        return f",{self._rules}" if self._rules else ""

    def cell(self, name: str | None, native: str) -> str:
        """The formula of the computed cell named ``name``."""
        make = self._cells.get(name or "")
        return make() if make else native

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
    def _range(sheet: str, top: int, left: int, bottom: int, right: int) -> str:
        """The absolute reference of a rectangle (0-based, inclusive)."""
        return f"{sheet_prefix(sheet)}${col_letter(left)}${top + 1}:${col_letter(right)}${bottom + 1}"

    def _fields(self, pointers: list[str]) -> str:
        """The rectangle of the fields' input cells (one block of the input sheet)."""
        cells = [parse_a1(f.cell) for f in self.layout.fields if f.pointer in pointers]
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        return self._range(self.layout.input_sheet, min(rows), min(cols), max(rows), max(cols))

    def _named(self, names: tuple[str, ...]) -> str:
        """The rectangle the workbook's names cover (a catalog table's input columns, as long as
        the catalog the sheet was written with)."""
        from ..io.xlsx_package import parse_reference

        areas = [a for a in (parse_reference(self._names[n]) for n in names) if a is not None]
        if len(areas) < len(names):
            raise ValueError(f"a reference of {', '.join(names)} does not read")
        return self._range(areas[0].sheet, min(a.top for a in areas), min(a.left for a in areas),
                           max(a.bottom for a in areas), max(a.right for a in areas))

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

    # --- mailgear ---------------------------------------------------------------------------------
    def _mailgear(self) -> None:
        """Every value the engine derives calls a function on the input blocks it depends on; the
        helper cells (look-up keys, catalog rows, a stat's or skill's parts, the roll's dice and
        fixed part) keep their native formulas."""
        from ..rules.mailgear.tables import tables
        from .system_sheet import system_sheet

        t, layout = tables(), self.layout
        parts = system_sheet(self.system).input_parts()
        sb, bb = layout.raw["stat_block"], layout.raw["boost_block"]
        pilot = {"gear": self._fields(["/gear/model", "/gear/rank", "/gear/custom"]),
                 "stats": self._block_range("stat_block", "value_col", sb["first_row"], len(t.stat_ids)),
                 "boosts": self._block_range("boost_block", "input_col", bb["first_row"], bb["slots"]),
                 **{k: self._inputs(layout.table(k)) for k in ("skills", "equipment", "effects")}}

        def ranges(*keys: str) -> str:
            """The arguments, in order: the pilot's blocks, the catalog's tables (named once the
            catalog sheet is written), the rules block last."""
            out = [pilot[k] if k in pilot else self._named(parts[f"catalog.{k}"]) for k in keys if k != "rules"]
            return ",".join(out) + (self._with_rules() if "rules" in keys else "")

        skill = ("skills", "equipment", "effects", "options", "option_effects")
        stat = ("gear", "stats", "boosts", "equipment", "effects", "model_stats", "options", "option_effects")
        value = ("gear", "stats", "boosts", "skills", "equipment", "effects", "model_stats", "options",
                 "option_effects", "rules")
        weapon = ("gear", "stats", "boosts", "skills", "effects", "model_stats", "weapons", "options",
                  "option_effects", "rules")
        for sid, s in t.skills.items():
            for name, fn in ((f"mailgear.derived.skills.{sid}", "MAILGEAR_PILOT_SKILL"),
                             (f"mailgear.derived.skill_bonuses.{sid}", "MAILGEAR_PILOT_SKILL_BONUS")):
                self._cells[name] = lambda fn=fn, label=s.label: f'={fn}("{label}",{ranges(*skill)})'
        for sid in t.stat_ids:
            self._cells[f"mailgear.derived.stats.{sid}"] = (
                lambda label=t.stat_labels[sid]: f'=MAILGEAR_GEAR_STAT("{label}",{ranges(*stat)})')
        for did, d in t.derived.items():
            self._cells[f"mailgear.derived.{did}"] = (
                lambda label=d.label: f'=MAILGEAR_PILOT_VALUE("{label}",{ranges(*value)})')
        self._cells["mailgear.derived.slots_used"] = (
            lambda: f'=MAILGEAR_SLOTS_USED({ranges("equipment", "weapons", "options")})')
        for name, fn, pointer, table in (
                ("mailgear.pilot.level_expected", "MAILGEAR_LEVEL_FOR", "/pilot/experience", "levels"),
                ("mailgear.gear.rank_expected", "MAILGEAR_RANK_FOR", "/pilot/rank_points", "gear_ranks")):
            amount = self._field(pointer)
            self._cells[name] = (lambda fn=fn, amount=amount, table=table:
                                 f'=IF(ISNUMBER({amount}),{fn}({amount},{ranges(table)}),"")')
        weapon_kind = t.kinds["weapon"]
        for key, what in (("damage", t.derived["damage"].label),
                          *((f"hit_{b}", band.label) for b, band in t.bands.items())):
            self._rows[("equipment", key)] = lambda tb, i, what=what: (
                f'=IF({tb.cell("kind", i, True)}<>"{weapon_kind}","",'
                f'MAILGEAR_WEAPON_VALUE({pilot["equipment"]},{i + 1},"{what}",{ranges(*weapon)}))')

    # --- pp ---------------------------------------------------------------------------------------
    def _pp(self) -> None:
        from ..rules.pp.tables import ATTRIBUTE_IDS
        from .pp.rules_sheet import pp_lists

        labels = dict(pp_lists()["attributes"])
        for aid in ATTRIBUTE_IDS:
            value = self._field(f"/attributes/{aid}")
            self._cells[f"pp.attributes.{aid}.cost"] = (
                lambda label=labels[aid], value=value: f'=PP_ATTRIBUTE_COST("{label}",{value})')
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
    """The flavour for a layout."""
    return XlwingsFormulas(layout)
