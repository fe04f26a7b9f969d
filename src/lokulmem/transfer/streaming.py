"""The export document written and read one record per line, so neither side holds it whole.

``manage().export_to(path)`` writes the same document as ``export()`` (valid
JSON, readable by ``import_data`` like any other), laid out so a reader can
take it a line at a time::

    {"format": "lokulmem-export", "version": "1", ..., "layout": "lines",
    "memories": [
    {...one memory...},
    {...}
    ],
    "episodes": [
    ],
    "clusters": [
    ],
    "edges": [
    ]}

The first line holds every top-level field but the four lists and ends with a
comma; each list opens on its own line, holds one record per line and closes
on its own line.  :class:`LineReader` reads that layout and nothing else
(``layout`` says which files have it); any other document is read whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from ..errors import ImportFormatError

__all__ = ["LAYOUT", "SECTIONS", "LineReader", "is_line_layout", "write_lines"]

#: The value of the header's ``layout`` field in a document written line by line.
LAYOUT = "lines"
#: The record lists of an export, in the order they are written.
SECTIONS = ("memories", "episodes", "clusters", "edges")


def write_lines(
    out: IO[str], header: Mapping[str, Any], sections: Iterable[tuple[str, Iterable[Any]]]
) -> None:
    """Write the document: ``header`` fields, then each named section's records."""
    head = json.dumps({**header, "layout": LAYOUT})
    out.write(head[:-1] + ",\n")
    names: list[str] = []
    for name, records in sections:
        if names:
            out.write("],\n")
        names.append(name)
        out.write(json.dumps(name) + ": [\n")
        first = True
        for record in records:
            out.write(("" if first else ",\n") + json.dumps(record))
            first = False
        out.write("\n" if not first else "")
    out.write("]}\n" if names else "}\n")


def is_line_layout(first_line: str) -> bool:
    """Whether a document's first line is the header of :func:`write_lines`."""
    text = first_line.rstrip()
    if not (text.startswith("{") and text.endswith(",")):
        return False
    try:
        head = json.loads(text[:-1] + "}")
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("layout") == LAYOUT


class LineReader:
    """Reads a document written by :func:`write_lines` from a text stream.

    ``header`` is available at once; :meth:`records` then yields
    ``(section, index, record)`` in file order.  Each line is read with
    ``max_line`` characters at most, so memory stays bounded by one record;
    anything out of layout is an :class:`ImportFormatError` naming the line.
    """

    def __init__(self, lines: IO[str], *, max_line: int) -> None:
        self._in = lines
        self._max = max_line
        self._line_no = 0
        first = self._next()
        if first is None or not is_line_layout(first):
            raise ImportFormatError("data", "not a line-by-line export (no header line)")
        self.header: dict[str, Any] = json.loads(first.rstrip()[:-1] + "}")

    def _next(self) -> str | None:
        line = self._in.readline(self._max + 1)
        if not line:
            return None
        self._line_no += 1
        if len(line) > self._max and not line.endswith("\n"):
            raise ImportFormatError(f"line {self._line_no}", f"is longer than {self._max:,} characters")
        return line

    def _fail(self, what: str) -> ImportFormatError:
        return ImportFormatError(f"line {self._line_no}", what)

    def records(self) -> Iterator[tuple[str, int, Any]]:
        section: str | None = None
        index = 0
        while (line := self._next()) is not None:
            text = line.strip()
            if section is None:
                if text == "}" or text == "]}":
                    return
                name, sep, rest = text.partition(":")
                try:
                    section = json.loads(name)
                except json.JSONDecodeError:
                    raise self._fail('expected a section such as "memories": [') from None
                if sep != ":" or rest.strip() != "[" or section not in SECTIONS:
                    raise self._fail(f"unexpected section line {text[:60]!r}")
                index = 0
                continue
            if text in ("]", "],", "]}"):
                section = None
                if text == "]}":
                    return
                continue
            try:
                record = json.loads(text.removesuffix(","))
            except (json.JSONDecodeError, RecursionError) as exc:
                raise ImportFormatError(f"{section}[{index}]", f"not valid JSON: {exc}") from None
            yield section, index, record
            index += 1
        if section is not None:
            raise self._fail(f"the file ends inside {section!r}")
