"""Encryption at rest: the sealing format, the encrypted store, passphrases and kept keys."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lokulmem import (
    ConfigError,
    EncryptionError,
    LokulMem,
    PassphraseRequiredError,
    StorageError,
    ValidationError,
    WrongPassphraseError,
)
from lokulmem.storage import keys
from lokulmem.storage.sealing import PLAIN, AESSealer, EncryptionHeader, derive_key

#: The fewest iterations allowed: keeps each open at about 0.02 s in tests.
FAST = 100_000
PASS = "correct horse battery staple"
#: Words of what the store is told below; none may appear in its files.
SECRETS = (b"Berlin", b"pianist", b"Maya", b"espresso", b"Lisbon", b"Porto", b"cello", b"orchestra")


# -- the format ---------------------------------------------------------------------


def test_a_sealed_field_opens_only_where_it_was_sealed() -> None:
    sealer = AESSealer(bytes(range(32)))
    token = sealer.seal("User lives in Berlin.", "memories.content:m1")
    assert token.startswith("lm1:") and "Berlin" not in token
    assert sealer.seal("User lives in Berlin.", "memories.content:m1") != token  # a new nonce each time
    assert sealer.open(token, "memories.content:m1") == "User lives in Berlin."
    for where in ("memories.content:m2", "memories.source_text:m1"):
        with pytest.raises(StorageError, match="does not authenticate"):
            sealer.open(token, where)
    with pytest.raises(StorageError, match="sealed value"):
        sealer.open("User lives in Berlin.", "memories.content:m1")


def test_lookup_sealing_is_deterministic() -> None:
    sealer = AESSealer(bytes(32))
    assert sealer.seal_lookup("pref.coffee") == sealer.seal_lookup("pref.coffee")
    assert sealer.seal_lookup("pref.coffee") != sealer.seal_lookup("pref.tea")
    assert sealer.open_lookup(sealer.seal_lookup("pref.coffee")) == "pref.coffee"
    assert sealer.seal_lookup(None) is None
    assert PLAIN.seal("x", "w") == "x" and not PLAIN.encrypted


def test_the_header_checks_the_passphrase() -> None:
    header, sealer = EncryptionHeader.create(PASS, FAST)
    again = EncryptionHeader.from_json(header.to_json())
    assert again == header and len(header.salt) == 16
    assert again.unlock(PASS).master_key == sealer.master_key == derive_key(PASS, header.salt, FAST)
    with pytest.raises(WrongPassphraseError):
        again.unlock("wrong")
    with pytest.raises(StorageError, match="scheme"):
        EncryptionHeader.from_json(header.to_json().replace("v1", "v9"))
    with pytest.raises(StorageError, match="damaged"):
        EncryptionHeader.from_json("{}")


# -- the encrypted store ----------------------------------------------------------------


@pytest.fixture
def secure(make_mem: Callable[..., LokulMem], store_path: Path) -> Callable[..., LokulMem]:
    def make(**options: Any) -> LokulMem:
        options.setdefault("path", store_path)
        options.setdefault("encryption_passphrase", PASS)
        options.setdefault("pbkdf2_iterations", FAST)
        return make_mem(**options)

    return make


def _fill(mem: LokulMem) -> None:
    """Every kind of text a store keeps: facts and their messages, a reply context,
    entities and edges, a correction (metadata), an episode, clusters, an import audit."""
    mem.learn("I live in Berlin and my sister Maya is a pianist.", "Where do you live?", session_id="s1")
    mem.learn("Maya plays in an orchestra, she loves the cello too.", session_id="s1")
    mem.learn("I drink a double espresso every morning.", session_id="s1")
    first = mem.manage().search("espresso")[0]
    mem.manage().update(first.id, content="User drinks a double espresso every morning in Lisbon.")
    mem.end_session("s1")
    mem.manage().import_data(
        {"name": "Porto notes", "memories": [{"key": "trip", "value": "User visited Porto in May."}]}
    )
    mem.maintenance(sweep=True, cluster=True)


def _files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in path.parent.glob(path.name + "*")}


def _leaks(path: Path) -> list[str]:
    return [f"{name}: {s.decode()}" for name, data in _files(path).items() for s in SECRETS if s in data]


def test_no_plaintext_in_the_file_or_its_wal(secure: Callable[..., LokulMem], store_path: Path) -> None:
    mem = secure()
    _fill(mem)
    assert mem.encrypted
    assert any(name.endswith("-wal") for name in _files(store_path))  # searched while open
    assert _leaks(store_path) == []
    # Everything reads back: lists, search (in-memory index), recall, lineage, episodes, export.
    contents = " ".join(m.content for m in mem.manage().list())
    assert "Berlin" in contents and "Lisbon" in contents and "Porto" in contents
    assert mem.manage().search("pianist")
    assert "Berlin" in mem.augment("Where do I live?", []).context
    updated = mem.manage().search("Lisbon")[0]
    assert updated.metadata["corrections"]
    assert mem.manage().get_bridge_events()[0].name == "Porto notes"
    assert mem.storage.all_episodes()[0].summary
    exported = mem.manage().export(include_embeddings=False)
    assert any("Berlin" in m["content"] for m in exported["memories"])  # exports are plaintext
    mem.close()
    assert _leaks(store_path) == []
    conn = sqlite3.connect(store_path)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "memories_fts" not in names  # the full-text index lives in memory only


def test_wrong_or_missing_passphrase_reads_and_writes_nothing(
    secure: Callable[..., LokulMem], store_path: Path
) -> None:
    mem = secure()
    mem.learn("I live in Berlin.")
    mem.close()
    before = {n: hashlib.sha256(d).hexdigest() for n, d in _files(store_path).items()}
    with pytest.raises(WrongPassphraseError):
        LokulMem(path=store_path, encryption_passphrase="wrong", executor="inline").init()
    with pytest.raises(PassphraseRequiredError, match="encrypted"):
        LokulMem(path=store_path, executor="inline").init()
    after = {n: hashlib.sha256(d).hexdigest() for n, d in _files(store_path).items()}
    assert after == before
    assert "Berlin" in secure().manage().list()[0].content


def test_a_passphrase_for_a_plain_store(make_mem: Callable[..., LokulMem], store_path: Path) -> None:
    plain = make_mem(path=store_path)
    plain.learn("I live in Berlin.")
    plain.close()
    with pytest.raises(EncryptionError, match="change_passphrase"):
        LokulMem(path=store_path, encryption_passphrase=PASS, executor="inline").init()
    # The documented way: open it and encrypt it.
    mem = make_mem(path=store_path, pbkdf2_iterations=FAST)
    mem.change_passphrase(PASS)
    assert mem.encrypted and mem.manage().search("Berlin")
    mem.close()
    assert _leaks(store_path) == []  # vacuumed: no page of the plain form is left


def test_change_passphrase_reseals_everything(secure: Callable[..., LokulMem], store_path: Path) -> None:
    mem = secure()
    _fill(mem)
    before = sorted((m.id, m.content, m.key, m.entities) for m in mem.manage().list())
    mem.change_passphrase("a new passphrase")
    assert sorted((m.id, m.content, m.key, m.entities) for m in mem.manage().list()) == before
    assert mem.manage().search("orchestra")
    mem.close()
    assert _leaks(store_path) == []
    with pytest.raises(WrongPassphraseError):
        LokulMem(path=store_path, encryption_passphrase=PASS, executor="inline").init()
    again = secure(encryption_passphrase="a new passphrase")
    assert sorted((m.id, m.content, m.key, m.entities) for m in again.manage().list()) == before
    again.change_passphrase(None)  # decrypt: the file index comes back
    assert not again.encrypted and again.manage().search("orchestra")
    again.close()
    assert any(b"orchestra" in d for d in _files(store_path).values())
    with pytest.raises(ValidationError, match="new_passphrase"):
        secure(encryption_passphrase=None).change_passphrase("")


def test_an_altered_field_is_named_and_a_failed_rekey_changes_nothing(
    secure: Callable[..., LokulMem], store_path: Path
) -> None:
    mem = secure()
    mem.learn("I live in Berlin.")
    mem.learn("My sister Maya is a pianist.")
    # Another program moves one sealed content onto another row: it no longer authenticates.
    raw = sqlite3.connect(store_path, isolation_level=None)
    (a, sealed_a), (b, sealed_b) = raw.execute("SELECT id, content FROM memories ORDER BY rowid").fetchall()
    raw.execute("UPDATE memories SET content = ? WHERE id = ?", (sealed_a, b))
    with pytest.raises(StorageError, match=f"memories.content:{b}"):
        mem.manage().get(b)
    assert mem.manage().search("Berlin")[0].id == a  # the rest of the store still reads
    with pytest.raises(StorageError, match="does not authenticate"):
        mem.change_passphrase("another")
    assert (
        mem.encrypted
        and raw.execute("SELECT content FROM memories WHERE id = ?", (a,)).fetchone()[0] == sealed_a
    )
    raw.execute("UPDATE memories SET content = ? WHERE id = ?", (sealed_b, b))
    raw.close()
    mem.close()
    still = secure()  # the old passphrase still opens it, whole
    assert "pianist" in still.manage().get(b).content


def test_another_connection_sees_new_memories(secure: Callable[..., LokulMem]) -> None:
    a = secure()
    b = secure()
    a.learn("My favourite drink is a double espresso.")
    assert b.manage().search("espresso")
    assert "espresso" in b.augment("What do I like to drink?", []).context


@pytest.fixture
def forget_session_keys() -> Iterator[None]:
    yield
    keys._session.clear()


def test_session_key_storage(
    secure: Callable[..., LokulMem], store_path: Path, forget_session_keys: None
) -> None:
    mem = secure(key_storage="session")
    mem.learn("I live in Berlin.")
    mem.close()
    reopened = secure(encryption_passphrase=None, key_storage="session")
    assert reopened.manage().search("Berlin")
    reopened.change_passphrase("rotated")  # the kept key follows the new passphrase
    reopened.close()
    assert secure(encryption_passphrase=None, key_storage="session").manage().search("Berlin")
    with pytest.raises(PassphraseRequiredError):
        LokulMem(path=store_path, executor="inline").init()  # key_storage="none" keeps nothing


def test_keyring_key_storage(secure: Callable[..., LokulMem]) -> None:
    keyring = pytest.importorskip("keyring")
    from keyring.backend import KeyringBackend

    class MemoryKeyring(KeyringBackend):
        priority = 1  # type: ignore[assignment]

        def __init__(self) -> None:
            super().__init__()
            self.kept: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.kept.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.kept[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.kept.pop((service, username), None)

    backend = MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        mem = secure(key_storage="keyring")
        mem.learn("I live in Berlin.")
        mem.close()
        assert [s for s, _ in backend.kept] == [keys.KEYRING_SERVICE]
        assert secure(encryption_passphrase=None, key_storage="keyring").manage().search("Berlin")
    finally:
        keyring.set_keyring(previous)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"key_storage": "disk"}, "key_storage"),
        ({"encryption_passphrase": ""}, "encryption_passphrase"),
        ({"pbkdf2_iterations": 99_999}, "pbkdf2_iterations"),
    ],
)
def test_encryption_options_are_checked(options: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError) as err:
        LokulMem(storage="memory", **{"encryption_passphrase": PASS, **options})
    assert err.value.field == field


def test_the_default_iterations_follow_owasp(store_path: Path) -> None:
    with LokulMem(path=store_path, encryption_passphrase=PASS, executor="inline") as mem:
        assert mem.config.pbkdf2_iterations == 600_000
        header = EncryptionHeader.from_json(mem.storage.get_meta("encryption") or "")
        assert header.iterations == 600_000
