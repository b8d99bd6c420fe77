"""How the fingerprint reads a value: a vector by its bytes, exact to the last bit."""

import math

from projections.graph.fingerprint import _digest, _isoformat, _plain


def test_a_vector_reads_the_same_only_when_every_float_is_the_same() -> None:
    vector = [0.1, -0.25, 3.0e-7]
    assert _digest({"v": vector}) == _digest({"v": list(vector)})
    assert _digest({"v": vector}) != _digest({"v": [0.1, -0.25, math.nextafter(3.0e-7, 1.0)]})
    assert _digest({"v": [0.0]}) != _digest({"v": [-0.0]})


def test_lists_that_are_not_vectors_read_item_by_item() -> None:
    assert _plain([]) == []
    assert _plain([1, 2]) == [1, 2]
    assert _plain(["a", "b"]) == ["a", "b"]
    assert _digest({"v": [1.0, 2.0]}) != _digest({"v": [1, 2]})
    assert _plain([1.0, "a"]) == ["1.0", "a"]


def test_an_instants_fields_read_as_its_isoformat() -> None:
    assert _isoformat(1969, 12, 31, 23, 59, 59, 500_000_000, 0) == "1969-12-31T23:59:59.500000+00:00"
    assert _isoformat(2026, 7, 1, 8, 15, 30, 123_456_000, 8 * 3600) == "2026-07-01T08:15:30.123456+08:00"
    assert _isoformat(1900, 3, 1, 12, 0, 0, 0, -(5 * 3600 + 1800)) == "1900-03-01T12:00:00-05:30"
