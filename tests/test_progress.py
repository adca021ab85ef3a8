"""Progress of a running command, without a mount: what the engine keeps (engine/progress.py)
and how the socket's `watch` reply is read apart into progress lines and the reply."""

from __future__ import annotations

import trio

from webshellfs.engine.progress import MAX_LINES, Progress, report, reporting
from webshellfs.sockets import _take_progress, decode_reply, encode_progress, encode_reply


def test_reports_reach_the_command_whose_tasks_make_them() -> None:
    heard: list[str] = []
    progress = Progress("R0001 progress: retrieve x", listener=heard.append)

    async def main() -> None:
        report("outside any command: nowhere")
        with reporting(progress):
            report("searching")
            async with trio.open_nursery() as nursery:  # a retrieve's fetches run in tasks
                nursery.start_soon(trio.to_thread.run_sync, report, "in a thread\nof its own")
        report("after it: nowhere")

    trio.run(main)
    assert progress.lines == ["searching", "in a thread of its own"] == heard
    assert progress.data == b"R0001 progress: retrieve x\nsearching\nin a thread of its own\n"


def test_a_flood_of_reports_is_counted_not_kept() -> None:
    progress = Progress("R0001 progress: retrieve x")
    for number in range(MAX_LINES + 5):
        progress.add(f"line {number}")
    assert len(progress.lines) == MAX_LINES
    assert progress.data.endswith(b"\n... 5 more\n".replace(b"...", "…".encode()))


def test_progress_lines_are_read_apart_from_the_reply_however_they_arrive() -> None:
    whole = encode_progress("one") + encode_progress("two") + encode_reply(5, b"R0001 failed\n")
    for cut in range(len(whole) + 1):
        heard: list[str] = []
        received = bytearray()
        start = 0
        for chunk in (whole[:cut], whole[cut:]):
            received += chunk
            start = _take_progress(received, start, heard.append)
        assert heard == ["one", "two"], cut
        assert decode_reply(bytes(received[start:])) == (5, b"R0001 failed\n")
