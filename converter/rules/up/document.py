"""Reading a unit document that may hold anything (hand-edited JSON, a sheet), for every topic.

A name used as a table key, a list that may be missing or of the wrong shape, a malformed item
reported once and skipped, numbers and percentages written for messages, and 気力制限, which
「機体性能」, 「武装」 and 「特殊能力」 all price the same way. Shared by the topic modules so that
a malformed document yields findings, never a crash. Standard library only.
"""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Mapping

from ...core.evaluation import Evaluation
from ...core.pointers import pointer
from ..tables_file import both
from .tables import UpTables


def table_key(value: Any) -> Any:
    """``value`` as a table key. A list or object where a name belongs (a malformed document)
    becomes its JSON text, which no table holds: it is reported as unknown, never a crash."""
    try:
        hash(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


def list_at(container: Mapping[str, Any], key: str, out: Evaluation, at: str = "") -> list[Any]:
    """The list at ``container[key]`` (empty when absent); anything else is UP_ITEM_MALFORMED."""
    value = listed(container.get(key))
    if value is None:
        report_malformed(at + pointer(key), key, "[…]", container.get(key), out)
        return []
    return value


def listed(value: Any) -> list[Any] | None:
    """``value`` as a list: empty when blank, None when it is something else (malformed)."""
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else None


def report_malformed(where: str, field: str, expected: str, value: Any, out: Evaluation) -> None:
    """UP_ITEM_MALFORMED at ``where`` (``field`` should be ``expected``); the item is skipped."""
    out.find("UP_ITEM_MALFORMED", where, **malformed_params(field, expected, value))
    out.skip(where)


def malformed_params(field: str, expected: str, value: Any) -> dict[str, Any]:
    """UP_ITEM_MALFORMED's parameters: ``field`` should be ``expected``, ``value`` shortened."""
    return {"field": field, "expected": expected,
            "value": json.dumps(value, ensure_ascii=False, default=str)[:40]}


def message_number(value: Fraction) -> int | float:
    """A fraction for a message: whole numbers stay whole (1000/5 → 200, 1001/5 → 200.2)."""
    return int(value) if value.denominator == 1 else float(value)


def percent_text(p: int | Fraction) -> str:
    """A percentage for a rule text, signed: ``+10%``, ``−20%``."""
    return f"{'+' if p >= 0 else '−'}{abs(p)}%"


def morale_percent(morale: Any, where: str, t: UpTables, out: Evaluation) -> int:
    """The 気力制限 percentage of ``morale`` (0 when blank); an unknown one is UP_MORALE_UNKNOWN."""
    unknown = morale_unknown(morale, t)
    if unknown is not None:
        out.find("UP_MORALE_UNKNOWN", where, **unknown)
        return 0
    row = t.morale.get(table_key(morale))
    return row["percent"] if row else 0


def morale_unknown(morale: Any, t: UpTables) -> dict[str, Any] | None:
    """UP_MORALE_UNKNOWN's parameters when ``morale`` is written but not in the table, else None."""
    morale = table_key(morale)
    if morale in (None, "") or morale in t.morale:
        return None
    return {"value": morale, **both("choices", [m["label"] for m in t.morale.values()],
                                    [m["label_en"] for m in t.morale.values()])}

