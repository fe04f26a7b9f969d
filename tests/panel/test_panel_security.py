"""The panel's door: token, host, same-origin writes (plain HTTP against the running panel)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from panel_support import Panel


def call(
    url: str, *, method: str = "GET", data: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    body = None if data is None else (data if isinstance(data, bytes) else json.dumps(data).encode())
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def test_no_token_no_panel(panel: Panel) -> None:
    assert call(panel.base + "/")[0] == 401
    assert call(panel.base + "/?token=wrong")[0] == 401
    assert call(panel.base + "/api/export")[0] == 401
    status, page = call(panel.url)
    assert status == 200 and "User lives in Lisbon" in page


def test_a_visit_with_the_token_sets_a_strict_cookie(panel: Panel) -> None:
    with urllib.request.urlopen(panel.url, timeout=30) as response:
        cookie = response.headers["set-cookie"]
    assert cookie.startswith("lokulmem_token=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, _ = call(panel.base + "/stats", headers={"Cookie": cookie.split(";")[0]})
    assert status == 200


def test_a_foreign_host_header_is_refused(panel: Panel) -> None:
    status, _ = call(panel.url, headers={"Host": "evil.example"})
    assert status == 403


def test_writes_need_the_header_and_the_same_origin(panel: Panel) -> None:
    some = panel.memory.manage().list()[0].id
    url = f"{panel.base}/api/memories/{some}/pin"
    assert (
        call(f"{url}?token={panel.token}", method="POST", data={})[0] == 403
    )  # token in URL: not for writes
    cookie = {"Cookie": f"lokulmem_token={panel.token}"}
    assert call(url, method="POST", data={}, headers=cookie)[0] == 403  # a cross-site form carries the cookie
    cross = {"X-Lokulmem-Token": panel.token, "Origin": "http://evil.example"}
    assert call(url, method="POST", data={}, headers=cross)[0] == 403
    assert not panel.memory.manage().get(some).pinned
    same = {"X-Lokulmem-Token": panel.token, "Origin": panel.base}
    assert call(url, method="POST", data={}, headers=same)[0] == 200
    assert panel.memory.manage().get(some).pinned


def test_a_malformed_import_says_why_and_changes_nothing(panel: Panel) -> None:
    before = [m.id for m in panel.memory.manage().list()]
    status, body = call(
        panel.base + "/api/import",
        method="POST",
        data=b'{"format": "lokulmem-export", "version": "1", "memories": [{"id": 1}]}',
        headers={"X-Lokulmem-Token": panel.token},
    )
    assert status == 400 and json.loads(body)["error"].startswith("ImportFormatError: memories[0]")
    assert [m.id for m in panel.memory.manage().list()] == before


def test_an_unknown_id_is_404_and_bad_bodies_are_400(panel: Panel) -> None:
    auth = {"X-Lokulmem-Token": panel.token}
    status, body = call(panel.base + "/api/memories/no-such-id/archive", method="POST", data={}, headers=auth)
    assert status == 404 and "MemoryNotFoundError" in json.loads(body)["error"]
    assert call(panel.base + "/api/bulk", method="POST", data={"action": "explode"}, headers=auth)[0] == 400
    assert call(panel.base + "/api/memories/x/edit", method="POST", data=b"not json", headers=auth)[0] == 400
    assert call(f"{panel.base}/memory/no-such-id?token={panel.token}")[0] == 404


def test_the_panel_command_prints_its_url_and_serves_it(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    from lokulmem import LokulMem

    path = tmp_path / "cli-panel.sqlite"
    with LokulMem(path=path, executor="inline") as mem:
        mem.learn("I live in Porto.")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lokulmem.cli",
            "panel",
            "--path",
            str(path),
            "--port",
            str(port),
            "--no-browser",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith(f"http://127.0.0.1:{port}/?token=")
        for _ in range(100):  # the server starts after the URL is printed
            try:
                status, page = call(url)
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200 and "User lives in Porto." in page
        assert call(f"http://127.0.0.1:{port}/")[0] == 401
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_missing_store_is_exit_2_and_a_public_host_warns(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lokulmem.cli",
            "panel",
            "--path",
            str(tmp_path / "none.sqlite"),
            "--no-browser",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "no store at" in done.stderr
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lokulmem.cli",
            "panel",
            "--host",
            "0.0.0.0",
            "--path",
            str(tmp_path / "none.sqlite"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "warning: listening on 0.0.0.0" in done.stderr
