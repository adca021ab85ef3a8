"""Several shell sessions on one mount at once, for a bounded number of commands: writers open
pages and bad commands while readers grep and cat what is stored. Every response must match its
own command, every read must succeed, and nothing may be lost or stored twice."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

from tests.fs.conftest import Mount, sh
from tests.site import FixtureSite

WRITERS = 4
OPENS_PER_WRITER = 5
READERS = 3
ADDRESS = re.compile(r"^(N\d{4})  ", re.MULTILINE)


def test_parallel_sessions_each_get_their_own_answers_and_lose_nothing(
    mounted: Mount, site: FixtureSite
) -> None:
    assert mounted.ctl(f"open {site.url('/article.html')}").returncode == 0
    writers_done = threading.Event()
    problems: list[str] = []
    opened: dict[str, str] = {}  # url → page address, as each response named it

    def writer(number: int) -> None:
        for round_ in range(OPENS_PER_WRITER):
            url = site.url(f"/generated?n={number}-{round_}")
            result = mounted.ctl(f"open {url}", session=True)
            first = result.stdout.splitlines()[:1]
            if result.returncode != 0 or not first or not first[0].endswith(f"ok: open {url}"):
                problems.append(f"open {url}: {result.returncode} {result.stdout[:200]!r}")
                continue
            found = ADDRESS.search(result.stdout)
            if found is None:
                problems.append(f"open {url}: no address in {result.stdout[:200]!r}")
                continue
            opened[url] = found.group(1)
            bad = mounted.ctl(f"open{number}", session=True)  # malformed: EINVAL, own answer
            if bad.returncode == 0 or f"invalid: open{number}" not in bad.stdout.splitlines()[0]:
                problems.append(f"bad command {number}: {bad.returncode} {bad.stdout[:200]!r}")

    def reader() -> int:
        reads = 0
        while not writers_done.is_set():
            grep = sh(f"grep -rn 'Skerry Light' {mounted.path}/N0001/content/", session=True)
            cat = sh(f"cat {mounted.path}/_pages.tsv {mounted.path}/N0001/_map.md", session=True)
            if grep.returncode != 0 or cat.returncode != 0 or "# The Lighthouse" not in cat.stdout:
                problems.append(f"read failed: {grep.returncode} {cat.returncode} {grep.stderr}")
            reads += 1
        return reads

    with ThreadPoolExecutor(WRITERS + READERS) as pool:
        reading = [pool.submit(reader) for _ in range(READERS)]
        list(pool.map(writer, range(WRITERS)))
        writers_done.set()
        reads = sum(r.result(timeout=120) for r in reading)

    assert problems == []
    assert reads >= READERS
    assert len(opened) == WRITERS * OPENS_PER_WRITER
    assert len(set(opened.values())) == len(opened)  # no two pages share an address
    for url, page in opened.items():
        url_line = sh(f"sed -n 2p {mounted.path}/{page}/_map.md").stdout.strip()
        assert url_line == f"url: {url}"
    pages = sh(f"cut -f1,6 {mounted.path}/_pages.tsv").stdout.splitlines()[1:]
    assert len(pages) == 1 + len(opened)
    logged = sh(f"ls {mounted.path}/_log").stdout.split()
    assert len(logged) == 1 + 2 * len(opened)  # every command answered and kept, bad ones too
