"""The mount at scale: thousands of stored pages against a disk copy of the same tree.

A script, not a test (pytest does not collect it). As root, from the project root:

    WEBSHELL_CORPORA=../shared/corpora .venv/bin/python tests/benchmarks/bench_scale.py \
        --pages 1000 [--small 250] [--work DIR]

It serves the corpus pages (readability test pages and trafilatura's evaluation pages, each
source repeated under new URLs) from ten loopback addresses and stores them the fastest way the
mount offers: a `local` search index in which every twenty pages share one keyword, and
`retrieve -k 20 KEYWORD` from two sessions at once. A cache of --small pages is kept apart
on the way (for the `open` comparison), and both caches stay in --work, so a later run with the
same --work measures other code on the same pages without storing them again. The disk copy is
`cp -r` of everything the mount's root lists. Then, in one run:

1. `grep -r` over the whole tree (`.`, one root, as an agent greps the mount), mount vs disk:
   cold (the mount freshly mounted, the disk after drop_caches) and warm (median of rounds);
   warm, also `grep -r` given every page directory as its own root (`N0001 … N5000`: grep and
   find ask statfs once per root, and the kernel sends every statfs of a FUSE mount to its
   daemon), with the round trip of one statfs measured apart; `find`, `ls -R` and `wc -l` of
   every file, warm;
2. the daemon's RSS right after mounting (the page list read) and after every file of every page
   was read (by the cold grep);
3. one small `open` after every file was read, at --pages against --small (both mounted, the
   opens taken in turn);
4. `fusermount3 -u`: its own time and until the daemon has exited; against the unmount of a
   tmpfs holding the same tree, every file of it read (what the kernel's dropping of that many
   cached entries and pages costs by itself), and of one holding the same names, empty;
5. directory mode (--no-fuse) over a tree it wrote before: seconds until it answers.
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("WEBSHELL_CORPORA") or ROOT.parent / "shared/corpora")
SOURCES = (CORPORA / "readability-test-pages/test-pages", CORPORA / "trafilatura-eval-dev/pages")
WEBSHELLFS = [sys.executable, "-m", "webshellfs"]
# The code measured: the webshellfs this script imports (PYTHONPATH picks it); daemons start in
# its folder, since `python -m` looks in the working directory first.
def _code_root() -> Path:
    spec = importlib.util.find_spec("webshellfs")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parents[1]


CODE = _code_root()
HOSTS = 10  # loopback addresses, so retrieve's two fetches per host still fetch 20 at once
PER_QUERY = 20  # retrieve's largest -k
FILL_SESSIONS = 2
GREP_WORD = "which"
TINY = b"<html><head><title>Tiny</title></head><body><h1>Tiny</h1><p>one line</p></body></html>"
# The mount is measured, not the browser: pages come over plain HTTP.
MOUNT_OPTIONS = ("--allow-private", "--browser", "http", "--ignore-robots")
# The unmount's target is a ratio: dropping 100,000 cached entries takes the kernel more than
# the 200 ms first asked, with no daemon at all (a tmpfs of the same names, every file empty).
TARGETS = {"grep warm": 1.2, "grep cold": 2.0, "rss MB": 20.0, "open": 1.1,
           "unmount/tmpfs": 1.25, "exit ms": 500.0, "directory s": 2.0}


# --- the corpus, served, and an index over it -------------------------------------------------


def corpus_sources() -> list[Path]:
    readability = sorted(SOURCES[0].glob("*/source.html"))
    trafilatura = sorted(SOURCES[1].glob("*.html"))
    return readability + trafilatura


def page_url(number: int, sources: list[Path]) -> tuple[str, Path]:
    """(url path, source) of page number: the sources in turn, each under new URLs."""
    source = sources[number % len(sources)]
    return f"/p{number:05d}/{source.stem if source.stem != 'source' else source.parent.name}/", source


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128


def serve(address: str, sources: list[Path]) -> str:
    """A server on address: /pNNNNN/… answers page N's source, /tiny/… a small page."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if path.startswith("/tiny/"):
                body = TINY
            elif path.startswith("/p") and path[2:7].isdigit():
                body = page_url(int(path[2:7]), sources)[1].read_bytes()
            else:
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = _Server((address, 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://{address}:{server.server_address[1]}"


def write_index(path: Path, bases: list[str], sources: list[Path], first: int, last: int) -> list[str]:
    """An index of pages first..last-1, PER_QUERY to a keyword; returns the keywords."""
    rows = ["url\ttitle\tsnippet\tkeywords"]
    keywords = []
    for number in range(first, last):
        keyword = f"batch{number // PER_QUERY:05d}"
        if not keywords or keywords[-1] != keyword:
            keywords.append(keyword)
        rows.append(f"{bases[number % len(bases)]}{page_url(number, sources)[0]}\tpage {number}\t"
                    f"page {number}\t{keyword}")
    path.write_text("\n".join(rows) + "\n")
    return keywords


# --- a mount ----------------------------------------------------------------------------------


class Daemon:
    def __init__(self, mountpoint: Path, cache: Path, *extra: str) -> None:
        self.mountpoint, self.cache, self.extra = mountpoint, cache, extra
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Daemon:
        self.process = subprocess.Popen(
            [*WEBSHELLFS, str(self.mountpoint), "--foreground", "--cache", str(self.cache),
             *MOUNT_OPTIONS, *self.extra], cwd=CODE, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        wait_for(lambda: os.path.ismount(self.mountpoint), 60, self.process)
        return self

    def rss_mb(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def stop(self) -> tuple[float, float]:
        """Unmount; returns (seconds fusermount3 took, seconds until the daemon exited)."""
        assert self.process is not None
        started = time.perf_counter()
        subprocess.run(["fusermount3", "-u", str(self.mountpoint)], check=True)
        unmounted = time.perf_counter() - started
        self.process.wait(timeout=60)
        return unmounted, time.perf_counter() - started


def wait_for(condition: Callable[[], bool], timeout: float,
             process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if process is not None and process.poll() is not None:
            sys.exit(f"the daemon exited with {process.returncode}")
        if time.monotonic() > deadline:
            sys.exit("timed out")
        time.sleep(0.005)


def run_commands(mountpoint: Path, commands: list[str], sessions: int) -> None:
    """Each command written to .ctl, the list shared among sessions shells running at once."""
    shells = []
    for index in range(sessions):
        script = "".join(f"echo '{command}' > {mountpoint}/.ctl || echo FAILED {command}\n"
                         for command in commands[index::sessions])
        shells.append(subprocess.Popen(["setsid", "--wait", "bash", "-c", script],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
    failures = [line for shell in shells for line in shell.communicate()[0].splitlines()]
    if failures:
        sys.exit("commands failed:\n" + "\n".join(failures[:10]))


def stored_pages(cache: Path) -> int:
    if not cache.exists():
        return 0
    with sqlite3.connect(cache) as db:
        return db.execute("SELECT count(*) FROM pages").fetchone()[0]


def fill(work: Path, cache: Path, count: int, bases: list[str], sources: list[Path]) -> None:
    """Store pages until cache holds count, by retrieve -k 20 through a mount."""
    have = stored_pages(cache)
    if have >= count:
        return
    index = work / "index.tsv"
    keywords = write_index(index, bases, sources, have, count)
    mountpoint = work / "fill"
    mountpoint.mkdir(exist_ok=True)
    daemon = Daemon(mountpoint, cache, "--search", f"local={index}").start()
    started = time.monotonic()
    run_commands(mountpoint, [f"retrieve -k {PER_QUERY} {k}" for k in keywords], FILL_SESSIONS)
    took = time.monotonic() - started
    print(f"stored {count - have} pages by retrieve -k {PER_QUERY} in {took:.0f} s "
          f"({(count - have) / took:.1f} pages/s); the filling daemon's RSS {daemon.rss_mb():.0f} MB")
    daemon.stop()


# --- measurements -----------------------------------------------------------------------------


def drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def page_dirs(tree: Path) -> list[str]:
    return sorted(p for p in os.listdir(tree) if p.startswith("N"))


def paired(rounds: int, command: list[str], disk: Path, mount: Path) -> tuple[float, float]:
    """Median seconds of command in disk and in mount, the two taken in turn each round, so
    other work on the machine weighs on both alike."""
    times = [(timed(command, disk), timed(command, mount)) for _ in range(rounds)]
    return (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times))


def seconds_and_ratio(on_mount: float, on_disk: float) -> str:
    return f"{on_mount:.3f} s, ratio {on_mount / on_disk:.2f}"


def statfs_seconds(tree: Path, calls: int = 5000) -> float:
    """Seconds of one statfs of tree: on the mount, a round trip to the daemon each time."""
    started = time.perf_counter()
    for _ in range(calls):
        os.statvfs(tree)
    return (time.perf_counter() - started) / calls


def verdict(name: str, value: float) -> str:
    target = TARGETS[name]
    return f"(target <= {target:g}: {'ok' if value <= target else 'MISSED'})"


def tmpfs_unmount(work: Path, disk: Path, empty: bool = False) -> float:
    """Seconds to unmount a tmpfs holding a copy of disk, every file of it read; with empty,
    the same names with no bytes in them (what dropping that many entries costs alone)."""
    place = work / "tmpfs"
    place.mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4g", "tmpfs", str(place)], check=True)
    copy = place / "copy"
    if empty:
        for folder, _, names in os.walk(disk):
            into = copy / Path(folder).relative_to(disk)
            into.mkdir(parents=True)
            for name in names:
                (into / name).touch()
    else:
        subprocess.run(["cp", "-r", str(disk), str(copy)], check=True)
    subprocess.run(["grep", "-rq", "no such words here", str(copy)], check=False)
    started = time.perf_counter()
    subprocess.run(["umount", str(place)], check=True)
    return time.perf_counter() - started


def open_once(mountpoint: Path, base: str) -> float:
    """Seconds of one `open` of a small new page through the mount."""
    url = f"{base}/tiny/{time.time_ns()}"
    started = time.perf_counter()
    subprocess.run(["bash", "-c", f"echo 'open {url}' > {mountpoint}/.ctl"], check=True)
    return time.perf_counter() - started


def compare_opens(work: Path, caches: tuple[Path, Path], base: str, rounds: int
                  ) -> tuple[float, float, float]:
    """Both caches mounted side by side, every file of each read, then a small open on each in
    turn, rounds times: (median seconds on the first, on the second, the second's RSS in MB)."""
    daemons = []
    for number, cache in enumerate(caches):
        mountpoint = work / f"open-{number}"
        mountpoint.mkdir(exist_ok=True)
        atexit.register(subprocess.run, ["fusermount3", "-u", "-z", str(mountpoint)],
                        stderr=subprocess.DEVNULL, check=False)
        daemons.append(Daemon(mountpoint, cache).start())
        subprocess.run(["grep", "-rq", "--", "no such words here", *page_dirs(mountpoint)],
                       cwd=mountpoint, check=False)
        open_once(mountpoint, base)  # the first open after mounting also starts a worker
    times = [[open_once(d.mountpoint, base) for d in daemons] for _ in range(rounds)]
    rss = daemons[1].rss_mb()
    for daemon in daemons:
        daemon.stop()
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times), rss


def directory_start(work: Path, cache: Path) -> tuple[float, float | None]:
    """Directory mode started over a tree it wrote before: (seconds until it answers, seconds
    its check of the tree took, from its log; None from code that does not log it)."""
    root = work / "dir"
    root.mkdir(exist_ok=True)
    for _ in range(2):  # the first start writes what is missing; the second only checks
        started = time.perf_counter()
        process = subprocess.Popen([*WEBSHELLFS, str(root), "--no-fuse", "--foreground",
                                    "--cache", str(cache), *MOUNT_OPTIONS],
                                   cwd=CODE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: (root / ".ctl").exists(), 600, process)
        took = time.perf_counter() - started
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    served = [line for line in cache.with_suffix(".log").read_text().splitlines()
              if f"pid {process.pid}); checking it against the store took" in line]
    return took, float(served[-1].rsplit("took ", 1)[1].split()[0]) if served else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--small", type=int, default=250, help="pages of the `open` baseline")
    parser.add_argument("--rounds", type=int, default=5, help="rounds for warm medians")
    parser.add_argument("--open-rounds", type=int, default=15, help="opens on each mount")
    parser.add_argument("--work", type=Path, help="working directory, kept (default: a temp dir)")
    args = parser.parse_args()

    work = args.work or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    mountpoint, disk = work / "mnt", work / f"disk-{args.pages}"
    small_cache, cache = work / f"cache-{args.small}.sqlite", work / f"cache-{args.pages}.sqlite"
    mountpoint.mkdir(exist_ok=True)
    for place in (mountpoint, work / "fill"):  # however the run ends, leave no mount behind
        atexit.register(subprocess.run, ["fusermount3", "-u", "-z", str(place)],
                        stderr=subprocess.DEVNULL, check=False)
    sources = corpus_sources()
    bases = [serve(f"127.0.0.{host}", sources) for host in range(1, HOSTS + 1)]
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=CODE, capture_output=True,
                          text=True, check=False).stdout.strip()
    print(f"# webshellfs at scale: {args.pages} pages (open against {args.small}), code {head}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, work {work}")

    fill(work, small_cache, args.small, bases, sources)
    if stored_pages(cache) < args.small:
        shutil.copyfile(small_cache, cache)
    fill(work, cache, args.pages, bases, sources)

    daemon = Daemon(mountpoint, cache).start()
    pages = page_dirs(mountpoint)
    if sorted(os.listdir(disk) if disk.exists() else []) != sorted(os.listdir(mountpoint)):
        shutil.rmtree(disk, ignore_errors=True)
        disk.mkdir()
        subprocess.run(["cp", "-r", *os.listdir(mountpoint), str(disk)], cwd=mountpoint,
                       check=True)
        daemon.stop()
        daemon = Daemon(mountpoint, cache).start()
    files = sum(len(names) for _, _, names in os.walk(disk))
    print(f"{len(pages)} pages, {files} files on disk")

    print(f"\n## grep -r {GREP_WORD} over the whole tree")
    os.listdir(mountpoint)
    (mountpoint / "_pages.tsv").read_bytes()
    rss_mounted = daemon.rss_mb()
    drop_caches()
    grep = ["grep", "-r", GREP_WORD, "."]
    disk_cold = timed(grep, disk)
    mount_cold = timed(grep, mountpoint)
    rss_read = daemon.rss_mb()
    disk_warm, mount_warm = paired(args.rounds, grep, disk, mountpoint)
    print(f"cold: disk {disk_cold:.3f} s, mount {mount_cold:.3f} s, ratio "
          f"{mount_cold / disk_cold:.2f} {verdict('grep cold', mount_cold / disk_cold)}")
    print(f"warm: disk {disk_warm:.3f} s, mount {mount_warm:.3f} s, ratio "
          f"{mount_warm / disk_warm:.2f} {verdict('grep warm', mount_warm / disk_warm)}")
    for label, command in (("find", ["find", "."]), ("ls -R", ["ls", "-R", "."]),
                           ("wc -l", ["bash", "-c", "find . -type f -exec wc -l {} + | tail -1"])):
        on_disk, on_mount = paired(args.rounds, command, disk, mountpoint)
        print(f"{label} warm: disk {on_disk:.3f} s, mount {seconds_and_ratio(on_mount, on_disk)}")

    print(f"\n## every page directory as its own root ({len(pages)} roots), warm")
    round_trip = statfs_seconds(mountpoint) - statfs_seconds(disk)
    statfs_cost = len(pages) * round_trip
    print(f"one statfs round trip to the daemon: {round_trip * 1e6:.0f} us; "
          f"{len(pages)} of them: {statfs_cost:.3f} s")
    for label, command in (("grep -r", ["grep", "-r", GREP_WORD, *pages]),
                           ("find", ["find", *pages])):
        on_disk, on_mount = paired(args.rounds, command, disk, mountpoint)
        print(f"{label}: disk {on_disk:.3f} s, mount {seconds_and_ratio(on_mount, on_disk)}; "
              f"without the statfs round trips {(on_mount - statfs_cost) / on_disk:.2f}")

    print("\n## the daemon's memory")
    grown = rss_read - rss_mounted
    print(f"RSS mounted {rss_mounted:.1f} MB, after every file was read {rss_read:.1f} MB: "
          f"+{grown:.1f} MB ({grown * 1024 / len(pages):.1f} KB a page) {verdict('rss MB', grown)}")

    print("\n## fusermount3 -u")
    unmount, exited = daemon.stop()
    print(f"unmount {unmount * 1000:.0f} ms; daemon gone after {exited * 1000:.0f} ms "
          f"{verdict('exit ms', exited * 1000)}")
    tmpfs = tmpfs_unmount(work, disk)
    print(f"a tmpfs holding the same tree, all read: unmount {tmpfs * 1000:.0f} ms; mount/tmpfs "
          f"{unmount / tmpfs:.2f} {verdict('unmount/tmpfs', unmount / tmpfs)}")
    names_only = tmpfs_unmount(work, disk, empty=True)
    print(f"a tmpfs holding the same names, every file empty: unmount {names_only * 1000:.0f} ms "
          f"(the kernel's floor for {files} entries)")

    print(f"\n## one small open after every file was read (median of {args.open_rounds}, "
          f"the two mounts in turn)")
    small_open, big_open, big_rss = compare_opens(work, (small_cache, cache), bases[0],
                                                  args.open_rounds)
    print(f"{args.small} pages: {small_open * 1000:.1f} ms; {args.pages} pages: "
          f"{big_open * 1000:.1f} ms (RSS {big_rss:.0f} MB); ratio {big_open / small_open:.2f} "
          f"{verdict('open', big_open / small_open)}")

    print("\n## directory mode (--no-fuse), start-up over a tree it wrote before")
    started, checked = directory_start(work, cache)
    if checked is None:
        print(f"answering after {started:.2f} s (this code does not log its check's time)")
    else:
        print(f"answering after {started:.2f} s, of which checking the tree {checked:.2f} s "
              f"{verdict('directory s', checked)} (the rest: starting Python and importing)")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
