"""Writing compiled pages to a plain directory: the `webshellfs compile` face of the layout.

A page directory is first written under a temporary name beside its destination and then
renamed into place, so a reader never sees half a page.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from webshellfs.compiler import compile_page
from webshellfs.contract.addresses import format_page_id
from webshellfs.contract.layout import PAGE_DIRS, clean_field, render_page
from webshellfs.errors import UsageError

PAGES_COLUMNS = ("page", "parent", "via", "status", "title", "url")


@dataclass(frozen=True)
class CompileStat:
    page: str
    source: str
    url: str
    milliseconds: float
    output_bytes: int


def _safe_join(root: Path, relpath: str) -> Path:
    """Join a layout path under root, refusing anything that would land outside it."""
    target = (root / relpath).resolve()
    if not target.is_relative_to(root.resolve()):
        raise UsageError(f"refusing to write outside {root}: {relpath!r}")
    return target


def write_page_dir(files: dict[str, bytes], destination: Path) -> None:
    """Write one page directory whole: into a temporary sibling, then rename over destination."""
    destination = destination.absolute()
    if destination.exists() and any(destination.iterdir()) and not (destination / "_map.md").exists():
        raise UsageError(f"{destination} exists and is not a compiled page; choose an empty --out")
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", dir=destination.parent))
    try:
        for directory in PAGE_DIRS:
            (staging / directory).mkdir()
        for relpath, data in files.items():
            target = _safe_join(staging, relpath)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        if destination.exists():
            shutil.rmtree(destination)
        os.rename(staging, destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def compile_to_dir(
    data: bytes, url: str, out: Path, page_id: str = "", source: str = ""
) -> CompileStat:
    started = time.perf_counter()
    files = render_page(compile_page(data, url), page_id=page_id)
    elapsed = (time.perf_counter() - started) * 1000
    write_page_dir(files, out)
    return CompileStat(page_id, source, url, elapsed, sum(len(b) for b in files.values()))


@dataclass(frozen=True)
class ManifestEntry:
    """One manifest line: where it is (`PAGES.tsv:3`), the saved page and its URL."""

    where: str
    source: Path
    url: str


@dataclass(frozen=True)
class ManifestResult:
    """What a manifest compile did: a stat per page written, a message per line skipped."""

    stats: list[CompileStat]
    failures: list[str]


def read_manifest(path: Path) -> list[ManifestEntry]:
    """`path<TAB>url` lines; relative paths are relative to the manifest's folder."""
    entries: list[ManifestEntry] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        source, sep, url = line.partition("\t")
        if not sep or not url.strip():
            raise UsageError(f"{path}:{number}: expected 'path<TAB>url', got {line[:80]!r}")
        where = f"{path}:{number}"
        entries.append(ManifestEntry(where, (path.parent / source).resolve(), url.strip()))
    return entries


def compile_manifest(entries: Iterable[ManifestEntry], out: Path) -> ManifestResult:
    """Compile saved pages into out/N0001… and write out/_pages.tsv, numbered as the mount does:
    a source that cannot be read is reported and takes no number, and the rest still compile."""
    if out.exists() and any(out.iterdir()) and not (out / "_pages.tsv").exists():
        raise UsageError(f"{out} exists and is not a compiled manifest; choose an empty --out")
    out.mkdir(parents=True, exist_ok=True)
    stats: list[CompileStat] = []
    failures: list[str] = []
    rows = ["\t".join(PAGES_COLUMNS)]
    for entry in entries:
        try:
            data = entry.source.read_bytes()
        except OSError as error:
            failures.append(f"{entry.where}: cannot read {entry.source}: {error.strerror}; skipped")
            continue
        page_id = format_page_id(len(stats) + 1)
        started = time.perf_counter()
        page = compile_page(data, entry.url)
        files = render_page(page, page_id=page_id)
        elapsed = (time.perf_counter() - started) * 1000
        write_page_dir(files, out / page_id)
        output_bytes = sum(map(len, files.values()))
        stats.append(CompileStat(page_id, str(entry.source), entry.url, elapsed, output_bytes))
        title, url = clean_field(page.title), clean_field(entry.url)
        rows.append("\t".join((page_id, "", "", "stored", title, url)))
    (out / "_pages.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return ManifestResult(stats, failures)


def write_stats(stats: list[CompileStat], path: Path) -> None:
    lines = ["page\tcompile_ms\toutput_bytes\turl\tsource"]
    lines += [
        f"{s.page}\t{s.milliseconds:.2f}\t{s.output_bytes}\t{s.url}\t{s.source}" for s in stats
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
