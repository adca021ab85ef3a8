"""`webshellfs MOUNTPOINT` refuses what cannot work before it mounts or detaches: nonsensical
numbers, an unknown --browser, a mountpoint that is not empty. Each is one line on stderr and a
non-zero status; none needs FUSE."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CLI = Path(sys.executable).parent / "webshellfs"


def mount_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True,
                          timeout=60, check=False)


def error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The reason: argparse prints the usage, then one `webshellfs: error: …` line."""
    return done.stderr.splitlines()[-1]


@pytest.mark.parametrize("option", ["--deadline", "--fetch-timeout"])
@pytest.mark.parametrize("value", ["-5", "0", "nan", "inf", "soon"])
def test_a_duration_that_is_not_positive_is_refused_at_start(
    tmp_path: Path, option: str, value: str
) -> None:
    done = mount_cli(tmp_path, option, value)
    assert done.returncode == 2
    assert error_line(done) == (
        f"webshellfs: error: argument {option}: a positive number of seconds is needed, "
        f"not '{value}'"
    )


def test_an_unknown_browser_is_refused_naming_every_choice(tmp_path: Path) -> None:
    done = mount_cli(tmp_path, "--browser", "foo")
    assert done.returncode == 2
    assert error_line(done) == (
        "webshellfs: error: argument --browser: --browser takes local, cdp=URL, ws=URL or http, "
        "not 'foo'"
    )


def test_a_mountpoint_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    mountpoint = tmp_path / "mnt"
    mountpoint.mkdir()
    (mountpoint / "notes.txt").write_text("mine\n")
    (mountpoint / "old").mkdir()
    done = mount_cli(mountpoint, "--cache", tmp_path / "cache.sqlite")
    assert done.returncode == 1
    assert done.stderr == (
        f"webshellfs: {mountpoint} is not empty (it holds 'notes.txt' and 1 more) and the mount "
        "would hide them: mount on an empty directory\n"
    )
    assert sorted(p.name for p in mountpoint.iterdir()) == ["notes.txt", "old"]
