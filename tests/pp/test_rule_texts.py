"""Every kind of priced line says how its cost was reached, in Japanese and in English: the item
(with the meaning of the value reached, or 表外 past the seed's table), the rule and the cost.

「能力値を１点上昇させるのに必要なＰＰは、新たな能力値と同じ点数」, 「技能レベルを１点上昇させるのに必要なＰＰは、
新たな技能レベルの２倍」, 「専門化した小分類のレベルを伸ばすのに必要なＰＰは、新たな技能レベルと同じ点数」,
「これを１点伸ばすには５点のＰＰが必要」, 「特技ひとつにつき５ＰＰ」.
"""
from __future__ import annotations

from typing import Any

import pytest

from converter.rules.pp.engine import price_character

from .conftest import character, skill


def line(doc: dict[str, Any], pointer: str, **options: str) -> tuple:
    """(item, rule, cost, item in English, rule in English) of the line at ``pointer``."""
    found = [x for x in price_character(doc, options).lines if x.pointer == pointer]
    assert len(found) == 1, found
    x = found[0]
    return x.item, x.rule, x.cost, x.item_in("en"), x.rule_in("en")


CASES = [
    ("attribute", character(attributes={"reflex": 4}), "/attributes/reflex", {},
     ("【反応】1→4（やや得意）", "新しい値ごと: 2+3+4", 9, "Reflex 1→4 (somewhat good)", "each new value: 2+3+4")),
    # One point: one term.
    ("attribute one point", character(attributes={"reflex": 2}), "/attributes/reflex", {},
     ("【反応】1→2（やや不得意）", "新しい値ごと: 2", 2, "Reflex 1→2 (somewhat weak)", "each new value: 2")),
    # 1→0 gives back what the 1 cost.
    ("attribute zero", character(attributes={"body": 0}), "/attributes/body", {},
     ("【肉体】1→0（日常生活に支障）", "1点返却", -1, "Body 1→0 (impaired in daily life)", "1 refunded")),
    # Past 12 there is no meaning: 表外. 2 + 3 + … + 13 = 90.
    ("attribute off the table", character(attributes={"body": 13}), "/attributes/body", {},
     ("【肉体】1→13（表外）", "新しい値ごと: 2+3+4+5+6+7+8+9+10+11+12+13", 90, "Body 1→13 (off the table)",
      "each new value: 2+3+4+5+6+7+8+9+10+11+12+13")),
    ("skill", character(skills=[skill("操縦", 3)]), "/skills/0/level", {},
     ("〈操縦〉0→3（腕に覚えアリ）", "新しいレベル×2: 2+4+6", 12, "Piloting 0→3 (skilled)", "new level × 2: 2+4+6")),
    ("skill off the table", character(skills=[skill("操縦", 9)]), "/skills/0/level", {},
     ("〈操縦〉0→9（表外）", "新しいレベル×2: 2+4+6+8+10+12+14+16+18", 90, "Piloting 0→9 (off the table)",
      "new level × 2: 2+4+6+8+10+12+14+16+18")),
    # A skill no list knows keeps its name as written, in both languages.
    ("unknown skill", character(skills=[skill("料理", 2)]), "/skills/0/level", {},
     ("〈料理〉0→2（基礎訓練を修了）", "新しいレベル×2: 2+4", 6, "料理 0→2 (basic training done)",
      "new level × 2: 2+4")),
    ("specialization", character(skills=[skill("直接砲撃", 3, ("ビーム兵器", 5))]),
     "/skills/0/specializations/0/level", {},
     ("〈直接砲撃〉（ビーム兵器）3→5", "新しいレベルごと: 4+5", 9, "Direct Fire (beam weapons) 3→5",
      "each new level: 4+5")),
    ("combat boost", character(combat_boost=5), "/combat_boost", {},
     ("コンバット・ブースト 3→5", "+2 × 5", 10, "Combat boost 3→5", "+2 × 5")),
    ("feat", character(feats=[{"name": "狙撃"}]), "/feats/0", {},
     ("特技「狙撃」", "特技１つ 5", 5, "Feat '狙撃'", "one feat 5")),
    # 「使用しなくてもよい」: a table without the rule prices a listed feat at 0.
    ("feat not in use", character(feats=[{"name": "狙撃"}]), "/feats/0", {"feats": "unused"},
     ("特技「狙撃」", "選択ルール「特技」不使用 0", 0, "Feat '狙撃'", "optional feat rule not in use: 0")),
]


@pytest.mark.parametrize(("doc", "pointer", "options", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_line(doc: dict[str, Any], pointer: str, options: dict[str, str], expected: tuple) -> None:
    """A pp priced line has its expected item, rule and cost, in Japanese and in English."""
    assert line(doc, pointer, **options) == expected
