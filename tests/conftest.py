"""Shared fixtures: a real knowledge base (Kùzu + LanceDB + fastembed) built
once per session from the bundled corpora with the 4 MB test model, and a real
``ThreadGraphBot`` over it with its own thread memory per test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO / "corpora"
#: the generalization benchmark's corpora (tests read DEV corpora only; see benchmarks/generalization/README.md)
GEN = REPO / "benchmarks" / "generalization"
TINY_MODEL = REPO / "tests" / "fixtures" / "models" / "tiny-static-test"
TINY_NAME = "threadgraph/tiny-static-test"
E5_PATH = REPO.parent / "shared" / "models" / "multilingual-e5-small-int8"

#: A question the bundled KB answers from one recipe line (手枪腿 → 鸡胸肉 in 宫保鸡丁) and
#: its follow-up, answered from the thread's memory of 宫保鸡丁 (干辣椒 → 二荆条).
Q = "宫保鸡丁没有手枪腿用什么代替？"
FOLLOW = "那干辣椒呢？"


def tiny_settings(data_dir: Path, **kw):
    """Settings for a KB in ``data_dir`` embedded with the test model."""
    from threadgraph.settings import Settings

    kw.setdefault("openai_api_key", None)
    return Settings(data_dir=data_dir, embedding_model=TINY_NAME, embedding_model_path=TINY_MODEL, _env_file=None, **kw)


def one_file(folder: Path, prefix: str) -> Path:
    """The one file of ``folder`` whose name starts with ``prefix`` (asserts there is exactly one)."""
    found = sorted(folder.glob(prefix + "*"))
    assert len(found) == 1, (prefix, found)
    return found[0]


def quoted(path: Path, n: int, quote: str) -> str:
    """``quote``, after asserting that line ``n`` (1-based) of ``path`` still says it: a
    test's expected value is a literal of the source text, checked against that text."""
    line = path.read_text(encoding="utf-8").splitlines()[n - 1]
    assert quote in line, f"{path.name}:{n} no longer says {quote!r}"
    return quote


def doc_lines(path: Path, first: int, last: int) -> str:
    """Lines ``first``..``last`` (1-based, inclusive) of a UTF-8 text file, joined by newlines."""
    return "\n".join(path.read_text(encoding="utf-8").splitlines()[first - 1:last])


def recipe_requirements(root: Path, files) -> dict[tuple[str, str], bool]:
    """Ingest copies of ``files`` (graph only, no vectors) into a KB under ``root`` and return
    ``{(recipe name, item name): required}`` of its recipe ``CONTAINS`` edges."""
    import shutil

    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    src = root / "docs"
    src.mkdir()
    for p in files:
        shutil.copyfile(p, src / p.name)
    data = root / "data"
    assert run_ingest([src], tiny_settings(data), no_vectors=True).ok
    g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    rows = g.query("MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.type = $t "
                   "RETURN a.name AS recipe, b.name AS item, r.required AS req", {"t": "recipe"})
    return {(r["recipe"], r["item"]): r["req"] for r in rows}


def extract_copies(tmp_path: Path, *files: Path):
    """The rule extraction (``extract_corpus``) of copies of ``files`` in ``tmp_path`` (names kept)."""
    from threadgraph.ingest.pipeline import extract_corpus

    for f in files:
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return extract_corpus([tmp_path], root=tmp_path)


def cue_pairs(sentence: str, rule: str) -> list[tuple[str, str]]:
    """``(x, y)`` of the cue readings of ``sentence`` (:func:`threadgraph.knowledge.cues.read`) made by ``rule``."""
    from threadgraph.knowledge import cues

    return [(c.x, c.y) for c in cues.read(sentence) if c.rule == rule]


def cue_subs(text: str, in_item: bool = False) -> set[tuple[str, str]]:
    """``(x, y)`` of the substitute cue readings of ``text``, casefolded; x is the reading's head when the cue
    leaves X to the context (:func:`threadgraph.knowledge.cues.read`)."""
    from threadgraph.knowledge import cues

    return {((c.x or c.head).casefold(), c.y.casefold()) for c in cues.read(text, in_item=in_item)
            if c.kind == "substitute"}


def mini_corpus(tmp_path: Path, files: dict[str, str]):
    """The rule extraction (``extract_corpus``) of a folder ``tmp_path/c`` holding ``files``
    (name → text)."""
    from threadgraph.ingest.pipeline import extract_corpus

    d = tmp_path / "c"
    d.mkdir(exist_ok=True)
    for name, body in files.items():
        (d / name).write_text(body, encoding="utf-8")
    return extract_corpus([d], root=d)


def sub_pairs(ex) -> set[tuple[str, str]]:
    """``(subject key, object key)`` (ids without their type prefix) of extraction ``ex``'s SUBSTITUTES triples."""
    return {(t.subject.split(":", 1)[1], t.object.split(":", 1)[1]) for t in ex.triples if t.relation == "SUBSTITUTES"}


def document_sub_pairs(tmp_path: Path, name: str, text: str) -> set[tuple[str, str]]:
    """``(subject key, object key)`` of the SUBSTITUTES triples the document extractor reads from a document
    ``text`` written to ``tmp_path/name``."""
    from threadgraph.ingest.documents import DocumentExtractor
    from threadgraph.ingest.readers import parse_file

    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return sub_pairs(DocumentExtractor(None).extract(parse_file(p, name)))


def contains_required(ex, recipe: str) -> dict[str, bool]:
    """``{ingredient key: required}`` of the CONTAINS triples of recipe ``recipe`` in extraction ``ex``."""
    return {t.object.split(":", 1)[1]: t.properties["required"] for t in ex.triples
            if t.relation == "CONTAINS" and t.subject == f"recipe:{recipe}"}


def optional_parts_of(tmp_path: Path, name: str, text: str) -> set[str]:
    """The names a document ``text`` (written to ``tmp_path/name``, read by the document
    extractor) marks optional: objects of its CONTAINS triples with ``required`` False."""
    from threadgraph.ingest.documents import DocumentExtractor
    from threadgraph.ingest.readers import parse_file

    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, name))
    names = {e.id: e.name for e in res.entities}
    return {names.get(t.object, t.object) for t in res.triples
            if t.relation == "CONTAINS" and t.properties.get("required") is False}


def edge_names(ex, relation: str, **props) -> set[tuple[str, str]]:
    """``(subject name, object name)`` of the ``relation`` triples of extraction ``ex``
    whose properties include ``props``."""
    out = set()
    for t in ex.triples:
        if t.relation == relation and all(t.properties.get(k) == v for k, v in props.items()):
            out.add((ex.entities[t.subject].name, ex.entities[t.object].name))
    return out


def bot_over(root: Path, docs: dict[str, Path]):
    """A real bot over a KB of ``docs`` (``{relative path in the corpus: source file}``),
    copied under ``root/docs``, ingested with the test model into ``root/data``.
    Returns ``ask(text, thread="t") -> Answer``; each thread id is its own conversation."""
    import shutil

    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.memory import ThreadMemory
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import KBHandle

    for rel, path in docs.items():
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, root / "docs" / rel)
    data = root / "data"
    s = tiny_settings(data)
    assert run_ingest([root / "docs"], s).ok
    bot = ThreadGraphBot(s, kb=KBHandle(data, s), memory=ThreadMemory(root / "memory.sqlite"))

    def ask(text: str, thread: str = "t"):
        return bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread=thread), text=text))

    return ask


@pytest.fixture(scope="session")
def kb_dir(tmp_path_factory) -> Path:
    """Data folder holding a KB of the full bundled corpora (built once)."""
    from threadgraph.ingest.service import run_ingest

    data = tmp_path_factory.mktemp("kb")
    report = run_ingest([CORPORA], tiny_settings(data))
    assert report.ok and report.counts["Chunk"] > 1000
    return data


@pytest.fixture(scope="session")
def kb_handle(kb_dir):
    """A shared read-only handle on the session KB."""
    from threadgraph.knowledge.kb import KBHandle

    return KBHandle(kb_dir, tiny_settings(kb_dir))


@pytest.fixture
def settings(kb_dir, tmp_path):
    """Settings pointing at the session KB (memory stays per test)."""
    return tiny_settings(kb_dir)


@pytest.fixture
def bot(kb_dir, kb_handle, tmp_path):
    """The real core over the session KB, with a fresh thread memory."""
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.memory import ThreadMemory

    s = tiny_settings(kb_dir)
    return ThreadGraphBot(s, kb=kb_handle, memory=ThreadMemory(tmp_path / "memory.sqlite"))


@pytest.fixture
def core(bot):
    """The real core as the adapters see it (alias of ``bot``)."""
    return bot


@pytest.fixture
def ask(bot):
    """``ask(text, thread="t")`` → Answer, through the real core."""
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    def _ask(text: str, thread: str = "t", retrieval: str = "hybrid"):
        return bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread=thread), text=text), retrieval=retrieval)

    return _ask


@pytest.fixture(scope="session")
def e5():
    """The real multilingual-e5-small int8 embedder from ``../shared/models`` (tests using it skip without it)."""
    from threadgraph.knowledge.embeddings import Embedder

    return Embedder("intfloat/multilingual-e5-small", E5_PATH)
