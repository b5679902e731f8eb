"""The catalog: the tables seed 001 points at but does not contain, as a group supplies them.

The seed is an excerpt. It names a level ladder, the 階級→rank table, the unit-level table, gear
models, weapons and options, and gives none of them. A group writes them once, as a JSON file
(``--catalog``) or as the workbook's catalog sheet, and every pilot sheet is checked against it.
The catalog has its own schema (``schemas/mailgear-catalog.schema.json``, generated here from the
rule tables); each problem in it is a finding whose pointer is into the catalog, and, when the
catalog came from a sheet, whose cell is the catalog sheet's cell.

Standard library only: the rules a schema cannot say are checked here, from data. Reading a
catalog file and validating it against the schema are the front end's (``converter.io``), which
passes the schema's findings in; the engine reads a catalog defensively either way, so the CLI and
an Excel function derive the same values from the same catalog.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Iterable, Iterator

from ...core.findings import Finding, Severity
from ...core import pointers
from ...core.pointers import pointer
from ...core.coerce import as_int
from ..tables_file import both
from .schema import LEVEL_PATTERN, RANK_PATTERN, band_enum, effect_schema, stats_object
from .tables import MailgearTables, name_key, tables

CATALOG_FORMAT = 1
CATALOG_SCHEMA_ID = "https://mechasheet.invalid/schemas/mailgear-catalog.schema.json"
TABLES = ("levels", "gear_ranks", "unit_levels", "models", "weapons", "options")
# Each ladder: its rows' threshold field and its value field. Thresholds rise strictly.
LADDERS = {"levels": ("experience", "level"), "gear_ranks": ("rank_points", "rank"),
           "unit_levels": ("min", "unit_level")}
NAMED = ("models", "weapons", "options")


def build_catalog_schema() -> dict[str, Any]:
    """The catalog's JSON Schema, generated from the same tables as the document's."""
    t = tables()
    titles = {k: v["label"] for k, v in t.catalog_tables.items()}

    def ladder(threshold: dict[str, Any], value: dict[str, Any], table: str) -> dict[str, Any]:
        key, val = LADDERS[table]
        return {"type": "array", "title": titles[table], "items": {
            "type": "object",
            "properties": {key: threshold, val: value, "note": {"type": "string"}},
            "required": [key, val], "additionalProperties": False}}

    named = {"name": {"type": "string", "minLength": 1, "title": "名称"},
             "slots": {"type": "integer", "minimum": 1, "default": 1, "title": "使用スロット数"},
             "energy": {"type": "integer", "minimum": 0, "default": 0, "title": "消費エネルギー"},
             "notes": {"type": "string"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": CATALOG_SCHEMA_ID,
        "title": "mechasheet: mailgear catalog (メイルギアのカタログ: 本文にない表)",
        "description": ("Generated from converter/rules/mailgear/tables.toml by "
                        "converter.rules.mailgear.catalog.catalog_schema_text(). Do not edit."),
        "type": "object",
        "properties": {
            "about": {"type": "string", "title": "このカタログについて（出典・サンプルかどうか）"},
            "catalog": {"const": "mailgear"},
            "format": {"type": "integer", "minimum": 1, "maximum": CATALOG_FORMAT},
            "name": {"type": "string", "title": "カタログ名"},
            "levels": ladder({"type": "integer", "minimum": 0, "title": "必要な経験"},
                             {"type": "string", "pattern": LEVEL_PATTERN, "title": "レベル"}, "levels"),
            "gear_ranks": ladder({"type": "integer", "minimum": 0, "title": "階級"},
                                 {"type": "string", "pattern": RANK_PATTERN,
                                  "title": "メイルギアのランク（＋は専用機）"}, "gear_ranks"),
            "unit_levels": ladder({"type": "integer", "minimum": 0,
                                   "title": "（経験＋階級）の平均（切り捨て）"},
                                  {"type": ["string", "integer"], "title": "ユニット・レベル"},
                                  "unit_levels"),
            "models": {"type": "array", "title": titles["models"], "items": {
                "type": "object",
                "properties": {
                    "name": named["name"],
                    "ranks": {"type": "object", "minProperties": 1,
                              "propertyNames": {"pattern": LEVEL_PATTERN},
                              "additionalProperties": stats_object(t, "このランクの基本性能"),
                              "title": "ランク（＋なし）ごとの基本性能"},
                    "notes": named["notes"]},
                "required": ["name", "ranks"], "additionalProperties": False}},
            "weapons": {"type": "array", "title": titles["weapons"], "items": {
                "type": "object",
                "properties": {**named,
                               "bands": {"type": "array", "minItems": 1, "uniqueItems": True,
                                         "items": band_enum(t), "title": "距離"},
                               "extra_damage": {"type": "integer", "default": 0, "title": "追加ダメージ"}},
                "required": ["name", "bands"], "additionalProperties": False}},
            "options": {"type": "array", "title": titles["options"], "items": {
                "type": "object",
                "properties": {**named,
                               "effects": {"type": "array", "items": effect_schema(t), "title": "効果"},
                               "durability": {"type": "integer", "minimum": 0, "title": "耐久"},
                               "uses": {"type": ["integer", "null"], "minimum": 1, "title": "使用回数"}},
                "required": ["name", "effects"], "additionalProperties": False}},
            "extra": {"type": "object", "title": "その他の表（mechasheet は読みません）"},
        },
        "required": ["catalog", "format"],
        "additionalProperties": False,
    }


def catalog_schema_text() -> str:
    """The catalog schema as committed in ``schemas/mailgear-catalog.schema.json``."""
    return json.dumps(build_catalog_schema(), ensure_ascii=False, indent=2) + "\n"


@dataclass
class Catalog:
    """A group's catalog with its findings. Look-ups read it defensively (rows that are not
    objects are skipped, values checked where used), so a flawed catalog still serves.

    (Not to be confused with the finding-code catalog of :mod:`converter.findings`.)"""

    raw: Mapping[str, Any]
    findings: list[Finding] = field(default_factory=list)
    cells: Mapping[str, str] = field(default_factory=dict)
    source: str = ""

    @classmethod
    def from_data(cls, raw: Any, *, cells: Mapping[str, str] | None = None, source: str = "",
                  structure: Iterable[Finding] = ()) -> "Catalog":
        """Check ``raw`` (the rules a schema cannot say) and wrap it; ``structure`` are the
        schema's findings, when the caller validated it.

        ``cells`` maps JSON pointers of the catalog to the cells they were read from (the
        catalog sheet); a finding takes the cell of the deepest pointer that has one.
        """
        cat = cls(raw if isinstance(raw, Mapping) else {}, [], dict(cells or {}), source)
        found = [*structure, *_rule_findings(cat.raw)]
        cat.findings = [f.at(cell=cat.cell_for(f.pointer)) for f in found]
        return cat

    @property
    def valid(self) -> bool:
        return not any(f.level is Severity.ERROR for f in self.findings)

    @property
    def name(self) -> str:
        return str(self.raw.get("name") or self.source or "")

    def cell_for(self, where: str) -> str:
        """The cell of ``where`` or of its nearest parent that has one ('' if none)."""
        return pointers.nearest(where, self.cells)

    def has(self, table: str) -> bool:
        """Whether the catalog gives ``table`` (a non-empty list of usable rows)."""
        return bool(self.rows(table))

    def rows(self, table: str) -> list[tuple[int, Mapping[str, Any]]]:
        """(index, row) of ``table``'s rows that are objects; others were reported."""
        rows = self.raw.get(table)
        if not isinstance(rows, list):
            return []
        return [(i, r) for i, r in enumerate(rows) if isinstance(r, Mapping)]

    def ladder_value(self, table: str, amount: float) -> Any:
        """The value of the last row whose threshold ``amount`` reaches; None below the first."""
        key, val = LADDERS[table]
        rows = ((as_int(row.get(key)), row.get(val)) for _, row in self.rows(table))
        reached = [(threshold, value) for threshold, value in rows
                   if threshold is not None and threshold <= amount]
        return max(reached, key=lambda pair: pair[0])[1] if reached else None

    def ladder_values(self, table: str) -> list[Any]:
        _, val = LADDERS[table]
        return [row.get(val) for _, row in self.rows(table)]

    def lookup(self, table: str, name: Any) -> tuple[str, Mapping[str, Any]] | None:
        """(pointer, entry) of the entry named ``name`` in a named table (names compared loosely)."""
        if not isinstance(name, str):
            return None
        key = name_key(name)
        return next(((pointer(table, i), row) for i, row in self.rows(table)
                     if isinstance(row.get("name"), str) and name_key(row["name"]) == key), None)


def missing_table(table: str, where: str = "") -> Finding:
    """The info finding for a check skipped because the catalog lacks ``table``."""
    spec = tables().catalog_tables[table]
    return Finding("MG_CATALOG_TABLE_MISSING", where,
                   {"table": table, "label": spec["label"], "enables_ja": spec["enables_ja"],
                    "enables_en": spec["enables_en"]})


def as_catalog(catalog: "Catalog | Mapping[str, Any] | None") -> Catalog | None:
    """Accept what a caller has: a Catalog or its raw data (a file is read by the front end,
    ``converter.sheets.source.load_catalog``)."""
    if catalog is None or isinstance(catalog, Catalog):
        return catalog
    if not isinstance(catalog, Mapping):
        raise TypeError(f"a catalog is a Catalog or its data (a mapping), not {type(catalog).__name__}")
    return Catalog.from_data(catalog)


# --- checks ----------------------------------------------------------------------------------------

def _rule_findings(raw: Mapping[str, Any]) -> Iterator[Finding]:
    """What the schema cannot say: rising ladders, unique names, ranks the rank table knows."""
    cat = Catalog(raw)
    for table, (key, val) in LADDERS.items():
        label = _table(table)
        last: int | None = None
        seen: dict[str, int] = {}
        for i, row in cat.rows(table):
            threshold = as_int(row.get(key))
            if threshold is not None:
                if last is not None and threshold <= last:
                    yield Finding("MG_CATALOG_ORDER", pointer(table, i, key),
                                  {**label, "value": threshold, "previous": last})
                last = threshold if last is None else max(last, threshold)
            value = row.get(val)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                if str(value) in seen:
                    yield Finding("MG_CATALOG_DUPLICATE", pointer(table, i, val),
                                  {**label, "name": value, "first": seen[str(value)]})
                seen.setdefault(str(value), i)
    for table in NAMED:
        label = _table(table)
        seen = {}
        for i, row in cat.rows(table):
            name = row.get("name")
            if not isinstance(name, str):
                continue
            if name_key(name) in seen:
                yield Finding("MG_CATALOG_DUPLICATE", pointer(table, i, "name"),
                              {**label, "name": name, "first": seen[name_key(name)]})
            seen.setdefault(name_key(name), i)
    yield from _model_rank_findings(cat, tables())


def _table(table: str) -> dict[str, str]:
    """A catalog table's name in a finding, in each language (table_ja, table_en)."""
    spec = tables().catalog_tables[table]
    return both("table", spec["label"], spec["label_en"])


def _model_rank_findings(cat: Catalog, t: MailgearTables) -> Iterator[Finding]:
    """A model's rank must be one the rank table gives (its letters, without the 専用機 +)."""
    known = {str(r).rstrip(t.custom_mark) for r in cat.ladder_values("gear_ranks") if isinstance(r, str)}
    if not known:
        return
    for i, row in cat.rows("models"):
        ranks = row.get("ranks")
        if not isinstance(ranks, Mapping):
            continue
        for rank in ranks:
            if rank not in known:
                yield Finding("MG_CATALOG_RANK_UNKNOWN", pointer("models", i, "ranks", rank),
                              {"model": row.get("name"), "rank": rank, "choices": sorted(known)})
