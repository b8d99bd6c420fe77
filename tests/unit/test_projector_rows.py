"""Rows sent to Neo4j in a batch: the same list to the driver, a short line to its debug log."""

from __future__ import annotations

from projections.graph.projector import Rows


def test_a_batch_is_the_list_it_wraps_and_its_repr_only_counts_it() -> None:
    rows = [{"memory_id": f"m-{i}", "embedding": [0.1] * 384} for i in range(1000)]
    batch = Rows(rows)
    assert batch == rows and isinstance(batch, list)
    assert repr(batch) == "<1000 rows>"
    assert repr({"rows": batch}) == "{'rows': <1000 rows>}"


def test_the_driver_packs_a_batch_as_the_list_itself() -> None:
    from neo4j._codec.packstream.v1 import PackableBuffer, Packer  # the driver's own encoder

    def packed(value: object) -> bytes:
        buffer = PackableBuffer()
        Packer(buffer).pack(value)
        return bytes(buffer.data)

    rows = [{"a": 1, "vector": [0.5, 0.25]}, {"a": 2, "vector": []}]
    assert packed({"rows": Rows(rows)}) == packed({"rows": rows})
