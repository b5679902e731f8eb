"""The `up` cost engine: prices a unit document item by item (seed 000, ユニットの作成).

Pure Python (standard library only). Every front end — CLI, template reference values, xlwings
UDFs, audit — calls :func:`price_unit`. Robust to malformed documents: an item it cannot price
yields a finding and is skipped, so a schema error never hides the other findings.

This module orders the topics and checks the totals; each topic is its own module:
:mod:`.stats` (「機体性能」, 移動タイプ, 地形適応, 気力制限 boosts), :mod:`.weapons` (「武装」),
:mod:`.abilities` (「特殊能力」), :mod:`.transformation` (「変形」), with :mod:`.document` for
reading the document defensively.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.coerce import as_int as _int
from ...core.evaluation import Evaluation
from ..options import evaluates
from .abilities import price_abilities
from .document import table_key
from .stats import price_morale_boosts, price_movement, price_stats, price_terrain
from .tables import tables
from .transformation import price_transformation
from .weapons import price_weapons


@evaluates("up")
def price_unit(doc: Mapping[str, Any], opts: Mapping[str, str]) -> Evaluation:
    """Price a unit: one cost line per priced item, derived values, and rule findings."""
    t = tables()
    out = Evaluation(budget=_int(doc.get("budget")), declared=_int(doc.get("declared_total")))
    size = t.sizes.get(table_key(doc.get("size")))
    if size is None:
        out.find("UP_SIZE_UNKNOWN", "/size", value=doc.get("size"), choices=list(t.sizes))
        out.skip("/size")
        return out
    out.add("/size", f"サイズ {size.label}", "基本ＵＰ", size.base_up,
            item_en=f"Size {size.label_en}", rule_en="base UP")

    price_stats(doc, size, t, opts, out)
    price_movement(doc, size, t, out)
    price_terrain(doc, t, opts, out)
    price_morale_boosts(doc, size, t, opts, out)
    weapons_total = price_weapons(doc, t, opts, out)
    price_abilities(doc, size, t, opts, out)
    price_transformation(doc, t, out)

    if out.budget is not None and out.total > out.budget:
        out.find("UP_OVER_BUDGET", "/budget", total=out.total, budget=out.budget,
                 over=out.total - out.budget)
    if out.declared is not None and out.declared != out.total and out.complete:
        out.find("UP_TOTAL_MISMATCH", "/declared_total", declared=out.declared, computed=out.total)
    out.derive("/weapons_total", "武器ＵＰ合計", weapons_total, label_en="Weapons' UP total")
    return out
