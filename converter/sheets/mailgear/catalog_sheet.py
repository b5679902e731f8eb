"""The catalog sheet: the tables seed 001 names but does not give, inside the workbook.

Written from the catalog a caller passes (``context["catalog"]``), or left with empty rows for
a group to fill; read back into a :class:`~converter.rules.mailgear.catalog.Catalog` whose
findings name the catalog sheet's cells. The pilot sheet's formulas look base stats, weapon
figures and option effects up here by defined name (``catalog.<table>.<column>``).

A model is two tables here: the model list (name, notes) and one row per model and rank. An
option is a row of オプション一覧 (its first skill and first stat effect, its text) and, for each
further skill or stat effect, a row of オプションの追加効果 under the option's name.
What the sheet cannot show exactly (an unknown key, a malformed row) is kept in the
「その他（JSON）」 cell and put back when the row still reads as written.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from ...check.context import catalog_from
from ...rules.mailgear.catalog import Catalog, TABLES
from ...rules.mailgear.tables import tables
from ..layout import Layout, a1
from .formulas import MailgearFormulas, excel_key, key_stage_values, key_stages
from .view import effect_entries, extra_effects, is_number, item_entry, item_row
from ..system_sheet import FALSE, TRUE

_DEFAULTS = {"catalog": "mailgear", "format": 1}
_HEADER = (("about", "説明"), ("name", "名前"), ("json", "その他（JSON）"))


@dataclass(frozen=True)
class CatalogColumn:
    key: str
    header: str
    kind: str = "text"
    list: str | None = None
    computed: str | None = None


@dataclass(frozen=True)
class CatalogTable:
    id: str
    label: str
    rows: int
    columns: tuple[CatalogColumn, ...]

    def col(self, key: str) -> int:
        return next(j for j, c in enumerate(self.columns) if c.key == key)


def catalog_tables(layout: Layout) -> list[CatalogTable]:
    """The catalog sheet's tables; the model_stats ``stats`` column becomes one per gear stat."""
    t = tables()
    out = []
    for spec in layout.raw["catalog"]["tables"]:
        cols: list[CatalogColumn] = []
        for c in spec["columns"]:
            if c.get("kind") == "stats":
                cols += [CatalogColumn(sid, t.stat_labels[sid], "int") for sid in t.stat_ids]
            elif c["key"] == "key":  # the name's key: its stages, then the key itself
                cols += [CatalogColumn(f"key_{k + 1}", f"{c['header']}{k + 1}", computed="key_stage")
                         for k in range(key_stages() - 1)]
                cols.append(CatalogColumn(c["key"], c["header"], computed=c["computed"]))
            else:
                cols.append(CatalogColumn(c["key"], c["header"], c.get("kind", "text"), c.get("list"),
                                          c.get("computed")))
        out.append(CatalogTable(spec["id"], spec["label"], spec["rows"], tuple(cols)))
    return out


# --- catalog data ↔ sheet rows --------------------------------------------------------------------

def _plain(entry: Mapping[str, Any], keys) -> dict[str, Any]:
    return {k: entry[k] for k in keys if k in entry}


# The sheet tables whose rows come from another table's entries.
_SOURCE = {"model_stats": "models", "option_effects": "options"}


def _name_key(name: Any) -> str:
    """The key an option is found under on the sheet ('' for a name that is no text)."""
    return excel_key(name) if isinstance(name, str) else ""


def to_rows(table: CatalogTable, entries: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Sheet rows of one table (``model_stats`` from the models' ranks, ``option_effects`` from
    the options' further effects: those of the first option of each name, as the sheet finds
    options by name)."""
    keys = [c.key for c in table.columns if not c.computed]
    if table.id == "option_effects":
        rows, seen = [], set()
        for e in entries:
            k = _name_key(e.get("name"))
            if k and k not in seen:
                seen.add(k)
                rows += [{"name": e["name"], **cells} for cells in extra_effects(e)]
        return rows
    if table.id == "model_stats":
        rows = []
        for m in entries:
            ranks = m.get("ranks")
            for rank, stats in (ranks.items() if isinstance(ranks, Mapping) else ()):
                rows.append({"model": m.get("name"), "rank": rank,
                             **(_plain(stats, tables().stat_ids) if isinstance(stats, Mapping) else {})})
        return rows
    if table.id in ("weapons", "options"):
        return [_plain(item_row(e), keys) for e in entries]
    return [_plain(e, keys) for e in entries]


def from_rows(table: CatalogTable, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if table.id == "weapons":
        return [item_entry(r) for r in rows]
    if table.id == "options":
        return options_from_rows(rows, [])[0]
    return [dict(r) for r in rows]


def options_from_rows(rows: list[dict[str, Any]], further: list[dict[str, Any]]
                      ) -> tuple[list[dict[str, Any]], list[list[tuple[int, int]]]]:
    """The options of オプション一覧's rows, each with the オプションの追加効果 rows of its name (the
    first option of that name takes them); a name no option has becomes an option of its own.
    Also, for each further row, its (option index, effect index) places, for the cells."""
    first: dict[str, int] = {}
    for p, r in enumerate(rows):
        first.setdefault(_name_key(r.get("name")), p)
    first.pop("", None)
    groups: dict[int, list[int]] = {}
    orphans: dict[str, int] = {}
    for x, r in enumerate(further):
        k = _name_key(r.get("name"))
        # a name no option row has: an option of its own (one per name)
        p = first[k] if k in first else orphans.setdefault(k, len(rows) + len(orphans))
        groups.setdefault(p, []).append(x)
    places: list[list[tuple[int, int]]] = [[] for _ in further]
    out = []
    for p in range(len(rows) + len(orphans)):
        if p < len(rows):
            row = rows[p]
        else:  # the new option: the name of its first further row
            named = further[groups[p][0]]
            row = {"name": named["name"]} if "name" in named else {}
        at = len(effect_entries(row))
        for x in groups.get(p, []):
            n = len(effect_entries(further[x]))
            places[x] = [(p, at + k) for k in range(n)]
            at += n
        entry = item_entry(row, [further[x] for x in groups.get(p, [])])
        out.append({**entry, "effects": entry.get("effects", [])})
    return out, places


def further_effect(row: Mapping[str, Any], uses: Mapping[str, int]) -> dict[str, Any]:
    """The computed cells of one オプションの追加効果 row (``key``, ``eff_levels``, ``eff_amount``,
    ``used``) as their formulas compute them, and its skill and stat as the sheet shows them.
    ``uses``: name key → the pilot sheet's counted options taking the catalog's effects."""
    t = tables()
    key = "" if row.get("name") is None else excel_key(row["name"])
    out: dict[str, Any] = {"key": key, "used": uses.get(key, 0) if key else 0}
    for what, name_col, amount_col, labels in (
            ("skill", "effect_skill", "effect_levels", {k: s.label for k, s in t.skills.items()}),
            ("stat", "effect_stat", "effect_amount", t.stat_labels)):
        value, amount = row.get(name_col), row.get(amount_col)
        listed = isinstance(value, str) and value in labels  # an id: its label is in the cell
        out[what] = labels[value] if listed else None  # compared with a label only
        ok = bool(key) and listed and is_number(amount) and (what == "stat" or amount >= 1)
        out["eff_levels" if what == "skill" else "eff_amount"] = amount if ok else 0
    return out


def _models(model_rows: list[dict[str, Any]], stat_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The models: the list's rows, each with the ranks of the stat rows that name it."""
    models = [dict(r) for r in model_rows]
    by_key: dict[str, dict[str, Any]] = {}
    for m in models:
        m["ranks"] = {}
        by_key.setdefault(excel_key(m.get("name")), m)
    for row in stat_rows:
        k = excel_key(row.get("model"))
        if k not in by_key:
            by_key[k] = {"name": row.get("model"), "ranks": {}} if row.get("model") is not None \
                else {"ranks": {}}
            models.append(by_key[k])
        stats = {sid: row[sid] for sid in tables().stat_ids if sid in row}
        by_key[k]["ranks"][_as_text(row.get("rank", ""))] = stats
    return models


# Which document pointer (below the row) a catalog column fills: findings name that cell.
_COLUMN_POINTER = {**{f"band_{b}": "/bands" for b in ("cr", "sr", "mr", "lr")},
                   **{k: "/effects" for k in ("effect_skill", "effect_levels", "effect_stat",
                                              "effect_amount", "effect_text")}}


class CatalogSheet:
    """Writes and reads the catalog sheet of one layout."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.sheet = layout.raw["catalog"]["sheet"]
        self.first_row = layout.raw["catalog"]["first_row"] - 1
        self.tables = catalog_tables(layout)
        self.by_id = {t.id: t for t in self.tables}
        self.q = f"'{self.sheet}'"

    # --- writing -----------------------------------------------------------------------------
    def write(self, wb, catalog: Catalog | None, fmt: dict[str, Any],
              lists: Mapping[str, list[tuple[Any, str]]], uses: Mapping[str, int] | None = None,
              amounts: Mapping[str, Any] | None = None) -> None:
        """Add the catalog sheet to ``wb`` with ``catalog`` (or empty rows) and name its ranges.
        ``uses``: name key → the pilot's counted options taking the catalog's effects (the cached
        result of オプションの追加効果's このシートで); ``amounts``: ladder table → the pilot's
        amount it is read with (経験, 階級), for the 到達 cells' cached results."""
        raw: Mapping[str, Any] = catalog.raw if catalog is not None else {}
        ws = wb.add_worksheet(self.sheet)
        ws.write(0, 0, "カタログ（本文にない表: グループが用意するもの）", fmt["title"])
        ws.set_column(0, 0, 16)
        ws.set_column(1, 20, 11)
        header = {"about": raw.get("about"), "name": raw.get("name"), "json": self._rest(raw)}
        for r, (key, label) in enumerate(_HEADER, start=1):
            ws.write(r, 0, label, fmt["label"])
            value = header[key] if isinstance(header[key], str) else None
            self._value(ws, r, 1, value, "text", None, fmt, lists)
            wb.define_name(f"catalog.{key}", f"={self.q}!{a1(r, 1, True)}")
        row = self.first_row
        f = MailgearFormulas(self.layout)
        for table in self.tables:
            rows = to_rows(table, self.entries(raw, table.id)[0])
            n = max(table.rows, len(rows))
            ws.write(row, 0, table.label, fmt["label"])
            hr = row + 1
            ws.add_table(hr, 0, hr + n, len(table.columns) - 1, {
                "name": f"catalog_{table.id}", "style": "Table Style Light 9", "autofilter": False,
                "columns": [{"header": c.header} for c in table.columns]})
            for i in range(n):
                r = hr + 1 + i
                data = rows[i] if i < len(rows) else None
                for j, col in enumerate(table.columns):
                    if col.computed:
                        formula, value = self._computed(f, table, col, r, data, uses or {},
                                                        (amounts or {}).get(table.id))
                        ws.write_formula(r, j, formula, fmt["calc"], value)
                    else:
                        self._value(ws, r, j, data.get(col.key) if data else None, col.kind, col.list,
                                    fmt, lists)
            for j, col in enumerate(table.columns):
                self._validate(ws, hr + 1, j, hr + n, col)
                wb.define_name(f"catalog.{table.id}.{col.key}",
                               f"={self.q}!{a1(hr + 1, j, True)}:{a1(hr + n, j, True)}")
            row = hr + n + 2

    def entries(self, raw: Mapping[str, Any], table_id: str) -> tuple[list[Any], list[int]]:
        """The rows a table shows (objects that fill a cell) and the indices of the others."""
        source = _SOURCE.get(table_id, table_id)
        shown_as = self.by_id[source]
        value = raw.get(source)
        entries, skipped = [], []
        for i, e in enumerate(value if isinstance(value, list) else []):
            if isinstance(e, Mapping) and any(v is not None for v in to_rows(shown_as, [e])[0].values()):
                entries.append(e)
            else:
                skipped.append(i)
        return entries, skipped

    def _back(self, table: CatalogTable, entries: list[Any]) -> list[Any]:
        """What ``entries`` read back as, written to this sheet (a blank cell reads as absent)."""
        def rows(t: CatalogTable, es: list[Any]) -> list[dict[str, Any]]:
            return [{k: v for k, v in r.items() if v is not None} for r in to_rows(t, es)]

        if table.id == "models":
            stats = self.by_id["model_stats"]
            return [_models(from_rows(table, rows(table, [e])), from_rows(stats, rows(stats, [e])))[0]
                    for e in entries]
        if table.id == "options":
            return options_from_rows(rows(table, entries), rows(self.by_id["option_effects"], entries))[0]
        return from_rows(table, rows(table, entries))

    def _rest(self, raw: Mapping[str, Any]) -> str | None:
        """The JSON cell: top-level keys without a cell, rows kept as they were, rows set aside."""
        rest: dict[str, Any] = {}
        top = {k: v for k, v in raw.items()
               if (k not in (*_DEFAULTS, "about", "name", *TABLES))
               or (k in _DEFAULTS and v != _DEFAULTS[k])
               or (k in TABLES and not isinstance(v, list))
               or (k in ("about", "name") and not isinstance(v, str))}
        if top:
            rest["top"] = top
        if raw and any(k not in raw for k in _DEFAULTS):
            rest["absent"] = [k for k in _DEFAULTS if k not in raw]
        if any(raw.get(k) == [] for k in TABLES):
            rest["empty"] = [k for k in TABLES if raw.get(k) == []]
        for table in self.tables:
            if table.id in _SOURCE:
                continue
            entries, skip = self.entries(raw, table.id)
            if skip:
                rest.setdefault("skipped", {})[table.id] = {str(i): raw[table.id][i] for i in skip}
            for p, (e, back) in enumerate(zip(entries, self._back(table, entries), strict=False)):
                if back != e:
                    rest.setdefault("kept", {}).setdefault(table.id, {})[str(p)] = \
                        {"if": back, "then": copy.deepcopy(e)}
        return json.dumps(rest, ensure_ascii=False, sort_keys=True) if rest else None

    @staticmethod
    def _computed(f: MailgearFormulas, table: CatalogTable, col: CatalogColumn, r: int,
                  data: Mapping[str, Any] | None, uses: Mapping[str, int], amount: Any = None):
        """A computed cell's formula and its cached result: a row's key (or a stage of it), a
        ladder row's threshold reached, or what a further option effect adds."""
        if col.key == "reached":
            first = table.columns[0].key
            threshold = (data or {}).get(first)
            ok = is_number(threshold) and is_number(amount) and threshold <= amount
            return f.catalog_reached(table.id, a1(r, table.col(first))), threshold if ok else ""
        if col.computed == "key_stage":
            return CatalogSheet._key_stage(table, r, data, int(col.key.rsplit("_", 1)[1]) - 1)
        formula, value = CatalogSheet._key(f, table, r, data)
        if col.key == "key":
            return formula, value
        k = a1(r, table.col("key"))
        cells = further_effect(data or {}, uses)
        if col.key == "eff_levels":
            formula = f.catalog_effect_levels(k, a1(r, table.col("effect_skill")), a1(r, table.col("effect_levels")))
        elif col.key == "eff_amount":
            formula = f.catalog_effect_amount(k, a1(r, table.col("effect_stat")), a1(r, table.col("effect_amount")))
        else:
            formula = f.catalog_effect_used(k)
        return formula, cells[col.key]

    @staticmethod
    def _named(table: CatalogTable) -> str:
        """The column whose name a table's key folds."""
        return "model" if table.id == "model_stats" else "name"

    @staticmethod
    def _key_stage(table: CatalogTable, r: int, data: Mapping[str, Any] | None, k: int):
        """Stage ``k`` of a row's key: its formula and cached result."""
        before = a1(r, table.col(f"key_{k}")) if k else a1(r, table.col(CatalogSheet._named(table)))
        value = key_stage_values((data or {}).get(CatalogSheet._named(table)))[k]
        return MailgearFormulas.catalog_key_stage(k, before), value

    @staticmethod
    def _key(f: MailgearFormulas, table: CatalogTable, r: int, data: Mapping[str, Any] | None):
        """The key formula of a row and its cached result."""
        n = key_stages()
        named = CatalogSheet._named(table)
        before = a1(r, table.col(f"key_{n - 1}") if n > 1 else table.col(named))
        if table.id == "model_stats":
            m, k = a1(r, table.col("model")), a1(r, table.col("rank"))
            if not data:
                return f.catalog_model_key(m, k, before), ""
            return (f.catalog_model_key(m, k, before),
                    f"{excel_key(data.get('model'))}|{_as_text(data.get('rank'))}")
        value = "" if not data or data.get("name") is None else excel_key(data["name"])
        return f.catalog_item_key(a1(r, table.col(named)), before), value

    @staticmethod
    def _value(ws, r: int, c: int, value: Any, kind: str, list_id: str | None, fmt, lists) -> None:
        cell_fmt = fmt["input"]
        labels = dict(lists[list_id]) if list_id else {}
        if value is None:
            ws.write_blank(r, c, None, cell_fmt)
        elif kind == "bool" and isinstance(value, bool):
            ws.write_string(r, c, TRUE if value else FALSE, cell_fmt)
        elif kind == "enum" and isinstance(value, str) and value in labels:
            ws.write_string(r, c, labels[value], cell_fmt)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            ws.write_number(r, c, value, cell_fmt)
        elif isinstance(value, str):
            ws.write_string(r, c, value, cell_fmt)  # never a formula, whatever it starts with
        else:
            ws.write_string(r, c, json.dumps(value, ensure_ascii=False), cell_fmt)

    @staticmethod
    def _validate(ws, first: int, col: int, last: int, c: CatalogColumn) -> None:
        if c.kind == "bool":
            ws.data_validation(first, col, last, col, {"validate": "list", "source": [TRUE, FALSE]})
        elif c.kind == "enum":
            ws.data_validation(first, col, last, col, {"validate": "list", "source": f"=list.{c.list}"})
        elif c.kind == "int":
            ws.data_validation(first, col, last, col, {"validate": "integer", "criteria": "between",
                                                       "minimum": -10 ** 6, "maximum": 10 ** 7})

    # --- reading -----------------------------------------------------------------------------
    def read(self, rd) -> Catalog | None:
        """The catalog the sheet holds (None when it is empty or missing), findings at its cells."""
        if rd.named.destination("catalog.name") is None:
            return None
        return self._read(rd, f"{rd.named.path}#{self.sheet}")

    def _read(self, rd, source: str) -> Catalog | None:
        from ..cells import CellReader

        named = rd.named
        conv = CellReader(named, rd.lists)  # its own findings: the catalog's schema words them
        cells: dict[str, str] = {}
        raw: dict[str, Any] = dict(_DEFAULTS)
        found = False
        for key in ("about", "name"):
            v = conv.value(f"catalog.{key}", "text", f"/{key}")
            if v is not None:
                raw[key], found = v, True
                cells[f"/{key}"] = conv.cell_of(f"catalog.{key}")
        rest = _json_cell(named.raw("catalog.json"))
        found = found or bool(rest)
        read = {t.id: self._read_table(conv, t) for t in self.tables}
        if not found and not any(read.values()):
            return None
        for table in self.tables:
            if table.id in ("models", "model_stats", "option_effects"):
                continue
            row_cells = [c for _, c in read[table.id]]
            if table.id == "options":
                rows, places = options_from_rows([r for r, _ in read["options"]],
                                                 [r for r, _ in read["option_effects"]])
                row_cells += [{} for _ in range(len(rows) - len(row_cells))]
                for (_, c), at in zip(read["option_effects"], places, strict=True):
                    for p, k in at:
                        if p >= len(read["options"]) and "name" in c:
                            row_cells[p].setdefault("name", c["name"])
                        for field, col in (("skill", "effect_skill"), ("levels", "effect_levels"),
                                           ("stat", "effect_stat"), ("amount", "effect_amount")):
                            if col in c and field in rows[p]["effects"][k]:
                                row_cells[p].setdefault(f"/effects/{k}/{field}", c[col])
                                row_cells[p].setdefault(f"/effects/{k}", c[col])
            else:
                rows = from_rows(table, [r for r, _ in read[table.id]])
            _put(raw, cells, table.id, rows, row_cells, rest)
        models, model_cells = self._read_models(read["models"], read["model_stats"])
        _put(raw, cells, "models", models, model_cells, rest)
        for key in rest.get("empty", []):
            raw.setdefault(key, [])
        raw.update(rest.get("top", {}))
        for key in rest.get("absent", []):
            raw.pop(key, None)
        return catalog_from(raw, cells=cells, source=source)

    @staticmethod
    def _read_models(listed, stat_rows) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """The models with their ranks, and each model's cells (pointer below the model → cell)."""
        models = _models([r for r, _ in listed], [r for r, _ in stat_rows])
        cells: list[dict[str, str]] = [{f"/{k}": v for k, v in c.items()} for _, c in listed]
        cells += [{} for _ in range(len(models) - len(cells))]
        keys = [excel_key(m.get("name")) for m in models]
        for row, c in stat_rows:
            j = keys.index(excel_key(row.get("model")))
            rank = _as_text(row.get("rank", ""))
            for k, cell in c.items():
                if k == "model":
                    cells[j].setdefault("/name", cell)
                elif k == "rank":
                    cells[j][f"/ranks/{rank}"] = cell
                else:
                    cells[j][f"/ranks/{rank}/{k}"] = cell
                cells[j].setdefault("/ranks", cell)
        return models, cells

    @staticmethod
    def _read_table(conv, table: CatalogTable) -> list[tuple[dict[str, Any], dict[str, str]]]:
        """(row, column key → cell) of each row with an input cell filled."""
        out = []
        for i in range(conv.named.length(f"catalog.{table.id}.{table.columns[0].key}")):
            row: dict[str, Any] = {}
            cells: dict[str, str] = {}
            for col in table.columns:
                if col.computed:
                    continue
                name = f"catalog.{table.id}.{col.key}"
                raw = conv.raw(name, i)
                if raw is None or (isinstance(raw, str) and not raw.strip()):
                    continue
                cell = conv.cell_of(name, i)
                row[col.key] = _convert(conv, raw, col, cell)
                cells[col.key] = cell
            if row:
                out.append((row, cells))
        return out


def _convert(conv, raw: Any, col: CatalogColumn, cell: str) -> Any:
    """A catalog cell as catalog data; what does not convert is kept for the schema to name."""
    if col.kind == "int":
        return conv.to_int(raw, "", cell)
    if col.kind == "bool":
        return conv.to_bool(raw, "", cell)
    if col.kind == "enum":
        return conv.to_enum(raw, col.list or "", "", cell)
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if col.kind == "any":
        return raw
    return raw if isinstance(raw, str) else str(raw)


def _put(raw: dict[str, Any], cells: dict[str, str], table: str, rows: list[Any],
         row_cells: list[dict[str, str]], rest: Mapping[str, Any]) -> None:
    """A table's rows into ``raw`` (kept originals put back, set-aside rows reinserted), and
    each cell under its catalog pointer."""
    for index, rec in rest.get("kept", {}).get(table, {}).items():
        p = int(index) if str(index).isdigit() else -1
        if 0 <= p < len(rows) and isinstance(rec, Mapping) and rows[p] == rec.get("if"):
            rows[p] = copy.deepcopy(rec.get("then"))
    skipped = rest.get("skipped", {}).get(table, {})
    for index in sorted(skipped, key=lambda s: int(s) if str(s).isdigit() else 10 ** 9):
        i = int(index) if str(index).isdigit() else len(rows)
        rows.insert(min(i, len(rows)), skipped[index])
    set_aside = {min(int(i), len(rows)) for i in skipped if str(i).isdigit()}
    shown_at = [i for i in range(len(rows)) if i not in set_aside]  # sheet row → list index
    for p, c in enumerate(row_cells):
        if p >= len(shown_at):
            break
        for key, cell in c.items():
            below = key if key.startswith("/") else _COLUMN_POINTER.get(key, f"/{key}")
            cells.setdefault(f"/{table}/{shown_at[p]}{below}", cell)
            cells.setdefault(f"/{table}/{shown_at[p]}", cell)
    if rows:
        raw[table] = rows


def _json_cell(text: Any) -> dict[str, Any]:
    if not text:
        return {}
    try:
        rest = json.loads(text)
    except (TypeError, ValueError):
        return {"top": {"extra": {"_unparsed": str(text)}}}
    return rest if isinstance(rest, dict) else {"top": {"extra": {"_unparsed": rest}}}


def _as_text(value: Any) -> str:
    """A cell value as text (a whole number without ``.0``), as ``&`` joins it in a formula."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
