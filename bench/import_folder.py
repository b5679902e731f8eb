"""Benchmark: importing a folder of homemade (legacy) sheets, against plain readers of the same files.

Run: pip install -e '.[bench]' && python bench/import_folder.py [N] [--quick] [--big M] [--rounds R]

Builds a corpus of N homemade sheets (default 2000; --quick: 200) of the three systems, each
generated with its own layout: label wording from converter/legacy/labels.toml's synonyms,
values beside, under or inside their label's cell (「ＨＰ：２５０」), full-width digits and
「1,500」, a weapons, skills or equipment table or a skill list, a few sheets with two
characters; .xlsx written with XlsxWriter, and among them the committed .xls and .ods samples
(samples/legacy). Then, each in a fresh process (so start-up and memory are its own):
  - mechasheet's import (documents, import-report.json, roster.csv/.xlsx) with one job and with
    --jobs 2, as ``mechasheet import`` runs it;
  - a straightforward openpyxl loop: load_workbook(read_only, data_only) of every file it can
    read (.xlsx; it reads no .xls or .ods), every cell of every sheet scanned, each string
    given to label_key and split_label_value and each cell to parse_number (the reader's
    per-cell parsing; no documents, checks or outputs);
  - python-calamine's bare read of every sheet of every file (the floor);
measured R rounds (default 3) with the runs interleaved, each figure the median of its rounds (the
M-file run: one round), and prints sheets (workbooks) per second and peak memory for each, the
ratios (import against the openpyxl loop and calamine's bare read, --jobs 2 against one job), and
the target (issue 30's guard) as pass/fail: peak memory at M sheets (default 5 N: 10,000; the
corpus copied over) under 300 MB.
"""
from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from check_folder import copy_cycle, side_by_side  # bench/ is the script's folder, first on sys.path

ROOT = Path(__file__).resolve().parent.parent
LEGACY = ROOT / "samples" / "legacy"
LABELS = tomllib.loads((ROOT / "converter" / "legacy" / "labels.toml").read_text("utf-8"))
SYSTEMS = ("up", "pp", "mailgear")
SAMPLE_EVERY = 25  # every 25th file is one of the committed .xls / .ods samples
TWO_EVERY = 16  # every 16th generated sheet holds two characters
_WIDE = str.maketrans("0123456789,+-%", "０１２３４５６７８９，＋－％")

# --- the corpus -------------------------------------------------------------------------------------


def _words(system: str) -> dict[str, list[str]]:
    """Each field's labels in labels.toml that name no other field or column of the system, the
    template layout's labels included (a generated sheet should mean one thing)."""
    from converter.legacy.labels import label_key, system_labels

    spec, known = LABELS[system], system_labels(system)
    count: dict[str, int] = {}
    for keys in [f.labels for f in known.fields] + [c.labels for t in known.tables for c in t.columns]:
        for key in keys:
            count[key] = count.get(key, 0) + 1
    named: dict[str, list[str]] = {p: list(f["labels"]) for p, f in spec["fields"].items()}
    for table in spec.get("tables", {}).values():
        for key, col in table["columns"].items():
            named[f"{table['pointer']}/{key}"] = list(col["labels"])
    return {p: [w for w in labels if count.get(label_key(w), 0) == 1] or labels[:1] for p, labels in named.items()}


WORDS = {s: _words(s) for s in SYSTEMS}


class _Sheet:
    """Rows of cells being laid out, one generated sheet's worth."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rows: list[list[Any]] = []
        self.merged: list[tuple[int, int, int, int]] = []
        self.wide = rng.random() < 0.4  # full-width digits in typed numbers

    def word(self, system: str, pointer: str) -> str:
        """The field's usual label half the time, else any of its synonyms."""
        words = WORDS[system][pointer]
        return words[0] if self.rng.random() < 0.5 else self.rng.choice(words)

    def number(self, value: int) -> Any:
        """A number as people type it: a number cell, 「1,500」, or full-width text."""
        roll = self.rng.random()
        if roll < 0.45:
            return value
        text = f"{value:,}" if value >= 1000 and roll < 0.7 else str(value)
        return text.translate(_WIDE) if self.wide else text

    def row(self, *cells: Any) -> None:
        self.rows.append(list(cells))

    def fields(self, system: str, pairs: list[tuple[str, Any]]) -> None:
        """(pointer, value) pairs laid out beside, under or inside their labels."""
        style = self.rng.choice(("beside", "under", "inline"))
        labelled = [(self.word(system, p), v) for p, v in pairs]
        if style == "beside":
            for k in range(0, len(labelled), 2):
                row: list[Any] = []
                for label, value in labelled[k:k + 2]:
                    row += [label, value, None]
                self.row(*row[:-1])
        elif style == "under":
            for k in range(0, len(labelled), 6):
                self.row(*(label for label, _ in labelled[k:k + 6]))
                self.row(*(value for _, value in labelled[k:k + 6]))
        else:
            sep = self.rng.choice(("：", ":", " "))
            for k in range(0, len(labelled), 3):
                self.row(*(f"{label}{sep}{value}" for label, value in labelled[k:k + 3]))

    def table(self, system: str, pointer: str, columns: list[str], rows: list[list[Any]]) -> None:
        self.row(*(self.word(system, f"{pointer}/{c}") for c in columns))
        for r in rows:
            self.row(*r)
        self.row()


def _up(s: _Sheet, i: int) -> None:
    rng = s.rng
    s.row(f"ユニットシート #{i}（{rng.choice(('2009', '2014', '2019'))}年版）")
    s.merged.append((len(s.rows) - 1, 0, len(s.rows) - 1, 4))
    s.fields("up", [("/name", f"試作機{i}号"), ("/pilot", rng.choice(("アムロ", "カミーユ", "ジュドー")))])
    s.fields("up", [("/size", rng.choice(("S", "M", "Ｍ", "L"))), ("/budget", s.number(rng.randrange(1000, 2500, 50)))])
    s.fields("up", [(f"/stats/{k}", s.number(rng.randint(lo, hi))) for k, lo, hi in (
        ("hp", 150, 500), ("en", 40, 200), ("armor", 10, 40), ("power", 10, 30), ("mobility", 5, 25),
        ("move", 4, 7))])
    s.fields("up", [("/movement", rng.choice(("陸・宇宙", "空／陸", "陸宇"))),
                    ("/terrain", rng.choice(("空B 陸A 海B 宇A", "A/A/B/A", "空A 陸A 海C 宇B")))])
    weapons = []
    for k in range(rng.randint(2, 8)):
        melee = rng.random() < 0.4
        weapons.append([f"武器{k + 1}", "格闘" if melee else "射撃", "1" if melee else rng.choice(("P4", "1～3", "５")),
                        f"{rng.randint(1, 2)}D+{rng.randint(5, 30)}".translate(_WIDE if s.wide else {}),
                        rng.choice(("+10%", "0", "－５％", 15)), None if melee else rng.choice(("弾数8", "EN10", 6)),
                        s.number(rng.randrange(60, 400, 10)), rng.choice((None, "メイン", "予備"))])
    s.row(rng.choice(("武装", "武装一覧")))
    s.table("up", "/weapons", ["name", "kind", "range", "damage", "accuracy", "usage", "declared_cost", "notes"],
            weapons)
    s.fields("up", [("/declared_total", s.number(rng.randrange(800, 2500, 10)))])
    s.row(rng.choice(("備考", "メモ")), "次のセッションで改修予定")


def _pp(s: _Sheet, i: int) -> None:
    rng = s.rng
    s.fields("pp", [("/name", f"キャラ{i}"), ("/player", rng.choice(("たなか", "すずき", "やまだ")))])
    s.fields("pp", [(f"/attributes/{k}", s.number(rng.randint(1, 5)))
                    for k in ("body", "reflex", "sense", "mind", "social")]
             + [("/combat_boost", s.number(rng.randint(2, 5)))])
    skills = rng.sample(["操縦", "機動回避", "知覚", "運動", "直接砲撃", "知識／戦術", "機動格闘"], rng.randint(2, 5))
    if rng.random() < 0.5:
        s.table("pp", "/skills", ["name", "level", "notes"],
                [[name, s.number(rng.randint(1, 3)), rng.choice((None, "エース"))] for name in skills])
    else:
        s.row("技能", *(f"〈{name}〉{rng.randint(1, 3)}" for name in skills))
    s.fields("pp", [("/budget", s.number(50)), ("/declared_total", s.number(rng.randint(40, 55)))])


def _mailgear(s: _Sheet, i: int) -> None:
    rng = s.rng
    s.fields("mailgear", [("/pilot/name", f"パイロット{i}"), ("/pilot/player", rng.choice(("こばやし", "もりた"))),
                          ("/pilot/experience", s.number(rng.randint(0, 30))),
                          ("/pilot/rank_points", s.number(rng.randint(0, 5)))])
    s.fields("mailgear", [("/gear/model", rng.choice(("ファルケ", "ヴォルフ", "シュトルム"))),
                          ("/gear/rank", rng.choice("EDC"))]
             + [(f"/gear/stats/{k}", s.number(rng.randint(0, 6))) for k in ("sensor", "mobility", "cr", "sr", "mr", "lr")])
    skills = rng.sample(["第六感", "ミラクル", "天賦の才", "韋駄天", "悪運"], rng.randint(1, 3))
    if rng.random() < 0.5:
        s.row("スキル", "、".join(f"{name}Lv{rng.randint(1, 2)}" for name in skills))
    else:
        s.table("mailgear", "/skills", ["id", "level"], [[name, rng.randint(1, 2)] for name in skills])
    s.table("mailgear", "/equipment", ["name", "kind", "extra_damage", "energy", "notes"],
            [["ロングライフル", "武器", 4, 2, "両腕"], ["増加装甲", "オプション", None, None, "耐久＋5"]][:rng.randint(1, 2)])
    s.row("武運", f"2D6+{rng.randint(0, 3)}")


MAKERS = {"up": _up, "pp": _pp, "mailgear": _mailgear}


def _write(path: Path, sheets: dict[str, _Sheet]) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path))
    for name, sheet in sheets.items():
        ws = book.add_worksheet(name)
        for r, row in enumerate(sheet.rows):
            for c, value in enumerate(row):
                if value is not None:
                    ws.write(r, c, value)
        for top, left, bottom, right in sheet.merged:
            ws.merge_range(top, left, bottom, right, sheet.rows[top][left])
    book.close()


def _two(first: _Sheet, second: _Sheet) -> _Sheet:
    """Two characters on one sheet: one under the other (a blank row between)."""
    first.rows += [[]] + second.rows
    return first


def build_corpus(folder: Path, n: int) -> list[Path]:
    """``n`` workbooks: generated .xlsx of the three systems in turn, every SAMPLE_EVERY-th one a
    committed .xls or .ods sample."""
    folder.mkdir(parents=True, exist_ok=True)
    samples = sorted(p for p in LEGACY.iterdir() if p.suffix in (".xls", ".ods"))
    out = []
    for i in range(n):
        if i % SAMPLE_EVERY == SAMPLE_EVERY - 1:
            src = samples[(i // SAMPLE_EVERY) % len(samples)]
            dst = folder / f"{i:05d}-{src.name}"
            shutil.copyfile(src, dst)
            out.append(dst)
            continue
        system = SYSTEMS[i % 3]
        rng = random.Random(i)
        sheet = _Sheet(rng)
        MAKERS[system](sheet, i)
        if i % TWO_EVERY == 0:
            other = _Sheet(random.Random(-i))
            MAKERS[system](other, i + 100_000)
            sheet = _two(sheet, other)
        sheets = {rng.choice(("データ", "キャラクター", "シート1", system.upper())): sheet}
        if rng.random() < 0.1:
            notes = _Sheet(rng)
            notes.row("セッション記録", "第3話まで")
            sheets["メモ"] = notes
        dst = folder / f"{i:05d}-{system}.xlsx"
        _write(dst, sheets)
        out.append(dst)
    return out


# --- the measured runs (each in a fresh process: bench/check_folder.py's measure) -----------------

# An import writes into a folder of its own under TMPDIR, which main() points into the bench's
# temporary folder (removed at the end).
_IMPORT = ("import tempfile\nfrom converter.imports.importer import import_files",
           "out = Path(tempfile.mkdtemp()) / 'out'\n"
           "report = import_files(files, out, jobs={jobs})\n"
           "assert report.files == len(files) and (out / 'roster.csv').exists()")
RUNS = {
    "import-1": (_IMPORT[0], _IMPORT[1].format(jobs=1)),
    "import-2": (_IMPORT[0], _IMPORT[1].format(jobs=2)),
    # given the .xlsx files only: openpyxl reads no .xls or .ods
    "openpyxl": ("import openpyxl\n"
                 "from converter.legacy.labels import label_key\n"
                 "from converter.legacy.notation import parse_number, split_label_value",
                 "for f in files:\n"
                 "    wb = openpyxl.load_workbook(f, read_only=True, data_only=True)\n"
                 "    for ws in wb.worksheets:\n"
                 "        for row in ws.iter_rows(values_only=True):\n"
                 "            for v in row:\n"
                 "                if v is None:\n"
                 "                    continue\n"
                 "                if isinstance(v, str):\n"
                 "                    label_key(v)\n"
                 "                    split_label_value(v)\n"
                 "                parse_number(v)\n"
                 "    wb.close()"),
    "calamine": ("import python_calamine",
                 "for f in files:\n"
                 "    book = python_calamine.CalamineWorkbook.from_path(str(f))\n"
                 "    for s in book.sheet_names:\n"
                 "        book.get_sheet_by_name(s).to_python()\n"
                 "    book.close()"),
}


def main() -> None:
    args = sys.argv[1:]
    n = int(args[0]) if args and args[0].isdigit() else 200 if "--quick" in args else 2000
    big = int(args[args.index("--big") + 1]) if "--big" in args else 5 * n
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 3
    with tempfile.TemporaryDirectory(prefix="mechasheet-import-bench-") as tmp:
        base = Path(tmp)
        os.environ["TMPDIR"] = str(base)  # the imports' outputs, removed with it
        sheets = build_corpus(base / "sheets", n)
        xlsx = [p for p in sheets if p.suffix == ".xlsx"]
        # the runs interleaved round after round (a slow spell of the machine falls on all of
        # them alike), each figure the median of its rounds
        results = side_by_side([("import-1", "import-1", sheets), ("import-2", "import-2", sheets),
                                ("calamine", "calamine", sheets), ("openpyxl", "openpyxl", xlsx)], rounds, RUNS)
        many = copy_cycle(sheets, base / "many", big)
        results.update(side_by_side([("import-1-big", "import-1", many)], 1, RUNS))
    for label, r in results.items():
        count = len(xlsx) if label == "openpyxl" else big if label.endswith("-big") else n
        r["per_second"] = count / r["seconds"]
        r["rounds_per_second"] = [1000 / ms for ms in r["per_file_ms_all"]]

    print(f"sheets: {n} homemade workbooks of up, pp and mailgear ({len(xlsx)} .xlsx, {n - len(xlsx)} "
          f".xls/.ods; openpyxl reads the .xlsx); cores: {os.cpu_count()}")
    print(f"medians of {rounds} rounds, the runs interleaved (the {big}-sheet run: one round)")
    print(f"{'run':<22}{'sheets/s':>10}{'peak MB':>10}  rounds (sheets/s)")
    for kind, r in results.items():
        label = kind.replace("-big", f" ({big})")
        spread = " ".join(f"{x:.0f}" for x in r["rounds_per_second"])
        print(f"{label:<22}{r['per_second']:>10.1f}{r['peak_kb'] / 1024:>10.1f}  {spread}")
    ours = results["import-1"]["per_second"]
    paired = ", ".join(f"{two / one:.2f}" for one, two in zip(results["import-1"]["rounds_per_second"],
                                                             results["import-2"]["rounds_per_second"], strict=True))
    big_peak = results["import-1-big"]["peak_kb"] / 1024
    ratios = {
        "import / openpyxl loop, one core": (ours / results["openpyxl"]["per_second"], None),
        "calamine bare read / import": (results["calamine"]["per_second"] / ours, None),
        "--jobs 2 / one job": (results["import-2"]["per_second"] / ours, None),
        f"peak at {big} / peak at {n} files": (big_peak * 1024 / results["import-1"]["peak_kb"], None),
        f"peak MB at {big} sheets (< 300)": (big_peak, lambda mb: mb < 300),
    }
    print()
    for label, (ratio, target) in ratios.items():
        verdict = "" if target is None else ("  pass" if target(ratio) else "  FAIL")
        print(f"{label:<46}{ratio:>8.2f}{verdict}")
    print(f"--jobs 2 / one job, round by round: {paired}")


if __name__ == "__main__":
    main()
