"""A group's skill list (pp) from a file, the engine's extra input named by ``--skills``.

The rules parse it from text (``parse_skill_list``); reading the file happens here. A catalog
(``--catalog``) is loaded by ``converter.sheets.source``, since it may be a workbook's sheet.
"""
from __future__ import annotations

from pathlib import Path

from .files import MAX_SETTINGS_BYTES, read_input


def load_skill_list(path: str | Path) -> list:
    """A group's skill list from a .json, .toml or text file; SkillListError names file and line."""
    from ..rules.pp.skills import SkillListError, parse_skill_list

    p = Path(path)
    return parse_skill_list(read_input(p, SkillListError, MAX_SETTINGS_BYTES)[0], str(p), p.suffix)
