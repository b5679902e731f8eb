"""The engine as Excel functions (xlwings, classic and Lite): one source for both runtimes.

Each function is a thin wrapper: it reads its cells (``values``, ``grids``) into a document,
calls the system's engine, and returns what the Evaluation holds at one place; no rule is
written here. Functions on single items take the item's cells; functions on a whole sheet take
the sheet's ranges copied from one of our templates (from its cell A1; a template's sheet is
recognised by its title); mailgear's input-only functions take the pilot sheet's blocks of input
cells (``SystemSheet.input_parts``), so that a cell of that sheet may call them. Names are upper case with the system's prefix; parameters are
positional, optional ones with defaults (Excel passes by position in both runtimes). A cell the
engine cannot price raises a short message (Japanese / English) instead of a wrong number.

In Lite's ``main.py``: ``from converter.excel.udfs import *``. In classic xlwings: ``UDF Modules``
= ``converter.excel.udfs`` (docs/excel-plugin.md).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from ..core.evaluation import Evaluation
from ..core.findings import Finding
from . import values
from .errors import excel_error, finding_error
from .registration import arg, func

__all__ = ["MAILGEAR_DERIVED", "MAILGEAR_FORTUNE", "MAILGEAR_GEAR_STAT", "MAILGEAR_LEVEL_FOR", "MAILGEAR_PILOT_SKILL",
           "MAILGEAR_PILOT_SKILL_BONUS", "MAILGEAR_PILOT_VALUE", "MAILGEAR_RANK_FOR", "MAILGEAR_SKILL_LEVEL",
           "MAILGEAR_SLOTS", "MAILGEAR_SLOTS_USED", "MAILGEAR_STAT", "MAILGEAR_WEAPON_VALUE", "PP_ATTRIBUTE_COST",
           "PP_INITIATIVE", "PP_SKILL_COST", "PP_SPECIALIZATION_COST", "PP_TOTAL", "PP_UNIT_INITIATIVE",
           "SHEET_CHECK", "UP_ABILITY_COST", "UP_REMAINING", "UP_STAT_COST", "UP_TOTAL", "UP_WEAPON_COST"]

_RULES = ("ルール選択（ルールシートの選択ルールと値の２列、任意） / the rules readings (the rules sheet's "
          "two columns of option and value; optional)")
_SHEETS = "シートの範囲（テンプレートのシートを A1 から） / a sheet's range, from its cell A1"
_MORE = "続くシートの範囲（任意） / another sheet's range (optional)"


# --- reading arguments ---------------------------------------------------------------------------

def _enum(system: str, list_id: str, value: Any, what: str) -> Any:
    """A cell naming an entry of one of the sheet's lists (its label or id), as the reader
    takes it; an error naming the choices when it is none of them."""
    from ..sheets.cells import CellReader
    from ..sheets.system_sheet import system_sheet

    raw = values.scalar(value)
    if raw is None or raw == 0:
        raise excel_error("excel_missing", what=what)
    # a reader without a workbook: to_enum reads only the lists (CellReader types ``named`` as
    # required; sheets/cells.py owns that signature)
    rd = CellReader(None, system_sheet(system).lists())  # type: ignore[arg-type]
    got = rd.to_enum(raw, list_id, "", "")
    if rd.findings:
        raise excel_error("excel_not_in_list", what=what, value=raw,
                          choices="、".join(map(str, rd.findings[0].params["choices"])))
    return got


def _int(value: Any, what: str, default: int | None = None) -> int | None:
    """A whole number from a cell (3.0, "３", "3"); ``default`` when blank."""
    raw = values.scalar(value)
    if raw is None:
        return default
    got = _reader().to_int(raw, "", "")
    if not isinstance(got, int) or isinstance(got, bool):
        raise excel_error("excel_not_integer", what=what, value=raw)
    return got


def _reader():
    """A reader of loose cell values, new each call: the findings it gathers are never kept."""
    from ..sheets.cells import CellReader

    return CellReader(None, {})


def _row(value: Any) -> int:
    """A 1-based row number within a range (blank or 0: the first)."""
    n = _int(value, "row", 1) or 1
    if n < 1:
        raise excel_error("excel_not_integer", what="row", value=n)
    return n


def _evaluate(doc: dict[str, Any], options: dict[str, str] | None = None,
              context: dict[str, Any] | None = None) -> Evaluation:
    from ..rules import get_system

    return get_system(doc["system"]).evaluate_with(doc, options, context)


def _options(system: str, rules: Any) -> dict[str, str] | None:
    """The rules readings a function was given: the ルール sheet's ルール選択 block (option and
    value a row, by name or label) or its value column alone; none given: the defaults."""
    from ..core.errors import RuleOptionError
    from ..rules.options import readings_from_rows

    if rules is None:
        return None
    try:
        return readings_from_rows(system, values.grid_cells(rules))
    except RuleOptionError as exc:
        raise excel_error("excel_rules_invalid", name=exc.params.get("name", ""),
                          value=exc.params.get("value", "")) from exc


def _cost(ev: Evaluation, pointer: str) -> int:
    """The cost the engine gives the item at ``pointer`` (0 when it costs nothing), or the
    engine's reason it could not price it."""
    _refuse(ev, pointer)
    return ev.cost_at(pointer, 0)


def _derived(ev: Evaluation, pointer: str, what: str) -> Any:
    _refuse(ev, pointer)
    if pointer not in ev.derived:
        raise excel_error("excel_no_value", what=what)
    return ev.derived[pointer].value


def _refuse(ev: Evaluation, pointer: str) -> None:
    """Raise the engine's finding when the item at ``pointer`` (or what it depends on) was not
    evaluated."""
    for skipped in ev.unevaluated:
        if pointer == skipped or pointer.startswith(skipped + "/") or skipped in ("/size",):
            raise finding_error(_finding_at(ev, skipped))


def _finding_at(ev: Evaluation, pointer: str) -> Finding:
    return next((f for f in ev.findings if f.pointer == pointer or f.pointer.startswith(pointer + "/")),
                next(iter(ev.findings), Finding("ENGINE_INCOMPLETE", pointer, {})))


def _table_item(system: str, table_id: str, rows_value: Any, row: Any) -> tuple[list[Any], int]:
    """(the table's filled items, the index among them of sheet row ``row``)."""
    from .grids import table_rows

    rows = table_rows(system, table_id, rows_value)
    n = _row(row)
    if n > len(rows) or rows[n - 1] is None:
        raise excel_error("excel_row_blank", row=n)
    return [r for r in rows if r is not None], sum(1 for r in rows[:n - 1] if r is not None)


# --- sheets given as ranges ------------------------------------------------------------------------

def _key(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    return value


@lru_cache(maxsize=16)
def _sheet(key: tuple[Any, ...]):
    """The sheet the ranges are, read and evaluated once for every function that asks."""
    from .grids import read_grids

    got = read_grids(*key)
    ev = _evaluate(got.document, got.options, got.context)
    return got, ev


def _sheet_evaluation(system: str, *grids: Any, spare: str = "") -> Evaluation:
    """The evaluation of the sheet the ranges are; an error naming a sheet of the template
    the value needs that was not given (a total without the weapons is no total). ``spare``:
    a defined name on a sheet the value does not depend on, which may be left out."""
    from .template_names import template_names

    got, ev = _sheet(_key([g for g in grids if g is not None]))
    if got.document.get("system") != system:
        raise excel_error("excel_wrong_system", system=system, found=got.document.get("system"))
    spared = template_names(system).names[spare].sheet if spare else None
    missing = next((f.params["sheet"] for f in got.findings
                    if f.code == "SHEET_MISSING" and f.params["sheet"] != spared), None)
    if missing is not None:
        raise excel_error("excel_grid_input", sheet=missing)
    return ev


_MACHINE = "pp.machine.name"  # on pp's 機体 sheet: no PP and no character initiative come from it


def _sheet_args(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The six sheet ranges every whole-sheet function takes (sheet1 … sheet6), declared once:
    the same as six @arg lines, applied in their order."""
    for i in range(6, 0, -1):
        fn = arg(f"sheet{i}", ndim=2, doc=_SHEETS if i == 1 else _MORE)(fn)
    return fn


# --- up ---------------------------------------------------------------------------------------------

@func
@arg("size", doc="サイズ（SS〜LLL） / size (SS to LLL)")
@arg("stat", doc="能力値（ＨＰ、ＥＮ、装甲…） / the stat (HP, EN, armor…)")
@arg("value", doc="最終値 / the final value")
@arg("rules", ndim=2, doc=_RULES)
def UP_STAT_COST(size: Any, stat: Any, value: Any, rules: Any = None) -> int:
    """能力値を最終値まで上げるＵＰ / UP to raise a stat to its final value (seed 000)."""
    sid = _enum("up", "stats", stat, "stat")
    doc = {"system": "up", "format": 1, "size": _enum("up", "sizes", size, "size"),
           "stats": {sid: _int(value, "value")}, "movement": ["land"]}
    return _cost(_evaluate(doc, _options("up", rules)), f"/stats/{sid}")


@func
@arg("weapons", ndim=2, doc="武装の行（テンプレートの武装表の入力列の順） / weapon rows (the template's input columns)")
@arg("row", doc="何行目の武器か（既定 1） / which row (default 1)")
@arg("movement", ndim=2, doc="移動タイプ（空・陸・海・宇宙の ○、または名前） / movement types (○ per air, land, sea, space, or names)")
@arg("budget", doc="総ＵＰ（任意） / the unit's budget (optional)")
@arg("rules", ndim=2, doc=_RULES)
def UP_WEAPON_COST(weapons: Any, row: Any = 1, movement: Any = None, budget: Any = None, rules: Any = None) -> int:
    """武器のＵＰ（撃ち分けを含む） / a weapon's UP from its row of fields (variants included)."""
    items, index = _table_item("up", "weapons", weapons, row)
    doc = {"system": "up", "format": 1, "size": "M", "movement": _movement(movement),
           "weapons": items, "budget": _int(budget, "budget")}
    return _cost(_evaluate(doc, _options("up", rules)), f"/weapons/{index}")


def _movement(value: Any) -> list[str]:
    """Movement types from four ○/× cells (air, land, sea, space) or cells naming them; none
    given: land (the baseline the sheet starts from)."""
    from ..rules.up.tables import TERRAINS

    cells = values.cells(value)
    if not any(c is not None and c != 0 for c in cells):
        return ["land"]
    if len(cells) == len(TERRAINS) and all(c is None or c == 0 or _flag(c) is not None for c in cells):
        return [t for t, c in zip(TERRAINS, cells, strict=True) if c not in (None, 0) and _flag(c)]
    names = [p for c in cells if c not in (None, 0) for p in str(c).replace("、", "・").replace(",", "・").split("・")]
    return [_enum("up", "terrains", n.strip(), "movement") for n in names if n.strip()]


def _flag(value: Any) -> bool | None:
    got = _reader().to_bool(value, "", "")
    return got if isinstance(got, bool) else None


@func
@arg("abilities", ndim=2, doc="特殊能力の行（テンプレートの特殊能力表の入力列の順） / ability rows (the template's input columns)")
@arg("row", doc="何行目の能力か（既定 1） / which row (default 1)")
@arg("size", doc="サイズ（SS〜LLL） / size (SS to LLL)")
@arg("rules", ndim=2, doc=_RULES)
def UP_ABILITY_COST(abilities: Any, row: Any = 1, size: Any = "M", rules: Any = None) -> int:
    """特殊能力のＵＰ / a special ability's UP from its row of fields."""
    items, index = _table_item("up", "abilities", abilities, row)
    doc = {"system": "up", "format": 1, "size": _enum("up", "sizes", size if values.scalar(size) else "M", "size"),
           "movement": ["land"], "abilities": items}
    return _cost(_evaluate(doc, _options("up", rules)), f"/abilities/{index}")


@func
@_sheet_args
def UP_TOTAL(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> int:
    """ユニットの合計ＵＰ（ユニット・武装・特殊能力のシート） / the unit's total UP from its sheets."""
    return _sheet_evaluation("up", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6).total


@func
@_sheet_args
def UP_REMAINING(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> int:
    """残りＵＰ（総ＵＰ − 合計） / UP left of the budget."""
    ev = _sheet_evaluation("up", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6)
    if ev.remainder is None:
        raise excel_error("excel_missing", what="総ＵＰ / budget")
    return ev.remainder


# --- mailgear --------------------------------------------------------------------------------------

def _mailgear_value(key: Any, what: str, prefix: str, *grids: Any) -> Any:
    """The derived value directly under ``prefix`` whose id or label ``key`` is."""
    ev = _sheet_evaluation("mailgear", *grids)
    name = values.text(key)
    if not name:
        raise excel_error("excel_missing", what=what)
    for d in ev.derived_under(prefix):
        if "/" in d.pointer[len(prefix) + 1:]:
            continue
        if d.pointer == f"{prefix}/{name}" or name in (d.label, d.label_en):
            return _derived(ev, d.pointer, what)
    raise excel_error("excel_no_value", what=f"{what} {name}")


@func
@arg("skill", doc="技能（名前か ID） / the skill (name or id)")
@_sheet_args
def MAILGEAR_SKILL_LEVEL(skill: Any, sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """オプション込みの技能レベル / a skill's effective level, options included."""
    return _mailgear_value(skill, "skill", "/derived/skills", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6)


@func
@arg("stat", doc="機体の能力値（センサー、CR… 名前か ID） / the gear's stat (name or id)")
@_sheet_args
def MAILGEAR_STAT(stat: Any, sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """機体の能力値（ランクとオプション込み） / a gear stat as the rules derive it."""
    return _mailgear_value(stat, "stat", "/derived/stats", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6)


@func
@arg("name", doc="派生値（先行判定、耐久、命中… 名前か ID） / the derived value (name or id)")
@_sheet_args
def MAILGEAR_DERIVED(name: Any, sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """パイロットとメイルギアの派生値（先行判定、耐久、命中…） / a derived value of pilot and gear."""
    return _mailgear_value(name, "name", "/derived", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6)


@func
@_sheet_args
def MAILGEAR_FORTUNE(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """武運の式（2d6+3 など） / the 武運 roll's expression."""
    return _derived(_sheet_evaluation("mailgear", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6), "/derived/fortune", "武運")


@func
@_sheet_args
def MAILGEAR_SLOTS(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """使用スロット数 / the slots the equipment uses."""
    return _derived(_sheet_evaluation("mailgear", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6), "/derived/slots_used", "slots")


# --- mailgear on input cells only: what the xlwings-flavoured template's computed cells call ------------

_PARTS = {  # parameter → (the part of SystemSheet.input_parts it is, its doc)
    "gear": ("gear", "機体名・ランク・専用機の３セル / the gear's 機体名, ランク and 専用機 cells"),
    "stats": ("stats", "性能の基本値の列（センサー〜移動） / the typed base stats (センサー to 移動)"),
    "boosts": ("boosts", "専用機の強化の５セル / the five 専用機 boost cells"),
    "skills": ("skills", "スキル表の入力列（スキル、レベル） / the skill table's input columns"),
    "equipment": ("equipment", "装備表の入力列（名称〜メモ） / the equipment table's input columns (名称 to メモ)"),
    "effects": ("effects", "追加効果表の入力列（装備の行〜効果値） / the further effects' input columns"),
    "levels": ("catalog.levels", "カタログのレベル表（必要な経験〜メモ） / the catalog's level table"),
    "gear_ranks": ("catalog.gear_ranks", "カタログの階級によるランク表（階級〜メモ） / the catalog's rank table"),
    "model_stats": ("catalog.model_stats", "カタログのランク別基本性能（機体名〜移動、任意） / the catalog's "
                                           "stats per model and rank (optional)"),
    "weapons": ("catalog.weapons", "カタログの武器一覧（名称〜メモ、任意） / the catalog's weapons (optional)"),
    "options": ("catalog.options", "カタログのオプション一覧（名称〜メモ、任意） / the catalog's options (optional)"),
    "option_effects": ("catalog.option_effects", "カタログのオプションの追加効果（名称〜効果値、任意） / the "
                                                 "catalog's further option effects (optional)"),
    "rules": ("", _RULES),
}


def _part_args(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """@arg for each input range parameter ``names`` (its doc from _PARTS), declared once."""
    def apply(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in reversed(names):
            fn = arg(name, ndim=2, doc=_PARTS[name][1])(fn)
        return fn
    return apply


@lru_cache(maxsize=32)
def _parts(key: tuple[tuple[str, Any], ...], rules: Any):
    """The pilot the input ranges make, read and evaluated once for every function that asks."""
    from .grids import read_parts

    got, areas = read_parts("mailgear", {_PARTS[name][0]: value for name, value in key})
    return got, areas, _evaluate(got.document, _options("mailgear", rules), got.context)


def _pilot(rules: Any = None, **ranges: Any):
    """(the sheet read, the names on the ranges, the Evaluation) of the given input ranges."""
    return _parts(tuple(sorted((n, _key(v)) for n, v in ranges.items() if v is not None)), _key(rules))


def _value_at(ev: Evaluation, pointer: str) -> Any:
    """The engine's value at ``pointer``; "" where it gives none (an input it needs is blank or
    unreadable, as the native cell shows it blank; SHEET_CHECK says why)."""
    d = ev.derived.get(pointer)
    return "" if d is None else d.value


def _mailgear_id(value: Any, what: str, choices: dict[str, tuple[str, ...]]) -> str:
    """The id whose id or label (either language) the cell holds."""
    name = values.text(value)
    if not name:
        raise excel_error("excel_missing", what=what)
    found = next((k for k, names in choices.items() if name in names), None)
    if found is None:
        raise excel_error("excel_not_in_list", what=what, value=name,
                          choices="、".join(names[1] for names in choices.values()))
    return found


def _derived_names() -> dict[str, tuple[str, ...]]:
    from ..rules.mailgear.tables import tables

    return {k: (k, d.label, d.label_en) for k, d in tables().derived.items()}


def _ladder(table: str, amount: Any, what: str, ladder: Any) -> Any:
    """The catalog's value for ``amount`` on a ladder table (the engine's look-up)."""
    n = _int(amount, what)
    if n is None:
        raise excel_error("excel_missing", what=what)
    got, _, _ = _pilot(**{table: ladder})
    cat = got.context.get("catalog")
    found = cat.ladder_value(table, n) if cat is not None else None
    return "" if found is None else found


@func
@arg("experience", doc="経験 / the pilot's experience")
@_part_args("levels")
def MAILGEAR_LEVEL_FOR(experience: Any, levels: Any = None) -> Any:
    """経験によるレベル（カタログのレベル表） / the level the catalog's ladder gives for the experience."""
    return _ladder("levels", experience, "experience", levels)


@func
@arg("rank_points", doc="階級 / the pilot's rank points")
@_part_args("gear_ranks")
def MAILGEAR_RANK_FOR(rank_points: Any, gear_ranks: Any = None) -> Any:
    """階級によるメイルギアのランク（カタログの表） / the gear rank the catalog gives for the rank points."""
    return _ladder("gear_ranks", rank_points, "rank_points", gear_ranks)


@func
@_part_args("equipment", "weapons", "options")
def MAILGEAR_SLOTS_USED(equipment: Any, weapons: Any = None, options: Any = None) -> Any:
    """装備の使用スロット数 / the slots the equipment uses (the catalog's where a row gives none)."""
    return _value_at(_pilot(equipment=equipment, weapons=weapons, options=options)[2], "/derived/slots_used")


_SKILL = "スキル（名前か ID） / the skill (name or id)"


@func
@arg("skill", doc=_SKILL)
@_part_args("skills", "equipment", "effects", "options", "option_effects")
def MAILGEAR_PILOT_SKILL(skill: Any, skills: Any = None, equipment: Any = None, effects: Any = None,
                         options: Any = None, option_effects: Any = None) -> Any:
    """オプション込みのスキルレベル（上限まで） / a skill's effective level, options included, capped."""
    return _pilot_skill("skills", skill, skills, equipment, effects, options, option_effects)


@func
@arg("skill", doc=_SKILL)
@_part_args("skills", "equipment", "effects", "options", "option_effects")
def MAILGEAR_PILOT_SKILL_BONUS(skill: Any, skills: Any = None, equipment: Any = None, effects: Any = None,
                               options: Any = None, option_effects: Any = None) -> Any:
    """スキルの判定ボーナス（＋１〜＋３、レベル４で＋１ｄ） / a skill's roll bonus (+1 to +3, +1d at level 4)."""
    return _pilot_skill("skill_bonuses", skill, skills, equipment, effects, options, option_effects)


def _pilot_skill(group: str, skill: Any, skills: Any, equipment: Any, effects: Any, options: Any,
                 option_effects: Any) -> Any:
    """The engine's ``/derived/<group>/<skill>`` from the blocks a skill's level depends on."""
    sid = _enum("mailgear", "skills", skill, "skill")
    ev = _pilot(skills=skills, equipment=equipment, effects=effects, options=options,
                option_effects=option_effects)[2]
    return _value_at(ev, f"/derived/{group}/{sid}")


@func
@arg("stat", doc="性能（センサー、CR… 名前か ID） / the gear stat (name or id)")
@_part_args("gear", "stats", "boosts", "equipment", "effects", "model_stats", "options", "option_effects")
def MAILGEAR_GEAR_STAT(stat: Any, gear: Any = None, stats: Any = None, boosts: Any = None, equipment: Any = None,
                       effects: Any = None, model_stats: Any = None, options: Any = None,
                       option_effects: Any = None) -> Any:
    """性能の最終値（基本値かカタログ＋専用機＋オプション） / a gear stat's final value."""
    sid = _enum("mailgear", "stats", stat, "stat")
    ev = _pilot(gear=gear, stats=stats, boosts=boosts, equipment=equipment, effects=effects,
                model_stats=model_stats, options=options, option_effects=option_effects)[2]
    return _value_at(ev, f"/derived/stats/{sid}")


@func
@arg("name", doc="派生値（先行判定、耐久、武運… 名前か ID） / the derived value (name or id)")
@_part_args("gear", "stats", "boosts", "skills", "equipment", "effects", "model_stats", "options",
            "option_effects", "rules")
def MAILGEAR_PILOT_VALUE(name: Any, gear: Any = None, stats: Any = None, boosts: Any = None, skills: Any = None,
                         equipment: Any = None, effects: Any = None, model_stats: Any = None, options: Any = None,
                         option_effects: Any = None, rules: Any = None) -> Any:
    """派生値（先行判定、耐久、命中、武運…） / a derived value of pilot and gear (武運 as its roll)."""
    did = _mailgear_id(name, "name", _derived_names())
    ev = _pilot(rules, gear=gear, stats=stats, boosts=boosts, skills=skills, equipment=equipment, effects=effects,
                model_stats=model_stats, options=options, option_effects=option_effects)[2]
    return _value_at(ev, f"/derived/{did}")


@func
@_part_args("equipment")
@arg("row", doc="何行目の装備か（既定 1） / which row (default 1)")
@arg("value", doc="ダメージ、または命中の距離（CR、SR、MR、LR） / ダメージ, or the hit's range band")
@_part_args("gear", "stats", "boosts", "skills", "effects", "model_stats", "weapons", "options",
            "option_effects", "rules")
def MAILGEAR_WEAPON_VALUE(equipment: Any, row: Any = 1, value: Any = "damage", gear: Any = None, stats: Any = None,
                          boosts: Any = None, skills: Any = None, effects: Any = None, model_stats: Any = None,
                          weapons: Any = None, options: Any = None, option_effects: Any = None,
                          rules: Any = None) -> Any:
    """武器のダメージか距離ごとの命中 / a weapon's damage, or its hit in a range band it has ("" in one it has not)."""
    from ..rules.mailgear.tables import tables

    t = tables()
    names = {b.hit: (b.hit, b.label, k, *_derived_names()[b.hit][1:]) for k, b in t.bands.items()}
    what = _mailgear_id(value, "value", {"damage": _derived_names()["damage"], **names})
    got, areas, ev = _pilot(rules, equipment=equipment, gear=gear, stats=stats, boosts=boosts, skills=skills,
                            effects=effects, model_stats=model_stats, weapons=weapons, options=options,
                            option_effects=option_effects)
    return _value_at(ev, f"/equipment/{_item_index(got, areas, row)}/derived/{what}")


def _item_index(got: Any, areas: dict[str, Any], row: Any) -> int:
    """The document index of the equipment range's row ``row`` (blank rows above it are no item)."""
    from ..sheets.system_sheet import system_sheet

    table = system_sheet("mailgear").layout.table("equipment")
    n = _row(row)
    area = areas.get(table.column_name(table.columns[0].key))
    cell = area.a1(n - 1) if area is not None and n <= area.rows else None
    items = got.document.get("equipment") or []
    found = next((k for k in range(len(items)) if cell and got.cells.get(f"/equipment/{k}") == cell), None)
    if found is None:
        raise excel_error("excel_row_blank", row=n)
    return found


# --- pp ----------------------------------------------------------------------------------------------

@func
@arg("attribute", doc="能力値（肉体、反応、感覚、精神、社会） / the attribute")
@arg("value", doc="能力値の値 / its value")
def PP_ATTRIBUTE_COST(attribute: Any, value: Any) -> int:
    """能力値のＰＰ / an attribute's PP (seed 003)."""
    aid = _enum("pp", "attributes", attribute, "attribute")
    doc = {"system": "pp", "format": 1, "attributes": _given(aid, _int(value, "value"))}
    return _cost(_evaluate(doc), f"/attributes/{aid}")


@func
@arg("skill", doc="技能の名前 / the skill's name")
@arg("level", doc="技能レベル / its level")
def PP_SKILL_COST(skill: Any, level: Any) -> int:
    """技能のＰＰ / a skill's PP."""
    doc = {"system": "pp", "format": 1, "skills": [{"name": _skill_name(skill), **_given("level", _int(level, "level"))}]}
    return _cost(_evaluate(doc), "/skills/0/level")


@func
@arg("skill", doc="技能の名前 / the skill's name")
@arg("skill_level", doc="技能レベル / the skill's level")
@arg("specialization", doc="専門分野の名前 / the specialization's name")
@arg("level", doc="専門分野のレベル / the specialization's level")
def PP_SPECIALIZATION_COST(skill: Any, skill_level: Any, specialization: Any, level: Any) -> int:
    """専門分野のＰＰ（技能レベルから） / a specialization's PP above its skill's level."""
    spec = {"name": values.text(specialization) or "-", **_given("level", _int(level, "level"))}
    doc = {"system": "pp", "format": 1, "skills": [
        {"name": _skill_name(skill), **_given("level", _int(skill_level, "skill_level")), "specializations": [spec]}]}
    return _cost(_evaluate(doc), "/skills/0/specializations/0/level")


def _given(key: str, value: Any) -> dict[str, Any]:
    """``{key: value}``, or nothing for a blank cell: the document leaves the field out, as
    reading the sheet does (the engine then takes its start value)."""
    return {} if value is None else {key: value}


def _skill_name(value: Any) -> str:
    name = values.text(value)
    if not name:
        raise excel_error("excel_missing", what="skill")
    return name


@func
@_sheet_args
def PP_TOTAL(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> int:
    """キャラクターの合計ＰＰ / the character's total PP from its sheets."""
    return _sheet_evaluation("pp", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6, spare=_MACHINE).total


@func
@_sheet_args
def PP_INITIATIVE(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """イニシアティブ値 / the character's initiative."""
    return _derived(_sheet_evaluation("pp", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6, spare=_MACHINE),
                    "/derived/initiative", "initiative")


@func
@_sheet_args
def PP_UNIT_INITIATIVE(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> Any:
    """ユニット戦闘のイニシアティブ値（機体シートが要ります） / unit-combat initiative (needs the machine sheet)."""
    return _derived(_sheet_evaluation("pp", sheet1, sheet2, sheet3, sheet4, sheet5, sheet6), "/derived/unit_initiative",
                    "unit initiative")


# --- any system ---------------------------------------------------------------------------------------

@func
@_sheet_args
def SHEET_CHECK(sheet1: Any, sheet2: Any = None, sheet3: Any = None, sheet4: Any = None,
        sheet5: Any = None, sheet6: Any = None) -> list[list[Any]]:
    """シートの確認結果（コード、重さ、セル、内容） / what is wrong with the sheet, a row per finding."""
    from ..core.texts import texts

    rows = [[f.code, f.level.value, f.cell, f.message("ja"), f.message("en")]
            for f in check_grids(sheet1, sheet2, sheet3, sheet4, sheet5, sheet6).findings]
    return rows or [["OK", "info", "", texts("ja")["excel_check_ok"], texts("en")["excel_check_ok"]]]


def check_grids(*grids: Any):
    """The check (schema where jsonschema is installed, and rules) of the sheet the ranges are:
    a :class:`~converter.check.FileReport` whose findings name the sheet's cells."""
    from ..check import check_source
    from ..core.source import Origin, Source

    got, _ = _sheet(_key([g for g in grids if g is not None]))
    source = Source("Excel", Origin("workbook", template=got.template), document=got.document,
                    cells=dict(got.cells), context=dict(got.context), options=dict(got.options),
                    option_cells=dict(got.option_cells), findings=list(got.findings))
    return check_source(source)
