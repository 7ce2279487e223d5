"""Rules people can read (issue 24 point 2): docs/rules/samurai.md and docs/rules/daimyo.md, their pictures drawn by
the renderer from records the repository ships, every edition option's description pointing at a section that
exists, and every option a rules page names being one the edition has."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from samurai.catalog.editions import available_editions, load_edition
from samurai.cli import main

from helpers import markdown_anchors

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
PAGES = {"samurai": ("ffg2015", "original", "ffg2015-beginner"), "daimyo": ("daimyo", "daimyo-shinobi",
                                                                           "daimyo-nobori")}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_rules_page_marks_its_rulings_and_links_only_what_exists(page):
    text = (RULES / f"{page}.md").read_text()
    assert text.count("**Ruling") >= 3, "each ruling is marked"
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        assert (RULES / target).exists(), target
    for anchor in re.findall(r"\]\(#([^)]+)\)", text):
        assert anchor in markdown_anchors(text), anchor


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_pictures_are_the_renderers_drawings_of_shipped_records(page, tmp_path, monkeypatch, capsys):
    """Each picture's caption is followed by a note for designers giving the command that draws it: run again, it
    draws the same picture."""
    text = (RULES / f"{page}.md").read_text()
    pictures = re.findall(r"!\[[^\]]*\]\((pictures/[^)]+\.svg)\)\s*\n\s*\n\*[^*]+\*\s*\n\s*\n"
                          r"> \*\*Designers:\*\* drawn by `(samurai\s+render\s[^`]+)`", text)
    assert pictures, "a rules page shows the game as the renderer draws it"
    monkeypatch.chdir(ROOT)
    for number, (picture, command) in enumerate(pictures):
        drawn = tmp_path / f"drawn-{number}.svg"
        assert main([*shlex.split(command)[1:], "-o", str(drawn)]) == 0
        assert drawn.read_bytes() == (RULES / picture).read_bytes(), picture
    capsys.readouterr()


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_option_description_points_at_a_section_of_its_rules(page):
    anchors = markdown_anchors((RULES / f"{page}.md").read_text())
    for ident in PAGES[page]:
        assert ident in available_editions()
        for option in load_edition(ident).manifest.options.values():
            assert "seed 0" not in option.description, (ident, option.name)
            linked = re.findall(rf"docs/rules/{page}\.md#([\w-]+)", option.description)
            assert linked and all(anchor in anchors for anchor in linked), (ident, option.name, option.description)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_option_a_rules_page_names_is_one_its_editions_have(page):
    text = (RULES / f"{page}.md").read_text()
    named = set(re.findall(r"[Oo]ption `(\w+)", text))
    assert named
    offered = {name for ident in PAGES[page] for name in load_edition(ident).manifest.options}
    assert named <= offered, named - offered
