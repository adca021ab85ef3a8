"""The mount against plain disk, and the mount's latency while a command runs.

A script, not a test (pytest does not collect it). As root, from the project root:

    .venv/bin/python tests/benchmarks/bench_mount.py [--pages 400] [--work DIR]

It serves the readability test pages on 127.0.0.1 (each source repeated under different URLs
until there are --pages of them), opens every one through a real mount, and writes the same
pages to disk with `webshellfs compile --manifest`. Then, in one run:

1. `grep -rn` over all page directories, mount vs disk: warm (median of rounds) and cold
   (after `echo 3 > /proc/sys/vm/drop_caches`, or a remount where that is not allowed);
2. `ls` of the root and `stat` latency with all pages stored;
3. 16 parallel readers stat-ing and reading stored page files (cold, right after a remount)
   and the changing `_pages.tsv` and root listing, while a slow `open` runs: p50/p99/max;
4. `kill -9` of a daemon started by mount.sh, then mount.sh again: seconds until the mount
   answers `ls` (stale mount cleared, remounted).
"""

from __future__ import annotations

import argparse
import atexit
import multiprocessing
import os
import random
import shutil
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
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("WEBSHELL_CORPORA") or ROOT.parent / "shared/corpora")
CORPUS = CORPORA / "readability-test-pages/test-pages"
WEBSHELLFS = [sys.executable, "-m", "webshellfs"]
GREP_WORD = "which"
FILL_SESSIONS = 4
READERS = 16
# The mount is measured, not the browser: pages come over plain HTTP.
MOUNT_OPTIONS = ("--browser", "http")
SLOW_SECONDS = 20.0  # under the fetch timeout (30 s), so the open succeeds
P99_TARGET_MS = 20.0
GREP_WARM_TARGET = 1.5
RECOVERY_TARGET_S = 5.0


# --- the corpus, served ---------------------------------------------------------------------


def corpus_pages(count: int) -> list[tuple[str, Path]]:
    """(url path, source file) for count pages: the corpus sources in turn, each under new URLs."""
    sources = sorted(CORPUS.glob("*/source.html"))
    return [(f"/p{n:04d}/{sources[n % len(sources)].parent.name}/", sources[n % len(sources)])
            for n in range(count)]


def serve(pages: list[tuple[str, Path]]) -> tuple[ThreadingHTTPServer, str]:
    by_path = dict(pages)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/slow":
                time.sleep(float(parse_qs(parts.query).get("delay", ["1"])[0]))
                body = b"<html><head><title>Slow</title></head><body><p>slow</p></body></html>"
            elif parts.path in by_path:
                body = by_path[parts.path].read_bytes()
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

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


# --- a mount ---------------------------------------------------------------------------------


class Daemon:
    def __init__(self, mountpoint: Path, cache: Path) -> None:
        self.mountpoint, self.cache = mountpoint, cache
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Daemon:
        self.process = subprocess.Popen(
            [*WEBSHELLFS, str(self.mountpoint), "--foreground", "--cache", str(self.cache),
             "--allow-private", *MOUNT_OPTIONS], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: os.path.ismount(self.mountpoint), 30, self.process)
        return self

    def stop(self) -> None:
        subprocess.run(["fusermount3", "-u", str(self.mountpoint)], check=True)
        assert self.process is not None
        self.process.wait(timeout=30)


def wait_for(condition: Callable[[], bool], timeout: float,
             process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if process is not None and process.poll() is not None:
            sys.exit(f"the daemon exited with {process.returncode}")
        if time.monotonic() > deadline:
            sys.exit("timed out")
        time.sleep(0.01)


def fill(mountpoint: Path, urls: list[str]) -> float:
    """Open every URL through the mount from FILL_SESSIONS shells at once; returns seconds."""
    started = time.monotonic()
    shells = []
    for index in range(FILL_SESSIONS):
        script = "".join(f"echo 'open {url}' > {mountpoint}/.ctl || echo FAILED {url}\n"
                         for url in urls[index::FILL_SESSIONS])
        shells.append(subprocess.Popen(["setsid", "--wait", "bash", "-c", script],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                       text=True))
    failures = [line for shell in shells for line in shell.communicate()[0].splitlines()]
    if failures:
        sys.exit("opening failed:\n" + "\n".join(failures[:10]))
    return time.monotonic() - started


# --- measurements ----------------------------------------------------------------------------


def drop_caches() -> bool:
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def timed_grep(tree: Path) -> float:
    pages = sorted(p.name for p in tree.iterdir() if p.name.startswith("N"))
    started = time.perf_counter()
    result = subprocess.run(["grep", "-rn", GREP_WORD, *pages], cwd=tree,
                            stdout=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - started
    assert result.returncode == 0
    return elapsed


def median_of(rounds: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(rounds))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def read_latencies(args: tuple[Path, list[str], int]) -> list[tuple[str, float]]:
    """One reader process: stat and read each of its files; every 10th file also reads the
    changing _pages.tsv and lists the root. Returns (kind, seconds) pairs."""
    mountpoint, relpaths, seed = args
    random.Random(seed).shuffle(relpaths)
    samples: list[tuple[str, float]] = []
    for number, relpath in enumerate(relpaths):
        path = mountpoint / relpath
        started = time.perf_counter()
        os.stat(path)
        samples.append(("stat", time.perf_counter() - started))
        started = time.perf_counter()
        if not path.is_dir():
            path.read_bytes()
            samples.append(("cat", time.perf_counter() - started))
        if number % 10 == 0:
            started = time.perf_counter()
            (mountpoint / "_pages.tsv").read_bytes()
            os.listdir(mountpoint)
            samples.append(("root", time.perf_counter() - started))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5, help="rounds for warm medians")
    parser.add_argument("--work", type=Path, help="working directory (default: a temp dir)")
    args = parser.parse_args()

    work = args.work or Path(tempfile.mkdtemp(prefix="bench-mount-"))
    work.mkdir(parents=True, exist_ok=True)
    mountpoint, disk, cache = work / "mnt", work / "disk", work / "cache.sqlite"
    mountpoint.mkdir(exist_ok=True)
    # However the run ends (a failed fill exits early), leave no mount and no daemon behind.
    atexit.register(subprocess.run, ["fusermount3", "-u", "-z", str(mountpoint)],
                    stderr=subprocess.DEVNULL, check=False)
    pages = corpus_pages(args.pages)
    server, base = serve(pages)
    urls = [base + path for path, _ in pages]

    print(f"# webshellfs mount benchmark: {args.pages} pages, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}, work {work}")
    manifest = work / "pages.tsv"
    manifest.write_text("".join(f"{source}\t{url}\n" for (_, source), url in zip(pages, urls)))
    shutil.rmtree(disk, ignore_errors=True)
    started = time.monotonic()
    subprocess.run([*WEBSHELLFS, "compile", "--manifest", str(manifest), "--out", str(disk)],
                   check=True)
    print(f"disk tree written by `webshellfs compile --manifest`: {time.monotonic() - started:.1f} s")

    daemon = Daemon(mountpoint, cache).start()
    print(f"mount filled by `open` from {FILL_SESSIONS} sessions: {fill(mountpoint, urls):.1f} s")
    # The shells opened pages side by side, so numbers differ from the disk tree's; the
    # content is the same, so each tree is measured over its own entries.
    mount_pages = sorted(p for p in os.listdir(mountpoint) if p.startswith("N"))
    files = sorted(str(p.relative_to(mountpoint)) for p in mountpoint.glob("N*/**/*"))
    disk_files = list(disk.glob("N*/**/*"))
    print(f"pages: mount {len(mount_pages)}, disk {len(list(disk.glob('N*')))}; entries: mount "
          f"{len(files)}, disk {len(disk_files)}; file bytes: mount {_bytes(mountpoint, files)}, "
          f"disk {sum(p.stat().st_size for p in disk_files if p.is_file())}")

    print(f"\n## grep -rn {GREP_WORD} over every page directory")
    if drop_caches():
        cold_how = "drop_caches"
        disk_cold = timed_grep(disk)
        drop_caches()
        mount_cold = timed_grep(mountpoint)
    else:
        cold_how = "remount (drop_caches not allowed; disk figure is warm)"
        disk_cold = timed_grep(disk)
        daemon.stop()
        daemon = Daemon(mountpoint, cache).start()
        mount_cold = timed_grep(mountpoint)
    timed_grep(mountpoint)
    disk_warm = median_of(args.rounds, lambda: timed_grep(disk))
    mount_warm = median_of(args.rounds, lambda: timed_grep(mountpoint))
    print(f"cold ({cold_how}): disk {disk_cold:.3f} s, mount {mount_cold:.3f} s, "
          f"ratio {mount_cold / disk_cold:.2f}x")
    print(f"warm (median of {args.rounds}): disk {disk_warm:.3f} s, mount {mount_warm:.3f} s, "
          f"ratio {mount_warm / disk_warm:.2f}x (target <= {GREP_WARM_TARGET}x)")

    print(f"\n## ls and stat with {len(mount_pages)} pages")
    for label, tree in (("disk", disk), ("mount", mountpoint)):
        ls_time = median_of(20, lambda tree=tree: _run_timed(["ls", "-l", str(tree)]))
        listdir_time = median_of(20, lambda tree=tree: _timed(lambda: os.listdir(tree)))
        print(f"{label}: `ls -l` {ms(ls_time)}, os.listdir {ms(listdir_time)}")
    daemon.stop()
    daemon = Daemon(mountpoint, cache).start()
    maps = [mountpoint / page / "_map.md" for page in mount_pages]
    cold = [_timed(lambda p=p: os.stat(p)) for p in maps]
    warm = [_timed(lambda p=p: os.stat(p)) for p in maps]
    print(f"stat of each _map.md after a remount: cold p50 {ms(percentile(cold, .5))} "
          f"p99 {ms(percentile(cold, .99))}; warm p50 {ms(percentile(warm, .5))} "
          f"p99 {ms(percentile(warm, .99))}")

    print(f"\n## {READERS} readers, each stat + cat of its share of every page entry, cold")
    # The same load on the disk tree first: on a small machine 16 busy readers queue for the
    # CPU, and that part of their latency is not the mount's.
    drop_caches()
    disk_relpaths = sorted(str(p.relative_to(disk)) for p in disk_files)
    _report_readers("disk", _run_readers(disk, disk_relpaths)[0])
    daemon.stop()
    daemon = Daemon(mountpoint, cache).start()
    writer = subprocess.Popen(["setsid", "--wait", "bash", "-c",
                               f"echo 'open {base}/slow?delay={SLOW_SECONDS}' > {mountpoint}/.ctl"])
    time.sleep(0.5)
    samples, readers_took = _run_readers(mountpoint, files)
    still_running = writer.poll() is None
    _report_readers("mount, while an `open` waits on a slow page", samples)
    print(f"readers took {readers_took:.1f} s; the slow open ({SLOW_SECONDS:.0f} s) was "
          f"{'still' if still_running else 'NOT'} running when they finished; "
          f"target p99 < {P99_TARGET_MS:.0f} ms")
    writer.wait()
    daemon.stop()

    print("\n## kill -9, then ./mount.sh again")
    mount_sh = [str(ROOT / "mount.sh"), str(mountpoint), "--cache", str(cache), "--allow-private",
                *MOUNT_OPTIONS]
    subprocess.run(mount_sh, check=True, stderr=subprocess.DEVNULL)
    pid = _daemon_pid(cache)
    os.kill(pid, 9)
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), 10)
    started = time.monotonic()
    subprocess.run(mount_sh, check=True, stderr=subprocess.DEVNULL)
    os.listdir(mountpoint)
    recovered = time.monotonic() - started
    print(f"stale mount cleared and remounted by mount.sh in {recovered:.2f} s "
          f"(target < {RECOVERY_TARGET_S:.0f} s)")
    subprocess.run(["fusermount3", "-u", str(mountpoint)], check=True)
    server.shutdown()
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} (other work on the machine "
          "inflates every latency above)")


def _run_readers(tree: Path, relpaths: list[str]) -> tuple[list[tuple[str, float]], float]:
    started = time.monotonic()
    with multiprocessing.Pool(READERS) as pool:
        batches = pool.map(read_latencies, [(tree, relpaths[i::READERS], i)
                                            for i in range(READERS)])
    return [sample for batch in batches for sample in batch], time.monotonic() - started


def _report_readers(label: str, samples: list[tuple[str, float]]) -> None:
    print(f"{label}:")
    for kind in ("stat", "cat", "root"):
        values = [seconds for k, seconds in samples if k == kind]
        print(f"  {kind:>4}: n={len(values)} p50 {ms(percentile(values, .5))} "
              f"p99 {ms(percentile(values, .99))} max {ms(max(values))}")
    print(f"   all: p99 {ms(percentile([seconds for _, seconds in samples], .99))}")


def _bytes(tree: Path, relpaths: list[str]) -> int:
    return sum(os.stat(tree / relpath).st_size for relpath in relpaths
               if not (tree / relpath).is_dir())


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _run_timed(command: list[str]) -> float:
    return _timed(lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=True))


def _daemon_pid(cache: Path) -> int:
    """The pid of the latest daemon, from its "mounted … pid N)" log line."""
    lines = [line for line in cache.with_suffix(".log").read_text().splitlines()
             if "webshellfs.mount: mounted" in line]
    return int(lines[-1].rsplit("pid ", 1)[1].rstrip(")"))


if __name__ == "__main__":
    main()
