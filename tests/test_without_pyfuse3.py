"""Directory mode and the MCP server run where pyfuse3 is not installed: importing them (and the
wiring that starts them) must not import it. Each check runs in a fresh interpreter in which any
import of pyfuse3 fails, as on a machine without it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

WEBSHELL = str(Path(sys.executable).parent / "webshell")
NO_PLACE_STATUS = 2  # webshell found nothing serving the place (yet)

NO_PYFUSE3 = """
import importlib.abc, sys

class NoPyfuse3(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "pyfuse3" or name.startswith("pyfuse3."):
            raise ImportError(f"No module named {name!r} (hidden by the test)")
        return None

sys.meta_path.insert(0, NoPyfuse3())
"""

# What each face imports when it starts, and a call that shows the import path is whole.
FACES = {
    "mcp": "import webshellfs.mcp.serve, webshellfs.mcp.server",
    "directory": "import webshellfs.directory",
    "wiring": "import webshellfs.mount, webshellfs.cli",
    "cli-help": "import webshellfs.cli as cli; cli._mcp_parser(); cli._mount_parser()",
}


@pytest.mark.parametrize("face", sorted(FACES))
def test_face_imports_without_pyfuse3(face: str) -> None:
    script = NO_PYFUSE3 + FACES[face] + "\nassert 'pyfuse3' not in sys.modules\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_the_stub_hides_pyfuse3() -> None:
    """The check above proves something only if the stub really refuses pyfuse3."""
    script = NO_PYFUSE3 + "import webshellfs.fusemount\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode != 0
    assert "hidden by the test" in result.stderr


def test_a_directory_is_served_without_pyfuse3(tmp_path: Path) -> None:
    """The whole start of directory mode, from the command line to a command's answer."""
    place, cache = tmp_path / "web", tmp_path / "cache.sqlite"
    place.mkdir()
    serve = NO_PYFUSE3 + "from webshellfs.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    daemon = subprocess.Popen(
        [sys.executable, "-c", serve, str(place), "--no-fuse", "--foreground", "--browser",
         "http", "--cache", str(cache)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        answered = None
        deadline = time.monotonic() + 60
        while answered is None or answered.returncode == NO_PLACE_STATUS:
            assert daemon.poll() is None, daemon.stderr.read().decode() if daemon.stderr else ""
            assert time.monotonic() < deadline, "the directory was not served within 60 s"
            time.sleep(0.1)
            answered = subprocess.run([WEBSHELL, "--at", str(place), "help", "open"],
                                      capture_output=True, text=True, timeout=60, check=False)
        assert answered.returncode == 0, answered.stderr
        assert "open <url>" in answered.stdout
    finally:
        daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(timeout=30)
    assert status == 0
