"""Transformation (seed 000, 「変形」): the UP every form pays, from the totals of all forms.

:func:`transformation_cost` is the formula (also used by the sheets); :func:`price_transformation`
reads a unit's ``transformation`` and adds the line, last, since it needs the unit's own total.
:func:`changed_places` counts the places one form changes from another (部分変形), which
:mod:`.sets` compares with a typed ``changed_places`` when the forms are checked together.
Standard library only.
"""
from __future__ import annotations

from fractions import Fraction
from collections.abc import Mapping
from typing import Any

from ...core.coerce import as_int as _int
from ...core.evaluation import Evaluation, round_half_up
from .document import report_malformed, table_key
from .stats import default_terrain
from .tables import STAT_IDS, UpTables, tables
from .weapons import variant_changes


def transformation_cost(own_total: int, others: list[int], changed_places: int | None = None,
                        one_way: bool = False, drop_off: bool = False,
                        combination: str = "none", t: UpTables | None = None,
                        lang: str = "ja") -> tuple[int, str]:
    """UP every form pays to transform (seed 000, 変形): Σ/50 + 100, then partial, one-way, 脱落型;
    with how it was reached, in ``lang``.

    脱落型 is the exception to 回数制限 (「ただし…」): it multiplies by the number of forms instead
    of halving, so ``one_way`` is ignored when ``drop_off`` is set.
    """
    t = t or tables()
    raw = t.raw["transformation"]
    en = lang == "en"
    if combination == "combined":
        return 0, ("a combined unit pays no UP for transforming or combining" if en
                   else "合体後のユニットは変形・合体のＵＰを払わない")
    forms_total = own_total + sum(others)
    cost = Fraction(forms_total, raw["divisor"]) + raw["addend"]
    text = f"{forms_total}/{raw['divisor']} + {raw['addend']}"
    if changed_places:
        row = next(r for r in raw["partial"] if changed_places <= r["max_changes"])
        cost -= row["discount"]
        text += (f" − {row['discount']} (partial, {changed_places} place(s))" if en
                 else f" − {row['discount']}（部分変形{changed_places}箇所）")
    if drop_off:
        forms = 1 + len(others)
        cost *= forms
        text = f"({text}) × {forms}" + (" (drop-off)" if en else "（脱落型）")
    elif one_way:
        cost *= Fraction(str(raw["one_way_factor"]))
        text = f"({text}) × 1/2" + (" (one way)" if en else "（回数制限）")
    return round_half_up(cost), text


def price_transformation(doc: Mapping[str, Any], t: UpTables, out: Evaluation) -> None:
    """The 変形 line, from the unit's total so far and the other forms' listed UP; run last."""
    tr = doc.get("transformation")
    if not tr:
        return
    where = "/transformation"
    if not isinstance(tr, Mapping):
        out.find("UP_TRANSFORM_INVALID", where, value=tr)
        out.skip(where)
        return
    combination = table_key(tr.get("combination", "none") or "none")
    if combination not in t.combinations:
        out.find("UP_TRANSFORM_INVALID", where + "/combination", value=combination)
        out.skip(where + "/combination")
        return
    forms = tr.get("forms") or []
    if not isinstance(forms, list):
        report_malformed(where + "/forms", "forms", "[…]", forms, out)
        return
    others = []
    for k, form in enumerate(forms):
        up = _int(form.get("up")) if isinstance(form, Mapping) else None
        if up is None or up < 0:
            out.find("UP_TRANSFORM_INVALID", f"{where}/forms/{k}/up", value=form)
            out.skip(f"{where}/forms/{k}/up")
            return
        others.append(up)
    if not others and combination != "combined":
        out.find("UP_TRANSFORM_NO_FORMS", where + "/forms")
        out.skip(where + "/forms")
        return
    changed = tr.get("changed_places")
    top = t.raw["transformation"]["partial"][-1]["max_changes"]
    places = _int(changed)
    if changed not in (None, "", 0) and (places is None or not 1 <= places <= top):
        out.find("UP_TRANSFORM_PARTIAL", where + "/changed_places", value=changed, max=top)
        out.skip(where + "/changed_places")
        return
    if combination == "combined":
        out.find("UP_TRANSFORM_COMBINED", where + "/combination")
    own = out.total
    args = (own, others, places or None, bool(tr.get("one_way")), bool(tr.get("drop_off")),
            combination, t)
    cost, text = transformation_cost(*args)
    text_en = transformation_cost(*args, lang="en")[1]
    listed = "+".join(map(str, others)) or "0"
    out.add(where, "変形", f"自形態{own} + 他形態{listed}: {text}", cost, item_en="Transformation",
            rule_en=f"this form {own} + other forms {listed}: {text_en}")


# The document fields changed_places compares: what the set checks keep of a transforming unit.
PLACES_FIELDS = ("size", "stats", "movement", "terrain", "weapons", "abilities", "morale_boosts", "carrier")
# Keys of an item that describe it, not what it is: a changed note changes no place.
_NOT_PLACES = ("notes", "declared_cost", "name")


def changed_places(source: Mapping[str, Any], target: Mapping[str, Any], t: UpTables | None = None) -> int:
    """Places ``target`` changes going from the form ``source`` (seed 000, 部分変形).

    「１箇所（武器１個）」: each weapon added or altered, each stat raised, each ability, morale boost or
    carrier added or altered, the size, is one place; 「「元々持っていた武器を消す」「ステータスを減らす」
    のは変更箇所に数えない」, so what ``target`` lacks or has lower counts nothing; 「移動タイプと地形
    適応の変更はまとめて「１箇所」」, so movement and terrain changed together (or either) are one.
    """
    t = t or tables()
    places = int(source.get("size") != target.get("size"))
    before, after = _mapping(source.get("stats")), _mapping(target.get("stats"))
    places += sum(1 for sid in STAT_IDS if _number(after.get(sid)) > _number(before.get(sid)))
    places += int(_ground(source, t) != _ground(target, t))
    old_weapons = _by_key(source.get("weapons"), "name")
    for key, w in _by_key(target.get("weapons"), "name").items():
        places += int(key not in old_weapons or variant_changes(w, old_weapons[key], t) > 0)
    for field, key_name in (("abilities", "id"), ("morale_boosts", "stat")):
        old = _by_key(source.get(field), key_name)
        places += sum(1 for key, item in _by_key(target.get(field), key_name).items()
                      if key not in old or _described(item) != _described(old[key]))
    carrier = target.get("carrier")
    places += int(bool(carrier) and _described(carrier) != _described(source.get("carrier")))
    return places


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _number(value: Any) -> int:
    number = _int(value)
    return number if number is not None else 0


def _ground(doc: Mapping[str, Any], t: UpTables) -> tuple[frozenset, dict[str, str]]:
    """Movement types and the unit's effective 地形適応: one place between them."""
    movement = doc.get("movement")
    movement = [m for m in movement if isinstance(m, str)] if isinstance(movement, list) else []
    terrain = {**default_terrain(movement, t),
               **{k: v for k, v in _mapping(doc.get("terrain")).items() if v not in (None, "")}}
    return frozenset(movement), terrain


def _by_key(items: Any, key: str) -> dict[Any, Mapping[str, Any]]:
    """Items of a list by their name (weapons) or id; the first of a repeated key wins."""
    out: dict[Any, Mapping[str, Any]] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, Mapping):
            out.setdefault(table_key(item.get(key)), item)
    return out


def _described(item: Any) -> Any:
    if isinstance(item, Mapping):
        return {k: v for k, v in item.items() if k not in _NOT_PLACES and v not in (None, "", [], {})}
    return item
