"""The human text form of a check report: one line per finding, Japanese by default."""
from __future__ import annotations

from .checking import CheckReport, FileReport

_WORDS = {
    "ja": {"error": "エラー", "warning": "警告", "info": "情報", "ok": "問題なし",
           "total": "合計", "budget": "総ＵＰ", "declared": "記入", "files": "ファイル",
           "invalid": "エラーあり", "summary": "{n} ファイル中 {bad} ファイルにエラー"},
    "en": {"error": "error", "warning": "warning", "info": "info", "ok": "OK",
           "total": "total", "budget": "budget", "declared": "written", "files": "files",
           "invalid": "has errors", "summary": "{bad} of {n} files have errors"},
}


def _file_text(fr: FileReport, lang: str) -> list[str]:
    w = _WORDS[lang]
    head = f"{fr.path}: {w['ok'] if fr.valid else w['invalid']}"
    if fr.computed is not None:
        head += f" ({w['total']} {fr.computed}"
        if fr.budget is not None:
            head += f" / {w['budget']} {fr.budget}"
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
    bad = sum(1 for f in report.files if not f.valid)
    out.append(_WORDS[lang]["summary"].format(n=len(report.files), bad=bad))
    return "\n".join(out) + "\n"
