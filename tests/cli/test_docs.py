"""The project's documents are its own: every reference in the code and the docs points at a
file of this repository (docs/rules.*.md, docs/record.md), every rules § it cites exists in
both languages, and the README's developer layout names every room of bot/."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tracked(*patterns: str) -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


def _sections(path: Path) -> set[str]:
    """The § numbers of a rules file: its headings (``## 3.``, ``### 3.4``), and the numbered
    items of a section (§5.4: item 4 of §5)."""
    found, section = set(), None
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if heading:
            found.add(heading[1])
            section = heading[1] if "." not in heading[1] else section
        item = re.match(r"(\d+)\. ", line)
        if item and section:
            found.add(f"{section}.{item[1]}")
    return found


def test_no_file_cites_documents_that_are_not_in_the_repository() -> None:
    files = [f for f in _tracked("*.py", "*.md", "*.toml") if f != Path(__file__)]
    cited = [
        f"{f.relative_to(ROOT)}: {name}"
        for f in files
        for name in re.findall(r"\b(?:RULES|RECORD|ARCHITECTURE)\.md\b|/work/\S+", f.read_text())
    ]
    assert cited == []
    missing = {
        name
        for f in files
        for name in re.findall(r"\bdocs/[\w.-]+\.md\b", f.read_text())
        if not (ROOT / name).is_file()
    }
    assert missing == set()


def test_every_rules_section_cited_exists_in_both_languages() -> None:
    en, zh = _sections(ROOT / "docs/rules.en.md"), _sections(ROOT / "docs/rules.zh.md")
    assert en == zh
    cited = set()
    for f in _tracked("*.py", "*.md"):
        for refs in re.findall(r"docs/rules\.en\.md ((?:§[\d.]*\d,? ?)+)", f.read_text()):
            cited |= set(re.findall(r"§([\d.]*\d)", refs))
    assert {"2.1", "3.4", "5.4", "8.6", "9"} <= cited
    assert cited - en == set()


def test_the_record_format_has_its_page() -> None:
    page = (ROOT / "docs/record.md").read_text(encoding="utf-8")
    for part in ("gouji-record/1", "gouji-series/1", "gouji replay", "## Card notation"):
        assert part in page


def test_the_readme_layout_names_every_room_of_bot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## For developers") :]
    rooms = [p.name for p in (ROOT / "bot").iterdir() if (p / "__init__.py").is_file()]
    assert sorted(r for r in rooms if f"bot/{r}/" not in layout) == []


def test_the_invite_asks_for_the_permissions_the_hosting_guide_explains() -> None:
    """docs/hosting.md's permission table adds up to the invite URL's integer, and names
    Embed Links only if the bot sends embeds (it sends text with pictures attached)."""
    import discord

    guide = (ROOT / "docs/hosting.md").read_text(encoding="utf-8")
    table = guide[guide.index("| permission | why |") :].split("\n\n")[0]
    rows = re.findall(r"^\| ([A-Z][A-Za-z ]+?) \| ", table, flags=re.MULTILINE)
    names = {"View Channels": "view_channel"}
    wanted = discord.Permissions(
        **{names.get(row, row.lower().replace(" ", "_")): True for row in rows}
    )
    assert f"permissions={wanted.value}" in guide
    sends_embeds = any(
        re.search(r"\bembeds?=", f.read_text()) for f in (ROOT / "bot").rglob("*.py")
    )
    assert ("Embed Links" in rows) == sends_embeds
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ("Embed Links" in readme) == sends_embeds
