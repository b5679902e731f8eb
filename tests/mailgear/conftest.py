"""Shared helpers for the `mailgear` tests: a minimal pilot, its gear, and readers of an Evaluation.

The skill table below is copied by hand from seed 001 (４．スキルの説明), not read from
tables.toml, so that the tests check the engine's data instead of echoing it.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from converter.core.findings import Finding, Severity
from converter.core.evaluation import Evaluation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"


def example_catalog():
    """The example catalog, read and checked as the command line reads ``--catalog``."""
    from converter.sheets.source import load_catalog

    return load_catalog(EXAMPLE_CATALOG)

# label → (id, 最大レベル), in the seed's order: 24 skills.
SEED_SKILLS: dict[str, tuple[str, int]] = {
    "エリート・コース": ("elite_course", 3),
    "ミラクル": ("miracle", 4),
    "悪運": ("devils_luck", 1),
    "不死身": ("immortal", 1),
    "火事場のクソ力": ("desperate_strength", 4),
    "天賦の才": ("natural_talent", 3),
    "韋駄天": ("fleet_footed", 3),
    "フリーマン": ("freeman", 1),
    "トリック・スター": ("trickster", 6),
    "崖っぷち人生": ("edge_of_life", 1),
    "サポート": ("support", 4),
    "ラスト・チャンス": ("last_chance", 6),
    "第六感": ("sixth_sense", 4),
    "スピード・スター": ("speed_star", 4),
    "熱血": ("hot_blooded", 4),
    "インファイター": ("infighter", 4),
    "クール＆クール": ("cool_and_cool", 4),
    "ワン・ショット・ワン・キル": ("one_shot_one_kill", 4),
    "壊し屋": ("wrecker", 4),
    "鉄壁": ("iron_wall", 4),
    "グラス・スプリンジャー": ("glass_springer", 4),
    "タフガイ": ("tough_guy", 6),
    "省エネ家": ("energy_saver", 6),
    "限界突破": ("limit_breaker", 6),
}

# A plain gear (numbers made up for the tests; the seed gives no model table).
BASE_STATS: dict[str, int] = {
    "sensor": 4, "mobility": 3, "cr": 2, "sr": 3, "mr": 2, "lr": 1, "guard": 2, "counter": 1,
    "durability": 50, "energy": 30, "capacity": 14, "output": 4, "move": 5,
}


def pilot(**overrides: Any) -> dict[str, Any]:
    """A minimal valid `mailgear` document: no skills, a rank-C gear, nothing equipped.

    ``stats`` merges into the gear's stats, ``gear`` merges into the gear; the rest replaces.
    """
    stats = overrides.pop("stats", {})
    gear = overrides.pop("gear", {})
    doc: dict[str, Any] = {
        "system": "mailgear", "format": 1,
        "pilot": {"name": "試験パイロット", "experience": 20, "rank_points": 20, "level": "D"},
        "skills": [],
        "gear": {"model": "試験機", "rank": "C", "stats": copy.deepcopy(BASE_STATS)},
        "equipment": [],
    }
    doc.update(overrides)
    doc["gear"] = {**doc["gear"], **gear}
    doc["gear"]["stats"] = {**doc["gear"]["stats"], **stats}
    return doc


def skills(**levels: int) -> list[dict[str, Any]]:
    """``skills(iron_wall=2)`` → ``[{"id": "iron_wall", "level": 2}]``."""
    return [{"id": sid, "level": level} for sid, level in levels.items()]


def weapon(name: str = "ライフル", bands: tuple[str, ...] = ("sr",), **extra: Any) -> dict[str, Any]:
    return {"kind": "weapon", "name": name, "bands": list(bands), **extra}


def option(name: str = "Ａ．Ｇ．Ｓ", skill: str | None = "iron_wall", levels: int = 1,
           **extra: Any) -> dict[str, Any]:
    effects = [{"skill": skill, "levels": levels}] if skill else []
    return {"kind": "option", "name": name, "effects": effects, **extra}


def codes(pricing: Evaluation, *, info: bool = False) -> set[tuple[str, str]]:
    """(code, pointer) of the findings; infos only when asked for."""
    return {(f.code, f.pointer) for f in pricing.findings if info or f.level is not Severity.INFO}


def only(pricing: Evaluation, code: str) -> Finding:
    """The one finding with ``code`` (fails if there are none or several)."""
    found = [f for f in pricing.findings if f.code == code]
    assert len(found) == 1, [(f.code, f.pointer) for f in pricing.findings]
    return found[0]
