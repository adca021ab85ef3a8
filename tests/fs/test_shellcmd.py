"""The `webshell` helper: writes a command to .ctl, prints the response, exits with its errno."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

from tests.fs.conftest import Mount
from tests.site import FixtureSite

# The console script installed beside the interpreter running the tests (the venv's bin/).
WEBSHELL = str(Path(sys.executable).parent / "webshell")


def webshell(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WEBSHELL, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})}, check=False)


def test_open_prints_the_response_and_succeeds(mounted: Mount, site: FixtureSite) -> None:
    url = site.url("/article.html")
    result = webshell("--mount", str(mounted.path), "open", url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [f"R0001 ok: open {url}",
                                              "N0001  The Lighthouse Keepers"]
    assert result.stderr == ""


def test_a_bad_command_exits_with_einval(mounted: Mount) -> None:
    result = webshell("--mount", str(mounted.path), "frobnicate", "x")
    assert result.returncode == errno.EINVAL
    assert result.stdout.splitlines()[0] == "R0001 invalid: frobnicate x"
    assert result.stderr == "webshell: frobnicate failed: EINVAL (Invalid argument)\n"


def test_words_with_spaces_stay_one_word(mounted: Mount) -> None:
    result = webshell("--mount", str(mounted.path), "lookup", "N0001", "T01", "row=big red")
    assert result.stdout.splitlines()[0] == "R0001 invalid: lookup N0001 T01 'row=big red'"


def test_the_mount_comes_from_the_environment(mounted: Mount) -> None:
    result = webshell("help", env={"WEBSHELL_MOUNT": str(mounted.path)})
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "R0001 ok: help"


def test_no_mount_says_how_to_mount(tmp_path: Path) -> None:
    result = webshell("--mount", str(tmp_path), "help")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"webshell: cannot use {tmp_path}/.ctl: No such file or directory",
        (f"webshell: is webshellfs mounted there? Mount with ./mount.sh {tmp_path}, "
         "or point --mount / WEBSHELL_MOUNT at the mount"),
    ]
