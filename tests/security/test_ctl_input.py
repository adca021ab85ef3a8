"""`.ctl` input that is binary or a megabyte long, written the way a careless or hostile agent
would, through a real mount: the write fails with EINVAL, `cat .ctl` says what was wrong, one
log record is kept, and the daemon stays up and answers the next command."""

from __future__ import annotations

from tests.fs.conftest import Mount, mounted, new_mount, sh
from webshellfs.ctl import MAX_COMMAND_BYTES

__all__ = ["mounted", "new_mount"]  # the mount fixtures, used here by name


def refused(mount: Mount, writer: str) -> list[str]:
    """Run `WRITER > .ctl`, check it failed with EINVAL, and return the response after its
    first line (which echoes the request)."""
    result = sh(f"{writer} > {mount.path}/.ctl; echo \"status=$?\" >&2; "
                f"tail -n +2 {mount.path}/.ctl")
    assert "Invalid argument" in result.stderr
    assert "status=1" in result.stderr
    return result.stdout.splitlines()


def still_up(mount: Mount, log_records: int) -> None:
    assert mount.process is not None and mount.process.poll() is None
    assert len(sh(f"ls {mount.path}/_log").stdout.split()) == log_records
    answer = mount.ctl("help open")
    assert answer.returncode == 0
    assert answer.stdout.splitlines()[1] == "usage: open <url>"


def test_one_megabyte_write_is_refused_for_its_size(mounted: Mount) -> None:
    # dd writes the megabyte in one write(2); the kernel hands it over in pieces, and the first
    # piece is already over the limit.
    lines = refused(mounted, "dd if=/dev/urandom bs=1M count=1 status=none")
    assert lines[0].startswith(f"a command is at most {MAX_COMMAND_BYTES} bytes")
    still_up(mounted, log_records=1)


def test_text_with_control_characters_is_refused_as_binary(mounted: Mount) -> None:
    lines = refused(mounted, r"printf 'open http://127.0.0.1/\0\1\2'")
    assert lines == ["the command holds control characters (binary data?)"]
    still_up(mounted, log_records=1)


def test_a_megabyte_of_random_bytes_is_refused_as_not_text(mounted: Mount) -> None:
    # head writes in blocks of a few KiB: the first block is refused and head stops there.
    lines = refused(mounted, "head -c 1048576 /dev/urandom")
    assert lines == ["a command must be UTF-8 text"]
    still_up(mounted, log_records=1)
