"""The README and the pages of docs/ hold together: every link between them (and to any other
file of the repository) leads to a file that exists, and every ``#anchor`` to a heading there;
the README stays short and links every page; each page opens with its summary and a table of
contents that lists its sections."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
# Every Markdown page a reader reaches from the README.
CHECKED = [README, *PAGES, ROOT / "games" / "rules" / "README.md", ROOT / "bench" / "README.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def prose(path: Path) -> str:
    """The page without its fenced code blocks (a shell's ``$(...)`` is no link)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces to
    hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: Counter[str] = Counter()
    for line in prose(path).splitlines():
        heading = re.match(r"^#{1,6} (.+)$", line)
        if heading:
            name = anchor(heading.group(1))
            found.add(name if not seen[name] else f"{name}-{seen[name]}")
            seen[name] += 1
    return found


def test_anchors_are_githubs() -> None:
    assert anchor("Timers: the auto-confirm and the turn clock") == (
        "timers-the-auto-confirm-and-the-turn-clock"
    )
    assert anchor("What is rated, and why it cannot be bought") == (
        "what-is-rated-and-why-it-cannot-be-bought"
    )
    assert anchor("The pages: CSP and other headers") == "the-pages-csp-and-other-headers"


@pytest.mark.parametrize("page", CHECKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        inside = dest.exists() and ROOT in dest.parents
        if not inside or (fragment and dest.suffix == ".md" and fragment not in anchors(dest)):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


@pytest.mark.parametrize("page", CHECKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_names_a_path_outside_the_repository(page: Path) -> None:
    # A clone has only the repository: the design notes beside it are not there.
    text = page.read_text(encoding="utf-8")
    assert "/work/" not in text and "shared/" not in text


def test_the_readme_is_short_and_links_every_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    linked = {target.partition("#")[0] for target in LINK.findall(prose(README))}
    assert {f"docs/{page.name}" for page in PAGES} <= linked
    assert {"LICENSE", "CHANGELOG.md"} <= linked


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_opens_with_a_summary_and_its_contents(page: Path) -> None:
    text = prose(page)
    title, _, rest = text.partition("\n\n")
    assert re.match(r"^# \S", title), "a page starts with its title"
    before_sections = rest.split("\n## ", 1)[0]
    assert not before_sections.lstrip().startswith("- "), "a summary before the contents"
    contents = {target[1:] for target in LINK.findall(before_sections) if target.startswith("#")}
    sections = {anchor(h) for h in re.findall(r"^## (.+)$", text, re.M)}
    assert sections and sections <= contents, f"the contents lack {sorted(sections - contents)}"
