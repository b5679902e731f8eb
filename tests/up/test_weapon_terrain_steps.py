"""The percentage a weapon's 地形適応 moves by, every grade to every grade, as the rules sheet lists
it: 「ある地形についての地形適応を一段階上げる場合、その武器の総ＵＰが＋１０％される。逆にＡからＢ、ＢからＣに
下げる場合は−１０％される。「−」にする場合は、元の適応にかかわらずｰ２０％となる」; from 「−」 (a melee
weapon's air or space where the unit cannot go) C is one step up (docs/rules-up.md)."""
from __future__ import annotations

import pytest

from converter.rules.up.tables import tables
from converter.rules.up.weapons import weapon_terrain_step_percent

GRADES = ["S", "A", "B", "C", "-"]
# row: from; column: to (S, A, B, C, −)
GRID = {
    "S": [0, -10, -20, -30, -20],
    "A": [10, 0, -10, -20, -20],
    "B": [20, 10, 0, -10, -20],
    "C": [30, 20, 10, 0, -20],
    "-": [40, 30, 20, 10, 0],
}


@pytest.mark.parametrize("base", GRADES)
def test_every_step(base: str) -> None:
    """The terrain step percentage from each grade to each other grade is the rules' grid."""
    assert [weapon_terrain_step_percent(base, final, tables()) for final in GRADES] == GRID[base]
