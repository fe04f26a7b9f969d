"""Every source module has its tests: a test module of the same name, or one named here.

A new module without either fails this test, so nothing lands untested by
accident; the map says where each module's behaviour is exercised.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "lokulmem"
TESTS = ROOT / "tests"

#: Modules tested through another test module (path under src/lokulmem → tests path).
COVERED_BY = {
    "_engine/args.py": "test_client.py",
    "_engine/audit.py": "test_retrieval.py",
    "_engine/backups.py": "test_backup.py",
    "_engine/build.py": "test_client.py",
    "_engine/candidates.py": "test_contradiction.py",
    "_engine/compacting.py": "test_compaction.py",
    "_engine/engine.py": "test_client.py",
    "_engine/episodic.py": "test_episodes.py",
    "_engine/examples.py": "retrieval/test_topics.py",
    "_engine/indexing.py": "test_routed.py",
    "_engine/learning.py": "test_client.py",
    "_engine/pool.py": "test_retrieval.py",
    "_engine/recall.py": "test_retrieval.py",
    "_engine/stats.py": "test_manage.py",
    "_engine/threads.py": "test_client.py",
    "_engine/world.py": "engine/test_sentence.py",
    "analytics.py": "test_manage.py",
    "cli/__main__.py": "cli/test_cli_commands.py",
    "cli/common.py": "cli/test_cli_commands.py",
    "cli/conversation.py": "cli/test_cli_commands.py",
    "cli/demo.py": "cli/test_cli_demo.py",
    "cli/doctor.py": "cli/test_cli_doctor.py",
    "cli/memories.py": "cli/test_cli_commands.py",
    "cli/serve.py": "test_mcp_server.py",
    "cli/store.py": "cli/test_cli_commands.py",
    "clock.py": "test_decay.py",
    "panel/api.py": "panel/test_panel_browser.py",
    "panel/pages.py": "panel/test_panel_browser.py",
    "panel/security.py": "panel/test_panel_security.py",
    "config/options.py": "test_config.py",
    "config/parts.py": "test_config.py",
    "embedding/cache.py": "test_embedding.py",
    "embedding/minilm.py": "test_embedding.py",
    "embedding/protocol.py": "test_storage.py",
    "errors.py": "test_public_api.py",
    "events.py": "test_manage.py",
    "extraction/attribute_fragments.py": "extraction/test_attributes.py",
    "extraction/attribute_patterns.py": "extraction/test_attributes.py",
    "extraction/attribute_patterns_life.py": "extraction/test_attributes.py",
    "extraction/attribute_patterns_services.py": "extraction/test_attributes.py",
    "extraction/attribute_patterns_daily.py": "extraction/test_attributes.py",
    "extraction/attribute_patterns_study.py": "extraction/test_attributes.py",
    "extraction/attribute_rules.py": "extraction/test_attributes.py",
    "extraction/lexicon.py": "extraction/test_classify.py",
    "extraction/quality.py": "test_transfer.py",
    "extraction/valence.py": "extraction/test_analysis.py",
    "index/brute.py": "test_index.py",
    "index/hnsw.py": "test_routed.py",
    "maintenance.py": "test_lifecycle.py",
    "manage/_base.py": "test_manage.py",
    "manage/import_export.py": "test_transfer.py",
    "manage/import_pack.py": "test_transfer.py",
    "manage/importing.py": "test_transfer.py",
    "manage/manager.py": "test_async.py",
    "manage/merging.py": "test_manage.py",
    "manage/mutations.py": "test_manage.py",
    "manage/queries.py": "test_manage.py",
    "storage/keys.py": "test_encryption.py",
    "storage/location.py": "test_hygiene.py",
    "storage/sealing.py": "test_encryption.py",
    "storage/sqlite_backup.py": "test_backup.py",
    "storage/sqlite_stream.py": "test_streaming.py",
    "storage/sqlite_crypto.py": "test_encryption.py",
    "storage/sqlite_fts.py": "test_encryption.py",
    "records/memory.py": "test_storage.py",
    "records/panel.py": "test_manage.py",
    "records/recall.py": "test_retrieval.py",
    "records/results.py": "test_retrieval.py",
    "retrieval/selection.py": "retrieval/test_stages.py",
    "retrieval/budget.py": "test_retrieval.py",
    "retrieval/injection.py": "test_retrieval.py",
    "retrieval/query.py": "test_retrieval.py",
    "retrieval/scoring.py": "retrieval/test_stages.py",
    "storage/migrations.py": "test_storage.py",
    "storage/protocol.py": "test_storage.py",
    "storage/pg_base.py": "storage/test_contract.py",
    "storage/pg_graph.py": "storage/test_contract.py",
    "storage/pg_queries.py": "storage/test_contract.py",
    "storage/pg_rows.py": "storage/test_contract.py",
    "storage/pg_schema.py": "storage/test_postgres.py",
    "storage/leases.py": "storage/test_contract.py",
    "storage/sqlite.py": "test_storage.py",
    "storage/sqlite_base.py": "test_storage.py",
    "storage/sqlite_graph.py": "test_transfer.py",
    "storage/sqlite_queries.py": "test_storage.py",
    "storage/sqlite_rows.py": "test_storage.py",
    "transfer/reading.py": "test_transfer.py",
    "transfer/writing.py": "test_transfer.py",
}


def test_every_module_has_its_tests() -> None:
    named = {p.stem for p in TESTS.rglob("test_*.py")}
    missing = []
    for path in sorted(SOURCE.rglob("*.py")):
        rel = path.relative_to(SOURCE).as_posix()
        if path.name == "__init__.py" or f"test_{path.stem.lstrip('_')}" in named:
            continue
        if rel not in COVERED_BY:
            missing.append(rel)
    assert not missing, f"modules with no test module of their name and none in COVERED_BY: {missing}"


def test_the_map_names_real_files() -> None:
    for module, test in COVERED_BY.items():
        assert (SOURCE / module).exists(), f"COVERED_BY names a module that is gone: {module}"
        assert (TESTS / test).exists(), f"COVERED_BY names a test module that is gone: {test}"
