"""fingerprint.py's hash, of a folded Graph instead of Neo4j: equal graphs, equal fingerprints.

So a fold can be compared with what the Cypher left in Neo4j before anything is imported, and
the import compared with the fold afterwards.
"""

from __future__ import annotations

import hashlib

from projections.graph.fingerprint import _ID_KEYS, _digest
from projections.graph.fold import Graph, Node

_LEFT_OUT = ("Checkpoint", "Lease", "Job")


def _end(node: Node) -> object:
    return next((node.props[k] for k in _ID_KEYS if node.props.get(k) is not None), None)


def fold_fingerprint(graph: Graph, ignore: frozenset[str] = frozenset()) -> str:
    digests: list[bytes] = []
    for node in graph.nodes.values():
        if any(label in node.labels for label in _LEFT_OUT):
            continue
        props = {k: v for k, v in node.props.items() if k not in ignore}
        digests.append(_digest({"labels": sorted(node.labels), "props": props}))
    for (type_, start, end, _), props in graph.rels.items():
        kept = {k: v for k, v in props.items() if k not in ignore}
        # RELATES matches on its properties: they are the relationship's own.
        digests.append(_digest({"type": type_, "props": kept, "start": _end(graph.nodes[start]),
                                "end": _end(graph.nodes[end])}))
    total = hashlib.sha256()
    for digest in sorted(digests):
        total.update(digest)
    return f"{total.hexdigest()}:{len(digests)}"
