"""Session fixtures for the mailgear workbook tests: every case written once, probed for red cells,
and recalculated by LibreOffice in one call."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from converter.rules.mailgear.catalog import Catalog
from converter.check.context import catalog_from
from converter.sheets.source import load_catalog
from converter.sheets import sheet_bytes, template_bytes

from .conftest import with_rule_probes
from .libreoffice import recalculate

ROOT = Path(__file__).resolve().parents[2]
MG_SAMPLES = sorted((ROOT / "samples" / "mailgear").glob("*.json"))
BROKEN_MG = sorted((ROOT / "samples" / "broken" / "mailgear").glob("*.json"))
EXAMPLE_CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"
EXAMPLE_CATALOG_SHEET = ROOT / "samples" / "mailgear" / "catalog-example.xlsx"
GENERATED_MG = 10


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def example_catalog() -> Catalog:
    return load_catalog(EXAMPLE_CATALOG)


def context_for(doc: dict) -> dict:
    """The example catalog when the document names it (as samples/make_sheets.py writes it)."""
    return {"catalog": example_catalog()} if doc.get("catalog") == example_catalog().name else {}


def catalog_names() -> list[str]:
    raw = example_catalog().raw
    return [row["name"] for table in ("models", "weapons", "options") for row in raw[table]]


@functools.lru_cache(maxsize=1)
def generated_pilots() -> list[dict]:
    """GENERATED_MG pilots from the shared strategy (catalog names, some stats left to the catalog),
    the same on every run; each has skills and equipment, so the formulas have work to do."""
    from hypothesis import HealthCheck, given, settings

    from ..strategies import mailgear_pilot

    found: list[dict] = []

    @settings(max_examples=GENERATED_MG * 4, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(mailgear_pilot(catalog_names(), stats_from_catalog=True))
    def collect(doc: dict) -> None:
        if len(found) < GENERATED_MG and doc["skills"] and len(doc["equipment"]) > 1:
            doc["catalog"] = example_catalog().name
            found.append(doc)

    collect()
    return found


def cell_of(wb, name: str, index: int = 0):
    """The openpyxl cell a defined name points at (``index`` rows down a column range)."""
    sheet, ref = next(iter(wb.defined_names[name].destinations))
    ref = ref.replace("$", "").split(":")[0]
    col = "".join(ch for ch in ref if ch.isalpha())
    return wb[sheet][f"{col}{int(''.join(ch for ch in ref if ch.isdigit())) + index}"]


def address(wb, name: str, index: int = 0) -> str:
    c = cell_of(wb, name, index)
    return f"{c.parent.title}!{c.coordinate}"


# --- edited inputs ---------------------------------------------------------------------------------

def edits(doc: dict) -> list[tuple[str, int, Any]]:
    """(name, row, new value) typed into a written sheet: the first skill one level down (or
    熱血 learned), 出力 up, a boost changed on a 専用機, and an Ａ．Ｇ．Ｓ and a マグネット・バリア
    typed in half-width katakana (voiced, the マ row: what ASC keys got wrong) added as the next
    items (their effects from the catalog sheet)."""
    out: list[tuple[str, int, Any]] = []
    if doc["skills"]:
        level = doc["skills"][0]["level"]
        out.append(("mailgear.skills.level", 0, level - 1 if level > 1 else 2))
    else:
        out += [("mailgear.skills.skill", 0, "熱血"), ("mailgear.skills.level", 0, 2)]
    out.append(("mailgear.gear.stats.output", 0, doc["gear"]["stats"]["output"] + 2))
    boosts = doc["gear"].get("boosts") or []
    if boosts and "sensor" not in boosts:
        out.append(("mailgear.gear.boosts.0", 0, "センサー"))
    n = len(doc["equipment"])
    for k, name in enumerate(TYPED_OPTIONS):
        out += [("mailgear.equipment.name", n + k, name), ("mailgear.equipment.kind", n + k, "オプション")]
    return out


# the option names edits() types: the catalog spells them Ａ．Ｇ．Ｓ and マグネット・バリア
TYPED_OPTIONS = ("Ａ．Ｇ．Ｓ", "ﾏｸﾞﾈｯﾄ･ﾊﾞﾘｱ")


def edited(doc: dict) -> dict:
    """The document the edited sheet stands for."""
    d = json.loads(json.dumps(doc))
    for name, _, value in edits(doc):
        if name == "mailgear.skills.level":
            if d["skills"]:
                d["skills"][0]["level"] = value
            else:
                d["skills"] = [{"id": "hot_blooded", "level": value}]
        elif name == "mailgear.gear.stats.output":
            d["gear"]["stats"]["output"] = value
        elif name == "mailgear.gear.boosts.0":
            d["gear"]["boosts"][0] = "sensor"
    d["equipment"] += [{"kind": "option", "name": name} for name in TYPED_OPTIONS]
    return d


def option_cases() -> dict[str, tuple[dict, dict[str, str]]]:
    """A pilot whose rolls the rules readings change (ミラクル 4, 天賦の才 3, 壊し屋 4), under
    each reading: name → (document, options)."""
    d = load(ROOT / "samples" / "mailgear" / "veteran-custom.json")
    d.pop("derived")
    for item in d["equipment"]:
        item.pop("derived", None)
    d["skills"] = [{"id": "miracle", "level": 4}, {"id": "natural_talent", "level": 3},
                   {"id": "wrecker", "level": 4}, {"id": "fleet_footed", "level": 3}]
    return {"options-default": (d, {}),
            "options-miracle-plus": (d, {"miracle_four": "plus"}),
            "options-talent-rolls": (d, {"natural_talent": "rolls"}),
            "options-talent-rolls-plus": (d, {"natural_talent": "rolls", "miracle_four": "plus"}),
            "options-talent-separate": (d, {"natural_talent": "separate"}),
            "options-copies-error": (multi_effect_pilot(), {"option_copies": "error"})}


def multi_effect_pilot() -> dict:
    """Items with several skill and stat effects (seed 001 lists no options; the example catalog's
    are invented): three ハイマニューバ・ユニット from the catalog (speed_star +1, fleet_footed +1,
    機動力 +1 each; the third adds nothing), 強化フレーム from the catalog (耐久 +10, キャパシティ
    +2), and 多機能ユニット with its own two skills and two stats. Worked by hand in
    test_libreoffice_computes_items_with_several_effects."""
    d = load(ROOT / "samples" / "mailgear" / "veteran-fortune.json")
    d.pop("derived")
    d["equipment"] = [
        {"kind": "weapon", "name": "アサルトライフル", "bands": ["sr", "mr"], "extra_damage": 3, "energy": 1},
        {"kind": "option", "name": "ハイマニューバ・ユニット"},
        {"kind": "option", "name": "ハイマニューバ・ユニット"},
        {"kind": "option", "name": "ハイマニューバ・ユニット"},
        {"kind": "option", "name": "強化フレーム"},
        {"kind": "option", "name": "多機能ユニット",
         "effects": [{"skill": "iron_wall", "levels": 1}, {"stat": "guard", "amount": 1},
                     {"skill": "wrecker", "levels": 2}, {"stat": "output", "amount": -1},
                     {"text": "架空の試験用オプション"}]},
    ]
    return d


def unsorted_ladders() -> Catalog:
    """The example catalog with its ladders (レベル, ランク) in reverse order: the sheet still reads
    the row of the highest threshold reached, as the engine does (not the last row reached)."""
    raw = json.loads(json.dumps(example_catalog().raw))
    for table in ("levels", "gear_ranks"):
        raw[table].reverse()
    return catalog_from(raw)


def multi_cases() -> dict[str, dict]:
    """Documents whose items carry several effects, from the catalog and their own."""
    return {"multi-effects": multi_effect_pilot()}


def red_cases() -> dict[str, dict]:
    """Documents made to break the rules the sheet shows in red beyond the broken samples: level
    and rank against the catalog's ladders, 専用機 flag against the rank, an unknown, a repeated
    and an unlevelled skill, an item without a kind, boosts on a gear that is no 専用機."""
    base = load(ROOT / "samples" / "mailgear" / "starting-pilot.json")
    mix = json.loads(json.dumps(base))
    mix["pilot"]["level"] = "C"
    mix["gear"]["rank"] = "D"
    mix["gear"]["custom"] = True
    mix["gear"]["boosts"] = ["sensor", "sensor", "output"]
    mix["skills"] += [{"name": "フォース", "level": 1}, {"id": "sixth_sense", "level": 2},
                      {"id": "iron_wall", "level": 0}, {"level": 2}]
    mix["equipment"].append({"name": "謎の箱"})
    plain = json.loads(json.dumps(base))
    plain["gear"]["boosts"] = ["cr", "sr", "mr"]
    plain["pilot"]["level"] = "Z"
    return {"red-mix": mix, "red-not-custom": plain}


# Sheets with 追加効果 rows typed in, as a user would: on starting-pilot (items: two weapons, then
# 思い出), a row naming row 9 (no item there) and one naming no row (MG_ITEM_EFFECT_UNATTACHED,
# red at 装備の行); a row giving 思い出 (row 3) 鉄壁 +1, and one giving the weapon of row 2 センサー
# +1 (an effect on a weapon counts nowhere).
TYPED: dict[str, list[tuple[str, int, Any]]] = {
    "red-unattached": [("mailgear.effects.item", 0, 9), ("mailgear.effects.effect_skill", 0, "壊し屋"),
                       ("mailgear.effects.effect_levels", 0, 1),
                       ("mailgear.effects.effect_stat", 1, "センサー"), ("mailgear.effects.effect_amount", 1, 2),
                       ("mailgear.effects.item", 2, 3), ("mailgear.effects.effect_skill", 2, "鉄壁"),
                       ("mailgear.effects.effect_levels", 2, 1),
                       ("mailgear.effects.item", 3, 2), ("mailgear.effects.effect_stat", 3, "センサー"),
                       ("mailgear.effects.effect_amount", 3, 1)],
    # an option whose only catalog entry is a further-effect row typed into the catalog sheet
    "catalog-typed": [("mailgear.equipment.name", 3, "新型ブースター"), ("mailgear.equipment.kind", 3, "オプション"),
                      ("catalog.option_effects.name", 2, "新型ブースター"),
                      ("catalog.option_effects.effect_skill", 2, "韋駄天"),
                      ("catalog.option_effects.effect_levels", 2, 1),
                      ("catalog.option_effects.effect_stat", 2, "機動力"),
                      ("catalog.option_effects.effect_amount", 2, 2)],
    # an Ａ．Ｇ．Ｓ whose only effect is a 追加効果 row (熱血 +1): its own, so the catalog's 鉄壁 is not
    "typed-own": [("mailgear.equipment.name", 3, "Ａ．Ｇ．Ｓ"), ("mailgear.equipment.kind", 3, "オプション"),
                  ("mailgear.effects.item", 0, 4), ("mailgear.effects.effect_skill", 0, "熱血"),
                  ("mailgear.effects.effect_levels", 0, 1)],
}


def typed_cases() -> dict[str, tuple[dict, dict]]:
    """name → (the document a TYPED sheet is written from, the document the typed sheet stands for;
    its catalog is the one its catalog sheet then holds)."""
    base = load(ROOT / "samples" / "mailgear" / "starting-pilot.json")
    typed = json.loads(json.dumps(base))
    typed["equipment"][2]["effects"].insert(0, {"skill": "iron_wall", "levels": 1})
    typed["equipment"][1]["effects"] = [{"stat": "sensor", "amount": 1}]
    typed["extra"] = {"item_effects": [{"item": 9, "effect_skill": "wrecker", "effect_levels": 1},
                                       {"effect_stat": "sensor", "effect_amount": 2}]}
    with_booster = json.loads(json.dumps(base))
    with_booster["equipment"].append({"kind": "option", "name": "新型ブースター"})
    own = json.loads(json.dumps(base))
    own["equipment"].append({"kind": "option", "name": "Ａ．Ｇ．Ｓ", "effects": [{"skill": "hot_blooded", "levels": 1}]})
    return {"red-unattached": (base, typed), "catalog-typed": (base, with_booster), "typed-own": (base, own)}


# --- the one LibreOffice run -------------------------------------------------------------------------

@dataclass
class Case:
    """One workbook written from ``doc``: what was written, and what LibreOffice made of it."""

    doc: dict | None
    context: dict
    written: Path
    options: dict = field(default_factory=dict)
    recalculated: Path | None = None
    probes: dict[str, str] = field(default_factory=dict)


def mg_workbooks(tmp_path_factory) -> dict[str, Case]:
    """Samples (good and broken), red cases, generated pilots, edited copies and the templates,
    each written once; the probed copies recalculated by LibreOffice in one call (the session
    fixture of that name in conftest.py)."""
    import openpyxl

    base = tmp_path_factory.mktemp("mg")
    src, probed = base / "src", base / "probed"
    src.mkdir()
    probed.mkdir()
    docs: dict[str, tuple[dict | None, dict, dict]] = {}
    for p in MG_SAMPLES:
        docs[p.stem] = (load(p), context_for(load(p)), {})
    for p in BROKEN_MG:
        docs[f"broken-{p.stem}"] = (load(p), context_for(load(p)), {})
    for name, doc in red_cases().items():
        docs[name] = (doc, {"catalog": example_catalog()}, {})
    for name, (_, doc) in typed_cases().items():
        docs[name] = (doc, {"catalog": example_catalog()}, {})
    for name, (doc, options) in option_cases().items():
        docs[name] = (doc, {"catalog": example_catalog()}, options)
    for name, doc in multi_cases().items():
        docs[name] = (doc, {"catalog": example_catalog()}, {})
    docs["unsorted-ladders"] = (load(ROOT / "samples" / "mailgear" / "veteran-custom.json"),
                                {"catalog": unsorted_ladders()}, {})
    for k, doc in enumerate(generated_pilots()):
        docs[f"generated-{k:02d}"] = (doc, {"catalog": example_catalog()}, {})
    cases: dict[str, Case] = {}
    write: dict[str, Callable[[], bytes]] = {}
    for name, (doc, ctx, options) in docs.items():
        write[name] = functools.partial(sheet_bytes, doc, options, ctx)
    for name, (written_from, _) in typed_cases().items():
        write[name] = functools.partial(sheet_bytes, written_from, None, {"catalog": example_catalog()})
    write["template"] = functools.partial(template_bytes, "mailgear")
    write["template-catalog"] = functools.partial(template_bytes, "mailgear", None,
                                                  {"catalog": example_catalog()})
    for name, make in write.items():
        doc, ctx, options = docs.get(name, (None, {}, {}))
        path = src / f"{name}.xlsx"
        path.write_bytes(make())
        if name in TYPED:  # cells typed into the written sheet, as a user would
            wb = openpyxl.load_workbook(path)
            for cell_name, index, value in TYPED[name]:
                cell_of(wb, cell_name, index).value = value
            wb.save(path)
        cases[name] = Case(doc, ctx, path, options)
        cases[name].probes = with_rule_probes(path, probed / path.name)
    for p in MG_SAMPLES:  # the edited copy: inputs typed into the written sheet
        doc = load(p)
        path = src / f"{p.stem}.edited.xlsx"
        path.write_bytes(sheet_bytes(doc, None, context_for(doc)))
        wb = openpyxl.load_workbook(path)
        for name, index, value in edits(doc):
            cell_of(wb, name, index).value = value
        wb.save(probed / path.name)
        cases[f"{p.stem}.edited"] = Case(edited(doc), context_for(doc), path)
    files = sorted(probed.glob("*.xlsx"))
    out = recalculate(files, base / "out", base / "profile")
    by_name = {f.stem: o for f, o in zip(files, out, strict=True)}
    for name, case in cases.items():
        case.recalculated = by_name[name]
    return cases
