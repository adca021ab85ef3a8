"""`webshellfs compile`, run as the real installed command in a subprocess.

It must write exactly what `render_page` returns (plus the always-present empty directories),
read standard input for `-`, number manifest pages as the mount does, write one stats line per
page, refuse to overwrite a directory that is not its own output, and never write outside --out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import PAGE_DIRS, clean_field, render_page

ROOT = Path(__file__).resolve().parents[1]
CLI = Path(sys.executable).parent / "webshellfs"
URL = "https://shop.example.test/items/shoe.html"

ARTICLE = b"""<!doctype html><html lang="en"><head><title>Red shoe</title></head><body>
<nav><a href="/">Home</a></nav>
<h1>Red shoe</h1><p>A shoe that is red. <a href="size.html">Sizes</a></p>
<h2>Specs</h2><table><tr><th>Size</th><th>Price</th></tr><tr><td>M</td><td>10</td></tr></table>
<form action="/search"><input name="q"><button>Go</button></form>
</body></html>"""

# Every name-bearing thing a page controls, aimed at escaping the output directory.
CRAFTED = """<html><head><title>../../../../tmp/pwned</title><base href="file:///etc/"></head><body>
<h1>../../../../escape</h1><h2>/etc/passwd</h2><h2>..</h2><h2>.</h2><h2>-rf *</h2>
<h3>\u202e\u200bevil\x00name</h3><h2>%2e%2e%2fup</h2><h2>{long}</h2>
<nav aria-label="../../nav"><a href="../../../x">x</a></nav><aside id="../../a">aside</aside>
<table><caption>../../T01</caption><tr><th>../h</th></tr><tr><td>../c</td></tr></table>
<img src="../../../../etc/passwd" alt="../../i">
</body></html>""".format(long="é/.." * 200).encode("utf-8")


def run_cli(
    *args: str | Path, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(CLI), "compile", *map(str, args)],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
        cwd=cwd or ROOT,
        env={**os.environ, "PYTHONHASHSEED": "random"},
    )


def read_tree(root: Path) -> tuple[dict[str, bytes], set[str]]:
    """All files (relpath → bytes) and all directories under root; symlinks count as files."""
    files: dict[str, bytes] = {}
    dirs: set[str] = set()
    for path in sorted(root.rglob("*")):
        relpath = path.relative_to(root).as_posix()
        if path.is_dir() and not path.is_symlink():
            dirs.add(relpath)
        else:
            files[relpath] = path.read_bytes()
    return files, dirs


def expected_tree(data: bytes, url: str, page_id: str = "") -> tuple[dict[str, bytes], set[str]]:
    files = render_page(compile_page(data, url), page_id=page_id)
    dirs = set(PAGE_DIRS) | {str(Path(p).parent) for p in files if "/" in p}
    return files, dirs


def assert_page_dir(out: Path, data: bytes, url: str, page_id: str = "") -> None:
    files, dirs = read_tree(out)
    want_files, want_dirs = expected_tree(data, url, page_id)
    assert sorted(files) == sorted(want_files)
    assert files == want_files
    assert dirs == want_dirs


@pytest.fixture()
def page(tmp_path: Path) -> Path:
    path = tmp_path / "shoe.html"
    path.write_bytes(ARTICLE)
    return path


def test_compile_writes_exactly_the_rendered_tree(tmp_path: Path, page: Path) -> None:
    out = tmp_path / "out"
    done = run_cli(page, "--url", URL, "--out", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    assert_page_dir(out, ARTICLE, URL)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "shoe.html"]


def test_compile_reads_standard_input_for_dash(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_cli("-", "--url", URL, "--out", out, stdin=ARTICLE)
    assert done.returncode == 0, done.stderr
    assert_page_dir(out, ARTICLE, URL)


def test_compile_replaces_its_own_earlier_output(tmp_path: Path, page: Path) -> None:
    out = tmp_path / "out"
    assert run_cli(page, "--url", URL, "--out", out).returncode == 0
    (out / "content" / "stale.md").write_text("left over\n")
    other = b"<html><head><title>Other</title></head><body><p>Other text</p></body></html>"
    done = run_cli("-", "--url", URL, "--out", out, stdin=other)
    assert done.returncode == 0, done.stderr
    assert_page_dir(out, other, URL)


def test_compile_refuses_a_non_empty_directory_that_is_not_a_page(
    tmp_path: Path, page: Path
) -> None:
    out = tmp_path / "home"
    out.mkdir()
    (out / "precious.txt").write_text("mine\n")
    done = run_cli(page, "--url", URL, "--out", out)
    assert done.returncode == 1
    assert b"is not a compiled page" in done.stderr
    assert read_tree(out) == ({"precious.txt": b"mine\n"}, set())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "shoe.html"]


def test_compile_into_an_existing_empty_directory(tmp_path: Path, page: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    assert run_cli(page, "--url", URL, "--out", out).returncode == 0
    assert_page_dir(out, ARTICLE, URL)


def test_compile_reports_a_missing_page_file_without_a_traceback(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "nope.html", "--url", URL, "--out", tmp_path / "out")
    assert done.returncode == 1
    assert done.stderr.startswith(b"webshellfs: ")
    assert b"Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_compile_needs_a_url_for_a_single_page(tmp_path: Path, page: Path) -> None:
    done = run_cli(page, "--out", tmp_path / "out")
    assert done.returncode == 2
    assert b"PAGE and --url are needed" in done.stderr


def test_compile_rejects_page_and_manifest_together(tmp_path: Path, page: Path) -> None:
    done = run_cli(page, "--manifest", tmp_path / "m.tsv", "--out", tmp_path / "out")
    assert done.returncode == 2
    assert b"either PAGE or --manifest" in done.stderr


def test_crafted_page_cannot_write_outside_out(tmp_path: Path) -> None:
    sandbox = tmp_path / "sandbox"
    out = sandbox / "deep" / "out"
    done = run_cli("-", "--url", "file:///etc/passwd", "--out", out, stdin=CRAFTED)
    assert done.returncode == 0, done.stderr
    assert_page_dir(out, CRAFTED, "file:///etc/passwd")
    # Nothing anywhere else: not beside out, not above it, not in the sandbox's parent.
    assert sorted(
        p.relative_to(tmp_path).as_posix()
        for p in tmp_path.rglob("*")
        if p == out or not p.is_relative_to(out)
    ) == ["sandbox", "sandbox/deep", "sandbox/deep/out"]
    for relpath in read_tree(out)[0]:
        assert all(part not in ("", ".", "..") for part in relpath.split("/"))
        assert relpath.isascii() and not relpath.startswith(("-", ".", "/"))
        assert all(len(part.encode()) <= 255 for part in relpath.split("/"))


def test_recompiling_over_a_planted_symlink_does_not_touch_its_target(
    tmp_path: Path, page: Path
) -> None:
    """A compiled page whose content/ was swapped for a symlink: the rewrite removes the link,
    never what it points at."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    assert run_cli(page, "--url", URL, "--out", out).returncode == 0
    elsewhere.mkdir()
    (elsewhere / "keep.md").write_text("keep\n")
    for child in (out / "content").iterdir():
        child.unlink()
    (out / "content").rmdir()
    (out / "content").symlink_to(elsewhere, target_is_directory=True)
    assert run_cli(page, "--url", URL, "--out", out).returncode == 0
    assert_page_dir(out, ARTICLE, URL)
    assert read_tree(elsewhere) == ({"keep.md": b"keep\n"}, set())


# --- manifests ------------------------------------------------------------------------------

PAGES = {
    "a.html": (
        b"<html><head><title>First\tpage</title></head><body><h1>One</h1><p>one</p></body></html>",
        "https://a.example.test/",
    ),
    "sub/b.html": (
        b"<html><body><p>no title here</p></body></html>",
        "https://b.example.test/x?y=1",
    ),
    "c.html": (CRAFTED, "https://c.example.test/"),
}


@pytest.fixture()
def manifest(tmp_path: Path) -> Path:
    saved = tmp_path / "saved"
    for name, (data, _) in PAGES.items():
        (saved / name).parent.mkdir(parents=True, exist_ok=True)
        (saved / name).write_bytes(data)
    lines = ["# saved crawl", ""]
    lines += [f"{name}\t{url}" for name, (_, url) in PAGES.items() if name != "c.html"]
    lines.append(f"{saved / 'c.html'}\t{PAGES['c.html'][1]}")  # absolute paths work too
    path = saved / "pages.tsv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_manifest_writes_numbered_pages_and_pages_tsv(tmp_path: Path, manifest: Path) -> None:
    out = tmp_path / "crawl"
    done = run_cli("--manifest", manifest, "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["N0001", "N0002", "N0003", "_pages.tsv"]
    titles = []
    for number, (data, url) in enumerate(PAGES.values(), 1):
        page_id = f"N{number:04d}"
        assert_page_dir(out / page_id, data, url, page_id)
        titles.append(clean_field(compile_page(data, url).title))
    assert (out / "_pages.tsv").read_text().splitlines() == [
        "page\tparent\tvia\tstatus\ttitle\turl",
        f"N0001\t\t\tstored\t{titles[0]}\thttps://a.example.test/",
        f"N0002\t\t\tstored\t{titles[1]}\thttps://b.example.test/x?y=1",
        f"N0003\t\t\tstored\t{titles[2]}\thttps://c.example.test/",
    ]


def test_stats_has_one_line_per_page(tmp_path: Path, manifest: Path) -> None:
    out, stats = tmp_path / "crawl", tmp_path / "stats.tsv"
    assert run_cli("--manifest", manifest, "--out", out, "--stats", stats).returncode == 0
    lines = stats.read_text().splitlines()
    assert lines[0] == "page\tcompile_ms\toutput_bytes\turl\tsource"
    assert len(lines) == 1 + len(PAGES)
    for number, (line, (name, (_, url))) in enumerate(zip(lines[1:], PAGES.items()), 1):
        page_id, milliseconds, output_bytes, page_url, source = line.split("\t")
        assert page_id == f"N{number:04d}"
        assert float(milliseconds) > 0
        assert int(output_bytes) == sum(len(b) for b in read_tree(out / page_id)[0].values())
        assert (page_url, source) == (url, str(manifest.parent / name))


def test_stats_for_a_single_page(tmp_path: Path, page: Path) -> None:
    out, stats = tmp_path / "out", tmp_path / "stats.tsv"
    assert run_cli(page, "--url", URL, "--out", out, "--stats", stats).returncode == 0
    header, line = stats.read_text().splitlines()
    assert header == "page\tcompile_ms\toutput_bytes\turl\tsource"
    page_id, milliseconds, output_bytes, page_url, source = line.split("\t")
    assert (page_id, page_url, source) == ("", URL, str(page))
    assert float(milliseconds) > 0
    assert int(output_bytes) == sum(len(b) for b in read_tree(out)[0].values())


def test_manifest_refuses_a_non_empty_directory_that_is_not_its_output(
    tmp_path: Path,
    manifest: Path,
) -> None:
    out = tmp_path / "home"
    out.mkdir()
    (out / "precious.txt").write_text("mine\n")
    done = run_cli("--manifest", manifest, "--out", out)
    assert done.returncode == 1
    assert (
        done.stderr
        == f"webshellfs: {out} exists and is not a compiled manifest; choose an empty --out\n".encode()
    )
    assert read_tree(out) == ({"precious.txt": b"mine\n"}, set())


def test_manifest_can_be_run_again_over_its_own_output(tmp_path: Path, manifest: Path) -> None:
    out = tmp_path / "crawl"
    assert run_cli("--manifest", manifest, "--out", out).returncode == 0
    first = read_tree(out)
    assert run_cli("--manifest", manifest, "--out", out).returncode == 0
    assert read_tree(out) == first


def test_manifest_with_a_bad_line_names_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("page.html without a url\n")
    done = run_cli("--manifest", bad, "--out", tmp_path / "out")
    assert done.returncode == 1
    assert (
        done.stderr
        == f"webshellfs: {bad}:1: expected 'path<TAB>url', got 'page.html without a url'\n".encode()
    )


def test_manifest_with_a_missing_source_compiles_the_rest_and_fails(
    tmp_path: Path, manifest: Path
) -> None:
    lines = manifest.read_text().splitlines()
    lines.insert(3, "gone.html\thttps://gone.example.test/")  # between the first two pages
    manifest.write_text("\n".join(lines) + "\n")
    out, stats = tmp_path / "crawl", tmp_path / "stats.tsv"
    done = run_cli("--manifest", manifest, "--out", out, "--stats", stats)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        f"webshellfs: {manifest}:4: cannot read {manifest.parent / 'gone.html'}: "
        "No such file or directory; skipped\n"
    )
    # The pages that could be read are numbered as the mount would (a failure takes no number).
    assert sorted(p.name for p in out.iterdir()) == ["N0001", "N0002", "N0003", "_pages.tsv"]
    for number, (data, url) in enumerate(PAGES.values(), 1):
        assert_page_dir(out / f"N{number:04d}", data, url, f"N{number:04d}")
    assert len((out / "_pages.tsv").read_text().splitlines()) == 4
    assert [line.split("\t")[0] for line in stats.read_text().splitlines()] == [
        "page", "N0001", "N0002", "N0003"]


def test_compile_help_shows_url_as_needed_with_a_page() -> None:
    usage = run_cli("--help").stdout.decode().split("\n\n")[0]
    assert usage == (
        "usage: webshellfs compile PAGE --url URL --out DIR [--stats FILE]\n"
        "       webshellfs compile --manifest PAGES.tsv --out DIR [--stats FILE]"
    )
