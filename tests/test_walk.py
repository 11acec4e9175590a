"""Every input accounted for (issue 13): links that leave the ingested folder
are never followed (a link to /etc/... must not become answerable text),
FIFOs, sockets and devices are skipped and reported (a FIFO never hangs an
ingest), unreadable folders are reported, deep nesting is flattened, not
dropped."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.ingest.sources import Source, walk


def _text(ex) -> str:
    return "\n".join(c.text for c in ex.chunks)


def test_links_leaving_the_folder_are_reported_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nThe vault code is 4711.\n", encoding="utf-8")
    root = tmp_path / "kb"
    (root / "sub").mkdir(parents=True)
    (root / "ok.md").write_text("# Ok\n\nInside text.\n", encoding="utf-8")
    os.symlink(outside / "secret.md", root / "secret.md")
    os.symlink(outside, root / "sub" / "outside-dir")
    os.symlink("/etc/hostname", root / "hostname.txt")
    os.symlink(root / "ok.md", root / "sub" / "alias.md")  # inside: fine, read once
    ex = extract_corpus([root])
    assert "4711" not in _text(ex) and list(ex.documents) in (["ok.md"], ["sub/alias.md"])
    reasons = {s.path: s.reason for s in ex.skipped}
    assert reasons["secret.md"] == f"symbolic link leaves the ingested folder (-> {outside / 'secret.md'}): not followed"
    assert reasons["sub/outside-dir"].startswith("symbolic link leaves the ingested folder")
    assert reasons["hostname.txt"].startswith("symbolic link leaves the ingested folder (-> /etc/")


def test_fifo_socket_and_device_are_skipped_and_reported_without_hanging(tmp_path):
    root = tmp_path / "kb"
    root.mkdir()
    (root / "ok.md").write_text("# Ok\n\nText.\n", encoding="utf-8")
    os.mkfifo(root / "pipe.md")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock.md"))
    os.symlink("/dev/null", root / "null.md")  # a device, reached through a link inside? no: outside
    result = {}
    worker = threading.Thread(target=lambda: result.setdefault("ex", extract_corpus([root])), daemon=True)
    worker.start()
    worker.join(60)
    sock.close()
    assert not worker.is_alive(), "the walk hung on a FIFO"
    reasons = {s.path: s.reason for s in result["ex"].skipped}
    assert reasons["pipe.md"] == "not a regular file (FIFO (named pipe))"
    assert reasons["sock.md"] == "not a regular file (socket)"
    assert "null.md" in reasons
    # a FIFO named directly is reported too
    ex = extract_corpus([root / "pipe.md"], root=root)
    assert [(s.path, s.reason) for s in ex.skipped] == [("pipe.md", "not a regular file (FIFO (named pipe))")]


def test_unreadable_folder_is_reported(tmp_path, monkeypatch):
    root = tmp_path / "kb"
    (root / "locked").mkdir(parents=True)
    (root / "locked" / "hidden.md").write_text("# H\n\nx\n", encoding="utf-8")
    (root / "ok.md").write_text("# Ok\n\nText.\n", encoding="utf-8")
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)  # the tests run as root: chmod would not stop it
    files, skipped = walk(Source(root.resolve()))
    assert [f.doc for f in files] == ["ok.md"]
    assert [(s.path, s.reason) for s in skipped] == [("locked/", "cannot read folder: Permission denied")]


def _remove_chain(top: Path, name: str = "deeper") -> None:
    """Delete a chain of nested ``name`` folders bottom-up without recursion
    (shutil.rmtree and pytest's cleanup recurse per level)."""
    fds = [os.open(top, os.O_RDONLY)]
    while True:
        try:
            fds.append(os.open(name, os.O_RDONLY, dir_fd=fds[-1]))
        except FileNotFoundError:
            break
    while len(fds) > 1:
        fd = fds.pop()
        for entry in os.listdir(fd):
            os.unlink(entry, dir_fd=fd)
        os.close(fd)
        os.rmdir(name, dir_fd=fds[-1])
    os.close(fds[0])


@pytest.fixture
def deep_tree(tmp_path):
    yield tmp_path
    _remove_chain(tmp_path)


def test_a_folder_tree_deeper_than_the_path_limit_is_read_and_flattened(deep_tree):
    tmp_path = deep_tree
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(1200):  # ~8 KB of path: beyond PATH_MAX
        os.mkdir("deeper", dir_fd=fd)
        nfd = os.open("deeper", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    f = os.open("bottom.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(f, "# Bottom\n\nThe deepest sentence.\n".encode())
    os.close(f)
    os.close(fd)
    ex = extract_corpus([tmp_path])
    assert not ex.skipped
    (doc,) = ex.documents
    assert doc.startswith("deeper/deeper/") and doc.endswith("/deeper/bottom.md") and "folders-" in doc
    assert len(doc) < 300
    assert "The deepest sentence." in _text(ex)


def test_deeply_nested_markdown_is_flattened_not_dropped(tmp_path):
    (tmp_path / "quote.md").write_text("# Deep\n\n" + ">" * 5000 + " the innermost sentence\n", encoding="utf-8")
    (tmp_path / "list.md").write_text("# Deep list\n\n" + "".join("  " * i + f"- level {i}\n" for i in range(300)),
                                      encoding="utf-8")
    ex = extract_corpus([tmp_path])
    text = _text(ex)
    assert "the innermost sentence" in text
    assert all(f"level {i}\n" in text + "\n" for i in (0, 9, 10, 150, 299))
