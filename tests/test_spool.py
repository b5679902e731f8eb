"""The spool a streamed run sets records aside in (converter/core/spool.py): every record reads
back as written, by number or in order, whatever reads and appends come between."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from converter.core.spool import Spool


def test_records_read_back_by_number_and_in_order() -> None:
    spool = Spool()
    assert list(spool) == [] and len(spool) == 0
    assert [spool.append(b"one"), spool.append(b""), spool.append(memoryview(b"three"))] == [0, 1, 2]
    assert spool[2] == b"three" and spool[0] == b"one" and spool[1] == b""
    assert spool.append(b"four") == 3  # after reads, appended at the end, not where a read left off
    steps = []
    for record in spool:  # a read by number between two steps does not move the pass
        steps.append(record)
        assert spool[0] == b"one"
    assert steps == [b"one", b"", b"three", b"four"]
    spool.close()
    assert len(spool) == 0 and list(spool) == []
    assert spool.append(b"again") == 0 and spool[0] == b"again"


@given(st.lists(st.tuples(st.binary(max_size=300), st.booleans()), max_size=40))
def test_any_records_with_reads_between(steps: list[tuple[bytes, bool]]) -> None:
    spool, kept = Spool(), []
    for data, read in steps:
        assert spool.append(data) == len(kept)
        kept.append(data)
        if read:
            assert spool[len(kept) // 2] == kept[len(kept) // 2]
    assert list(spool) == kept and [spool[i] for i in range(len(kept))] == kept
    spool.close()
