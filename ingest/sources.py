"""Sources: the files and folders a knowledge base is built from, how they
are walked, and the document id each file gets.

A :class:`Source` is one path given to ``threadgraph ingest`` (a folder or a
file), stored resolved (absolute, symbolic links resolved), so ``corpora``,
``./corpora/``, ``/abs/corpora`` and a link to it are the same source. A
document's id — what citations show and what facts record in ``doc`` — is
``prefix + path relative to the source`` (a file source: ``prefix + its
name``); the prefix is chosen once, when the source is added
(:func:`plan_sources`), and kept in the KB manifest, so ids never depend on
how a path was typed.

Walking (:func:`walk`) accounts for every entry: hidden entries are skipped
(``.git``…), and what is not read is reported as a
:class:`~..knowledge.records.SkippedFile` — broken links, symbolic links
that leave the source folder (never followed: a link to ``/etc/…`` must not
become answerable text), FIFOs, sockets and devices (never opened, so a FIFO
cannot hang an ingest) and folders that cannot be listed. The walk is
iterative and opens folders relative to their parent, so a tree thousands of
levels deep is read, not lost to recursion or path-length limits.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..knowledge.records import SkippedFile

#: paths longer than this are opened piecewise (relative to an opened parent folder)
_SAFE_PATH = 3000
#: relative paths deeper than this are shortened in document ids (see :func:`flatten_rel`)
MAX_ID_DEPTH = 24


@dataclass(slots=True)
class Source:
    """One ingested path: ``root`` resolved absolute path, ``kind`` ``"dir"``
    or ``"file"``, ``prefix`` prepended to each document's relative path to
    form its id (``""`` or ending in ``"/"`` for folders), ``exclude`` paths
    relative to ``root`` dropped by ``threadgraph remove`` (posix)."""

    root: Path
    kind: str = "dir"
    prefix: str = ""
    exclude: list[str] = field(default_factory=list)

    def doc_id(self, rel: str) -> str:
        """The document id of the file at ``rel`` (posix, relative to the
        root; the file name for a file source)."""
        return f"{self.prefix}{rel}"

    def to_json(self) -> dict:
        """The manifest form: ``{"path", "kind", "prefix", "exclude"}``."""
        return {"path": str(self.root), "kind": self.kind, "prefix": self.prefix, "exclude": list(self.exclude)}

    @classmethod
    def from_json(cls, d: dict) -> "Source":
        """Inverse of :meth:`to_json`."""
        return cls(Path(d["path"]), d.get("kind", "dir"), d.get("prefix", ""), list(d.get("exclude", [])))


@dataclass(slots=True)
class FoundFile:
    """A regular file to read: ``source`` it belongs to, ``parts`` its path
    components below the source root (empty for a file source) and ``doc``
    its document id."""

    source: Source
    parts: tuple[str, ...]
    doc: str

    @property
    def path(self) -> Path:
        """The file's path (may exceed the OS path limit; read it through :func:`readable`)."""
        return Path(os.path.join(self.source.root, *self.parts)) if self.parts else self.source.root


def resolve_path(p: Path | str) -> Path:
    """``p`` absolute with every symbolic link resolved; a broken link keeps
    its own name (its folder resolved), so it can still be named and reported."""
    p = Path(os.path.abspath(os.path.expanduser(str(p))))
    try:
        return p.resolve(strict=True)
    except (OSError, RuntimeError):
        return Path(os.path.realpath(p.parent)) / p.name


def is_within(path: Path, root: Path) -> bool:
    """True when ``path`` is ``root`` or below it (both resolved)."""
    return path == root or root in path.parents


def _kind_of(mode: int) -> str | None:
    """A human name for a non-regular, non-folder file mode, else None."""
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return None


def flatten_rel(parts: tuple[str, ...]) -> str:
    """The posix relative path of ``parts``; deeper than :data:`MAX_ID_DEPTH`
    folders it is shortened to the first and last folders around
    ``…N folders-<hash>…`` (the hash of the middle keeps ids unique), so a
    document nested thousands of folders deep gets a readable id."""
    if len(parts) <= MAX_ID_DEPTH:
        return "/".join(parts)
    head, mid, tail = parts[:8], parts[8:-8], parts[-8:]
    digest = hashlib.sha1("/".join(mid).encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return "/".join([*head, f"…{len(mid)} folders-{digest}…", *tail])


def _length(root: Path, parts: tuple[str, ...]) -> int:
    """Length of the path ``root/parts…`` without building it."""
    return len(str(root)) + sum(len(p) + 1 for p in parts)


def _open_dir(root: Path, parts: tuple[str, ...]) -> int:
    """A file descriptor of folder ``root/parts…``, opened piecewise so the
    full path may exceed the OS limit. Raises OSError."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    i = 0
    try:
        while i < len(parts):
            seg: list[str] = []
            size = 0
            while i < len(parts) and (not seg or size + len(parts[i]) + 1 < _SAFE_PATH):
                seg.append(parts[i])
                size += len(parts[i]) + 1
                i += 1
            nfd = os.open("/".join(seg), os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


class _Lister:
    """Lists folders of one source in walk order; a folder whose path is
    beyond the OS limit is opened relative to its parent's descriptor (kept
    from the previous listing when it was the parent), else piecewise."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._last: tuple[tuple[str, ...], int] | None = None

    def entries(self, parts: tuple[str, ...]) -> list[os.DirEntry]:
        """The entries of folder ``root/parts…`` sorted by name. Raises OSError."""
        if _length(self.root, parts) < _SAFE_PATH:
            with os.scandir(os.path.join(self.root, *parts)) as it:
                return sorted(it, key=lambda e: e.name)
        if self._last is not None and self._last[0] == parts[:-1]:
            fd = os.open(parts[-1], os.O_RDONLY | os.O_DIRECTORY, dir_fd=self._last[1])
        else:
            fd = _open_dir(self.root, parts)
        self.close()
        self._last = (parts, fd)
        with os.scandir(fd) as it:
            return sorted(it, key=lambda e: e.name)

    def close(self) -> None:
        """Release the kept descriptor."""
        if self._last is not None:
            os.close(self._last[1])
            self._last = None


@contextmanager
def readable(found: FoundFile) -> Iterator[Path]:
    """A path through which ``found`` can be opened: its own path, or for a
    path beyond the OS limit ``/proc/self/fd/<parent fd>/<name>`` (Linux).
    Raises OSError when neither works."""
    if _length(found.source.root, found.parts) < _SAFE_PATH:
        yield found.path
        return
    if not sys.platform.startswith("linux"):
        raise OSError(errno.ENAMETOOLONG, "path too long to open on this system")
    fd = _open_dir(found.source.root, found.parts[:-1])
    try:
        yield Path(f"/proc/self/fd/{fd}/{found.parts[-1]}")
    finally:
        os.close(fd)


def _link_problem(link: Path) -> str:
    """Why a broken link is broken: a loop or a missing target."""
    try:
        link.resolve(strict=True)
    except RuntimeError:  # "Symlink loop" (Python < 3.13)
        return "broken symbolic link (loop)"
    except OSError as exc:
        return "broken symbolic link (loop)" if exc.errno == errno.ELOOP else "broken symbolic link"
    return "broken symbolic link"


def _follow_link(root: Path, parts: tuple[str, ...]) -> str | None:
    """What to do with the symbolic link ``root/parts…``: ``""`` read it (a
    regular file inside ``root``), ``None`` pass over it silently (a folder
    inside ``root``, whose files are read at their real place), else the
    reason it is reported and not followed."""
    if _length(root, parts) >= _SAFE_PATH:
        return "symbolic link too deep to check: not followed"
    full = root.joinpath(*parts)
    target = Path(os.path.realpath(full))
    if not target.exists():
        return _link_problem(full)
    if not is_within(target, root):
        return f"symbolic link leaves the ingested folder (-> {target}): not followed"
    if target.is_dir():
        return None
    if target.is_file():
        return ""
    return f"not a regular file ({_kind_of(os.stat(target).st_mode) or 'special file'})"


def walk(source: Source) -> tuple[list[FoundFile], list[SkippedFile]]:
    """Every regular file of ``source`` (a folder walked in full, hidden
    entries skipped; a file source is itself) with its document id, in
    sorted id order, and the entries that were not read, each with a reason:

    * ``"broken symbolic link"`` / ``"broken symbolic link (loop)"``;
    * ``"symbolic link leaves the ingested folder (-> target): not followed"``
      — links are followed only to files inside the source folder; links to
      folders inside it are not descended (their files are read at their
      real place);
    * ``"not a regular file (FIFO (named pipe))"`` (also socket, character or
      block device) — never opened;
    * ``"cannot read folder: …"`` for a folder that cannot be listed
      (reported with the folder's id and a trailing ``/``).

    Paths in ``exclude`` (and everything below them) are left out silently.
    Never raises for what is inside the source; raises OSError only when the
    root itself cannot be examined."""
    root = source.root
    files: list[FoundFile] = []
    skipped: list[SkippedFile] = []
    excluded = set(source.exclude)

    def is_excluded(parts: tuple[str, ...]) -> bool:
        if not excluded:
            return False
        rel = "/".join(parts)
        return any(rel == e or rel.startswith(e + "/") for e in excluded)

    if source.kind == "file":
        st = os.stat(root) if root.exists() else os.lstat(root)
        doc = source.doc_id(root.name)
        if stat.S_ISLNK(st.st_mode):
            skipped.append(SkippedFile(doc, _link_problem(root), 0))
        elif stat.S_ISREG(st.st_mode):
            files.append(FoundFile(source, (), doc))
        elif not stat.S_ISDIR(st.st_mode):
            skipped.append(SkippedFile(doc, f"not a regular file ({_kind_of(st.st_mode) or 'special file'})", 0))
        return files, skipped

    stack: list[tuple[str, ...]] = [()]
    lister = _Lister(root)
    try:
        while stack:
            parts = stack.pop()
            try:
                entries = lister.entries(parts)
            except OSError as exc:
                if not parts:
                    raise
                skipped.append(SkippedFile(source.doc_id(flatten_rel(parts)) + "/",
                                           f"cannot read folder: {exc.strerror or exc}", 0))
                continue
            subdirs = []
            for e in entries:
                if e.name.startswith("."):
                    continue
                ep = (*parts, e.name)
                if is_excluded(ep):
                    continue
                doc = source.doc_id(flatten_rel(ep))
                try:
                    if e.is_symlink():
                        problem = _follow_link(root, ep)
                        if problem == "":
                            files.append(FoundFile(source, ep, doc))
                        elif problem is not None:
                            skipped.append(SkippedFile(doc, problem, 0))
                        continue
                    st = e.stat(follow_symlinks=False)
                except OSError as exc:
                    skipped.append(SkippedFile(doc, f"cannot examine: {exc.strerror or exc}", 0))
                    continue
                if stat.S_ISDIR(st.st_mode):
                    subdirs.append(ep)
                elif stat.S_ISREG(st.st_mode):
                    files.append(FoundFile(source, ep, doc))
                else:
                    skipped.append(SkippedFile(doc, f"not a regular file ({_kind_of(st.st_mode) or 'special file'})", 0))
            stack.extend(reversed(subdirs))
    finally:
        lister.close()
    files.sort(key=lambda f: f.doc)
    skipped.sort(key=lambda s: s.path)
    return files, skipped


def collect(sources: list[Source]) -> tuple[list[FoundFile], list[SkippedFile]]:
    """:func:`walk` over ``sources`` in order; a file reached twice (the same
    resolved file through a link, or a document id already taken by an
    earlier source) is kept once. A source root that no longer exists is
    reported as ``"not found"``."""
    files: list[FoundFile] = []
    skipped: list[SkippedFile] = []
    seen_real: set[str] = set()
    seen_doc: dict[str, str] = {}
    for s in sources:
        if not os.path.lexists(s.root):
            skipped.append(SkippedFile(s.doc_id(s.root.name) if s.kind == "file" else s.prefix or str(s.root),
                                       "not found", 0))
            continue
        got, bad = walk(s)
        skipped.extend(bad)
        for f in got:
            short = _length(f.source.root, f.parts) < _SAFE_PATH
            path = f.path if short else "/".join((str(f.source.root), *f.parts))
            real = os.path.realpath(path) if short else path
            if real in seen_real:
                continue
            if f.doc in seen_doc:
                skipped.append(SkippedFile(f.doc, f"document id already taken by {seen_doc[f.doc]}", 0))
                continue
            seen_real.add(real)
            seen_doc[f.doc] = str(path)
            files.append(f)
    return files, skipped


# ---------------------------------------------------------------------------- planning
@dataclass
class SourcePlan:
    """What an ingest will build from: ``sources`` (kept and new, in order),
    ``added`` the roots newly added, ``updated`` the roots of kept sources
    that were named again (or had a path inside them named), ``dropped``
    the roots of kept sources a new folder now contains."""

    sources: list[Source]
    added: list[Path] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)
    dropped: list[Path] = field(default_factory=list)


def _candidate_prefixes(root: Path, kind: str, alone: bool) -> Iterator[str]:
    """Prefixes to try for a new source, shortest first: ``""`` for the only
    folder of a KB and for a file, then the folder name, then with more of
    its parents."""
    base = root if kind == "dir" else root.parent
    if alone or kind == "file":
        yield ""
    names = [p.name for p in [base, *base.parents] if p.name]
    for i in range(1, len(names) + 1):
        yield "/".join(reversed(names[:i])) + "/"
    yield str(base).strip("/") + "/"


def _ids_of(source: Source) -> set[str]:
    try:
        files, _ = walk(source)
    except OSError:
        return set()
    return {f.doc for f in files}


def plan_sources(paths: list[Path], kept: list[Source], *, replace: bool = False) -> SourcePlan:
    """Decide the sources of the next build from the ``paths`` given and the
    current KB's ``kept`` sources.

    Each path is resolved (:func:`resolve_path`). With ``replace`` the
    sources are exactly the paths. Otherwise every kept source stays, and a
    path that is a kept source, or lies inside one, updates it (an
    ``exclude`` entry for it, from ``threadgraph remove``, is lifted); a path
    that contains kept sources replaces them; any other path is a new source.
    New sources get the first prefix of :func:`_candidate_prefixes` whose
    document ids collide with no other source's."""
    plan = SourcePlan(sources=[] if replace else [Source(s.root, s.kind, s.prefix, list(s.exclude)) for s in kept])
    new: list[Source] = []
    for p in paths:
        r = resolve_path(p)
        kind = "dir" if r.is_dir() else "file"
        holder = next((s for s in plan.sources if s.kind == "dir" and is_within(r, s.root) or s.root == r), None)
        if holder is not None:
            if r != holder.root:
                rel = r.relative_to(holder.root).as_posix()
                holder.exclude = [e for e in holder.exclude if e != rel and not e.startswith(rel + "/")
                                  and not rel.startswith(e + "/")]
            else:
                holder.exclude = []
            if holder.root not in plan.updated:
                plan.updated.append(holder.root)
            continue
        if any(s.root == r for s in new):
            continue
        inside = [s for s in plan.sources if kind == "dir" and is_within(s.root, r)]
        for s in inside:
            plan.sources.remove(s)
            plan.dropped.append(s.root)
        src = Source(r, kind)
        new.append(src)
        plan.sources.append(src)
        plan.added.append(r)
    if new:
        taken: set[str] = set()
        for s in plan.sources:
            if s not in new:
                taken |= _ids_of(s)
        alone = len(plan.sources) == 1
        for s in new:
            rels = {f.doc for f in walk(s)[0]} if s.root.exists() else set()
            for prefix in _candidate_prefixes(s.root, s.kind, alone):
                if not {prefix + r for r in rels} & taken:
                    s.prefix = prefix
                    break
            taken |= {s.prefix + r for r in rels}
    return plan


def legacy_sources(paths: list[Path], root: Path | None) -> list[Source]:
    """Sources reproducing the document ids of the original
    ``extract_corpus(paths, root=...)`` contract: paths relative to ``root``
    when inside it (``root`` defaults to the single folder given), else the
    path as given."""
    paths = [Path(p) for p in paths]
    if root is None and len(paths) == 1 and paths[0].is_dir():
        root = paths[0]
    rroot = resolve_path(root) if root is not None else None
    out = []
    for p in paths:
        r = resolve_path(p)
        kind = "dir" if r.is_dir() else "file"
        base_path = r if kind == "dir" else r.parent
        if rroot is not None and is_within(base_path, rroot):
            base = base_path.relative_to(rroot).as_posix()
            prefix = "" if base in ("", ".") else base + "/"
        else:
            typed = p if kind == "dir" else p.parent
            prefix = "" if str(typed) in ("", ".") else typed.as_posix().rstrip("/") + "/"
        out.append(Source(r, kind, prefix))
    return out
