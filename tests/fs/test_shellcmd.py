"""The `webshell` helper, on a mount (it writes .ctl) and on a served directory (it talks to the
socket): prints the response, exits with the errno, and finds the place by itself."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

from tests.fs.conftest import WEBSHELL, Place
from tests.site import FixtureSite


def webshell(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None
             ) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WEBSHELL_")}
    return subprocess.run([WEBSHELL, *args], capture_output=True, text=True, timeout=60,
                          env={**environment, **(env or {})}, cwd=cwd, check=False)


def test_open_prints_the_response_and_succeeds(place: Place, site: FixtureSite) -> None:
    url = site.url("/article.html")
    result = webshell("--at", str(place.path), "open", url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [f"R0001 ok: open {url}",
                                              "N0001  The Lighthouse Keepers"]
    assert result.stderr == ""


def test_a_bad_command_exits_with_einval(place: Place) -> None:
    result = webshell("--at", str(place.path), "frobnicate", "x")
    assert result.returncode == errno.EINVAL
    assert result.stdout.splitlines()[0] == "R0001 invalid: frobnicate x"
    assert result.stderr == "webshell: frobnicate failed: EINVAL (Invalid argument)\n"


def test_a_failed_command_exits_with_eio(place: Place, site: FixtureSite) -> None:
    result = webshell("--at", str(place.path), "open", site.url("/missing"))
    assert result.returncode == errno.EIO
    assert result.stdout.splitlines()[1] == f"HTTP 404 Not Found for {site.url('/missing')}"


def test_words_with_spaces_stay_one_word(place: Place) -> None:
    result = webshell("--at", str(place.path), "lookup", "N0001", "T01", "row=big red")
    assert result.stdout.splitlines()[0] == "R0001 invalid: lookup N0001 T01 'row=big red'"


def test_the_place_comes_from_the_environment(place: Place) -> None:
    for number, variable in enumerate(("WEBSHELL_DIR", "WEBSHELL_MOUNT"), 1):
        result = webshell("help", env={variable: str(place.path)})
        assert result.returncode == 0
        assert result.stdout.splitlines()[0] == f"R000{number} ok: help"


def test_the_place_is_found_from_the_current_directory(place: Place, site: FixtureSite) -> None:
    assert webshell("--at", str(place.path), "open", site.url("/article.html")).returncode == 0
    for here in (place.path, place.path / "N0001" / "content"):
        result = webshell("help", cwd=here)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[1] == "commands (write one line to .ctl, then cat .ctl):"


def test_mount_is_another_name_for_at(place: Place) -> None:
    assert webshell("--mount", str(place.path), "help").returncode == 0


def test_no_place_says_how_to_start_one(tmp_path: Path) -> None:
    result = webshell("--at", str(tmp_path), "help")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"webshell: cannot use {tmp_path}/.ctl: No such file or directory",
        (f"webshell: is webshellfs serving {tmp_path}? Start it with ./mount.sh {tmp_path}, "
         "or point --at / WEBSHELL_DIR at it"),
    ]
