"""The reader registry (ingest/readers/): lookup by extension, one reader per
format, front matter through mdit-py-plugins, bad input reported with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from threadgraph.ingest.document import DocumentError
from threadgraph.ingest.readers import REGISTRY, SUPPORTED_EXTENSIONS, parse_file, reader_for
from threadgraph.ingest.readers.base import Reader, Reading, register


def test_every_format_has_its_reader():
    names = {ext: r.name for ext, r in REGISTRY.items()}
    assert names == {
        ".md": "markdown", ".markdown": "markdown", ".txt": "text", ".html": "html", ".htm": "html",
        ".xhtml": "html", ".rst": "rst", ".rest": "rst", ".adoc": "asciidoc", ".asciidoc": "asciidoc",
        ".asc": "asciidoc", ".csv": "csv", ".tsv": "csv", ".tab": "csv", ".json": "json", ".jsonl": "jsonl",
        ".ndjson": "jsonl", ".pdf": "pdf", ".docx": "docx",
    }
    assert SUPPORTED_EXTENSIONS == frozenset(names)
    assert reader_for(Path("X.MD")).name == "markdown"
    assert reader_for(Path("x.pptx")) is None


def test_unsupported_extension_is_a_document_error(tmp_path):
    f = tmp_path / "notes.pptx"
    f.write_text("hello", encoding="utf-8")
    with pytest.raises(DocumentError) as err:
        parse_file(f)
    assert (err.value.line, err.value.reason) == (0, "unsupported file type")


def test_a_registered_reader_is_looked_up(tmp_path):
    def read(path: Path, text: str) -> Reading:
        from threadgraph.ingest.document import Block

        return Reading([Block("paragraph", text.strip(), 1, 1)], "toy")

    register(Reader("toy", (".toy",), read))
    try:
        f = tmp_path / "a.toy"
        f.write_text("番茄炒蛋要放糖\n", encoding="utf-8")
        doc = parse_file(f)
        assert (doc.format, doc.title, doc.language, doc.blocks[0].text) == ("toy", "a", "zh", "番茄炒蛋要放糖")
    finally:
        REGISTRY.pop(".toy")


def test_an_extension_cannot_be_taken_twice():
    with pytest.raises(ValueError):
        register(Reader("other", (".md",), lambda p, t: Reading([], "other")))


def test_front_matter_is_metadata_not_text_and_lines_stay_right(tmp_path):
    f = tmp_path / "omelette.md"
    f.write_text("---\ntitle: Tomato omelette\ntags: [eggs, quick]\n---\n\n## Ingredients\n\n- 2 eggs\n",
                 encoding="utf-8")
    doc = parse_file(f)
    assert doc.title == "Tomato omelette"
    assert doc.front_matter == {"title": "Tomato omelette", "tags": "eggs, quick"}
    assert [(b.kind, b.text, b.line) for b in doc.blocks] == [("heading", "Ingredients", 6), ("item", "2 eggs", 8)]


def test_front_matter_that_is_not_yaml_keeps_its_simple_pairs(tmp_path):
    f = tmp_path / "x.md"
    f.write_text("---\ntitle: Rice: plain\nbad: [unclosed\n---\ntext\n", encoding="utf-8")
    doc = parse_file(f)
    assert doc.title == "Rice: plain"
    assert [b.text for b in doc.blocks] == ["text"]


def test_html_content_in_an_rst_file_is_read_as_html(tmp_path):
    f = tmp_path / "page.rst"
    f.write_text("<html><body><h2>Steps</h2><ol><li>Boil water</li></ol></body></html>\n", encoding="utf-8")
    doc = parse_file(f)
    assert doc.format == "html"
    assert [(b.kind, b.text) for b in doc.blocks] == [("heading", "Steps"), ("item", "Boil water")]


def test_invalid_json_reports_its_line(tmp_path):
    f = tmp_path / "subs.json"
    f.write_text('[\n  {"item": "butter", "substitute": "margarine"},\n  {"item": "milk" "substitute": "oat milk"}\n]\n',
                 encoding="utf-8")
    with pytest.raises(DocumentError) as err:
        parse_file(f)
    assert err.value.line == 3
    assert err.value.reason.startswith("invalid JSON")
