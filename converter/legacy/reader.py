"""Reading a homemade sheet by its labels: which system it is, where each character or unit sits,
and each field's value, with every cell not read kept.

A grid is read in this order: tables first (a row of column labels with the rows under it: 武装,
技能, 装備), then single fields (a label with its value to the right, below, or in the same cell:
「ＨＰ：２５０」), then lists (技能 「熱血Lv2、鉄壁Lv3」). A cell holding a label is never read as
a value. Every non-empty cell that is neither a label read nor a value read is kept, with its
address and its value as written, in the document's ``extra``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..core.findings import Finding
from ..core.pointers import get, put
from ..io.xlsx_package import column_index
from . import notation
from .grid import Grid, address
from .labels import LabelSpec, SystemLabels, TableSpec, kind_words, label_key, system_labels, with_labels
from .profile import Profile

#: the fields that name a character or unit: two on one sheet are two of them
IDENTITY = {"up": "/name", "pp": "/name", "mailgear": "/pilot/name"}
RIGHT_REACH = 4  # columns a value may sit right of its label (label cells merged across count once)
# How sure a field is, by how it was found (1.0, not recorded: beside its label, in its cell, in a
# table under its header, or pinned by a profile).
UNDER_LABEL = 0.8  # under its label: a row of labels over a row of values, or a label's next line
GLUED_LEVEL = 0.7  # 「操縦3」: a name and a level with nothing between them
_SPLIT_LIST = re.compile(r"[、,，;；\n]+|\s{2,}")
# 「操縦３／機動回避２／運動１」, 「知覚Lv3・隠密Lv1」: split only when every part has its level
# (「知識／戦術2」 is one skill, 「ミナト・ハル」 one name)
_SPLIT_LEVELS = re.compile(r"[／/・･]")
_BANDS = ("cr", "sr", "mr", "lr")
# 「操縦3」, 「操縦レベル3」, 「操縦3レベル」, 「操縦３Ｌｖ」, 「操縦+3」: a level glued to its name, with
# an optional level word before or after it
_LEVEL_WORD = "(?:レベル|[LlＬｌ][VvＶｖ][.．]?)"
_GLUED_LEVEL = re.compile(rf"(.*?[^\d０-９\s+＋])\s*{_LEVEL_WORD}?\s*[+＋]?\s*([\d０-９]{{1,2}})\s*{_LEVEL_WORD}?")


@dataclass
class Detection:
    system: str | None
    confidence: float
    scores: dict[str, float]


@dataclass
class Imported:
    """One character or unit read from a sheet (or a part of one)."""

    system: str
    sheet: str
    document: dict[str, Any]
    cells: dict[str, str] = field(default_factory=dict)  # pointer → "シート!B3"
    findings: list[Finding] = field(default_factory=list)
    unmapped: dict[str, Any] = field(default_factory=dict)  # A1 → the value as written
    guessed: dict[str, float] = field(default_factory=dict)  # pointer → confidence, where below 1
    confidence: float = 1.0
    region: str | None = None  # "A1:H40" when the sheet holds several


def detect(grids: Iterable[Grid], systems: Iterable[str]) -> Detection:
    """The system whose labels the cells carry most, with a confidence in [0, 1]; None when no
    system reaches its minimum score."""
    keys: set[str] = set()
    for grid in grids:
        for value in grid.cells.values():
            if isinstance(value, str):
                keys.add(label_key(value))
                pair = notation.split_label_value(value)
                if pair:
                    keys.add(label_key(pair[0]))
    scores = {}
    for system in systems:
        spec = system_labels(system)
        scores[system] = sum(w for k, w in spec.detect.items() if k in keys)
    best = max(scores, key=scores.__getitem__, default=None)
    if best is None or scores[best] < system_labels(best).min_score:
        return Detection(None, 0.0, scores)
    total = sum(scores.values())
    strength = min(1.0, scores[best] / (2 * system_labels(best).min_score))
    return Detection(best, round(scores[best] / total * strength, 2), scores)


def read_grid(grid: Grid, system: str, confidence: float = 1.0, profile: Profile | None = None) -> list[Imported]:
    """Every character or unit of ``system`` on ``grid``: one, or one per region when the
    identity label (機体名, キャラクター名, 名前) comes more than once. A ``profile`` pins fields to
    cells (then the sheet is one character) and adds labels."""
    spec = system_labels(system)
    if profile is not None:
        spec = with_labels(spec, profile.labels)
    regions = [grid] if profile is not None and (profile.cells or profile.ranges) else _regions(grid, spec)
    out = []
    for region in regions:
        got = _SheetRead(region, spec, profile).read()
        got.confidence = confidence
        if len(regions) > 1:
            rows = [r for r, _ in region.cells]
            cols = [c for _, c in region.cells]
            got.region = f"{address(min(rows), min(cols))}:{address(max(rows), max(cols))}"
        out.append(got)
    return out


# --- one sheet, one character ---------------------------------------------------------------------

class _SheetRead:
    def __init__(self, grid: Grid, spec: SystemLabels, profile: Profile | None = None) -> None:
        self.grid = grid
        self.spec = spec
        self.profile = profile
        self.labels = spec.all_keys
        self.keys = {rc: self._key(v) for rc, v in grid.cells.items() if isinstance(v, str)}
        self.by_key: dict[str, list[tuple[int, int]]] = {}
        self.row_keys: dict[int, list[tuple[int, str]]] = {}  # row → (column, label key), left to right
        for rc in sorted(self.keys):
            self.by_key.setdefault(self.keys[rc], []).append(rc)
            self.row_keys.setdefault(rc[0], []).append((rc[1], self.keys[rc]))
        self.inline: dict[str, list[tuple[tuple[int, int], str]]] = {}  # 「ＨＰ：２５０」: label → (cell, value)
        for rc in sorted(self.keys):
            pair = notation.split_label_value(grid.cells[rc]) or self._label_then_text(grid.cells[rc])
            if pair:
                self.inline.setdefault(label_key(pair[0]), []).append((rc, pair[1]))
        self.used: set[tuple[int, int]] = set()
        self.doc: dict[str, Any] = {"system": spec.system, "format": 1}
        self.cells: dict[str, str] = {}
        self.cell_of: dict[str, tuple[int, int]] = {}  # pointer → the cell it was read from
        self.ends: list[tuple[int, set[int]]] = []  # each table read: the row that ended it, its columns
        self.findings: list[Finding] = []
        self.done: set[str] = set()  # pointers already read
        self.guessed: dict[str, float] = {}

    def _key(self, value: str) -> str:
        """A cell's label key; a compound label (「使用ＵＰ総計」) as its field's first label."""
        key = label_key(value)
        if key in self.labels or not self.spec.compound or len(key) > 16:
            return key
        target = self.spec.compound_field(key)
        fspec = next((f for f in self.spec.fields if f.target == target), None)
        return min(fspec.labels) if fspec is not None and fspec.labels else key

    def _label_then_text(self, value: str) -> tuple[str, str] | None:
        """「機体名 試作機21号」: one of this system's labels, a space, then text. Only a known
        label before the first space splits a cell (「佐伯 みのり」 is a name as written); a
        number after a label is split_label_value's already."""
        parts = value.strip().split(maxsplit=1)
        if len(parts) == 2 and label_key(parts[0]) in self.labels:
            return parts[0], parts[1]
        return None

    def read(self) -> Imported:
        if self.profile is not None:
            self._pinned(self.profile)
        for table in self.spec.tables:
            if table.pointer in self.done:
                continue
            self._table(table)
        for fspec in self.spec.fields:
            if fspec.target not in self.done:
                self._field(fspec)
        taken = self._hidden() if self.grid.hidden else set()
        if self.grid.unread_rows:
            rows = [r + 1 for r in self.grid.unread_rows]
            self.findings.append(Finding("LEGACY_ROSTER_ROW_UNREAD", "/extra/import/unmapped",
                                         {"rows": ", ".join(map(str, rows)), "count": len(rows)},
                                         self._cell((self.grid.unread_rows[0], 0))))
        unmapped = {address(r, c): v for (r, c), v in sorted({**self.grid.cells, **self.grid.hidden}.items())
                    if (r, c) not in self.used and (r, c) not in taken}
        self._total_honest(unmapped)
        return Imported(self.spec.system, self.grid.sheet, self.doc, self.cells, self.findings, unmapped,
                        self.guessed)

    def _total_honest(self, unmapped: dict[str, Any]) -> None:
        """A written total is compared only when every priced line was read: when a value could
        not be read, or a cell on a table's line was left over, the total is kept (in
        ``unmapped``, at its cell) with a finding naming the lines missing, instead of an advice
        to "correct it to N" computed without them."""
        if "/declared_total" not in self.done:
            return
        unpriced = {"/name", "/pilot", "/player", "/notes", "/declared_total", IDENTITY.get(self.spec.system)}
        gaps = [f.cell.split("!")[-1] for f in self.findings
                if f.code == "LEGACY_VALUE_UNREAD" and f.pointer not in unpriced and not f.pointer.endswith("/notes")]
        # a line that ended a table without being read (a weapon whose kind was in no column the
        # labels know, a row of a table written on after a stray label)
        ends = {(row, col) for row, columns in self.ends for col in columns}
        gaps += [a1 for a1 in unmapped if (_row_of(a1), _col_of(a1)) in ends]
        if not gaps:
            return
        rc = self.cell_of.pop("/declared_total")
        self.cells.pop("/declared_total", None)
        self.done.discard("/declared_total")
        value = self.doc.pop("declared_total")
        unmapped[address(*rc)] = self.grid.cells.get(rc, value)
        self.findings.append(Finding("LEGACY_TOTAL_NOT_COMPARED", "/extra/import/unmapped",
                                     {"total": value, "lines": ", ".join(dict.fromkeys(gaps))}, self._cell(rc)))

    def _hidden(self) -> set[tuple[int, int]]:
        """Fields no shown cell holds, read from the sheet with its hidden rows and columns
        (each with a finding at its cell); the hidden cells so read."""
        full = Grid(self.grid.sheet, {**self.grid.cells, **self.grid.hidden}, list(self.grid.merged),
                    below=dict(self.grid.below))
        other = _SheetRead(full, self.spec, self.profile)
        other.read()
        taken: set[tuple[int, int]] = set()
        pointers = [f.target for f in self.spec.fields] + [t.pointer for t in self.spec.tables]
        for pointer in pointers:
            if pointer in self.done or pointer not in other.done:
                continue
            cells = {a: rc for a, rc in other.cell_of.items() if a == pointer or a.startswith(pointer + "/")}
            if not any(rc in self.grid.hidden for rc in cells.values()):
                continue
            value = get(other.doc, pointer)
            if value is None:
                continue
            put(self.doc, pointer, value)
            self.done.add(pointer)
            for a, rc in cells.items():
                self.cells[a] = self._cell(rc)
                taken.add(rc)
            rc = cells.get(pointer) or next(iter(cells.values()))
            self.findings.append(Finding("LEGACY_HIDDEN_READ", pointer, {"field": pointer}, self._cell(rc)))
        return taken

    # -- what a profile pins
    def _pinned(self, profile: Profile) -> None:
        """Fields read from the cells a profile names, and lists from its ranges, before anything
        is read by its labels."""
        fields = {f.target: f for f in self.spec.fields}
        for pointer, rc in profile.cells.items():
            # A pinned cell is that field's only source: empty or unreadable is an error, never
            # a fallback to another cell's value.
            self.done.add(pointer)
            fspec = fields.get(pointer) or LabelSpec(pointer, "text", frozenset())
            raw = self.grid.cells.get(rc, self.grid.hidden.get(rc))  # named, so read even if hidden
            if raw is None:
                self.findings.append(Finding("PROFILE_CELL_UNREAD", pointer, {"field": pointer, "value": ""},
                                             self._cell(rc)))
            elif self._store(fspec, raw, rc):
                self.used.add(rc)
            else:
                self.findings.append(Finding("PROFILE_CELL_UNREAD", pointer,
                                             {"field": pointer, "value": str(raw)[:40]}, self._cell(rc)))
        tables = {t.pointer: t for t in self.spec.tables}
        for pointer, ((r1, c1, r2, c2), keys) in profile.ranges.items():
            table = tables.get(pointer)
            columns = {key: next((c for c in table.columns if c.target == key), None) if table else None
                       for key in keys}
            rows: list[dict[str, Any]] = []
            for r in range(r1, r2 + 1):
                row_cells = {key: (r, c1 + k) for k, key in enumerate(keys)
                             if c1 + k <= c2 and (r, c1 + k) in self.grid.cells}
                if not row_cells:
                    continue
                item: dict[str, Any] = {}
                for key, rc in row_cells.items():
                    col = columns[key] or LabelSpec(key, "int" if key == "level" else "text", frozenset())
                    self._column(col, self.grid.cells[rc], item, f"{pointer}/{len(rows)}", rc, "")
                if item:
                    rows.append(item)
            if rows:
                put(self.doc, pointer, rows)
                self.done.add(pointer)
                self._at(pointer, (r1, c1))

    # -- cells
    def _is_label(self, rc: tuple[int, int]) -> bool:
        return self.keys.get(rc, "") in self.labels

    def _cell(self, rc: tuple[int, int]) -> str:
        return f"{self.grid.sheet}!{address(*rc)}"

    def _at(self, pointer: str, rc: tuple[int, int]) -> None:
        """Where ``pointer`` was read: the cell named in the Source, and kept as (row, col)."""
        self.cells[pointer] = self._cell(rc)
        self.cell_of[pointer] = rc

    def _value_beside(self, rc: tuple[int, int]) -> tuple[int, int] | None:
        """The value of the label at ``rc``: the next cell right (within reach), else below."""
        r, c = rc
        end = self.grid.merge_end(r, c)
        for cc in range(end + 1, end + 1 + RIGHT_REACH):
            if (r, cc) in self.grid.cells:
                if (r, cc) in self.used or self._is_label((r, cc)):
                    break
                return (r, cc)
        below = (self.grid.next_row(self.grid.merge_bottom(r, c)), c)
        if below in self.grid.cells and below not in self.used and not self._is_label(below):
            return below
        return None

    # -- single fields
    def _field(self, fspec: LabelSpec) -> None:
        """The first of the field's labels, in sheet order, that has a readable value."""
        spots = sorted([(rc, None) for key in fspec.labels for rc in self.by_key.get(key, ())]
                       + [(rc, v) for key in fspec.labels for rc, v in self.inline.get(key, ())],
                       key=lambda x: x[0])
        tried = len(self.findings)  # a value that cannot be read is said only if no other can
        for rc, inline in spots:
            if rc in self.used:
                continue
            if inline is not None:
                if self._store(fspec, inline, rc):
                    self.used.add(rc)
                    break
                continue
            if fspec.kind in ("levels", "names"):
                if self._list(fspec, rc):
                    break
                continue
            if fspec.kind in ("movement", "terrain") and self._mark_grid(fspec, rc):
                break
            at = self._value_beside(rc)
            if at is not None and self._store(fspec, self.grid.cells[at], at):
                self.used.update((rc, at))
                if at[0] != rc[0]:
                    self.guessed[fspec.target] = UNDER_LABEL
                break
        else:
            return
        del self.findings[tried:]

    def _store(self, fspec: LabelSpec, raw: Any, rc: tuple[int, int]) -> bool:
        value = self._parse(fspec.kind, raw, fspec.list_id, fspec.target, rc)
        if value is None:
            return False
        if fspec.target == "/terrain" and isinstance(value, dict):
            for key, grade in value.items():
                put(self.doc, f"/terrain/{key}", grade)
        else:
            put(self.doc, fspec.target, value)
        self._at(fspec.target, rc)
        self.done.add(fspec.target)
        return True

    def _mark_grid(self, fspec: LabelSpec, rc: tuple[int, int]) -> bool:
        """空 陸 海 宇 beside the label with a mark (○ ◯ 〇 ● ✓ / × ー) or a grade under each:
        the terrains marked, or each one's grade. The headings are never the value."""
        r, c = rc
        heads: list[tuple[tuple[int, int], str]] = []
        for cc in range(c + 1, c + 2 + RIGHT_REACH):
            key = self._terrain_heading((r, cc))
            if key is not None:
                heads.append(((r, cc), key))
            elif heads or (r, cc) in self.grid.cells:
                break
        if len(heads) >= 2:  # 空 陸 海 宇 in a row, the marks under them
            under = self.grid.next_row(r)
            marks = [((under, cc), key) for (_, cc), key in heads if (under, cc) in self.grid.cells]
        else:  # 空 陸 海 宇 down a column beside the label, each mark right of its heading
            heads, rr = [], r
            while (key := self._terrain_heading((rr, c + 1))) is not None:
                heads.append(((rr, c + 1), key))
                rr = self.grid.next_row(rr)
            if len(heads) < 2:
                return False
            marks = [((hr, c + 2), key) for (hr, _), key in heads if (hr, c + 2) in self.grid.cells]
        if not marks:
            return False
        if fspec.kind == "movement":
            seen = [(at, key, notation.parse_bool(self.grid.cells[at])) for at, key in marks]
            if any(v is None for _, _, v in seen):
                return False
            value: Any = [key for _, key, v in seen if v]
        else:
            grades = {key: notation.norm(self.grid.cells[at]).upper() for at, key in marks}
            if not all(re.fullmatch(_GRADE, g) for g in grades.values()):
                return False
            value = {key: _grade(g) for key, g in grades.items()}
        if not value:
            return False
        put(self.doc, fspec.target, value)
        self._at(fspec.target, marks[0][0])
        self.done.add(fspec.target)
        self.used.update([rc, *(at for at, _ in heads), *(at for at, _ in marks)])
        return True

    def _terrain_heading(self, rc: tuple[int, int]) -> str | None:
        """The terrain a cell heads (空 陸 海 宇 or 宇宙), if it holds nothing else."""
        text = notation.norm(self.grid.cells.get(rc, "")).replace("宇宙", "宇")
        return next((k for k, mark in _TERRAINS if text == mark), None)

    def _list(self, fspec: LabelSpec, rc: tuple[int, int]) -> bool:
        """A list written beside or under its label: each cell, or each part of one cell."""
        r, c = rc
        run: list[tuple[int, int]] = []
        cc = c + 1
        while (r, cc) in self.grid.cells and (r, cc) not in self.used and not self._is_label((r, cc)):
            run.append((r, cc))
            cc += 1
        if not run:
            rr = self.grid.next_row(r)
            while (rr, c) in self.grid.cells and (rr, c) not in self.used and not self._is_label((rr, c)):
                run.append((rr, c))
                rr = self.grid.next_row(rr)
        items: list[Any] = []
        taken = []
        for at in run:
            parts = [p for p in _SPLIT_LIST.split(str(self.grid.cells[at])) if p.strip()]
            if fspec.kind == "levels":
                parts = [q for p in parts for q in self._level_parts(p)]
            got = [self._list_item(fspec, p) for p in parts]
            if not got or any(g is None for g in got):
                break
            items.extend(got)
            taken.append(at)
        if not items:
            return False
        put(self.doc, fspec.target, items)
        self._at(fspec.target, taken[0])
        self.used.update([rc, *taken])
        self.done.add(fspec.target)
        return True

    @staticmethod
    def _level_parts(text: str) -> list[str]:
        """「操縦３／機動回避２」 as its parts when each has a level; else the text whole."""
        parts = [p for p in _SPLIT_LEVELS.split(text) if p.strip()]
        if len(parts) > 1 and all(_glued_or_level(p) is not None for p in parts):
            return parts
        return [text]

    def _list_item(self, fspec: LabelSpec, text: str) -> Any:
        if fspec.kind == "names":
            return {fspec.item: text.strip()} if fspec.item else text.strip()
        level = notation.parse_level(text)
        if level is None:
            # Under a skills label, 「操縦3」 is a skill and its level (parse_level alone reads
            # digits glued to a name as part of it: 「ガンダム2」).
            level = _glued_or_level(text)
            if level is None:
                return None
            self.guessed[fspec.target] = min(self.guessed.get(fspec.target, 1.0), GLUED_LEVEL)
        name, lv = level
        if fspec.list_id:
            found = self.spec.lists.get(fspec.list_id, {}).get(label_key(name))
            name = found if found is not None else name
        return {fspec.item or "name": name, "level": lv}

    # -- tables
    def _table(self, table: TableSpec) -> None:
        for r in sorted({r for r, _ in self.grid.cells}):
            columns = self._header(table, r)
            if columns is None:
                continue
            rows: list[dict[str, Any]] = []
            rr = r + 1
            while True:
                row_cells = {key: (rr, c) for key, c in columns.items() if (rr, c) in self.grid.cells}
                labels = sum(self._is_label(rc) for rc in row_cells.values())
                # A row of labels ends the table; one label-like value in a row (「CR」 under 距離)
                # does not.
                anchor = row_cells.get(table.anchor)
                if not row_cells or (anchor is not None and self._is_label(anchor)) or 2 * labels > len(row_cells):
                    break
                item: dict[str, Any] = {}
                at = f"{table.pointer}/{len(rows)}"
                for key, rc in row_cells.items():
                    col = next(x for x in table.columns if x.target == key)
                    self._column(col, self.grid.cells[rc], item, at, rc, self.keys[(r, columns[key])])
                if item:
                    rows.append(item)
                rr = self.grid.next_row(rr)
            if rows:
                self.ends.append((rr, set(columns.values())))
                put(self.doc, table.pointer, rows)
                self.done.add(table.pointer)
                self._at(table.pointer, (r, columns[table.anchor]))
            return

    def _header(self, table: TableSpec, r: int) -> dict[str, int] | None:
        """Column key → column, if row ``r`` is this table's header (its anchor and one more)."""
        found: dict[str, int] = {}
        for c, key in self.row_keys.get(r, ()):
            if (r, c) in self.used:
                continue
            for col in table.columns:
                if key in col.labels:
                    # Two cells of the row for one column (「スキル」 over a 「スキル名」 header): the
                    # one with a value under it.
                    if col.target not in found or ((r + 1, found[col.target]) not in self.grid.cells
                                                and (r + 1, c) in self.grid.cells):
                        found[col.target] = c
                    break
        if table.anchor not in found or len(found) < 2:
            return None
        self.used.update((r, c) for c in found.values())
        return found

    def _column(self, col: LabelSpec, raw: Any, item: dict[str, Any], at: str, rc: tuple[int, int],
                header: str) -> None:
        pointer = f"{at}/{col.target}"
        value = self._parse(col.kind, raw, col.list_id, pointer, rc, keep_unknown=col.keep_unknown,
                            header=header)
        if value is None:
            return
        self.used.add(rc)
        self._at(pointer, rc)
        if col.kind == "range":
            lo, hi, post = value
            item["range"] = hi
            if lo is not None:
                item["min_range"] = lo
            if post is not None:
                item["post_move"] = post
        elif col.kind == "dice":
            item["damage"] = {"dice": value[0], "fixed": value[1]}
        elif col.target.startswith("band_"):
            if value:  # a band column's mark: the item reaches that band
                bands = item.setdefault("bands", [])
                bands.append(col.target[5:])
                bands.sort(key=_BANDS.index)
        else:
            item[col.target] = value

    # -- values
    def _parse(self, kind: str, raw: Any, list_id: str | None, pointer: str, rc: tuple[int, int], *,
               keep_unknown: bool = False, header: str = "") -> Any:
        """``raw`` read as ``kind``; None (with a warning) when it is not one."""
        if kind in ("text", "suggest", "any"):
            return raw if isinstance(raw, str) else str(raw)
        value: Any
        if kind in ("int", "enum_int"):
            value = notation.parse_int(raw)
        elif kind == "number":
            value = notation.parse_number(raw)
        elif kind == "percent":
            value = notation.parse_percent(raw)
        elif kind == "bool":
            value = notation.parse_bool(raw)
        elif kind == "enum":
            value = _enum(self.spec.lists.get(list_id or "", {}), raw)
            if value is None and keep_unknown:
                value = raw if isinstance(raw, str) else str(raw)
        elif kind == "dice":
            value = notation.parse_dice(raw)
        elif kind == "range":
            value = notation.parse_range(raw)
        elif kind == "usage":
            value = _usage(raw, header)
        elif kind == "movement":
            value = _movement(raw)
        elif kind == "terrain":
            value = _terrain(raw)
        elif kind == "code":
            value = notation.norm(raw).replace(" ", "").upper() or None
        elif kind == "specializations":
            value = _specializations(raw)
        elif kind == "bands":
            value = _bands(raw)
        else:
            value = None
        if value is None:
            ja, en = kind_words(kind)
            self.findings.append(Finding("LEGACY_VALUE_UNREAD", pointer,
                                         {"value": str(raw)[:40], "kind_ja": ja, "kind_en": en}, self._cell(rc)))
        return value


def _row_of(a1: str) -> int:
    """The zero-based row of an A1 address."""
    return int(a1.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) - 1


def _col_of(a1: str) -> int:
    """The zero-based column of an A1 address."""
    return column_index(a1.rstrip("0123456789"))


def _glued_or_level(text: str) -> tuple[str, int] | None:
    """「熱血Lv2」 or 「操縦3」 (a level glued to its name) as (name, level)."""
    level = notation.parse_level(text)
    if level is not None:
        return level
    glued = _GLUED_LEVEL.fullmatch(text.strip())
    number = notation.parse_int(glued.group(2)) if glued is not None else None
    return (glued.group(1), number) if glued is not None and number is not None else None


def _enum(choices: dict[str, Any], raw: Any) -> Any:
    """A list's value by its label or value (「右」 for 「右腕」: the one label it begins)."""
    key = label_key(str(raw))
    if key in choices:
        return choices[key]
    if key and not key.isascii():
        found = {v for k, v in choices.items() if k.startswith(key)}
        if len(found) == 1:
            return found.pop()
    return None


def _specializations(raw: Any) -> list[dict[str, Any]] | None:
    """「戦闘機4」, 「ビーム兵器Lv3、格闘武器2」: each specialisation with its level."""
    out = []
    for part in _SPLIT_LIST.split(str(raw)):
        if not part.strip():
            continue
        got = _glued_or_level(part)
        if got is None:
            return None
        out.append({"name": got[0].strip(), "level": got[1]})
    return out or None


def _bands(raw: Any) -> list[str] | None:
    """「CR」, 「SR・MR」, 「SR～MR」: the range bands named, in their order (a span fills between)."""
    text = notation.norm(raw).casefold()
    found = [b for b in _BANDS if b in text]
    if not found:
        return None
    if "~" in text and len(found) == 2:
        found = list(_BANDS[_BANDS.index(found[0]):_BANDS.index(found[1]) + 1])
    return found


# --- notations particular to one field -------------------------------------------------------------

_TERRAINS = (("air", "空"), ("land", "陸"), ("sea", "海"), ("space", "宇"))
_GRADE = r"[SABC\-−ー]"


def _movement(raw: Any) -> list[str] | None:
    """「陸・宇宙」, 「空／陸」, 「陸宇」: the movement types in the order the seed lists them."""
    text = notation.norm(raw)
    found = [key for key, mark in _TERRAINS if mark in text]
    return found or None


def _terrain(raw: Any) -> dict[str, str] | None:
    """「空A 陸A 海B 宇A」 (any order), or four grades in the order 空陸海宇 (「A/A/B/A」, 「AABA」)."""
    text = notation.norm(raw).upper()
    marks = {mark: key for key, mark in _TERRAINS}
    pairs = re.findall(r"(空|陸|海|宇)宙?\s*:?\s*(" + _GRADE + ")", text)
    if pairs:
        return {marks[m]: _grade(g) for m, g in pairs}
    grades = re.sub(r"[\s/,、]", "", text)
    if re.fullmatch(_GRADE + "{4}", grades):
        return {key: _grade(g) for (key, _), g in zip(_TERRAINS, grades, strict=True)}
    return None


def _grade(text: str) -> str:
    return "-" if text in "-−ー" else text


def _usage(raw: Any, header: str) -> dict[str, Any] | None:
    """「弾数8」, 「8発」, 「EN10」, or a bare number under a 弾数 / EN消費 column."""
    text = notation.norm(raw).upper()
    digits = re.search(r"\d+", text)
    if digits is None:
        return None
    amount = int(digits.group())
    if "EN" in text or (not re.search("[弾発回]", text) and "en" in header):
        return {"type": "en", "amount": amount}
    return {"type": "ammo", "amount": amount}


# --- several on one sheet -------------------------------------------------------------------------

def _regions(grid: Grid, spec: SystemLabels) -> list[Grid]:
    """The grid split at each identity label when it holds more than one: side by side (the
    labels on one row) or one under another."""
    identity = next((f for f in spec.fields if f.target == IDENTITY.get(spec.system)), None)
    if identity is None:
        return [grid]
    roster = _roster(grid, spec, identity)
    if roster:
        return roster
    headers = _header_rows(grid, spec)
    anchors = sorted(rc for rc, v in grid.cells.items()
                     if isinstance(v, str) and rc[0] not in headers
                     and (label_key(v) in identity.labels or _inline_label(v, identity)))
    if len(anchors) < 2:
        return [grid]
    rows = [r for r, _ in anchors]
    if max(rows) - min(rows) <= 3:  # side by side: split at the anchors' columns
        cuts = sorted({c for _, c in anchors})
        pick = lambda rc: sum(1 for x in cuts[1:] if rc[1] >= x)  # noqa: E731
    else:
        cuts = sorted({r for r, _ in anchors})
        pick = lambda rc: sum(1 for x in cuts[1:] if rc[0] >= x)  # noqa: E731
    parts = [Grid(grid.sheet) for _ in cuts]
    for rc, v in grid.cells.items():
        parts[pick(rc)].cells[rc] = v
    for m in grid.merged:
        parts[pick((m[0], m[1]))].merged.append(m)
    return [p for p in parts if p]


def _roster(grid: Grid, spec: SystemLabels, identity: LabelSpec) -> list[Grid]:
    """A roster (one row per character: a header row holding the name label and two more
    fields' labels, names under it): one region per row, each the header with that row under it
    (and that row's hidden cells). Cells above or beside the roster stay with the first."""
    owner = {key: f.target for f in spec.fields for key in f.labels}
    by_row: dict[int, dict[tuple[int, int], Any]] = {}
    for rc, x in grid.cells.items():
        by_row.setdefault(rc[0], {})[rc] = x
    for (r, c), v in sorted(grid.cells.items()):
        if not isinstance(v, str) or label_key(v) not in identity.labels:
            continue
        fields = {owner.get(label_key(x)) for x in by_row[r].values() if isinstance(x, str)}
        fields.discard(None)
        if len(fields) < 3:
            continue
        rows = []
        rr = grid.next_row(r)
        while (rr, c) in grid.cells and label_key(grid.cells[(rr, c)]) not in spec.all_keys:
            rows.append(rr)
            rr = grid.next_row(rr)
        if len(rows) < 2:
            continue
        header = by_row[r]
        columns = {cc for _, cc in header}
        unread = []  # rows on under the names holding values in the header's columns, no name
        while (rr, c) not in grid.cells and any((rr, cc) in grid.cells for cc in columns):
            unread.append(rr)
            rr = grid.next_row(rr)
        taken = {r, *rows}
        hidden_by_row: dict[int, dict[tuple[int, int], Any]] = {}
        for rc, x in grid.hidden.items():
            hidden_by_row.setdefault(rc[0] if rc[0] in taken else -1, {})[rc] = x
        parts = []
        for k, row in enumerate(rows):
            part = Grid(grid.sheet, {**header, **by_row[row]}, list(grid.merged) if k == 0 else [],
                        {**hidden_by_row.get(r, {}), **hidden_by_row.get(row, {})}, grid.hidden_rows, {r: row})
            if k == 0:  # what is neither header nor a character's row
                for other, cells in by_row.items():
                    if other not in taken:
                        part.cells.update(cells)
                part.hidden.update(hidden_by_row.get(-1, {}))
                part.unread_rows = unread
            parts.append(part)
        return parts
    return []


def _header_rows(grid: Grid, spec: SystemLabels) -> set[int]:
    """Rows that hold a table's header (its anchor column's label and one more): a 名称 there
    names a weapon's column, not a second unit."""
    by_row: dict[int, set[str]] = {}
    for (r, _), v in grid.cells.items():
        if isinstance(v, str):
            by_row.setdefault(r, set()).add(label_key(v))
    rows = set()
    for r, keys in by_row.items():
        for table in spec.tables:
            matched = {c.target for c in table.columns if c.labels & keys}
            if table.anchor in matched and len(matched) >= 2:
                rows.add(r)
    return rows


def _inline_label(value: str, fspec: LabelSpec) -> bool:
    pair = notation.split_label_value(value)
    return pair is not None and label_key(pair[0]) in fspec.labels
