"""The anchors, parameters and per-direction tables of ``mapping.toml``, a user's overrides
(``--mapping FILE``) applied, and the one scaling rule every lowering uses (the grade).

Standard library only: the file is read here, the conversions read the :class:`Mapping`.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import InputError

SYSTEMS = ("up", "mailgear", "pp")
KINDS = ("exact", "scaled", "approximated", "dropped", "defaulted", "derived")
#: a user's file may set these tables, nothing else
OVERRIDABLE = ("parameters", "anchors")


@dataclass(frozen=True)
class Row:
    """One line of a direction's table: the fields it reads and writes, how, and on what authority."""

    sources: tuple[str, ...]
    targets: tuple[str, ...]
    kind: str
    ja: str
    en: str
    source: str

    def how(self, lang: str) -> str:
        return self.en if lang == "en" else self.ja


@dataclass(frozen=True)
class Anchor:
    quantity: str
    system: str
    field: str
    values: tuple[float, float, float]  # floor, standard, peak
    source: str

    @property
    def exact(self) -> tuple[Fraction, Fraction, Fraction]:
        """The values as fractions (as written: 15.5 is 31/2), for exact arithmetic."""
        lo, mid, hi = (exact(v) for v in self.values)
        return lo, mid, hi


def exact(value: float | int | str | Fraction) -> Fraction:
    """``value`` as a fraction, by its decimal text (0.14 is 7/50, "2/3" two thirds)."""
    return value if isinstance(value, Fraction) else Fraction(str(value))


def number_text(value: float | Fraction) -> str:
    """A number as a reader writes it: 6, 15.5, 2/3 (a fraction with no short decimal)."""
    f = exact(value)
    if f.denominator == 1:
        return str(f.numerator)
    if 10 ** 6 % f.denominator == 0:
        return f"{float(f):g}"
    return f"{f.numerator}/{f.denominator}"


@dataclass
class Mapping:
    """Everything a conversion reads from data; ``origins`` names the files it came from."""

    parameters: dict[str, Fraction]
    parameter_notes: dict[str, dict[str, str]]
    anchors: list[Anchor]
    skills: list[dict[str, Any]]
    rows: dict[str, list[Row]]
    decisions: dict[str, list[dict[str, str]]]
    origins: list[str] = field(default_factory=list)
    bands: list[dict[str, Any]] = field(default_factory=list)

    def band(self, system: str, value: float | str) -> dict[str, Any]:
        """The power band of ``value``: an up budget, a pp budget (PP), a mailgear pilot level."""
        if system == "mailgear":
            return next((b for b in self.bands if value in b["mailgear_levels"]), self.bands[0])
        reached = [b for b in self.bands if isinstance(value, (int, float)) and value >= b[f"{system}_from"]]
        return reached[-1] if reached else self.bands[0]

    def param(self, name: str) -> Fraction:
        """A parameter, exact (``2/3`` stays two thirds: rounding happens once, at the end)."""
        return self.parameters[name]

    def anchor(self, quantity: str, system: str, field: str = "") -> Anchor:
        """The anchor row of ``quantity`` in ``system`` (its first, or the one reading ``field``)."""
        for a in self.anchors:
            if a.quantity == quantity and a.system == system and (not field or a.field == field):
                return a
        raise KeyError(f"no anchor for {quantity} in {system} {field}".strip())

    def has_anchor(self, quantity: str, system: str) -> bool:
        return any(a.quantity == quantity and a.system == system for a in self.anchors)

    def grade(self, value: float | Fraction, quantity: str, system: str, field: str = "") -> Fraction:
        """Where ``value`` sits between the floor (0), standard (1) and peak (2); beyond them
        along the nearest segment, so order is kept and nothing is clamped. Exact."""
        lo, mid, hi = self.anchor(quantity, system, field).exact
        value = exact(value)
        if value <= mid:
            return (value - lo) / (mid - lo)
        return 1 + (value - mid) / (hi - mid)

    def at_grade(self, grade: Fraction, quantity: str, system: str, field: str = "") -> Fraction:
        lo, mid, hi = self.anchor(quantity, system, field).exact
        if grade <= 1:
            return lo + grade * (mid - lo)
        return mid + (grade - 1) * (hi - mid)

    def in_range(self, value: float | Fraction, quantity: str, system: str, field: str = "") -> bool:
        """Within the target's floor and peak (a value outside is flagged, never clamped)."""
        lo, _, hi = self.anchor(quantity, system, field).exact
        return lo <= value <= hi

    def direction(self, source: str, target: str) -> list[Row]:
        """The direction's rows, then the rows every direction shares."""
        return self.rows.get(f"{source}_{target}", []) + self.rows["all"]

    def with_anchors(self, anchors: list[Anchor]) -> "Mapping":
        """The same mapping with ``anchors`` in place of the rows they share a key with."""
        keys = {(a.quantity, a.system, a.field) for a in anchors}
        kept = [a for a in self.anchors if (a.quantity, a.system, a.field) not in keys]
        return replace(self, anchors=kept + list(anchors))


def _rows(raw: list[dict[str, Any]]) -> list[Row]:
    return [Row(tuple(r["from"]), tuple(r["to"]), r["kind"], r["ja"], r["en"], r["source"]) for r in raw]


@lru_cache(maxsize=1)
def _packaged() -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("mapping.toml").read_text("utf-8"))


def load_mapping(path: str | Path | None = None) -> Mapping:
    """The packaged mapping, with a user's file's [parameters] and [[anchors]] over it."""
    raw = _packaged()
    params = {k: exact(v["value"]) for k, v in raw["parameters"].items()}
    notes = {k: {"ja": v["ja"], "en": v["en"], "source": v["source"]} for k, v in raw["parameters"].items()}
    anchors = [Anchor(a["quantity"], a["system"], a["field"], tuple(a["values"]), a["source"])
               for a in raw["anchors"]]
    rows = {k: _rows(v) for k, v in raw.items() if k == "all" or k.count("_") == 1 and k.split("_")[0] in SYSTEMS}
    mapping = Mapping(params, notes, anchors, list(raw["skills"]), rows, dict(raw["decisions"]), ["mapping.toml"],
                      list(raw["bands"]))
    if path is None:
        return mapping
    return _override(mapping, Path(path))


def _bad(path: Path, key: str, reason_ja: str, reason_en: str) -> InputError:
    """The refusal of a mapping file, naming the file and key, its reason in both languages."""
    return InputError(f"{path}: {key}: {reason_en}", "CONVERT_MAPPING_INVALID", file=str(path), key=key,
                      reason_ja=reason_ja, reason_en=reason_en)


def _override(mapping: Mapping, path: Path) -> Mapping:
    """``mapping`` with the file's rows over it; InputError naming the file and key otherwise."""
    user = _read_user(path)
    for key in user:
        if key not in OVERRIDABLE:
            raise _bad(path, key, f"目安の上書きファイルに書ける表ではありません（{'、'.join(OVERRIDABLE)} だけ）",
                       f"not a table a mapping file may set (only {', '.join(OVERRIDABLE)})")
    params = dict(mapping.parameters)
    for name, value in user.get("parameters", {}).items():
        params[name] = _parameter(params, name, value, path)
    anchors = [_anchor(mapping, row, path, f"anchors[{k}]") for k, row in enumerate(user.get("anchors", []))]
    out = replace(mapping.with_anchors(anchors), parameters=params)
    out.origins = [*mapping.origins, str(path)]
    return out


def _read_user(path: Path) -> dict[str, Any]:
    """A user's mapping file as data; InputError when it cannot be read or is not TOML (a
    regular file under the settings cap only: io.files.load_toml, issue 33)."""
    from ..io.files import load_toml

    return load_toml(path, lambda key, why: _bad(path, key or "-", f"TOML ではありません（{why}）",
                                                 f"not TOML ({why})"))


def _parameter(params: dict[str, Fraction], name: str, value: Any, path: Path) -> Fraction:
    """A user's parameter ``name``: a known one, a number or a fraction written "2/3" (or a
    table with value = either)."""
    if name not in params:
        raise _bad(path, f"parameters.{name}", "そのようなパラメーターはありません", "no such parameter")
    number = value.get("value") if isinstance(value, dict) else value
    if isinstance(number, str):
        try:
            return Fraction(number.strip())
        except (ValueError, ZeroDivisionError):
            pass
    elif not isinstance(number, bool) and isinstance(number, (int, float)):
        return exact(number)
    raise _bad(path, f"parameters.{name}", "数（または value = 数 の表）にしてください",
               "must be a number (or a table with value = number)")


def _anchor(mapping: Mapping, row: Any, path: Path, key: str) -> Anchor:
    """A user's anchor row: the one packaged row it replaces, with three rising values."""
    if not isinstance(row, dict):
        raise _bad(path, key, "表にしてください", "must be a table")
    unknown = sorted(set(row) - {"quantity", "system", "field", "values", "source"})
    if unknown:
        raise _bad(path, f"{key}.{unknown[0]}", "そのような鍵はありません（quantity、system、field、values、source）",
                   "no such key (quantity, system, field, values, source)")
    quantity, system = row.get("quantity"), row.get("system")
    matching = [a for a in mapping.anchors if a.quantity == quantity and a.system == system
                and row.get("field", a.field) == a.field]
    if not matching:
        reading = (f" reading {row['field']!r}", f"（field {row['field']!r}）") if "field" in row else ("", "")
        raise _bad(path, key, f"{system!r} に量 {quantity!r} の目安の行はありません{reading[1]}",
                   f"no anchor row for quantity {quantity!r} in system {system!r}{reading[0]}")
    if len(matching) > 1:
        fields = [a.field for a in matching]
        raise _bad(path, key, f"複数の行に合います: field を指定してください（{'、'.join(fields)}）",
                   f"several rows match: name the field ({', '.join(fields)})")
    values = row.get("values")
    if (not isinstance(values, list) or len(values) != 3
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
            or not values[0] < values[1] < values[2]):
        raise _bad(path, f"{key}.values", "下限・標準・上限の、増えていく 3 つの数にしてください",
                   "must be three rising numbers: floor, standard, peak")
    floor, standard, peak = (float(v) for v in values)
    return replace(matching[0], values=(floor, standard, peak),
                   source=str(row.get("source", f"{path.name} (the GM's)")))
