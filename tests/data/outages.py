"""Database outages on demand, for the tests and ``bench.outages``: another process's write
lock on a SQLite file (busy), a full disk (a small tmpfs filled to its last byte, or — where
none can be mounted — a store whose writes fail as on a full disk), and PostgreSQL stopped and
started (:meth:`tests.pgserver.PgServer.halt` / ``resume``)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

from data import Store


class NoTmpfs(RuntimeError):
    """No tmpfs can be mounted here (not root, or no CAP_SYS_ADMIN)."""


class WriteLock:
    """Another process's write transaction on a SQLite file, held until :meth:`release`:
    the store's writes wait their busy timeout and then fail ("database is locked"); reads
    go on (WAL). Take it with ``await WriteLock.take(path)``: it waits (in a thread) for a
    transaction the store may be in the middle of, which needs the event loop to finish."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("BEGIN IMMEDIATE")

    @classmethod
    async def take(cls, path: Path) -> WriteLock:
        return await asyncio.to_thread(cls, path)

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


@contextlib.contextmanager
def small_disk(where: Path) -> Iterator[Path]:
    """A 16 MB tmpfs mounted at ``where`` (root only), unmounted after."""
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)], capture_output=True
    )
    if done.returncode:
        raise NoTmpfs(f"cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN): {done.stderr!r}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill_disk(disk: Path) -> Path:
    """Fill the disk to its last byte; the file that does it (delete it to end the outage)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 4096, 512, 1):  # then the last partial blocks
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    try:
        (disk / "probe").write_bytes(b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    else:
        raise AssertionError(f"{disk} is not full")
    return filler


class FullDisk:
    """Writes of a SQLite store fail as on a full disk ("database or disk is full") while
    ``full`` is set: the store's connection is wrapped, reads pass. For machines where no
    tmpfs can be mounted."""

    WRITES = ("INSERT", "UPDATE", "DELETE", "BEGIN", "REPLACE")

    def __init__(self, store: Store) -> None:
        db = store._db
        self.real = db._conn  # type: ignore[attr-defined]
        self.full = False
        outage = self

        class Connection:
            def __getattr__(self, name: str):
                return getattr(outage.real, name)

            async def execute(self, sql: str, *args):
                outage.check(sql)
                return await outage.real.execute(sql, *args)

            async def execute_fetchall(self, sql: str, *args):
                outage.check(sql)
                return await outage.real.execute_fetchall(sql, *args)

            async def executemany(self, sql: str, *args):
                outage.check(sql)
                return await outage.real.executemany(sql, *args)

        db._conn = Connection()  # type: ignore[attr-defined]

    def check(self, sql: str) -> None:
        if self.full and sql.lstrip().upper().startswith(self.WRITES):
            raise sqlite3.OperationalError("database or disk is full")
