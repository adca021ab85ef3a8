"""A command that is still running never makes readers wait: ten shells grep the stored pages,
list the root and read _pages.tsv (never cached by the kernel, so every read reaches the daemon)
while another shell's `open` waits on a slow page."""

from __future__ import annotations

import subprocess
import time

from tests.fs.conftest import Mount
from tests.site import FixtureSite

SLOW_SECONDS = 10.0
READERS = 10
ROUNDS = 10


def test_ten_readers_never_wait_for_a_slow_open(mounted: Mount, site: FixtureSite) -> None:
    for path in ("/article.html", "/shop.html", "/index.html"):
        assert mounted.ctl(f"open {site.url(path)}").returncode == 0
    root = mounted.path
    # Each round prints how long it took, in microseconds.
    reader_script = (
        f"for i in $(seq {ROUNDS}); do s=$(date +%s%N); "
        f"grep -rn Lighthouse {root}/N0001 {root}/N0002 {root}/N0003 > /dev/null; "
        f"ls {root} > /dev/null; cat {root}/_pages.tsv > /dev/null; "
        "e=$(date +%s%N); echo $(( (e - s) / 1000 )); done"
    )
    writer = subprocess.Popen(
        ["setsid", "--wait", "bash", "-c",
         f"echo 'open {site.url(f'/slow?delay={SLOW_SECONDS}')}' > {root}/.ctl"])
    time.sleep(0.5)  # the open is under way, waiting on the slow page
    started = time.monotonic()
    readers = [subprocess.Popen(["bash", "-c", reader_script], stdout=subprocess.PIPE, text=True)
               for _ in range(READERS)]
    outputs = [reader.communicate(timeout=60)[0] for reader in readers]
    readers_took = time.monotonic() - started
    still_loading = writer.poll() is None
    assert writer.wait(timeout=60) == 0

    rounds_ms = sorted(int(line) / 1000 for output in outputs for line in output.split())
    assert len(rounds_ms) == READERS * ROUNDS
    assert still_loading, f"the readers took {readers_took:.1f} s, longer than the slow page"
    # A reader that waited on the command would take seconds; these take milliseconds.
    assert rounds_ms[-1] < SLOW_SECONDS * 1000 / 10, f"slowest round {rounds_ms[-1]:.0f} ms"
