"""How the code may import: the domain takes the standard library and a few named pure libraries
only; there is no import circle anywhere. (pyproject.toml's import-linter contracts say the rest.)"""

from __future__ import annotations

import sys

import grimp

PACKAGES = ("domain", "services", "projections", "infra", "lore")
# What the domain may import besides the standard library and itself: pure libraries, no I/O
# (jieba reads only the dictionary inside its package).
DOMAIN_MAY_IMPORT = frozenset({"pydantic", "cryptography", "dateparser", "snowballstemmer", "jieba"})


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, include_external_packages=True)


def test_the_domain_imports_only_the_standard_library_and_the_libraries_it_names() -> None:
    graph = _graph()
    imported = {m.split(".")[0] for module in graph.find_descendants("domain") | {"domain"}
                for m in graph.find_modules_directly_imported_by(module)}
    outside = imported - {"domain"} - set(sys.stdlib_module_names) - {"__future__"}
    assert outside <= DOMAIN_MAY_IMPORT, f"the domain imports {sorted(outside - DOMAIN_MAY_IMPORT)}"


def test_no_module_of_lore_imports_itself_back_through_others() -> None:
    graph = _graph()
    ours = {m for package in PACKAGES for m in graph.find_descendants(package) | {package}}
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if i in ours} for m in ours}
    # A package's __init__ importing its own modules is how a package is made, not a circle.
    edges = {m: {i for i in found if not m.startswith(i + ".") and not i.startswith(m + ".")}
             for m, found in edges.items()}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(edges[module]):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt):] + [nxt] if nxt in path else [module, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(ours):
        if module not in state:
            visit(module, [module])
    assert circles == [], f"import circles: {circles[:5]}"


def test_the_client_loads_only_itself_httpx_and_pydantic() -> None:
    """A user who only wants the client pays for no server: run in a fresh interpreter."""
    import json
    import subprocess

    probe = "import json, sys, lore.client; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                                       text=True).stdout)
    roots = {m.split(".")[0] for m in loaded}
    assert {"httpx", "pydantic", "lore"} <= roots
    server = {"neo4j", "faststream", "fastapi", "aiokafka", "kafka", "confluent_kafka", "services",
              "projections", "infra", "uvicorn", "onnxruntime", "spacy"}
    assert roots & server == set(), f"import lore.client loads {sorted(roots & server)}"
    assert len(loaded) < 600, len(loaded)  # 1,829 before the client's shapes left the server
