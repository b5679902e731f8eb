"""The four units that hold between the systems (pip, grid, share, grade) and the context every
lowering writes through: the mapping, the catalog in use and the findings it raises.

A :class:`~converter.convert.model.Measure` stays in its source's unit until a lowering asks one
of these for the target's. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping as MappingType

from ..core.evaluation import round_half_up
from ..core.findings import Finding
from .mapping import Mapping, exact
from .model import Measure

#: a band's distances in grid steps (seed 001:221); extreme begins past long
BAND_REACH = {"close": (1, 1), "short": (2, 4), "medium": (5, 7), "long": (8, 10), "extreme": (11, 11)}
PP_CLASSES = ("L", "M", "S", "D")


@dataclass
class Lowering:
    """What a lowering reads (mapping, the catalog's data) and the findings it raises."""

    mapping: Mapping
    catalog: MappingType[str, Any] | None = None
    findings: list[Finding] = field(default_factory=list)
    #: where each source weapon went in the target (its item's pointer), None when it found no place
    placed: dict[str, str | None] = field(default_factory=dict)
    #: the source's power band (mapping.toml [[bands]]): what the target proposes for a pilot
    band: dict[str, Any] = field(default_factory=dict)

    def find(self, code: str, ptr: str, **params: Any) -> None:
        self.findings.append(Finding(code, ptr, params))

    def scaled(self, value: Fraction, ptr: str, quantity: str, system: str, anchor_field: str = "") -> int:
        """``value`` rounded, flagged (never clamped) when beyond the target's floor or peak."""
        out = round_half_up(value)
        if not self.mapping.in_range(out, quantity, system, anchor_field):
            lo, _, hi = self.mapping.anchor(quantity, system, anchor_field).values
            self.find("CONVERT_OUT_OF_RANGE", ptr, value=out, floor=lo, peak=hi)
        return out

    def clamped(self, value: int, ptr: str, low: int | None = None, high: int | None = None) -> int:
        """``value`` held at a hard legal limit of the target, said so (a clamp is never silent)."""
        if low is not None and value < low:
            self.find("CONVERT_CLAMPED", ptr, value=value, limit=low)
            return low
        if high is not None and value > high:
            self.find("CONVERT_CLAMPED", ptr, value=value, limit=high)
            return high
        return value


def grade(m: Measure, mapping: Mapping) -> Fraction:
    return mapping.grade(m.value, m.quantity, m.system, m.field)


def mean_grade(measures: Iterable[Measure], mapping: Mapping) -> Fraction | None:
    """The mean grade of several measures of one quantity (pp's durability and toughness)."""
    grades = [grade(m, mapping) for m in measures]
    return sum(grades, Fraction(0)) / len(grades) if grades else None


def pips(m: Measure, mapping: Mapping) -> Fraction:
    """A roll modifier in pips (10 % each): up percentages in tens, a mailgear band stat above its
    standard, a pp hit target below the standard target, mobility and guard as they are."""
    value = exact(m.value)
    if m.system == "up":
        return value / mapping.param("pip_percent")
    if m.quantity == "hit_target":
        return mapping.param("pp_hit_standard") - value
    if m.quantity in ("cr", "sr", "mr", "lr"):
        return value - mapping.anchor(m.quantity, "mailgear").exact[1]
    return value


def grid(m: Measure, mapping: Mapping) -> Fraction:
    """A move in grid steps (pp's speed is grid × speed_per_grid, exactly: speed 3 is 4.5 steps)."""
    value = exact(m.value)
    return value / mapping.param("speed_per_grid") if m.system == "pp" else value


def standard_durability(system: str, mapping: Mapping) -> Fraction:
    if system == "up":
        return mapping.param("up_standard_hp")
    return mapping.anchor("durability", system).exact[1]


def share(m: Measure, mapping: Mapping) -> Fraction:
    """The part of a standard machine's durability a hit takes: a pp class is one already."""
    if m.quantity == "damage_class":
        return mapping.param(f"pp_share_{m.value}")
    return exact(m.value) / standard_durability(m.system, mapping)


CLASS_GAUGES = (0, 1, 2, 5, 10)  # no damage, L, M, S, D (seed 003:110)


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes) of n dice each succeeding with ``p``, exact."""
    from math import comb

    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def expected_gauges(cls: str, penetration: Fraction, mapping: Mapping) -> Fraction:
    """The gauges a pp hit fills on the standard machine after its reduction roll (seed 003:107-
    110): target 貫通力 − 装甲値, as many d10 as its 耐久性, each two successes one class lower.
    (振り足し and the all-ones failure are left out: they move a die's chance by under 1 %.)"""
    armor = mapping.anchor("armor", "pp").exact[1]
    dice = int(mapping.anchor("durability", "pp", "/machine/durability").exact[1])
    target = penetration - armor
    p = min(Fraction(1), max(Fraction(0), (11 - target) / 10))  # a d10 at or above the target
    start = PP_CLASSES.index(cls) + 1
    return sum((chance * CLASS_GAUGES[max(0, start - k // 2)] for k, chance in enumerate(_binomial(dice, p))),
               Fraction(0))


def weapon_share(w: Any, mapping: Mapping) -> Fraction:
    """A weapon's share: with ``damage_share_net`` (the default) a pp weapon's is its expected
    gauges on the standard machine after the reduction roll, relative to the standard pp weapon's
    (class M, the standard 貫通力), times the standard share (up's standard weapon on the standard
    HP); without it, or for up and mailgear, :func:`share`."""
    m = w.damage
    if m.quantity != "damage_class" or not mapping.param("damage_share_net"):
        return share(m, mapping)
    standard_pen = mapping.anchor("damage", "pp").exact[1]
    pen = exact(w.penetration.value) if w.penetration is not None else standard_pen
    standard_share = mapping.anchor("damage", "up").exact[1] / mapping.param("up_standard_hp")
    ratio = expected_gauges(str(m.value), pen, mapping) / expected_gauges("M", standard_pen, mapping)
    return ratio * standard_share


def pp_class(part: Fraction, mapping: Mapping) -> str:
    """The pp damage class of a share, cut at the proposal's midpoints."""
    cls = "L"
    for name in ("M", "S", "D"):
        if part >= mapping.param(f"pp_cut_{name}"):
            cls = name
    return cls


def damage_grade(m: Measure, mapping: Mapping) -> Fraction:
    """The grade of a weapon's damage (for pp's penetration): a mean against its system's
    anchors, a pp class through its share's mean in up terms."""
    if m.quantity == "damage_class":
        mean = share(m, mapping) * mapping.param("up_standard_hp")  # a class's own share: 貫通力 is the grade
        return mapping.grade(mean, "damage", "up")
    return mapping.grade(m.value, "damage", m.system)


def bands_between(low: int, high: int) -> tuple[str, ...]:
    """The shared bands a reach [low, high] in grid steps overlaps, nearest first."""
    out = []
    for band, (lo, hi) in BAND_REACH.items():
        if lo <= high and (low <= hi or band == "extreme" and high >= lo):
            out.append(band)
    return tuple(out)


def reach_of(bands: Iterable[str], mapping: Mapping) -> tuple[int, int]:
    """The grid reach of bands: the first band's low end to the last band's high end (extreme:
    the mapping's pp_extreme_reach)."""
    order = list(BAND_REACH)
    chosen = sorted((b for b in bands if b in BAND_REACH), key=order.index) or ["close"]
    high = BAND_REACH[chosen[-1]][1]
    if chosen[-1] == "extreme":
        high = int(mapping.param("pp_extreme_reach"))
    return BAND_REACH[chosen[0]][0], high
