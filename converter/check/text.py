"""The human text form of a check report: one line per finding, Japanese by default."""
from __future__ import annotations

from .report import CheckReport, FileReport

_WORDS = {
    "ja": {"error": "エラー", "warning": "警告", "info": "情報", "ok": "問題なし",
           "total": "合計", "budget": "総{points}", "declared": "記入", "files": "ファイル",
           "invalid": "エラーあり", "summary": "{n} ファイル中 {bad} ファイルにエラー",
           "party": "パーティ（{members}人）: 経験＋階級の平均 {mean} → 切り捨て {floor}",
           "unit_level": "、ユニット・レベル {level}", "no_table": "（ユニット・レベル表はカタログにありません）"},
    "en": {"error": "error", "warning": "warning", "info": "info", "ok": "OK",
           "total": "total", "budget": "budget ({points})", "declared": "written", "files": "files",
           "invalid": "has errors", "summary": "{bad} of {n} files have errors",
           "party": "party ({members}): mean of experience + rank {mean}, floor {floor}",
           "unit_level": ", unit level {level}", "no_table": " (no unit-level table in the catalog)"},
}


# What each system's points are called (seed 000 ＵＰ, seed 003 ＰＰ).
_POINTS = {"up": "ＵＰ", "pp": "ＰＰ"}


def _file_text(fr: FileReport, lang: str) -> list[str]:
    w = _WORDS[lang]
    head = f"{fr.path}: {w['ok'] if fr.valid else w['invalid']}"
    if fr.computed is not None:
        head += f" ({w['total']} {fr.computed}"
        if fr.budget is not None:
            head += f" / {w['budget'].format(points=_POINTS.get(fr.system or '', 'pt'))} {fr.budget}"
        if fr.declared is not None:
            head += f", {w['declared']} {fr.declared}"
        head += ")"
    lines = [head]
    for f in fr.findings:
        where = f.cell or f.pointer or "-"
        lines.append(f"  {w[f.level.value]} {f.code} {where}: {f.message(lang)}")
    return lines


def render_text(report: CheckReport, lang: str = "ja") -> str:
    lang = lang if lang in _WORDS else "ja"
    out: list[str] = []
    for fr in report.files:
        out.extend(_file_text(fr, lang))
    party = report.sets.get("mailgear.party")
    if party is not None:
        out.extend(_party_text(party, lang))
    bad = sum(1 for f in report.files if not f.valid)
    out.append(_WORDS[lang]["summary"].format(n=len(report.files), bad=bad))
    return "\n".join(out) + "\n"


def _party_text(party, lang: str) -> list[str]:
    w = _WORDS[lang]
    if not party.members:
        lines = []
    else:
        mean = f"{float(party.mean):.2f}".rstrip("0").rstrip(".")
        line = w["party"].format(members=party.members, mean=mean, floor=party.floor)
        line += w["unit_level"].format(level=party.unit_level) if party.unit_level is not None else ""
        lines = [line]
    for f in party.findings:
        lines.append(f"  {w[f.level.value]} {f.code} {f.pointer or '-'}: {f.message(lang)}")
    return lines
