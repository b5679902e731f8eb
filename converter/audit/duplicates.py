"""Duplicates across a folder: the same file twice, the same character or unit in two files, a
player with more characters than the house rules allow.

Names compare as people type them: NFKC (full-width and half-width alike), case and spaces
ignored, so 「ガンダム」 and 「ガンダム 」 or 「ＲＸ－７８」 and 「RX-78」 are one name.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import PurePath
from typing import Any

from ..core.findings import Finding
from .house import HouseRules
from .report import AuditMember, AuditedFile


NAMES_SHOWN = 5  # a player's characters a finding names (the count says how many in all)


def name_key(text: Any) -> str:
    """How two names are compared: NFKC, case-folded, without spaces."""
    return "".join(unicodedata.normalize("NFKC", str(text)).casefold().split())


#: how a copy's name reads: 「x (1).xlsx」 (a browser's download), 「x - コピー.xlsx」 (Windows),
#: 「x のコピー」, 「Copy of x」, 「x copy 2」 (macOS), 「x_copy」
COPY_NAME = re.compile(r"(\s*\(\d+\)|(\s+|\s*[-_]\s*)copy|\s*[-_]?\s*(の)?コピー)(\s*\(?\d+\)?)?$"
                       r"|^(copy of\s|コピー\s*[-～~]?\s*)", re.IGNORECASE)


def looks_like_a_copy(path: str) -> bool:
    """Whether a file's name reads as a copy of another's (``COPY_NAME``)."""
    return bool(COPY_NAME.search(PurePath(path).stem))


def _indexed(files: list[AuditedFile]) -> list[tuple[int, AuditedFile, AuditMember]]:
    return [(i, a, m) for i, (a, m) in enumerate((a, m) for a in files for m in a.members)]


def _originals_first(files: list[AuditedFile]) -> list[tuple[int, AuditedFile, AuditMember]]:
    """The members with those whose file is named as a copy last, else in folder order: of two
    alike, the copy is the one flagged (「takashi-up (1).xlsx」, not 「takashi-up.xlsx」)."""
    return sorted(_indexed(files), key=lambda item: (looks_like_a_copy(item[1].path), item[0]))


def _where(audited: AuditedFile, m: AuditMember) -> str:
    return audited.path + (f"#{m.record.sheet}" if m.record is not None and m.record.sheet else "")


def duplicate_findings(files: list[AuditedFile], house: HouseRules) -> list[tuple[int, Finding]]:
    """(member index, finding) for each duplicate: a later file names the first it repeats."""
    out: list[tuple[int, Finding]] = []
    first_content: dict[str, str] = {}
    first_name: dict[tuple[str | None, str], str] = {}
    by_player: dict[str, list[tuple[int, AuditMember]]] = {}
    for i, audited, m in _originals_first(files):
        if audited.sha256 is not None:
            first = first_content.setdefault(audited.sha256, audited.path)
            if first != audited.path:
                out.append((i, Finding("AUDIT_DUPLICATE_FILE", "", {"other": first})))
                continue  # the same file again: its names and player are not new
        if not m.readable:
            continue
        if m.name:
            key = (m.report.system, name_key(m.name))
            first = first_name.setdefault(key, _where(audited, m))
            if first != _where(audited, m):
                out.append((i, Finding("AUDIT_DUPLICATE_NAME", "/name", {"name": m.name, "other": first})))
        if m.player and m.report.system != "up":  # an up unit names its pilot, not a character
            by_player.setdefault(name_key(m.player), []).append((i, m))
    limit = house.characters_per_player
    if limit:
        for members in by_player.values():
            if len(members) > limit:
                names = [str(m.name or "?") for _, m in members[:NAMES_SHOWN]]
                if len(members) > NAMES_SHOWN:
                    names.append("…")
                for i, m in members[limit:]:
                    out.append((i, Finding("AUDIT_PLAYER_OVER_LIMIT", "", {
                        "player": m.player, "count": len(members), "limit": limit, "names": names})))
    return out


def duplicate_groups(files: list[AuditedFile], house: HouseRules) -> list[dict[str, Any]]:
    """The report's list of duplicates: each group of files sharing content or a name, and each
    player over the house rules' limit, as the findings above say them."""
    groups: dict[tuple[str, str], list[str]] = {}
    contents: set[str] = set()
    for _, audited, m in _indexed(files):
        if audited.sha256 is not None:
            groups.setdefault(("content", audited.sha256), []).append(audited.path)
            if audited.sha256 in contents and groups[("content", audited.sha256)][0] != audited.path:
                continue
            contents.add(audited.sha256)
        if m.readable and m.name:
            groups.setdefault(("name", f"{m.report.system}:{name_key(m.name)}"), []).append(_where(audited, m))
        if m.readable and m.player and m.report.system != "up":
            groups.setdefault(("player", name_key(m.player)), []).append(_where(audited, m))
    limit = house.characters_per_player

    def shown(kind: str, places: list[str]) -> bool:
        if kind == "player":
            return bool(limit) and len(places) > limit
        return len(set(places)) > 1

    return [{"kind": kind, "key": key, "files": sorted(set(places))}
            for (kind, key), places in groups.items() if shown(kind, places)]
