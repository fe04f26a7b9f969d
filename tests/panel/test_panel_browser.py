"""The panel end to end in a real headless Chromium (Debian's ``chromium``, driven by
Playwright through its ``executable_path``): load, search, pin, edit, delete, bulk,
lineage, preview, stats, import, live updates.  Screenshots go to the artifacts dir.

Skipped when no Chromium is installed, unless ``LOKULMEM_REQUIRE_BROWSER=1``
(``.ci/run`` installs Chromium and sets it, so CI fails instead of skipping).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from panel_support import Panel

from lokulmem import LokulMem
from lokulmem.records import SCORE_PARTS

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("LOKULMEM_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    if os.environ.get("LOKULMEM_REQUIRE_BROWSER") == "1":
        raise RuntimeError("LOKULMEM_REQUIRE_BROWSER=1 but no chromium on PATH (apt-get install chromium)")
    pytest.skip("no chromium on this machine", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, panel: Panel) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    yield tab
    context.close()


def row(page: Any, text: str) -> Any:
    return page.locator(".memory", has_text=text)


def ids(memory: LokulMem, **query: Any) -> dict[str, str]:
    return {m.content: m.id for m in memory.manage().list(**query)}


def test_load_search_and_lineage(page: Any, panel: Panel, artifacts: Path) -> None:
    page.goto(panel.url)
    assert page.locator(".memory").count() == 5
    assert page.locator('.group[data-group="location"] .memory').count() == 2
    page.screenshot(path=str(artifacts / "memories.png"), full_page=True)

    page.fill("#q", "Lisbon")
    page.click("form.search button")
    page.wait_for_url("**q=Lisbon**")
    assert page.locator(".memory .content").all_inner_texts() == [
        "User used to live in Berlin, but now User lives in Lisbon."
    ]
    page.fill("#q", "what is my job")
    page.check('input[name="mode"]')
    page.click("form.search button")
    page.wait_for_url("**mode=semantic**")
    assert page.locator(".memory .content").first.inner_text().startswith("User works at Acme Corp")

    page.goto(panel.url)
    page.click("text=User lives in Berlin.")
    assert "replaced by" in page.locator(".lineage table").inner_text()
    assert page.locator(".history li").count() == 2
    page.screenshot(path=str(artifacts / "lineage.png"), full_page=True)


def test_pin_edit_delete_and_bulk_archive(page: Any, panel: Panel, artifacts: Path) -> None:
    page.goto(panel.url)
    row(page, "Acme Corp").get_by_role("button", name="Pin").click()
    page.locator('.group[data-group="pinned"] .memory', has_text="Acme Corp").wait_for()
    assert "User works at Acme Corp as a product manager." in ids(panel.memory, pinned=True)

    page.once("dialog", lambda dialog: dialog.accept("User works at Bosch as a product manager."))
    row(page, "Acme Corp").get_by_role("button", name="Edit").click()
    row(page, "Bosch").wait_for()
    assert "User works at Bosch as a product manager." in ids(panel.memory)

    page.once("dialog", lambda dialog: dialog.accept())
    row(page, "sister Maya").get_by_role("button", name="Delete").click()
    row(page, "sister Maya").wait_for(state="detached")
    assert not any("Maya" in c for c in ids(panel.memory))

    row(page, "dark mode").locator(".select").check()
    row(page, "Bosch").locator(".select").check()
    page.click('button[data-bulk="archive"]')
    page.locator("#message", has_text="archive 2 of 2").wait_for()
    assert set(ids(panel.memory, status="archived")) == {
        "User prefers dark mode in every editor.",
        "User works at Bosch as a product manager.",
    }
    page.screenshot(path=str(artifacts / "after-actions.png"), full_page=True)


def test_preview_shows_score_bars_and_nothing_for_an_unrelated_question(
    page: Any, panel: Panel, artifacts: Path
) -> None:
    before = {m.id: m.mention_count for m in panel.memory.manage().list()}
    page.goto(panel.url)
    page.click("text=Injection preview")
    page.fill("#preview-message", "Where do I live?")
    page.click("form.search button")
    page.locator("#summary").wait_for()
    assert page.locator(".card").first.locator("h2").inner_text().startswith("#1 User used to live in Berlin")
    widths = (
        page.locator(".card")
        .first.locator(".part td.bar span")
        .evaluate_all("spans => spans.map(s => s.getBoundingClientRect().width)")
    )
    assert len(widths) == len(SCORE_PARTS) and max(widths) > 0  # a bar per score component, some drawn
    assert "[Memory Context" in page.locator("#block").inner_text()
    page.screenshot(path=str(artifacts / "preview.png"), full_page=True)
    page.fill("#preview-message", "How do volcanoes form?")
    page.click("form.search button")
    assert "nothing would be injected" in page.locator("#summary").inner_text()
    assert {m.id: m.mention_count for m in panel.memory.manage().list()} == before  # nothing reinforced


def test_stats_timeline_and_a_refused_import(
    page: Any, panel: Panel, artifacts: Path, tmp_path: Path
) -> None:
    page.goto(panel.url)
    page.click("text=Stats")
    page.locator("svg.chart").nth(2).wait_for()  # the page draws its charts after it fetches the stats
    assert page.locator("svg.chart").count() == 3
    assert "Search: exact over 5 vectors" in page.locator("#search-index").inner_text()
    page.screenshot(path=str(artifacts / "stats.png"), full_page=True)
    page.click("text=Timeline")
    assert page.locator(".day").count() == 5  # one a day, five days
    page.click("text=Memories")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "lokulmem-export", "version": "1", "memories": [{"id": 1}]}')
    before = ids(panel.memory)
    page.set_input_files("#import", str(bad))
    message = page.locator("#message.error")
    message.wait_for()
    assert "ImportFormatError" in message.inner_text() and "nothing changed" in message.inner_text()
    assert ids(panel.memory) == before


def test_live_updates_from_another_process_connection(page: Any, panel: Panel, embedder: Any) -> None:
    page.goto(panel.url)
    assert page.locator(".memory").count() == 5
    with LokulMem(path=panel.path, embedder=embedder, executor="inline") as other:  # its own connection
        other.learn("I have a cat named Miso.")
    row(page, "Miso").wait_for()  # pushed by the event stream, no reload
    assert page.locator("#live").inner_text() == "store changed elsewhere"


def test_without_the_token_the_browser_gets_401(browser: Any, panel: Panel) -> None:
    context = browser.new_context()
    response = context.new_page().goto(panel.base + "/")
    assert response is not None and response.status == 401
    context.close()
