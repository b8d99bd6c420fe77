"""Lists sent to Neo4j as parameters (a batch of rows, a query vector): the same list to the driver,
a short line to its debug log."""

from __future__ import annotations

from projections.parameters import Counted, QueryVector, Rows


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


def test_a_query_vector_and_a_list_of_them_print_only_their_length() -> None:
    vector = QueryVector([0.125] * 384)
    assert vector == [0.125] * 384 and repr(vector) == "<384 floats>"
    vectors = Counted(QueryVector([0.5] * 384) for _ in range(3))
    assert repr({"vectors": vectors}) == "{'vectors': <3 items>}"
    assert all(v == [0.5] * 384 for v in vectors)
