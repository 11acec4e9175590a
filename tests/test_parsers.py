"""Parser/pipeline faults: raw HTML in Markdown, MkDocs/kramdown leftovers,
broken symlinks, passage size."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from threadgraph.ingest.readers import parse_file
from threadgraph.ingest.readers.markdown import strip_attr_lists, unwrap_admonitions
from threadgraph.ingest.chunks import CHUNK_MAX_CHARS, make_chunks, split_spans
from threadgraph.ingest.pipeline import extract_corpus

ROOT = Path(__file__).resolve().parents[1]
PD = ROOT / "corpora" / "pagerduty-incident-response"
SEV = PD / "docs" / "before" / "severity_levels.md"
ROLES = PD / "docs" / "before" / "different_roles.md"


def _line_containing(path: Path, needle: str) -> int:
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return no
    raise AssertionError(f"{needle!r} not in {path}")


def _html_text(path: Path, line: int) -> str:
    """Plain text of one source line with tags removed."""
    raw = path.read_text(encoding="utf-8").splitlines()[line - 1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", raw)).strip()


@pytest.fixture(scope="module")
def pd():
    return extract_corpus([PD], root=PD)


# ------------------------------------------------------------------ 1. raw HTML blocks
def test_html_table_in_markdown_reaches_chunks(pd):
    tr = _line_containing(SEV, '<td class="sev-1">SEV-1</td>') - 1  # the row's <tr>
    assert SEV.read_text(encoding="utf-8").splitlines()[tr - 1].strip() == "<tr>"
    intent = _html_text(SEV, _line_containing(SEV, "warrants public notification"))
    first_case = _html_text(SEV, _line_containing(SEV, "actively impacting a large number"))
    response = _html_text(SEV, _line_containing(SEV, "Major incident response"))
    assert intent.startswith("Critical issue") and first_case.startswith("The system")

    doc = parse_file(SEV, "docs/before/severity_levels.md")
    rows = [b for b in doc.blocks if b.kind == "row"]
    header = rows[0]
    assert header.header and header.cells == ["Severity", "Description", "Typical Response"]
    assert header.line == _line_containing(SEV, '<th class="sev">Severity</th>') - 1
    sev1 = next(b for b in rows if b.cells and b.cells[0] == "SEV-1")
    assert sev1.line == tr and not sev1.header
    assert intent in sev1.cells[1] and first_case in sev1.cells[1] and response in sev1.cells[2]
    # all five levels, in order, each at its own <tr>
    sevs = [b.cells[0] for b in rows if b.cells and b.cells[0].startswith("SEV-")]
    assert sevs == ["SEV-1", "SEV-2", "SEV-3", "SEV-4", "SEV-5"]
    assert [b.line for b in rows] == sorted(b.line for b in rows)
    # admonitions around the table stay in place (lines before / after it)
    table_start = _line_containing(SEV, "<table")
    assert any(b.kind == "paragraph" and b.line < table_start and b.text.startswith("Always Assume The Worst")
               for b in doc.blocks)

    hits = [c for c in pd.chunks if c.doc == "docs/before/severity_levels.md" and intent in c.text]
    assert len(hits) == 1
    c = hits[0]
    assert "SEV-1 | " + intent in c.text and c.line == tr
    assert len(c.text) <= CHUNK_MAX_CHARS


def test_html_block_under_heading_path_with_offset(tmp_path):
    f = tmp_path / "doc.md"
    f.write_text("# Title\n\n## Levels\n\nIntro text.\n\n<table>\n  <tr><th>Name</th><th>Meaning</th></tr>\n"
                 "  <tr>\n    <td>P1</td>\n    <td>Wake someone up.</td>\n  </tr>\n</table>\n\n"
                 "<div>\n<p>Loose paragraph.</p>\n<ul><li>first</li><li>second</li></ul>\n</div>\n\n"
                 "### Next\n\nAfter.\n", encoding="utf-8")
    doc = parse_file(f)
    by_text = {b.text: b for b in doc.blocks}
    assert by_text["Name | Meaning"].line == 8 and by_text["Name | Meaning"].header
    row = by_text["P1 | Wake someone up."]
    assert row.line == 9 and row.path == ("Levels",) and row.cells == ["P1", "Wake someone up."]
    assert by_text["Loose paragraph."].line == 16 and by_text["Loose paragraph."].path == ("Levels",)
    items = [b for b in doc.blocks if b.kind == "item"]
    assert [(b.text, b.line, b.order, b.path) for b in items] == [
        ("first", 17, 1, ("Levels",)), ("second", 17, 2, ("Levels",))]
    assert by_text["After."].path == ("Levels", "Next") and by_text["After."].line == 22


def test_whole_corpus_extracts_deterministically(pd):
    again = extract_corpus([PD], root=PD)
    assert [(c.id, c.doc, c.line, c.section, c.text) for c in pd.chunks] == \
           [(c.id, c.doc, c.line, c.section, c.text) for c in again.chunks]
    assert [(t.subject, t.relation, t.object) for t in pd.triples] == \
           [(t.subject, t.relation, t.object) for t in again.triples]
    assert sorted(pd.entities) == sorted(again.entities)


# ------------------------------------------------------------------ 2. dialect leftovers
def test_admonition_becomes_titled_paragraph(pd):
    marker = _line_containing(ROLES, '!!! tip "Flexible Structure"')
    body = _line_containing(ROLES, "the Deputy might also take on")
    assert body == marker + 1
    deputy = re.search(r"For example, if the incident is small enough in scope, the Deputy might also take on"
                       r"[^.]*\.", ROLES.read_text(encoding="utf-8")).group(0)
    doc = parse_file(ROLES, "docs/before/different_roles.md")
    assert not any(b.kind == "code" and "Deputy might" in b.text for b in doc.blocks)
    blk = next(b for b in doc.blocks if deputy in b.text)
    assert blk.kind == "paragraph" and blk.line == marker and blk.end_line == body
    assert blk.text.startswith("Flexible Structure\nIt is not intended")
    hits = [c for c in pd.chunks if c.doc == "docs/before/different_roles.md" and deputy in c.text]
    assert len(hits) == 1 and hits[0].line <= marker
    assert "Flexible Structure\nIt is not intended" in hits[0].text
    # lines after the admonition are unchanged
    ic = next(b for b in doc.blocks if b.kind == "heading" and b.text == "Incident Commander (IC)")
    assert ic.line == _line_containing(ROLES, "## Incident Commander (IC)")


def test_no_dialect_leftovers_in_pagerduty_chunks(pd):
    raw = "\n".join(p.read_text(encoding="utf-8") for p in PD.rglob("*.md"))
    assert "{:target=" in raw and re.search(r"(?m)^\?\?\?\+? ?aside", raw)  # the corpus really has them
    assert pd.chunks
    for c in pd.chunks:
        assert "{:" not in c.text, (c.doc, c.line, c.text[:120])
        assert not re.search(r"(?m)^\s*(?:!!!|\?\?\?)", c.text), (c.doc, c.line, c.text[:120])
    for e in pd.entities.values():  # no section named after a marker line
        assert "???" not in e.name and "!!!" not in e.name and "{:" not in e.name, e.name
    course = PD / "docs" / "training" / "courses" / "incident_response.md"
    doc = parse_file(course, "docs/training/courses/incident_response.md")
    q = next(b for b in doc.blocks if b.text.startswith("Questions?\nIf you have questions"))
    assert q.kind == "paragraph" and q.line == _line_containing(course, '"Questions?"')  # body + "---" is no heading
    # a link followed by an attr list keeps its text
    assert any("Participate in Failure Friday (FF)." in c.text or "Participate in Failure Friday  (FF)." in c.text
               for c in pd.chunks)


def test_aside_with_classes_and_untitled_admonitions(tmp_path):
    src = ("# T\n\nBefore.\n\n???+ aside hide-arrow \"Is the IC a dictator?\"\n    Sort of.\n\n"
           "    Second para with [link](http://x){:target=\"_blank\" } end.\n\n"
           "??? note\n    Untitled body.\n\n!!!warning \"\"\n    No title.\n\n"
           "```\n!!! tip \"inside a fence\"\n    stays code\n```\n\nHeading {#custom .cls}\n---\n\nAfter {: .x}\n\n"
           "Code `{: kept}` stays.\n")
    text = unwrap_admonitions(src)
    assert text.count("\n") == src.count("\n")
    f = tmp_path / "a.md"
    f.write_text(src, encoding="utf-8")
    doc = parse_file(f)
    got = [(b.kind, b.text, b.line) for b in doc.blocks]
    assert ("paragraph", "Is the IC a dictator?\nSort of.", 5) in got
    assert ("paragraph", "Second para with link end.", 8) in got
    assert ("paragraph", "Note\nUntitled body.", 10) in got
    assert ("paragraph", "No title.", 14) in got
    assert ("code", '!!! tip "inside a fence"\n    stays code', 17) in got  # the line after the fence
    assert ("heading", "Heading", 21) in got
    assert ("paragraph", "After", 24) in got
    assert ("paragraph", "Code {: kept} stays.", 26) in got  # code spans are not touched
    assert strip_attr_lists('see [x](y){:target="_blank"} now {: .c} ok') == "see [x](y) now ok"


# ------------------------------------------------------------------ 3. symlinks
def test_broken_symlink_reported_and_loops_do_not_hang(tmp_path):
    root = tmp_path / "kb"
    (root / "sub").mkdir(parents=True)
    (root / "good.md").write_text("# Good\n\nSome text.\n", encoding="utf-8")
    os.symlink(root / "missing.md", root / "sub" / "gone.md")
    os.symlink(root / "sub" / "self.md", root / "sub" / "self.md")  # a link to itself
    os.symlink(root, root / "sub" / "loop")  # a folder loop
    os.symlink(root / "good.md", root / "alias.md")  # a good link: same file, once
    ex = extract_corpus([root], root=root)
    skipped = {s.path: s.reason for s in ex.skipped}
    assert skipped == {"sub/gone.md": "broken symbolic link", "sub/self.md": "broken symbolic link (loop)"}
    assert list(ex.documents) in (["alias.md"], ["good.md"])  # the good link and its target: one document
    # a broken link given directly is reported too
    ex2 = extract_corpus([root / "sub" / "gone.md"], root=root)
    assert [(s.path, s.reason) for s in ex2.skipped] == [("sub/gone.md", "broken symbolic link")]


# ------------------------------------------------------------------ 4. passage size
def test_long_paragraph_split_on_sentences_with_lines(tmp_path):
    sents = [f"Sentence number {i} explains step {i} of the procedure in plain words, version 1.{i} included."
             for i in range(40)]
    body = "\n".join(" ".join(sents[i:i + 2]) for i in range(0, 40, 2))  # one paragraph, 20 source lines
    f = tmp_path / "long.md"
    f.write_text("# Long\n\n## Steps\n\n" + body + "\n", encoding="utf-8")
    doc = parse_file(f)
    chunks = make_chunks(doc)
    assert len(chunks) >= 4
    joined = " ".join(c.text.replace("\n", " ") for c in chunks)
    assert joined.split() == body.split()  # nothing lost, nothing cut mid-word
    for c in chunks:
        assert len(c.text) <= CHUNK_MAX_CHARS
        assert c.text.startswith("Sentence number ") and c.text.endswith("included.")
        first = int(re.match(r"Sentence number (\d+)", c.text).group(1))
        assert c.line == 5 + first // 2  # the source line of the piece's first sentence


def test_split_spans_prefers_sentences_then_spaces():
    text = "Version 3.5 is out. " + "word " * 300 + "end. 第一句话很长。第二句！"
    pieces = split_spans(text, 100)
    assert all(len(p) <= 100 for _, p in pieces)
    assert all(text[o:o + len(p)] == p for o, p in pieces)
    assert pieces[0][1] == "Version 3.5 is out."
    assert all(not p.startswith("ord") for _, p in pieces)  # never mid-word
    cjk = split_spans("这是第一句。" * 30, 20)
    assert all(p.endswith("。") and len(p) <= 20 for _, p in cjk)


GEN = ROOT / "benchmarks" / "generalization"


def _chunk_line_of(path: Path, needle: str) -> int:
    """The source line a passage of ``path`` gives the text line holding ``needle``:
    the passage's line plus the line's index in its text (as the bot's readers count)."""
    for c in make_chunks(parse_file(path)):
        for k, line in enumerate(c.text.splitlines()):
            if needle in line:
                return c.line + k
    raise AssertionError(f"{needle!r} not in any passage of {path}")


def test_passage_lines_keep_the_blank_lines_between_blocks():
    # a sentence quoted from inside a passage cites its own source line, in a Chinese
    # recipe note (blank line between a 'Ref:' line and the paragraph) and in a runbook
    # (numbered steps with fenced notes and code between them)
    meow = GEN / "zh-meow" / "docs" / "黑椒牛柳.md"
    assert _chunk_line_of(meow, "Ref: https://www.youtube.com/watch?v=NvqFryC2Rws") == 3
    assert _chunk_line_of(meow, "菲力牛肉、西冷牛肉或牛肋眼肉做此菜最佳") == 5
    assert _chunk_line_of(meow, "切青红椒配菜，半个到一个洋葱") == 9
    infra = GEN / "ops-2i2c-infra" / "docs" / "howto" / "manage-domains" / "override-domain.md"
    assert _chunk_line_of(infra, "Add the new domain to the new domain override file like so:") == 24
    assert _chunk_line_of(infra, "(Optional) Encrypt the file with sops.") == 34
