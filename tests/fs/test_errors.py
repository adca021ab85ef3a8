"""The one error boundary: domain errors → errnos by the most specific class, anything
unexpected → a logged traceback and EIO, and FUSEError passes through untouched."""

from __future__ import annotations

import errno
import logging

import pyfuse3
import pytest
import trio

from webshellfs.engine import Outcome
from webshellfs.errors import (
    AccessDenied,
    CacheLocked,
    CommandSyntaxError,
    FetchError,
    FetchTimeout,
    NotFoundError,
    StoreError,
    WebshellError,
)
from webshellfs.fs import ERRNO_FOR_OUTCOME, errno_for, guarded


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (CommandSyntaxError("x"), errno.EINVAL),
        (NotFoundError("x"), errno.ENOENT),
        (FetchTimeout("x"), errno.ETIMEDOUT),
        (AccessDenied("x"), errno.EACCES),
        (FetchError("x"), errno.EIO),
        (CacheLocked("x"), errno.EBUSY),
        (StoreError("x"), errno.EIO),
        (WebshellError("x"), errno.EIO),
        (KeyError("x"), errno.EIO),
    ],
)
def test_most_specific_class_decides_the_errno(error: BaseException, expected: int) -> None:
    assert errno_for(error) == expected


def test_every_failing_outcome_has_an_errno() -> None:
    assert {outcome for outcome in Outcome if outcome is not Outcome.OK} == set(ERRNO_FOR_OUTCOME)


class Handlers:
    @guarded
    async def raises(self, error: BaseException) -> None:
        raise error


def _errno_of_call(error: BaseException) -> int:
    with pytest.raises(pyfuse3.FUSEError) as raised:
        trio.run(Handlers().raises, error)
    return raised.value.errno


def test_a_domain_error_becomes_its_errno_without_an_error_log(caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="webshellfs.fs"):
        assert _errno_of_call(NotFoundError("no such file: N0009/_map.md")) == errno.ENOENT
    assert [r.levelname for r in caplog.records] == ["DEBUG"]


def test_an_unexpected_error_is_logged_with_its_traceback_and_answers_eio(caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="webshellfs.fs"):
        assert _errno_of_call(KeyError("boom")) == errno.EIO
    (record,) = caplog.records
    assert record.levelname == "ERROR"
    assert record.getMessage().startswith("unexpected error in raises(KeyError('boom'),)")
    assert record.exc_info is not None


def test_fuse_errors_pass_through() -> None:
    assert _errno_of_call(pyfuse3.FUSEError(errno.EROFS)) == errno.EROFS
