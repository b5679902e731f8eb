"""What a player types, as data: each kind of typed value put into a copy of a sample sheet of
every template (test_typed_values.py recalculates the copies and holds the sheet to check)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
_FULL = str.maketrans("0123456789,", "０１２３４５６７８９，")


def full_width(value: Any) -> str:
    """``12`` as a player with the IME on types it: ``１２``, stored as text."""
    return str(value).translate(_FULL)


def as_text(value: Any) -> str:
    """A number stored as text (a pasted value, a cell formatted as 文字列)."""
    return str(value)


def with_comma(value: Any) -> str:
    """A number typed with a thousands comma, stored as text."""
    return f"{int(value) + 1000:,}"


@dataclass(frozen=True)
class Typed:
    """One kind of typed value: the defined name, the row of a table column, what is typed
    (a function of the cell's value as written), and whether the formulas cannot count it."""

    kind: str
    name: str
    index: int
    value: Callable[[Any], Any]
    input_error: bool

    @property
    def copy(self) -> str:
        """The copy of the sample it is typed into: every input error of a template together
        (each in its own cell), the values the formulas count together in another."""
        return "errors" if self.input_error else "counted"


def _const(v: Any) -> Callable[[Any], Any]:
    return lambda _old: v


SAMPLES = {"up": ROOT / "samples" / "up" / "s-real-robot.xlsx",
           "pp": ROOT / "samples" / "pp" / "pilot_with_machine.xlsx",
           "mailgear": ROOT / "samples" / "mailgear" / "veteran-custom.xlsx"}

# Every kind of input the issue names, once per template: full-width digits, a number stored as
# text, a thousands comma, a lone space, a blank, 〇 for ○, ○ itself, a list value misspelt.
TYPED: dict[str, list[Typed]] = {
    "up": [
        Typed("full_width", "up.stats.en", 0, full_width, True),
        Typed("text_number", "up.stats.armor", 0, as_text, True),
        Typed("comma", "up.budget", 0, with_comma, True),
        Typed("space", "up.weapons.range", 0, _const(" "), True),
        Typed("blank", "up.weapons.min_range", 0, _const(None), False),
        Typed("wrong_circle", "up.weapons.post_move", 0, _const("〇"), True),
        Typed("circle", "up.weapons.post_move", 0, _const("○"), False),
        Typed("misspelt", "up.weapons.attribute", 0, _const("実弾"), True),
    ],
    "pp": [
        Typed("full_width", "pp.attributes.reflex", 0, full_width, True),
        Typed("text_number", "pp.attributes.mind", 0, as_text, True),
        Typed("comma", "pp.budget", 0, with_comma, True),
        Typed("space", "pp.skills.level", 0, _const(" "), True),
        Typed("blank", "pp.combat_boost", 0, _const(None), False),
        Typed("wrong_circle", "pp.weapons.melee", 0, _const("〇"), True),
        Typed("circle", "pp.weapons.melee", 0, _const("○"), False),
        Typed("misspelt", "pp.weapons.damage", 0, _const("Ｌ"), True),
    ],
    "mailgear": [
        Typed("full_width", "mailgear.skills.level", 0, full_width, True),
        Typed("text_number", "mailgear.pilot.experience", 0, as_text, True),
        Typed("comma", "mailgear.pilot.rank_points", 0, with_comma, True),
        Typed("space", "mailgear.equipment.extra_damage", 0, _const(" "), True),
        Typed("blank", "mailgear.equipment.slots", 0, _const(None), False),
        Typed("wrong_circle", "mailgear.equipment.band_cr", 0, _const("〇"), True),
        Typed("circle", "mailgear.equipment.band_cr", 0, _const("○"), False),
        Typed("misspelt", "mailgear.equipment.arm", 0, _const("右手"), True),
    ],
}
