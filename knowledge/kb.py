"""Knowledge-base folders: building beside the live KB, atomic swap, opening
read-only, and hot reload for long-running servers.

Layout under ``data_dir``::

    kb/current          -> builds/<build id>    (symlink, swapped atomically)
    kb/builds/<id>/graph.kuzu                   Kùzu database (one file)
    kb/builds/<id>/vectors/                     LanceDB folder
    kb/builds/<id>/manifest.json                model, dimension, counts, inputs

A build is written under ``kb/builds/.tmp-<pid>-<id>`` (holding a lock on
its ``.building`` file while it is written) and renamed when complete; only
then does ``current`` move (``os.replace`` of a symlink is atomic on POSIX).
An ingest killed at any point therefore leaves ``current`` pointing at the
previous complete build; what it left behind (its temporary folder, a
``kb/.current-<pid>`` link) is removed by the next ingest, and only the
newest :data:`KEEP_BUILDS` builds are kept. One ingest at a time writes a
data folder (:func:`ingest_lock`).

The manifest records, besides counts, the embedding model (name, dimension,
folder) and the ``sources`` the build was read from (see
:mod:`threadgraph.ingest.sources`); :func:`model_settings` makes every
command use the KB's model when none is configured.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import re
import shutil
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .graph import GraphStore
from .vectors import VectorStore

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FORMAT_VERSION = 1
KEEP_BUILDS = 3
#: Latin words of three letters or more (:meth:`KnowledgeBase.vocabulary`)
_LATIN_WORDS = re.compile(r"[A-Za-z]{3,}")


class KBNotFound(FileNotFoundError):
    """No complete knowledge base exists in the data folder."""


class ModelMismatch(RuntimeError):
    """The KB was embedded with another model than the one configured."""


class IngestBusy(RuntimeError):
    """Another ingest is writing the same data folder."""


_building: dict[str, int] = {}  # tmp build folder -> fd holding its lock (this process)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _lock_free(path: Path) -> bool:
    """True when nobody holds an exclusive lock on ``path`` (a file)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


@contextmanager
def ingest_lock(data_dir: Path) -> Iterator[None]:
    """Hold the data folder's ingest lock (``kb/.ingest.lock``) for the block.
    Raises :class:`IngestBusy` at once when another process holds it."""
    root = kb_root(data_dir)
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / ".ingest.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise IngestBusy(f"another ingest is writing {Path(data_dir).resolve()}; wait for it to finish") from None
            raise
        yield
    finally:
        os.close(fd)


def clean_leftovers(data_dir: Path) -> list[Path]:
    """Remove what killed ingests left: temporary build folders whose
    ``.building`` lock nobody holds (folders of the old layout without one:
    when their process is gone) and ``kb/.current-<pid>`` links of processes
    that are gone. Returns the paths removed."""
    root = kb_root(data_dir)
    removed: list[Path] = []
    builds = root / "builds"
    if builds.is_dir():
        for stale in builds.glob(".tmp-*"):
            if str(stale) in _building:
                continue
            lock = stale / ".building"
            if lock.exists():
                dead = _lock_free(lock)
            else:
                try:
                    dead = not _pid_alive(int(stale.name.split("-")[1]))
                except (ValueError, IndexError):
                    dead = False
            if dead:
                shutil.rmtree(stale, ignore_errors=True)
                removed.append(stale)
    if root.is_dir():
        for link in root.glob(".current-*"):
            try:
                pid = int(link.name.split("-", 1)[1])
            except ValueError:
                continue
            if pid != os.getpid() and not _pid_alive(pid):
                try:
                    link.unlink()
                    removed.append(link)
                except OSError:
                    pass
    return removed


def model_settings(settings, manifest: dict[str, Any] | None):
    """``settings`` with the KB's embedding model when none is configured.

    When neither ``embedding_model`` nor ``embedding_model_path`` was set
    (environment, ``.env`` or keyword) and ``manifest`` (of the current KB)
    records a model, the result uses that model name and, when the folder it
    recorded still exists, that folder. Otherwise ``settings`` is returned
    as it is. So ``ingest``, ``ask``, ``chat`` and ``serve`` all use one
    model without repeating the setting."""
    if settings is None or not manifest or not manifest.get("embedding_model"):
        return settings
    if {"embedding_model", "embedding_model_path"} & set(settings.model_fields_set):
        return settings
    recorded = manifest.get("embedding_model_path")
    path = Path(recorded) if recorded and Path(recorded).exists() else None
    return settings.model_copy(update={"embedding_model": manifest["embedding_model"], "embedding_model_path": path})


def kb_root(data_dir: Path) -> Path:
    """``data_dir/kb``."""
    return Path(data_dir) / "kb"


def current_build(data_dir: Path) -> Path:
    """Resolve ``kb/current`` to its build folder. Raises :class:`KBNotFound`."""
    link = kb_root(data_dir) / "current"
    try:
        target = os.readlink(link)
    except OSError:
        raise KBNotFound(f"no knowledge base in {Path(data_dir).resolve()}: run `threadgraph ingest PATH...` first") from None
    build = (link.parent / target).resolve()
    if not (build / MANIFEST).exists():
        raise KBNotFound(f"knowledge base {build} is incomplete: re-run `threadgraph ingest`")
    return build


def new_build_dir(data_dir: Path) -> tuple[Path, Path]:
    """Reserve a temporary folder for a build; returns ``(tmp_dir, final_dir)``.
    What killed ingests left is removed first (:func:`clean_leftovers`); the
    new folder's ``.building`` file stays locked by this process until
    :func:`publish_build` or :func:`abandon_build`."""
    builds = kb_root(data_dir) / "builds"
    builds.mkdir(parents=True, exist_ok=True)
    clean_leftovers(data_dir)
    ns = time.time_ns()  # one clock reading: the second and its microseconds (names sort by age)
    build_id = time.strftime("%Y%m%dT%H%M%S", time.localtime(ns // 1_000_000_000)) + \
        f"-{os.getpid()}-{ns // 1_000 % 1_000_000:06d}"
    tmp = builds / f".tmp-{os.getpid()}-{build_id}"
    tmp.mkdir()
    fd = os.open(tmp / ".building", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    _building[str(tmp)] = fd
    return tmp, builds / build_id


def _release(tmp: Path) -> None:
    fd = _building.pop(str(tmp), None)
    if fd is not None:
        os.close(fd)


def abandon_build(tmp: Path) -> None:
    """Delete an unfinished build folder (an ingest that stopped on an error)."""
    _release(tmp)
    shutil.rmtree(tmp, ignore_errors=True)


def publish_build(data_dir: Path, tmp: Path, final: Path) -> Path:
    """Rename a finished build into place and point ``kb/current`` at it
    atomically; prunes old builds beyond the newest :data:`KEEP_BUILDS`
    (never the one published)."""
    os.replace(tmp, final)
    try:
        (final / ".building").unlink()
    except OSError:
        pass
    _release(tmp)
    root = kb_root(data_dir)
    link_tmp = root / f".current-{os.getpid()}"
    if link_tmp.is_symlink() or link_tmp.exists():
        link_tmp.unlink()
    os.symlink(os.path.relpath(final, root), link_tmp)
    os.replace(link_tmp, root / "current")
    builds = sorted((p for p in (root / "builds").iterdir() if not p.name.startswith(".")), key=lambda p: p.name)
    for old in builds[:-KEEP_BUILDS]:
        if old.resolve() != final.resolve():
            shutil.rmtree(old, ignore_errors=True)
    return final


def read_manifest(build: Path) -> dict[str, Any]:
    """The manifest of a build folder as a dict."""
    return json.loads((Path(build) / MANIFEST).read_text(encoding="utf-8"))


def write_manifest(build: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest.json`` (last step of a build)."""
    manifest = {"format": FORMAT_VERSION, **manifest}
    (Path(build) / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True), encoding="utf-8")


@dataclass
class EntityName:
    """One linkable surface form: ``surface`` (name or alias) of entity ``id``."""

    id: str
    name: str
    type: str
    surface: str
    doc: str = ""


class KnowledgeBase:
    """An opened, read-only KB: ``graph`` (Kùzu), ``vectors`` (LanceDB) and
    ``embedder`` (None when the KB has no vectors), ``manifest``, ``names``
    (every linkable name and alias).

    ``vectors`` and ``embedder`` are opened on first use: most answers need
    only the graph, and importing LanceDB and loading the model cost seconds.
    An embedder that cannot be loaded then degrades search to full text (with
    a warning); an embedder of another model or dimension raises
    :class:`ModelMismatch`.
    """

    def __init__(self, build: Path, graph: GraphStore, manifest: dict[str, Any], settings=None, embedder=None):
        self.build = build
        self.graph = graph
        self.manifest = manifest
        self.settings = settings
        self.names: list[EntityName] = []
        self._embedder = embedder
        self._embedder_tried = embedder is not None
        self._vectors: VectorStore | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, data_dir: Path, settings=None, *, embedder=None, build: Path | None = None) -> "KnowledgeBase":
        """Open the current build of ``data_dir`` read-only.

        With vectors in the KB an embedder of the *same* model is needed:
        ``embedder`` when given (reused across reloads), else one loaded from
        ``settings`` on first use (with no model configured, the KB's own,
        see :func:`model_settings`). Raises :class:`KBNotFound` and
        :class:`ModelMismatch` (configured model name differs from the KB's).
        """
        build = Path(build) if build else current_build(data_dir)
        manifest = read_manifest(build)
        settings = model_settings(settings, manifest)
        model = manifest.get("embedding_model")
        if model:
            if embedder is not None and embedder.name != model:
                embedder = None
            if embedder is None:
                configured = settings.embedding_model if settings is not None else None
                if configured != model:
                    raise ModelMismatch(
                        f"the knowledge base was embedded with {model!r} but {configured!r} is configured; "
                        "re-ingest (`threadgraph ingest PATH...`) or set THREADGRAPH_EMBEDDING_MODEL to match"
                    )
        else:
            embedder = None
        kb = cls(build, GraphStore(build / "graph.kuzu", read_only=True), manifest, settings, embedder)
        if embedder is not None:
            kb._check_dim(embedder)
        kb.names = kb._load_names()
        return kb

    def _check_dim(self, embedder) -> None:
        if embedder.dim != self.manifest.get("dim"):
            raise ModelMismatch(
                f"the knowledge base has {self.manifest.get('dim')}-d vectors but the model gives {embedder.dim}-d; re-ingest"
            )

    @property
    def vectors(self) -> VectorStore:
        """The LanceDB passage store (opened on first use)."""
        if self._vectors is None:
            with self._lock:
                if self._vectors is None:
                    self._vectors = VectorStore(self.build / "vectors")
        return self._vectors

    @property
    def embedder(self):
        """The query embedder, loaded on first use with
        ``settings.query_embedding_threads`` ONNX threads (0: the runtime's
        default); None when the KB has no vectors or the model cannot be
        loaded (search is then full text)."""
        if self._embedder_tried or not self.manifest.get("embedding_model"):
            return self._embedder
        with self._lock:
            if not self._embedder_tried:
                from .embeddings import Embedder, EmbeddingUnavailable, load_embedder

                settings = self.settings
                recorded = self.manifest.get("embedding_model_path")
                if settings is not None and settings.embedding_model_path is None and recorded and Path(recorded).exists():
                    # the folder the KB was embedded from: no hub needed to query it
                    settings = settings.model_copy(update={"embedding_model_path": Path(recorded)})
                threads = getattr(settings, "query_embedding_threads", 0) if settings is not None else 0
                try:
                    # one short query on ONNX Runtime's default thread pool burns ~4x the CPU of one
                    # thread (its workers spin after each run): queries use few threads
                    emb = (Embedder(settings.embedding_model, settings.embedding_model_path, threads=threads)
                           if threads else load_embedder(settings))
                except EmbeddingUnavailable as exc:
                    log.warning("searching passages by full text only: %s", exc)
                    emb = None
                if emb is not None:
                    self._check_dim(emb)
                self._embedder = emb
                self._embedder_tried = True
        return self._embedder

    @property
    def loaded_embedder(self):
        """The embedder if it has been loaded already (never triggers a load)."""
        return self._embedder

    def vocabulary(self) -> frozenset[str]:
        """The lower-case Latin words (three letters or more) the knowledge base writes: in its
        passages (the graph's ``Chunk`` texts) and in its entity names and aliases. Read once per
        build and kept; an empty set when the graph has no text. Used to correct typed words the
        KB never writes (:func:`threadgraph.bot.words.correct_typos`)."""
        got = getattr(self, "_vocabulary", None)
        if got is None:
            words: set[str] = set()
            rows = self.graph.query("MATCH (c:Chunk) RETURN c.text AS text")
            for r in rows:
                words.update(w.casefold() for w in _LATIN_WORDS.findall(r["text"] or ""))
            for n in self.names:
                words.update(w.casefold() for w in _LATIN_WORDS.findall(n.surface or ""))
            got = self._vocabulary = frozenset(words)
        return got

    def _load_names(self) -> list[EntityName]:
        rows = self.graph.query(
            "MATCH (e:Entity) WHERE e.type IN $types RETURN e.id AS id, e.name AS name, e.type AS type, "
            "e.aliases AS aliases, e.doc AS doc",
            {"types": ["recipe", "ingredient", "tool", "role", "document", "artifact", "concept"]},
        )
        out = []
        for r in rows:
            out.append(EntityName(r["id"], r["name"], r["type"], r["name"], r["doc"] or ""))
            for a in r["aliases"] or []:
                if a and a != r["name"]:
                    out.append(EntityName(r["id"], r["name"], r["type"], a, r["doc"] or ""))
        return out

    def close(self) -> None:
        """Release the graph database."""
        self.graph.close()


class KBHandle:
    """Hands out the current :class:`KnowledgeBase` and reloads it when
    ``threadgraph ingest`` swaps in a new build (checked at most every
    ``check_interval`` seconds). Questions in flight keep the KB object they
    started with; the old one is released when no longer referenced.
    """

    def __init__(self, data_dir: Path, settings=None, *, check_interval: float = 1.0, embedder=None):
        self.data_dir = Path(data_dir)
        self.settings = settings
        self.check_interval = check_interval
        self._lock = threading.Lock()
        self._kb: KnowledgeBase | None = None
        self._embedder = embedder
        self._checked = 0.0
        self._target: str | None = None

    def get(self) -> KnowledgeBase:
        """The current KB (opening or reloading it as needed). Raises
        :class:`KBNotFound` when none exists yet."""
        now = time.monotonic()
        kb = self._kb
        if kb is not None and now - self._checked < self.check_interval:
            return kb
        with self._lock:
            self._checked = now
            build = current_build(self.data_dir)
            if self._kb is None or build != self._kb.build:
                embedder = self._embedder or (self._kb.loaded_embedder if self._kb else None)
                new = KnowledgeBase.open(self.data_dir, self.settings, embedder=embedder, build=build)
                if self._kb is not None:
                    log.info("knowledge base reloaded: %s -> %s", self._kb.build.name, build.name)
                self._kb = new
                if new.loaded_embedder is not None:
                    self._embedder = new.loaded_embedder
            return self._kb
