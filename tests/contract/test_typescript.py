"""The schema makes a TypeScript client that needs no cast: types generated from the served schema
by openapi-typescript (pinned, with TypeScript, in ``tests/contract/typescript/package.json``)
type-check a client's code that switches on an event's ``type`` and a problem's ``code``, reading
each variant's own fields; and the same code with a code or an event field that does not exist
fails to type-check, so the check cannot pass on types that admit anything.

Needs Node.js and npm (the machine's; the packages come from the npm registry by the lock).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HERE = Path(__file__).resolve().parent / "typescript"
NPM = shutil.which("npm")


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=600, env={**os.environ}
    )


@pytest.fixture(scope="module")
def toolchain() -> Path:
    """``node_modules`` installed from the lock once (kept while the lock is unchanged)."""
    if NPM is None:
        pytest.skip("needs Node.js and npm")
    lock = (HERE / "package-lock.json").read_bytes()
    stamp = HERE / "node_modules" / ".lock-installed"
    if not stamp.exists() or stamp.read_bytes() != lock:
        done = run(NPM, "ci", "--no-audit", "--no-fund", cwd=HERE)
        assert done.returncode == 0, done.stdout + done.stderr
        stamp.write_bytes(lock)
    return HERE / "node_modules" / ".bin"


def compile_example(bin_dir: Path, root: Path, example: str) -> subprocess.CompletedProcess[str]:
    (root / "example.ts").write_text(example)
    return run(
        str(bin_dir / "tsc"), "--noEmit", "--strict", "--target", "es2022", "--module",
        "es2022", "--moduleResolution", "bundler", "example.ts", cwd=root,
    )  # fmt: skip


def test_a_generated_typescript_client_switches_on_events_and_codes_without_a_cast(
    toolchain: Path, tmp_path: Path
) -> None:
    served = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert served.status_code == 200
    (tmp_path / "schema.json").write_bytes(served.content)
    generated = run(
        str(toolchain / "openapi-typescript"), "schema.json", "-o", "api.d.ts", cwd=tmp_path
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    example = (HERE / "example.ts").read_text()

    checked = compile_example(toolchain, tmp_path, example)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    # The same client with one wrong name: each must be refused, or the types admit anything.
    for right, wrong in (
        ('case "box_used":', 'case "no_such_code":'),
        ("data.dice", "data.no_such_field"),
    ):
        assert right in example
        refused = compile_example(toolchain, tmp_path, example.replace(right, wrong, 1))
        assert refused.returncode != 0, f"{wrong} type-checked"
