from services.mmr import mmr_order

TEA = [1.0, 0.0, 0.0]
TEA_AGAIN = [0.99, 0.14, 0.0]
COFFEE = [0.0, 1.0, 0.0]


def test_lambda_one_is_plain_relevance() -> None:
    assert mmr_order([0.9, 0.8, 0.5], [TEA, TEA_AGAIN, COFFEE], 1.0, 3) == [0, 1, 2]


def test_a_near_duplicate_gives_way_to_something_else_relevant() -> None:
    assert mmr_order([0.9, 0.8, 0.5], [TEA, TEA_AGAIN, COFFEE], 0.5, 2) == [0, 2]


def test_items_without_vectors_resemble_nothing() -> None:
    assert mmr_order([0.9, 0.8, 0.5], [None, None, None], 0.5, 3) == [0, 1, 2]
    assert mmr_order([0.9, 0.8], [TEA, None], 0.5, 2) == [0, 1]


def test_limit_and_empty_input() -> None:
    assert mmr_order([0.3, 0.9], [TEA, COFFEE], 0.7, 1) == [1]
    assert mmr_order([], [], 0.5, 5) == []
