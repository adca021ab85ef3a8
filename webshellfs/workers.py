"""Compiling in worker processes, so nothing the compiler does can stall or sink the daemon.

Compiling a big page holds the GIL for seconds at a time. In a thread of the daemon that
starves the one thread answering FUSE requests (a `cat` of a stored page waited up to a second
behind a million-cell table), a compile past its deadline can only be abandoned, still running,
and a page that makes lxml take gigabytes takes them from the daemon. In a worker process the
daemon's thread stays free, a compile past its deadline is killed, and a compile that runs out
of memory or crashes takes only its worker with it.

trio-parallel keeps the workers and hands them jobs. Each worker caps its own address space
(WORKER_ADDRESS_SPACE) and is retired after a job that left it large (WORKER_RETIRE_RSS), so
the memory a huge page needed goes back to the system.
"""

from __future__ import annotations

import functools
import math
import resource

import trio
import trio_parallel

from webshellfs.compiler import PriorActions, compile_page
from webshellfs.contract.records import CompiledPage
from webshellfs.errors import CompileError

__all__ = ["WORKER_ADDRESS_SPACE", "compile_in_worker", "configure_workers", "warm_up"]

# A 50 MiB body (the fetch cap) compiles in well under 1 GiB; past this the compile fails with
# MemoryError inside the worker instead of pushing the machine into swap or the OOM killer.
WORKER_ADDRESS_SPACE = 4 * 1024**3
WORKER_RETIRE_RSS = 256 * 1024**2


def _limit_address_space() -> bool:
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_ADDRESS_SPACE, WORKER_ADDRESS_SPACE))
    return True


def _grown_large() -> bool:
    with open("/proc/self/statm", encoding="ascii") as statm:
        resident_pages = int(statm.read().split()[1])
    return resident_pages * resource.getpagesize() > WORKER_RETIRE_RSS


def configure_workers() -> None:
    """Set the workers' limits for this process. Call once, from the main thread, before the
    first compile (the daemon does it at mount); without it, workers simply have no limits."""
    trio_parallel.configure_default_context(
        idle_timeout=math.inf,  # a warm worker saves the next open its start-up
        init=_limit_address_space,
        retire=_grown_large,
    )


def _ready() -> bool:
    return True  # importing this module in the worker has loaded the compiler


async def warm_up() -> None:
    """Start a worker with the compiler loaded, so the first `open` does not wait for it."""
    await trio_parallel.run_sync(_ready)


async def compile_in_worker(
    body: bytes,
    url: str,
    content_type: str,
    limiter: trio.CapacityLimiter,
    prior: PriorActions | None = None,
) -> CompiledPage:
    """compile_page in a worker process; killed if the caller is cancelled (its deadline).
    Raises CompileError when the worker ran out of memory or died."""
    job = functools.partial(compile_page, content_type=content_type, prior=prior)
    try:
        return await trio_parallel.run_sync(job, body, url, kill_on_cancel=True, limiter=limiter)
    except MemoryError:
        raise CompileError(
            f"compiling {url} needed more memory than a compile may take "
            f"({WORKER_ADDRESS_SPACE // 1024**3} GiB of address space); nothing was stored"
        ) from None
    except trio_parallel.BrokenWorkerError as error:
        raise CompileError(
            f"the compiler process died while compiling {url} ({error}); nothing was stored"
        ) from None
