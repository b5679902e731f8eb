"""What every system's engine returns: priced lines, findings, typed derived values, completeness.

Front ends (the report, the workbook's cached results, Excel functions, conversion) read derived
values from here; none re-derives them. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator

from .findings import Finding


def round_half_up(value: Fraction | int | float) -> int:
    """Round to the nearest whole point, halves up (docs/rules-up.md: round half up at the end)."""
    frac = Fraction(value)
    return int((frac * 2 + 1) // 2)


def in_lang(ja: Any, en: Any, lang: str) -> Any:
    """``en`` for English when there is one, else ``ja``: the engines build every text in both
    languages (the Japanese is the rules' own); an English text left empty falls back."""
    return en if lang == "en" and en not in (None, "") else ja


@dataclass(frozen=True, slots=True)
class CostLine:
    """One priced item: where it is, what it is, the rule that priced it, and its cost.

    ``item`` and ``rule`` are the Japanese texts; ``item_en`` and ``rule_en`` the same in English
    (numbers and formulas alike; names the user typed stay as typed)."""

    pointer: str
    item: str
    rule: str
    cost: int
    item_en: str = ""
    rule_en: str = ""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # rebuilt by its constructor: a slotted dataclass's own unpickling looks its fields up
        # for every line, and a worker's reports carry every priced line to the parent
        return (CostLine, (self.pointer, self.item, self.rule, self.cost, self.item_en, self.rule_en))

    def item_in(self, lang: str = "ja") -> str:
        return in_lang(self.item, self.item_en, lang)

    def rule_in(self, lang: str = "ja") -> str:
        return in_lang(self.rule, self.rule_en, lang)

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {"pointer": self.pointer, "item": self.item_in(lang), "rule": self.rule_in(lang),
                "cost": self.cost}


@dataclass(frozen=True)
class Roll:
    """A dice expression's parts: ``dice`` dice of ``sides``, plus ``fixed``, plus ``each`` on
    every die (pp's pools). A bonus added to a base roll (mailgear's ``+1d+3``) counts only the
    added dice."""

    dice: int
    sides: int
    fixed: int = 0
    each: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"dice": self.dice, "sides": self.sides, "fixed": self.fixed, "each": self.each}


@dataclass(frozen=True)
class Derived:
    """A value the rules compute from the document (never typed in): where a sheet shows it,
    what it is called, its value as the sheet shows it, and, for a roll, its parts.

    ``label`` is Japanese, ``label_en`` the same in English. ``value`` is what a (Japanese) sheet
    shows; a value that is words (pp's 「平均」, 「4D10（各+2）」) has ``value_en`` beside it, of
    the same type; None where the value reads the same in both languages."""

    pointer: str
    label: str
    value: Any
    roll: Roll | None = None
    label_en: str = ""
    value_en: Any = None

    def label_in(self, lang: str = "ja") -> str:
        return in_lang(self.label, self.label_en, lang)

    def value_in(self, lang: str = "ja") -> Any:
        return self.value_en if lang == "en" and self.value_en is not None else self.value

    @property
    def type(self) -> str:
        if self.roll is not None:
            return "roll"
        if isinstance(self.value, bool):
            return "boolean"
        if isinstance(self.value, int):
            return "integer"
        if isinstance(self.value, float):
            return "number"
        if self.value is None:
            return "null"
        return "text"

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label_in(lang), "type": self.type,
                               "value": self.value_in(lang)}
        if self.roll is not None:
            out["roll"] = self.roll.to_dict()
        return out


@dataclass(slots=True)
class Evaluation:
    """The engine's answer for one document.

    ``complete`` is computed: it is False when some item could not be evaluated (its pointer is
    in ``unevaluated``), so a total built from the rest is not the document's total."""

    lines: list[CostLine] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    budget: int | None = None
    declared: int | None = None
    derived: dict[str, Derived] = field(default_factory=dict)
    unevaluated: list[str] = field(default_factory=list)
    priced: bool = True  # False for a system without point costs (mailgear): no total

    @property
    def complete(self) -> bool:
        return not self.unevaluated

    @property
    def total(self) -> int:
        return sum(line.cost for line in self.lines)

    @property
    def remainder(self) -> int | None:
        return None if self.budget is None else self.budget - self.total

    def add(self, pointer: str, item: str, rule: str, cost: int, *, item_en: str = "",
            rule_en: str = "") -> CostLine:
        """A priced line; ``item_en`` and ``rule_en`` are its texts in English."""
        line = CostLine(pointer, item, rule, int(cost), item_en, rule_en)
        self.lines.append(line)
        return line

    def find(self, code: str, pointer: str = "", **params: Any) -> Finding:
        finding = Finding(code, pointer, params)
        self.findings.append(finding)
        return finding

    def skip(self, pointer: str) -> None:
        """Mark the item at ``pointer`` as not evaluated (a finding says why)."""
        self.unevaluated.append(pointer)

    def derive(self, pointer: str, label: str, value: Any, roll: Roll | None = None, *,
               label_en: str = "", value_en: Any = None) -> Derived:
        """A derived value; ``label_en`` (and, for a value in words, ``value_en``) in English."""
        d = Derived(pointer, label, value, roll, label_en, value_en)
        self.derived[pointer] = d
        return d

    def value(self, pointer: str, default: Any = None) -> Any:
        """The derived value at ``pointer`` (its value only), or ``default``."""
        d = self.derived.get(pointer)
        return default if d is None else d.value

    def cost_at(self, pointer: str, default: Any = None) -> Any:
        """The cost of the line at ``pointer``, or ``default``."""
        return next((line.cost for line in self.lines if line.pointer == pointer), default)

    def derived_under(self, prefix: str) -> Iterator[Derived]:
        """Derived values at ``prefix`` or below it."""
        return (d for p, d in self.derived.items() if p == prefix or p.startswith(prefix + "/"))
