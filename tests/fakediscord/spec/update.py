"""Vendor Discord's OpenAPI description anew: ``specs/openapi.json`` and ``LICENSE`` of
discord/discord-api-spec (MIT), at a commit, beside this file, with ``source.json`` naming
the commit and the file's SHA-256 (tests/fakediscord/test_openapi.py checks the two agree).

    python tests/fakediscord/spec/update.py                  # the newest commit on GitHub
    python tests/fakediscord/spec/update.py --commit SHA     # that commit
    python tests/fakediscord/spec/update.py --git-dir DIR    # from a local clone (HEAD or --commit)

Then run ``pytest tests/fakediscord tests/e2e``: the fake validates every request against
the new spec, and ``test_known_differences_are_still_needed`` says which entries of
``tests.fakediscord.openapi.DIFFERENCES`` the new spec has made unnecessary (remove them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOSITORY = "discord/discord-api-spec"
SPEC_PATH = "specs/openapi.json"
FILES = {SPEC_PATH: "openapi.json", "LICENSE": "LICENSE"}


def _get(url: str) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "gouji-spec-update"})
    with urllib.request.urlopen(request, timeout=60) as response:
        data: bytes = response.read()
    return data


def from_github(commit: str | None) -> tuple[str, str, dict[str, bytes]]:
    """(commit, its date, {repository path: bytes}) from GitHub."""
    ref = commit or "main"
    info = json.loads(_get(f"https://api.github.com/repos/{REPOSITORY}/commits/{ref}"))
    sha, date = info["sha"], info["commit"]["committer"]["date"]
    raw = f"https://raw.githubusercontent.com/{REPOSITORY}/{sha}/"
    return sha, date, {path: _get(raw + path) for path in FILES}


def from_git(git_dir: str, commit: str | None) -> tuple[str, str, dict[str, bytes]]:
    """The same from a local clone (or bare mirror) of the repository."""

    def git(*args: str) -> bytes:
        return subprocess.run(["git", "-C", git_dir, *args], check=True, capture_output=True).stdout

    sha = git("rev-parse", f"{commit or 'HEAD'}^{{commit}}").decode().strip()
    date = git("log", "-1", "--format=%cI", sha).decode().strip()
    return sha, date, {path: git("show", f"{sha}:{path}") for path in FILES}


def write(sha: str, date: str, files: dict[str, bytes]) -> None:
    """Write the files and source.json beside this script."""
    json.loads(files[SPEC_PATH])  # refuse to vendor something that is not JSON
    for path, name in FILES.items():
        (HERE / name).write_bytes(files[path])
    source = {
        "repository": REPOSITORY,
        "path": SPEC_PATH,
        "commit": sha,
        "committed": date,
        "sha256": hashlib.sha256(files[SPEC_PATH]).hexdigest(),
        "licence": "MIT (LICENSE beside this file)",
    }
    (HERE / "source.json").write_text(json.dumps(source, indent=2) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", help="a commit of discord/discord-api-spec (default: newest)")
    parser.add_argument("--git-dir", help="read from this local clone instead of GitHub")
    args = parser.parse_args(argv)
    if args.git_dir:
        sha, date, files = from_git(args.git_dir, args.commit)
    else:
        sha, date, files = from_github(args.commit)
    write(sha, date, files)
    print(f"vendored {REPOSITORY}@{sha} ({date}): {len(files[SPEC_PATH]):,} bytes")


if __name__ == "__main__":
    main()
