"""Byte records set aside in an unnamed temporary file and read back by number: what a streamed
run keeps out of memory until its end (set members, import entries, their report texts), so
that its memory stays flat in the number of files. Standard library only."""
from __future__ import annotations

import tempfile
from array import array
from typing import IO, Iterator


class Spool:
    """Records appended in order, each read back by its number (or all in order); the file is
    made with the first record and removed when closed (or when the spool is let go)."""

    def __init__(self, prefix: str = "mechasheet-") -> None:
        self._prefix = prefix
        self._file: IO[bytes] | None = None
        self._at = array("Q")  # each record's offset
        self._sizes = array("Q")
        self._end = 0
        self._moved = False  # read since the last append: the next one seeks to the end first

    def append(self, data: bytes | memoryview) -> int:
        """Keep ``data``; its number."""
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix=self._prefix)
        if self._moved:
            self._file.seek(self._end)
            self._moved = False
        size = self._file.write(data)
        self._at.append(self._end)
        self._sizes.append(size)
        self._end += size
        return len(self._at) - 1

    def __len__(self) -> int:
        return len(self._at)

    def __getitem__(self, number: int) -> bytes:
        assert self._file is not None
        self._moved = True
        self._file.seek(self._at[number])
        return self._file.read(self._sizes[number])

    def __iter__(self) -> Iterator[bytes]:
        """Every record, in order (each read from its own offset: another read between two
        steps does not move this one)."""
        for number in range(len(self._at)):
            yield self[number]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._at, self._sizes, self._end = array("Q"), array("Q"), 0
