"""The homemade-layout corpus (tests/legacy/corpus): every layout imported and scored against its
hand-written ground truth (issue 36's done criteria)."""
from __future__ import annotations

import pytest

from tests.legacy.corpus import build


@pytest.fixture(scope="module")
def scores(tmp_path_factory):
    return build.run(tmp_path_factory.mktemp("corpus"))


def test_corpus_covers_every_class(scores) -> None:
    """At least 24 layouts, in every class of issue 36 and those samples/legacy holds."""
    assert len(scores) >= 24
    assert {s.klass for s in scores} == {"labels", "compound", "hidden", "roster", "grid", "notation",
                                         "readers", "samples"}
    assert {build.load(p).get("format", "xlsx") for p in build.layouts()} == {"xlsx", "xls", "ods"}


def test_at_least_95_percent_of_fields_right(scores) -> None:
    """≥ 95 % of the ground truth's fields are read right, and ≥ 90 % in every class."""
    total = sum(s.fields for s in scores)
    assert sum(s.right for s in scores) >= 0.95 * total, build.figures(scores)
    for klass in {s.klass for s in scores}:
        group = [s for s in scores if s.klass == klass]
        assert sum(s.right for s in group) >= 0.9 * sum(s.fields for s in group), klass


def test_no_value_wrong_without_a_finding(scores) -> None:
    """A value other than the sheet's always has a finding naming its cell."""
    assert [w for s in scores for w in s.wrong] == []


def test_nothing_silently_lost_nor_misplaced(scores) -> None:
    """A value not read is kept in extra or named by a finding; none lands in another character;
    no file of the corpus is refused."""
    assert [x for s in scores for x in s.lost] == []
    assert [x for s in scores for x in s.refused] == []
    assert [x for s in scores for x in s.misplaced] == []


def test_every_roster_row_is_a_document(scores) -> None:
    """Each character the ground truth names is its own document."""
    assert [s.layout for s in scores if s.documents[0] != s.documents[1]] == []


def test_scorer_catches_a_wrong_value(tmp_path) -> None:
    """The scorer itself: a value changed after import counts as wrong, a value removed as lost."""
    from converter.legacy.sources import read_import

    path = next(p for p in build.layouts() if p.stem.startswith("L01"))
    sources = [s for s, _ in read_import(build.workbook(path, tmp_path))]
    sources[0].document["stats"]["hp"] = 1
    del sources[0].document["budget"]
    sources[0].document["extra"]["import"].pop("unmapped", None)
    got = build.score(path, sources)
    assert [w.split(":")[0] for w in got.wrong] == ["L01-up-own-words#0/stats/hp@B5"]
    assert got.lost == ["L01-up-own-words#0/budget@B3"]
