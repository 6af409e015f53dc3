"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary directory, started
with ``pg_ctl`` on a unix socket in that directory only (no TCP), stopped and deleted at the
end. PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user
(Debian's package creates it) through ``runuser``.

    python -m tests.pgserver      # a server for trying things by hand; prints its URL

The binaries: ``$GOUJI_PG_BINDIR``, else ``pg_ctl`` on the PATH, else the newest
``/usr/lib/postgresql/*/bin`` (Debian's layout).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

BINDIR_ENV = "GOUJI_PG_BINDIR"
SERVER_USER = "postgres"


def find_bindir() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None if PostgreSQL is missing."""
    candidates = []
    if os.environ.get(BINDIR_ENV):
        candidates.append(Path(os.environ[BINDIR_ENV]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    candidates += debian
    for bindir in candidates:
        if (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file():
            return bindir
    return None


def free_port() -> int:
    """A port number nothing listens on (names the socket file; no TCP is opened)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PgServer:
    """One server in its own temporary directory. :meth:`start`, :meth:`url`, :meth:`stop`."""

    def __init__(self, bindir: Path, *, fsync: bool = False) -> None:
        self.bindir = bindir
        self.fsync = fsync
        self.port = free_port()
        # A short path (a unix socket's must stay under ~100 bytes) that names the process
        # owning the server, so that nobody stops another test run's server by mistake.
        self.root = Path(tempfile.mkdtemp(prefix=f"gouji-pg-{os.getpid()}-", dir="/tmp"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as_root = os.geteuid() == 0
        self.started = False

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._as_root:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}"
            )

    def start(self) -> PgServer:
        """initdb and start; the server is ready when this returns."""
        if self._as_root:
            try:
                user = pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise RuntimeError(
                    f"PostgreSQL will not run as root and there is no {SERVER_USER!r} user to "
                    "run it as: install Debian's postgresql package, or run the tests as a user"
                ) from None
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")  # fmt: skip
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server on its data directory (after :meth:`halt`); ready on return."""
        options = (
            f"-c listen_addresses='' -k {self.root} -p {self.port} -c max_connections=60 "
            f"-c fsync={'on' if self.fsync else 'off'} "
            f"-c full_page_writes={'on' if self.fsync else 'off'}"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")  # fmt: skip
        self.started = True

    def halt(self) -> None:
        """Stop the server (fast shutdown: its connections are cut), keeping its data: a
        database outage, ended by :meth:`resume`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.started = False

    def url(self, database: str = "postgres", schema: str | None = None) -> str:
        """The URL of ``database`` over the socket; with ``schema``, that search_path."""
        url = f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"
        return url + (f"&search_path={schema}" if schema else "")

    def new_schema_url(self, prefix: str = "t") -> str:
        """A fresh, empty schema in the ``postgres`` database, as a URL."""
        schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.psql(f"CREATE SCHEMA {schema}")
        return self.url(schema=schema)

    def psql(self, sql: str) -> str:
        """Run SQL with the ``psql`` client (as the server's superuser); its output."""
        done = subprocess.run(
            [
                str(self.bindir / "psql"),
                "-X",
                "-q",
                "-t",
                "-A",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                str(self.root),
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-c",
                sql,
            ],  # fmt: skip
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode:
            raise RuntimeError(f"psql {sql!r} failed: {done.stderr}")
        return done.stdout

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its directory."""
        try:
            if self.started:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
                self.started = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def main() -> None:
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL binaries found: apt-get install postgresql")
    server = PgServer(bindir, fsync=True).start()
    print(server.url(), flush=True)
    try:
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        server.stop()


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    main()
