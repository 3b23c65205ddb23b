"""How many bot programs run at once, and what each may use (issue 25).

A server that offers bot programs (``preferans serve --bot-program NAME=COMMAND``)
starts one process per program seat.  :class:`ProgramSlots` counts the programs
running under one server and refuses a start beyond its cap; :class:`ProgramLimits`
are the resource limits each program gets in its own process before it runs
(``RLIMIT_AS``: its address space, ``RLIMIT_CPU``: its CPU seconds).  A program
that breaks a limit dies by it, and the table treats that like any program that
breaks the protocol: the medium bot plays on in its seat, and the players are told.

>>> slots = ProgramSlots(2, ProgramLimits(memory_mb=512, cpu_seconds=60))
>>> slots.acquire(), slots.acquire(), slots.acquire(), slots.running
(True, True, False, 2)
>>> slots.release(); slots.free
1
>>> slots.limits.describe()
'512 MB of memory, 60 s of CPU time'
"""

from __future__ import annotations

import signal
import sys
import threading
from dataclasses import dataclass

__all__ = ["ProgramLimits", "ProgramSlots", "exit_reason"]

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ProgramLimits:
    """The limits of one bot program's process; 0 means none.

    ``memory_mb`` is its address space (``RLIMIT_AS``), which is more than the memory it
    really uses: node reserves about 1 GB before it reads a line, a JVM more.
    ``cpu_seconds`` is the processor time it may use in all, for the whole game
    (``RLIMIT_CPU``: the kernel ends it with ``SIGXCPU``).
    """

    memory_mb: int = 2048
    cpu_seconds: int = 1800

    def describe(self) -> str:
        """The limits in words, for the players' notice and the operator's log."""
        parts = [f"{self.memory_mb} MB of memory" if self.memory_mb else "",
                 f"{self.cpu_seconds} s of CPU time" if self.cpu_seconds else ""]  # fmt: skip
        return ", ".join(p for p in parts if p) or "no limits"

    def wrap(self, command: list[str]) -> list[str]:
        """The command line that runs ``command`` under these limits.

        A small Python process sets the limits on itself and execs the program, which
        keeps them (and the process id).  Not ``preexec_fn``: Python code run between fork
        and exec may deadlock in a process with threads, as the server is.

        >>> ProgramLimits(0, 0).wrap(["./mybot"])
        ['./mybot']
        >>> ProgramLimits(256, 60).wrap(["./mybot", "-x"])[-4:]
        ['268435456', '60', './mybot', '-x']
        """
        if not (self.memory_mb or self.cpu_seconds):
            return list(command)
        return [sys.executable, "-c", _LIMITED, str(self.memory_mb * MB), str(self.cpu_seconds), *command]


# Run by ``sys.executable -c`` (ProgramLimits.wrap): the limits, then the program in this process.
# RLIMIT_CPU's soft limit sends SIGXCPU (its default action ends the process); the hard one, a second
# later, SIGKILL for a program that catches SIGXCPU.
_LIMITED = """\
import os, resource, sys
memory, cpu = int(sys.argv[1]), int(sys.argv[2])
if memory:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
if cpu:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
os.execvp(sys.argv[3], sys.argv[3:])
"""


class ProgramSlots:
    """At most ``cap`` bot programs running at once (0: no cap), each under ``limits``.

    A program takes a slot when its process starts and gives it back when the process
    has ended and been waited for (:class:`~preferans.bots.protocol.SubprocessBot`).
    Thread-safe: tables start and end their programs in the server's threads.
    """

    def __init__(self, cap: int = 16, limits: ProgramLimits | None = None) -> None:
        if cap < 0:
            raise ValueError(f"max bot programs: 0 (no cap) or more, not {cap}")
        self.cap = cap
        self.limits = limits or ProgramLimits()
        self.running = 0
        self._lock = threading.Lock()

    @property
    def free(self) -> int | None:
        """Programs that may still start (``None``: no cap)."""
        return None if not self.cap else max(0, self.cap - self.running)

    def acquire(self) -> bool:
        """Take a slot for a program about to start; false when all are taken."""
        with self._lock:
            if self.cap and self.running >= self.cap:
                return False
            self.running += 1
            return True

    def release(self) -> None:
        """Give back the slot of a program that has ended."""
        with self._lock:
            self.running = max(0, self.running - 1)


def exit_reason(code: int | None, limits: ProgramLimits | None) -> str:
    """Why a program ended, as far as its exit code tells.

    >>> exit_reason(-int(signal.SIGXCPU), ProgramLimits(cpu_seconds=5))
    'used up its 5 s of CPU time'
    >>> exit_reason(1, ProgramLimits(memory_mb=256, cpu_seconds=0))
    'exited (code 1; its limits: 256 MB of memory)'
    >>> exit_reason(1, None)
    'exited (code 1)'
    """
    if limits is not None and limits.cpu_seconds and code in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"used up its {limits.cpu_seconds} s of CPU time"
    if limits is not None and (limits.memory_mb or limits.cpu_seconds):
        return f"exited (code {code}; its limits: {limits.describe()})"
    return f"exited (code {code})"
