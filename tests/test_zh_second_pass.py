"""Chinese recipe extraction, second pass: precision and recall fixes pinned by
sentences of at least two corpora each (zh-jzkitchen, zh-seraphroy, zh-meow,
zh-cpq, zh-zehua, zh-drinks, bundled HowToCook). Every expected value is a
literal read from the corpus text, and the line it comes from is checked first.
"""

from __future__ import annotations

from pathlib import Path

from conftest import CORPORA

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
SR = GEN / "zh-seraphroy" / "docs"
JZ = GEN / "zh-jzkitchen" / "docs"
MEOW = GEN / "zh-meow" / "docs"
HTC = CORPORA / "howtocook" / "dishes"


def _one(folder: Path, prefix: str) -> Path:
    found = sorted(folder.glob(prefix + "*"))
    assert len(found) == 1, (prefix, found)
    return found[0]


def _quoted(path: Path, n: int, quote: str) -> str:
    line = path.read_text(encoding="utf-8").splitlines()[n - 1]
    assert quote in line, f"{path.name}:{n} no longer says {quote!r}"
    return quote


def _item(text: str) -> list[tuple[str, list[str]]]:
    from threadgraph.ingest.items import parse_item

    return [(ip.name, [a.raw.strip() for a in ip.alternatives]) for ip in parse_item(text)]


# -- a name glossed in another language after a slash is one thing, not two ------------------------------------
def test_slash_gloss_in_another_language_is_not_an_alternative():
    pesto = _one(JZ, "2016-12-27")
    s1 = _quoted(pesto, 27, "芝士粉 / parmesan cheese 1湯匙")
    assert _item(s1) == [("芝士粉", [])]
    # a different thing in the other language stays an alternative (zh-seraphroy: cognac is not 白兰地's name)
    s2 = _quoted(_one(SR, "2025-01-06-鸡肝酱"), 20, "白兰地/Cognac 25g")
    assert _item(s2) == [("白兰地", ["Cognac"])]
    s3 = _quoted(_one(SR, "2025-08-24-乳酸菌腌菜"), 16, "纯净水/RO水")
    assert _item(s3) == [("纯净水", ["RO水"])]
