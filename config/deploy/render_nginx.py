"""Render the nginx templates of config/deploy/nginx/ for `make serve`, as envsubst would: only
``${NAME}`` (upper case, braces) is filled in, from the environment; nginx's own ``$variables``
are left alone. Usage: ``python config/deploy/render_nginx.py OUTPUT_DIR``."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "nginx"
PLACEHOLDER = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}")


def render(text: str, values: dict[str, str]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise SystemExit(f"render_nginx: {name} is not set")
        return values[name]

    return PLACEHOLDER.sub(fill, text)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    values = {**os.environ, "NGINX_DIR": str(out.resolve())}
    for name in ("dice.conf", "nginx.conf"):
        text = (TEMPLATES / f"{name}.template").read_text()
        (out / name).write_text(render(text, values))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
