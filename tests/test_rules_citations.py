"""The rules the code cites are in the repository (issue 39 point 1): every citation of a rule in a tracked text file
(code, tests, manifests, maps, docs) names a section of ``docs/rules/samurai.md`` or ``docs/rules/daimyo.md`` that
exists, and nothing points at rules outside the repository (the product owner's notes a clone does not have, or the
numbered source texts they were written from)."""

from __future__ import annotations

import posixpath
import re
import subprocess
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest

from helpers import ROOT, markdown_anchors

RULES_FOLDER = "docs/rules"
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()
"""This test, whose examples of what is wrong are not citations."""

CITATION = re.compile(r"docs/rules/([\w-]+\.md)(?:#([\w-]+))?")
"""A citation written from the top of the repository, the one form code, tests and manifests use."""

MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
"""A Markdown link's target: a rules page may be linked relative to the page that links it."""

OUTSIDE = {
    "a path outside the repository": re.compile(r"\.\./shared\b|\bshared/RULES"),
    "a rules file the repository does not have": re.compile(r"\bRULES(?:-DAIMYO)?\.md\b"),
    "a numbered source text": re.compile(r"\bseeds? 0\d\d\b"),
    "a section sign (a source's section number)": re.compile(r"§\s*\d"),
}
"""What points at rules a clone does not have, by what it is."""


def tracked_texts() -> dict[str, str]:
    """Every file git tracks that reads as text, by its path from the top of the repository."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    texts = {}
    for name in listed.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a picture or another binary file
    return texts


def rules_pages(texts: Mapping[str, str]) -> dict[str, list[str]]:
    """The rules pages among ``texts`` with their anchors, by path."""
    return {name: markdown_anchors(text) for name, text in texts.items()
            if posixpath.dirname(name) == RULES_FOLDER and name.endswith(".md")}


def citation_problems(name: str, text: str, pages: Mapping[str, list[str]]) -> list[str]:
    """What is wrong with the citations in the file ``name`` reading ``text``, one line each, by line number."""
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{name}:{number}"
        for what, pattern in OUTSIDE.items():
            for found in pattern.finditer(line):
                problems.append(f"{where}: {found.group(0)!r} is {what}: cite a section of {RULES_FOLDER} instead")
        cited = [(f"{RULES_FOLDER}/{page}", anchor) for page, anchor in CITATION.findall(line)]
        if name.endswith(".md"):
            for target in MARKDOWN_LINK.findall(line):
                path, _, anchor = target.partition("#")
                if re.match(r"\w+:", path):
                    continue  # a web address
                page = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
                if posixpath.dirname(page) == RULES_FOLDER:
                    cited.append((page, anchor))
        for page, anchor in dict.fromkeys(cited):  # a Markdown link written from the top is found twice
            if page not in pages:
                problems.append(f"{where}: {page} is not a rules page")
            elif anchor and anchor not in pages[page]:
                problems.append(f"{where}: {page} has no section #{anchor}")
    return problems


def test_every_citation_of_the_rules_names_a_section_that_exists_and_none_points_outside():
    texts = tracked_texts()
    pages = rules_pages(texts)
    assert set(pages) >= {f"{RULES_FOLDER}/samurai.md", f"{RULES_FOLDER}/daimyo.md"}
    problems = [problem for name, text in sorted(texts.items()) if name != THIS_FILE
                for problem in citation_problems(name, text, pages)]
    assert problems == []
    cited = sum(len(CITATION.findall(text)) for text in texts.values())
    assert cited > 150, "the code, tests and manifests cite their rules"


@pytest.mark.parametrize("page", ["samurai.md", "daimyo.md"])
def test_a_rules_pages_anchors_are_unique(page):
    """One place per anchor: an explicit anchor never repeats, nor takes a heading's id."""
    anchors = Counter(markdown_anchors((ROOT / RULES_FOLDER / page).read_text()))
    assert [anchor for anchor, count in anchors.items() if count > 1] == []


PAGE = f"{RULES_FOLDER}/samurai.md"
PAGES = {PAGE: ["end-check", "the-end"]}


@pytest.mark.parametrize(("text", "problem"), [
    (f"# ({PAGE}#no-such-section)", f"x.py:1: {PAGE} has no section #no-such-section"),
    (f"# ({RULES_FOLDER}/chess.md#end)", f"x.py:1: {RULES_FOLDER}/chess.md is not a rules page"),
    ("# Rules: ../" + "shared/x", "x.py:1: '../shared' is a path outside the repository: cite a section of docs/rules "
                                  "instead"),
    ('"""RULES' + '-DAIMYO.md "End"."""', "x.py:1: 'RULES-DAIMYO.md' is a rules file the repository does not have: "
                                          "cite a section of docs/rules instead"),
    ("# seed " + "000, " + "§" + "7", "x.py:1: 'seed 000' is a numbered source text: cite a section of docs/rules "
                                      "instead"),
])
def test_a_dangling_or_outside_citation_is_found(text, problem):
    assert problem in citation_problems("x.py", text, PAGES)


def test_a_markdown_link_into_the_rules_is_resolved_from_the_page_that_links_it():
    assert citation_problems("docs/guide.md", "[the end](rules/samurai.md#the-end)", PAGES) == []
    assert citation_problems("docs/rules/samurai.md", "[the end](#the-end)", PAGES) == []
    assert citation_problems("docs/rules/samurai.md", "[lost](#lost)", PAGES) == [f"docs/rules/samurai.md:1: {PAGE} "
                                                                                   "has no section #lost"]
    assert citation_problems("README.md", "[x](docs/rules/samurai.md#gone)", PAGES) == [f"README.md:1: {PAGE} has "
                                                                                         "no section #gone"]
    assert citation_problems("README.md", "[site](https://example.org/docs/rules/#x)", PAGES) == []
