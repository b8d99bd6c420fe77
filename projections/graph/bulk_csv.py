"""A folded Graph as the CSV files of `neo4j-admin database import full`.

One node file per id space (its first label; `:LABEL` carries the rest) and one relationship
file per type, each with its own header. Node ids are integers made here (`--id-type=integer`),
never stored. Conventions the import reads them by:
- text is always quoted, a quote doubled (RFC 4180); text may hold newlines, so the import
  runs with `--multiline-fields=true`;
- an absent property is an empty, unquoted field (the import stores nothing), never "";
- arrays are split on a delimiter chosen so that no element holds it;
- an empty list cannot be written (an empty field is no property): `empty_lists` names them,
  for Cypher to set after the import (bulk_fixups.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from projections.graph.fold import ID_PROPERTY, Datetime, Graph, Node, Vector

# Tried in order; the first that no array element and no label contains is the delimiter.
_ARRAY_DELIMITERS = ("\x1f", "\x1e", "\x1d", "\x1c", "|", "\x07")


def neo4j_type(value: Any) -> str | None:
    """The header type of a value (None: an empty list, which has none)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    if isinstance(value, Datetime):
        return "datetime"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Vector):
        return "float[]"  # float32, as db.create.setNodeVectorProperty stores it
    if isinstance(value, list):
        if not value:
            return None
        inner = neo4j_type(value[0])
        if inner is None or inner.endswith("[]"):
            raise TypeError(f"a list of {type(value[0]).__name__} cannot be a property")
        return inner + "[]"
    raise TypeError(f"no CSV type for {type(value).__name__}")


def quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def field_text(value: Any, type_: str, array_delimiter: str) -> str:
    if type_ == "string":
        return quote(value)
    if type_ == "boolean":
        return "true" if value else "false"
    if type_ in ("long", "double", "datetime"):
        return str(value) if type_ != "double" else repr(value)
    if type_ == "string[]":
        return quote(array_delimiter.join(value))
    if type_ in ("float[]", "double[]"):
        return array_delimiter.join(map(repr, value))
    return quote(array_delimiter.join(map(str, value)))  # long[], boolean[] never occur; datetime[]


def used_delimiters(graph: Graph) -> set[str]:
    """The array delimiters Lore knows that occur in a label or a text in an array of `graph`."""
    found: set[str] = set()
    candidates = set(_ARRAY_DELIMITERS)

    def look(text: str) -> None:
        for c in candidates:
            if c in text:
                found.add(c)

    for node in graph.nodes.values():
        for label in node.labels:
            look(label)
        for value in node.props.values():
            if isinstance(value, list) and value and isinstance(value[0], str):
                for element in value:
                    look(element)
    for props in graph.rels.values():
        for value in props.values():
            if isinstance(value, list) and value and isinstance(value[0], str):
                for element in value:
                    look(element)
    return found


def pick_delimiter(used: set[str]) -> str:
    for c in _ARRAY_DELIMITERS:
        if c not in used:
            return c
    raise ValueError("every array delimiter Lore knows occurs in the data")


def choose_array_delimiter(graph: Graph) -> str:
    return pick_delimiter(used_delimiters(graph))


@dataclass(frozen=True)
class IdSpace:
    """The import's node ids of one writer: `first`, `first + stride`, ... Writers that fold parts
    of one graph apart (bulk rebuild's processes) take interleaved spaces, so no two ids meet."""

    first: int = 0
    stride: int = 1

    def id(self, number: int) -> int:
        return self.first + number * self.stride


@dataclass
class CsvFiles:
    nodes: list[Path] = field(default_factory=list)
    relationships: list[Path] = field(default_factory=list)
    array_delimiter: str = ";"
    # (id space, id, {property: []}): what the import cannot write.
    empty_lists: list[tuple[str, str, dict[str, list[Any]]]] = field(default_factory=list)
    node_count: int = 0
    relationship_count: int = 0


@dataclass
class _Group:
    """One file: its columns and their types (a column keeps one type; a clash opens a new group)."""

    columns: dict[str, str] = field(default_factory=dict)
    rows: list[Any] = field(default_factory=list)

    def fits(self, types: dict[str, str]) -> bool:
        return all(self.columns.get(k, t) == t for k, t in types.items())


def _typed(props: dict[str, Any], empty: dict[str, list[Any]]) -> dict[str, str]:
    types: dict[str, str] = {}
    for name, value in props.items():
        found = neo4j_type(value)
        if found is None:
            empty[name] = []
        else:
            types[name] = found
    return types


def _place(groups: list[_Group], types: dict[str, str], row: Any) -> None:
    for group in groups:
        if group.fits(types):
            break
    else:
        group = _Group()
        groups.append(group)
    for name, type_ in types.items():
        group.columns.setdefault(name, type_)
    group.rows.append(row)


def write_csv(graph: Graph, directory: Path, array_delimiter: str | None = None, ids: IdSpace = IdSpace(),
              name: str = "", leave_out: tuple[str, ...] = ()) -> CsvFiles:
    """The graph's files in `directory`, named with `name` (writers side by side); nodes of an
    id space in `leave_out` are not written (another writer has them)."""
    directory.mkdir(parents=True, exist_ok=True)
    files = CsvFiles(array_delimiter=array_delimiter or choose_array_delimiter(graph))
    numbers: dict[tuple[str, str], int] = {}
    node_groups: dict[str, list[_Group]] = defaultdict(list)
    for key, node in graph.nodes.items():
        if key[0] in leave_out:
            continue
        number = numbers[key] = ids.id(len(numbers))
        empty: dict[str, list[Any]] = {}
        types = _typed(node.props, empty)
        if empty:
            files.empty_lists.append((key[0], node.props[ID_PROPERTY[key[0]]], empty))
        _place(node_groups[key[0]], types, (number, node))
    rel_groups: dict[str, list[_Group]] = defaultdict(list)
    for (type_, start, end, _), props in graph.rels.items():
        empty = {}
        types = _typed(props, empty)
        if empty:
            raise ValueError(f"an empty list on a {type_} relationship: Lore writes none")
        _place(rel_groups[type_], types, (numbers[start], numbers[end], props))
    d = files.array_delimiter
    suffix = f"-{name}" if name else ""
    for space, groups in node_groups.items():
        for n, group in enumerate(groups):
            path = directory / f"nodes-{space}-{n}{suffix}.csv"
            _write_nodes(path, group, d)
            files.nodes.append(path)
            files.node_count += len(group.rows)
    for type_, groups in rel_groups.items():
        for n, group in enumerate(groups):
            path = directory / f"relationships-{type_}-{n}{suffix}.csv"
            _write_relationships(path, type_, group, d)
            files.relationships.append(path)
            files.relationship_count += len(group.rows)
    return files


def _header(columns: dict[str, str]) -> list[str]:
    # `name:string` is the default; said anyway so that a name with a colon in it reads right.
    return [f"{name}:{type_}" for name, type_ in columns.items()]


def _write_nodes(path: Path, group: _Group, delimiter: str) -> None:
    columns = list(group.columns.items())
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(",".join([":ID", ":LABEL", *_header(group.columns)]) + "\n")
        for number, node in group.rows:
            node_: Node = node
            props = node_.props
            fields = [str(number), quote(delimiter.join(node_.labels))]
            for name, type_ in columns:
                value = props.get(name)
                fields.append("" if value is None or value == [] else field_text(value, type_, delimiter))
            out.write(",".join(fields) + "\n")


def _write_relationships(path: Path, type_: str, group: _Group, delimiter: str) -> None:
    columns = list(group.columns.items())
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(",".join([":START_ID", ":END_ID", ":TYPE", *_header(group.columns)]) + "\n")
        typed = quote(type_)
        for start, end, props in group.rows:
            fields = [str(start), str(end), typed]
            for name, t in columns:
                value = props.get(name)
                fields.append("" if value is None else field_text(value, t, delimiter))
            out.write(",".join(fields) + "\n")
