"""``threadgraph ask --jsonl`` answers every line (issue 14): a bad line gets an error object
and the lines after it are still answered, in order."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import TINY_MODEL, TINY_NAME


def test_every_line_is_answered_even_after_bad_ones(kb_dir):
    """Before: an unknown retrieval raised in the core, deeply nested JSON raised RecursionError,
    non-UTF-8 bytes raised UnicodeDecodeError while reading stdin, and a lone surrogate could not
    be written back; each ended the run and the remaining lines went unanswered."""
    good1 = json.dumps({"thread": "jb", "text": "宫保鸡丁需要哪些原料？"}, ensure_ascii=False).encode()
    lines = [
        good1,
        json.dumps({"thread": "jb", "text": "宫保鸡丁需要哪些原料？", "retrieval": "bogus"}).encode(),
        b"[" * 100_000 + b"]" * 100_000,
        b'{"thread": "jb", "text": "\\ud800 \xe5\xae\xab"}',  # a lone surrogate escape
        b'{"thread": "jb", "text": "\xff\xfe bad bytes"}',  # not UTF-8
        b'{"thread": ["jb"], "text": "x"}',
        b"",  # blank lines are skipped
        json.dumps({"thread": "jb", "text": "那鱼香肉丝呢？"}, ensure_ascii=False).encode(),
    ]
    env = dict(os.environ, HF_HUB_OFFLINE="1", THREADGRAPH_EMBEDDING_MODEL=TINY_NAME,
               THREADGRAPH_EMBEDDING_MODEL_PATH=str(TINY_MODEL))
    env.pop("OPENAI_API_KEY", None)
    r = subprocess.run([sys.executable, "-m", "threadgraph.cli", "ask", "--jsonl", "--data-dir", str(kb_dir)],
                       input=b"\n".join(lines) + b"\n", env=env, capture_output=True, timeout=180)
    out = [json.loads(x) for x in r.stdout.decode("utf-8").splitlines()]
    assert r.returncode == 1, r.stderr.decode(errors="replace")[-2000:]
    assert "Traceback" not in r.stderr.decode(errors="replace")
    assert len(out) == 7
    assert out[0]["question"] == "宫保鸡丁需要哪些原料？"
    assert out[1] == {"error": "stdin line 2: unknown retrieval (use hybrid, graph, vector)", "line": 2}
    assert out[2] == {"error": "stdin line 3: JSON nested too deeply", "line": 3}
    assert out[3] == {"error": "stdin line 4: text or thread holds a lone surrogate (not valid Unicode)", "line": 4}
    assert out[4] == {"error": "stdin line 5: not UTF-8 (bad byte at offset 26)", "line": 5}
    assert out[5] == {"error": 'stdin line 6: "thread" must be a string', "line": 6}
    # the last line is still answered, in the same thread's memory (鱼香肉丝 replaces 宫保鸡丁)
    assert out[6]["intent"] == "contains" and "鱼香肉丝" in {f["subject"] for f in out[6]["facts"]}
