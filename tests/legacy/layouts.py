"""Homemade layouts for generated documents: Hypothesis draws a document of what homemade sheets
hold, then a layout for it (label wording from the systems' labels, values beside, under or in
the label's cell, full-width digits and commas, tables or lists for skills and weapons, groups in
any order and column), and renders it as the rows of a sheet. The importer must read it back.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from converter.legacy.labels import label_key, system_labels
from converter.rules.pp.tables import tables as pp_tables

_KANA = st.text(alphabet="アイウカキクサシスタチツナニヌハヒフマミムヤユヨラリルワ", min_size=2, max_size=6)


def names(system: str):
    """Names of characters, units and players; never one of the system's labels (a cell that
    says 「スキル」 is a label, whatever the sheet meant)."""
    return _KANA.filter(lambda n: label_key(n) not in system_labels(system).all_keys)
SEPARATORS = ("：", ":", "＝", " ")


def _raw_labels(system: str) -> dict[str, list[str]]:
    """Each field's and column's labels as written in labels.toml and the layouts, keeping only
    those no other field or column of the system shares (a shared label is ambiguous by design)."""
    import tomllib
    from importlib import resources

    data = tomllib.loads(resources.files("converter.legacy").joinpath("labels.toml").read_text("utf-8"))[system]
    raw: dict[str, list[str]] = {p: list(spec["labels"]) for p, spec in data["fields"].items()}
    for tid, table in data.get("tables", {}).items():
        for key, col in table["columns"].items():
            raw[f"{tid}.{key}"] = list(col["labels"])
    owners: dict[str, set[str]] = {}
    for target, labels in raw.items():
        for label in labels:
            owners.setdefault(label_key(label), set()).add(target)
    spec = system_labels(system)
    every = [(f.target, f.labels) for f in spec.fields] + [(f"{t.id}.{c.target}", c.labels)
                                                          for t in spec.tables for c in t.columns]
    for target, keys in every:
        for key in keys:
            owners.setdefault(key, set()).add(target)
    def clash(target: str, owner: str) -> bool:
        """Two fields may not share a label, nor two columns of one table; a field and a column
        may (the column's header row tells them apart: 名称 over a weapons table and 名称 beside
        a unit's name), as may columns of two tables (each has its own header row)."""
        table = lambda t: None if t.startswith("/") else t.split(".")[0]  # noqa: E731
        return owner != target and table(owner) == table(target)

    return {t: [x for x in labels if not any(clash(t, o) for o in owners[label_key(x)])]
            for t, labels in raw.items()}


def _digits(draw, value: int) -> Any:
    """An integer as a homemade sheet types it: a number, text, full-width, with commas."""
    style = draw(st.sampled_from(["number", "text", "full", "comma"]))
    if style == "number":
        return value
    text = f"{value:,}" if style == "comma" else str(value)
    if style == "full":
        text = text.translate(str.maketrans("0123456789,-", "０１２３４５６７８９，－"))
    return text


def _scalar(draw, labels: list[str], value: Any, rows: list[list[Any]]) -> None:
    """A label and its value: beside (0 to 2 cells between), under, or in one cell."""
    label = draw(st.sampled_from(labels))
    indent = [None] * draw(st.integers(0, 2))
    numeric = not isinstance(value, str) or value[:1].isdigit() or value[:1] in "０１２３４５６７８９－"
    style = draw(st.sampled_from(["beside", "under", "inline"]))
    if style == "inline":
        sep = draw(st.sampled_from(SEPARATORS if numeric else SEPARATORS[:3]))
        rows.append(indent + [f"{label}{sep}{value}"])
    elif style == "under":
        rows.append(indent + [label])
        rows.append(indent + [value])
    else:
        rows.append(indent + [label] + [None] * draw(st.integers(0, 2)) + [value])
    rows.append([])


@st.composite
def pp_case(draw) -> tuple[list[list[Any]], dict[str, Any]]:
    """(rows of a homemade pp sheet, the document it holds)."""
    labels = _raw_labels("pp")
    doc: dict[str, Any] = {"system": "pp", "format": 1}
    groups = []
    doc["name"] = draw(names("pp"))
    groups.append(("/name", doc["name"]))
    if draw(st.booleans()):
        doc["player"] = draw(names("pp"))
        groups.append(("/player", doc["player"]))
    if draw(st.booleans()):
        doc["combat_boost"] = draw(st.integers(3, 6))
        groups.append(("/combat_boost", doc["combat_boost"]))
    if draw(st.booleans()):
        doc["declared_total"] = draw(st.integers(20, 1200))
        groups.append(("/declared_total", doc["declared_total"]))
    attrs = {a: draw(st.integers(0, 12)) for a in ("body", "reflex", "sense", "mind", "social")}
    doc["attributes"] = attrs
    skill_names = list(dict.fromkeys(s["label"] for s in pp_tables().raw["skills"]))
    picked = draw(st.lists(st.sampled_from(skill_names), unique=True, max_size=5))
    skills = []
    for name in picked:
        shown = draw(st.sampled_from([name, f"〈{name}〉"]))
        skills.append({"name": shown, "level": draw(st.integers(1, 8))})
    rows: list[list[Any]] = []
    order = draw(st.permutations(list(range(len(groups) + 2))))
    for k in order:
        if k < len(groups):
            pointer, value = groups[k]
            _scalar(draw, labels[pointer], value if isinstance(value, str) else _digits(draw, value), rows)
        elif k == len(groups):
            _row_or_fields(draw, labels, "/attributes", attrs, rows)
        elif skills:
            doc["skills"] = skills
            _skills(draw, labels, skills, rows)
    return rows, doc


def _row_or_fields(draw, labels: dict[str, list[str]], prefix: str, values: dict[str, int],
                   rows: list[list[Any]]) -> None:
    """Numbers under ``prefix`` (attributes, stats): a row of labels with the values under them,
    or each as its own field."""
    if draw(st.booleans()):
        rows.append([draw(st.sampled_from(labels[f"{prefix}/{k}"])) for k in values])
        rows.append([_digits(draw, v) for v in values.values()])
        rows.append([])
    else:
        for k, v in values.items():
            _scalar(draw, labels[f"{prefix}/{k}"], _digits(draw, v), rows)


def _skills(draw, labels: dict[str, list[str]], skills: list[dict[str, Any]], rows: list[list[Any]]) -> None:
    style = draw(st.sampled_from(["table", "cells", "one_cell"]))
    if style == "table":
        rows.append([draw(st.sampled_from(labels["skills.name"])), draw(st.sampled_from(labels["skills.level"]))])
        rows.extend([s["name"], _digits(draw, s["level"])] for s in skills)
    else:
        texts = [f"{s['name']}{draw(st.sampled_from(['Lv', ' Lv.', ' ', 'Ｌｖ']))}{s['level']}" for s in skills]
        label = draw(st.sampled_from(labels["/skills"]))
        rows.append([label] + texts if style == "cells" else [label, "、".join(texts)])
    rows.append([])


def _dice(draw, dice: int, fixed: int) -> str:
    d = draw(st.sampled_from(["D", "d", "Ｄ", "D10"]))
    plus = draw(st.sampled_from(["+", "＋"]))
    text = f"{dice}{d}{plus}{fixed}"
    return text.translate(str.maketrans("0123456789", "０１２３４５６７８９")) if draw(st.booleans()) else text


@st.composite
def up_case(draw) -> tuple[list[list[Any]], dict[str, Any]]:
    """(rows of a homemade up unit sheet, the document it holds)."""
    labels = _raw_labels("up")
    doc: dict[str, Any] = {"system": "up", "format": 1, "name": draw(names("up"))}
    groups: list[tuple[str, Any]] = [("/name", doc["name"])]
    if draw(st.booleans()):
        doc["pilot"] = draw(names("up"))
        groups.append(("/pilot", doc["pilot"]))
    doc["budget"] = draw(st.integers(500, 9000))
    groups.append(("/budget", _digits(draw, doc["budget"])))
    doc["size"] = draw(st.sampled_from(["SS", "S", "M", "L", "LL"]))
    groups.append(("/size", draw(st.sampled_from([doc["size"], doc["size"].translate(str.maketrans("SML", "ＳＭＬ"))]))))
    moves = draw(st.lists(st.sampled_from(["air", "land", "sea", "space"]), unique=True, min_size=1, max_size=2))
    doc["movement"] = [m for m in ("air", "land", "sea", "space") if m in moves]
    marks = {"air": "空", "land": "陸", "sea": "海", "space": "宇宙"}
    groups.append(("/movement", draw(st.sampled_from(["・", "／", "、"])).join(marks[m] for m in doc["movement"])))
    if draw(st.booleans()):
        doc["declared_total"] = draw(st.integers(300, 9000))
        groups.append(("/declared_total", _digits(draw, doc["declared_total"])))
    stats = {s: draw(st.integers(0, 999)) for s in ("hp", "en", "armor", "power", "mobility", "move")}
    doc["stats"] = stats
    weapons = []
    for k in range(draw(st.integers(0, 3))):
        w: dict[str, Any] = {"name": draw(names("up")) + f"{k}号", "kind": draw(st.sampled_from(["melee", "ranged"]))}
        w["range"] = draw(st.integers(1, 5))
        if draw(st.booleans()):
            w["post_move"] = True
        w["damage"] = {"dice": draw(st.integers(1, 9)), "fixed": draw(st.integers(10, 60))}
        w["accuracy"] = draw(st.sampled_from([-10, 0, 5, 10, 20, 50]))
        w["declared_cost"] = draw(st.integers(0, 900))
        weapons.append(w)
    if weapons:
        doc["weapons"] = weapons
    rows: list[list[Any]] = []
    for k in draw(st.permutations(list(range(len(groups) + 2)))):
        if k < len(groups):
            pointer, value = groups[k]
            _scalar(draw, labels[pointer], value, rows)
        elif k == len(groups):
            _row_or_fields(draw, labels, "/stats", stats, rows)
        elif weapons:
            keys = ("name", "kind", "range", "damage", "accuracy", "declared_cost")
            rows.append([draw(st.sampled_from(labels[f"weapons.{key}"])) for key in keys])
            kinds = {"melee": "格闘", "ranged": "射撃"}
            for w in weapons:
                rng = ("P" if w.get("post_move") else "") + str(w["range"])
                acc = draw(st.sampled_from([f"{w['accuracy']:+d}%", str(w["accuracy"]), f"{w['accuracy']}％"]))
                rows.append([w["name"], kinds[w["kind"]], rng, _dice(draw, w["damage"]["dice"], w["damage"]["fixed"]),
                             acc, _digits(draw, w["declared_cost"])])
            rows.append([])
    return rows, doc


@st.composite
def mailgear_case(draw) -> tuple[list[list[Any]], dict[str, Any]]:
    """(rows of a homemade mailgear pilot sheet, the document it holds)."""
    from converter.rules.mailgear.tables import tables as mg_tables

    labels = _raw_labels("mailgear")
    pilot: dict[str, Any] = {"name": draw(names("mailgear"))}
    groups: list[tuple[str, Any]] = [("/pilot/name", pilot["name"])]
    for key in ("experience", "rank_points"):
        if draw(st.booleans()):
            pilot[key] = draw(st.integers(0, 60))
            groups.append((f"/pilot/{key}", _digits(draw, pilot[key])))
    doc: dict[str, Any] = {"system": "mailgear", "format": 1, "pilot": pilot}
    gear: dict[str, Any] = {"model": draw(names("mailgear"))}
    groups.append(("/gear/model", gear["model"]))
    stats = {s: draw(st.integers(0, 40)) for s in draw(st.lists(st.sampled_from(
        ["sensor", "mobility", "cr", "sr", "mr", "lr", "capacity"]), unique=True, max_size=4))}
    if stats:
        gear["stats"] = stats
    groups.extend((f"/gear/stats/{s}", _digits(draw, v)) for s, v in stats.items())
    doc["gear"] = gear
    skills = mg_tables().raw["skills"]
    ids = draw(st.lists(st.sampled_from(sorted(skills)), unique=True, max_size=3))
    rows: list[list[Any]] = []
    for k in draw(st.permutations(list(range(len(groups) + 1)))):
        if k < len(groups):
            pointer, value = groups[k]
            _scalar(draw, labels[pointer], value, rows)
        elif ids:
            doc["skills"] = [{"id": i, "level": draw(st.integers(1, 3))} for i in ids]
            texts = [f"{skills[s['id']]['label']}{draw(st.sampled_from(['Lv', ' Lv.', 'Ｌｖ．']))}{s['level']}"
                     for s in doc["skills"]]
            rows.append([draw(st.sampled_from(labels["/skills"])), "、".join(texts)])
            rows.append([])
    return rows, doc
