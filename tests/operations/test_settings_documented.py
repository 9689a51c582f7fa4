"""Every environment variable settings.py reads is documented, with its default and meaning, in the
tables of docs/settings.md and in ``.env.example``.

settings.py is read as a syntax tree, not run: ``os.environ.get("NAME", ...)``,
``os.environ["NAME"]``, ``os.getenv("NAME")``, the helpers ``env_bool("NAME", ...)`` and
``env_list("NAME", ...)``, and ``dj_database_url.config(env="NAME")`` each name one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "config" / "settings.py"
# The processes' own reads (gunicorn, the exporters, the ASGI entry point, manage.py's switch
# to the migration role): the same rule.
PROCESS_FILES = [
    ROOT / "manage.py",
    ROOT / "config" / "deploy" / "gunicorn.conf.py",
    ROOT / "config" / "observability" / "metrics.py",
    ROOT / "config" / "observability" / "worker_metrics.py",
    ROOT / "config" / "asgi.py",
]
HELPERS = {"env_bool", "env_list"}
# docs/settings.md's tables: a row per variable, its name first, in backquotes.
SETTINGS_ROW = re.compile(r"^\|\s*`(?P<name>[A-Z][A-Z0-9_]*)`\s*\|(?P<rest>.*)\|\s*$", re.MULTILINE)
# .env.example: a line per variable, commented out or not, after a comment saying what it is.
ENV_LINE = re.compile(r"^#?\s*(?P<name>[A-Z][A-Z0-9_]*)=", re.MULTILINE)


def _name(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def variables_read(source: str) -> set[str]:
    tree = ast.parse(source)
    # The helpers' own bodies read the name they are given: their callers name it.
    inside_helpers = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in HELPERS
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in inside_helpers:
            continue
        if isinstance(node, ast.Call):
            func = _dotted(node.func)
            if func in {"os.environ.get", "os.getenv", *HELPERS} and node.args:
                name = _name(node.args[0])
            elif func == "dj_database_url.config":
                name = next((_name(k.value) for k in node.keywords if k.arg == "env"), None)
                name = name or "DATABASE_URL"  # the library's own default
            else:
                continue
            assert name, f"line {node.lineno}: a variable read by a computed name"
            found.add(name)
        elif isinstance(node, ast.Subscript) and _dotted(node.value) == "os.environ":
            name = _name(node.slice)
            if name:
                found.add(name)
    return found


def documented_rows() -> dict[str, str]:
    page = (ROOT / "docs" / "settings.md").read_text()
    return {m["name"]: m["rest"] for m in SETTINGS_ROW.finditer(page)}


def test_the_reader_finds_each_form() -> None:
    source = (
        "def env_bool(name, default):\n    return os.environ.get(name)\n"
        "import os\nA = os.environ.get('A', '1')\nB = os.environ['B']\nC = os.getenv('C')\n"
        "D = env_bool('D', True)\nE = env_list('E', '')\nF = dj_database_url.config(env='F')\n"
        "G = dj_database_url.config(default='x')\n"
    )
    assert variables_read(source) == {"A", "B", "C", "D", "E", "F", "DATABASE_URL"}


def test_settings_reads_what_it_is_known_to_read() -> None:
    # A sanity check of the reader on the real file: a few it must find.
    read = variables_read(SETTINGS.read_text())
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "LOG_FORMAT"} <= read


def every_variable() -> set[str]:
    found = variables_read(SETTINGS.read_text())
    for path in PROCESS_FILES:
        found |= variables_read(path.read_text())
    return found


def test_every_variable_is_in_the_settings_page_with_a_default_and_a_meaning() -> None:
    rows = documented_rows()
    missing = sorted(every_variable() - rows.keys())
    assert not missing, f"docs/settings.md lacks {missing}"
    for name, rest in rows.items():
        cells = [cell.strip() for cell in rest.split("|")]
        assert len(cells) == 2 and all(cells), (
            f"docs/settings.md: {name} needs a default and a meaning"
        )


def test_every_variable_is_in_the_env_example() -> None:
    text = (ROOT / ".env.example").read_text()
    listed = set(ENV_LINE.findall(text))
    missing = sorted(every_variable() - listed)
    assert not missing, f".env.example lacks {missing}"
    # Each is explained by the comment line just above it.
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if ENV_LINE.match(line):
            above = lines[index - 1] if index else ""
            assert above.startswith("# ") and not ENV_LINE.match(above), f"explain {line}"
