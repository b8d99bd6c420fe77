"""Instants a query returns as text (Neo4j's toString) read back as the times they were."""

from datetime import UTC, datetime, timedelta

from projections.instants import as_text, instant, parsed


def test_an_instant_in_utc_reads_back_to_the_microsecond() -> None:
    assert instant("2024-03-01T08:07:03.123456Z") == datetime(2024, 3, 1, 8, 7, 3, 123456, tzinfo=UTC)
    assert instant("2024-03-01T08:07:03.123456Z").tzinfo is UTC
    assert instant("2024-03-01T00:00:00Z") == datetime(2024, 3, 1, tzinfo=UTC)
    assert instant("2024-03-01T08:07:03.12Z") == datetime(2024, 3, 1, 8, 7, 3, 120000, tzinfo=UTC)


def test_nanoseconds_are_cut_to_microseconds_and_a_zone_name_leaves_its_offset() -> None:
    assert instant("2024-03-01T08:07:03.123456789Z") == datetime(2024, 3, 1, 8, 7, 3, 123456, tzinfo=UTC)
    paris = instant("2024-03-01T09:07:03+01:00[Europe/Paris]")
    assert paris == datetime(2024, 3, 1, 8, 7, 3, tzinfo=UTC)
    assert paris.utcoffset() == timedelta(hours=1)
    assert instant(None) is None


def test_parsed_reads_only_the_named_fields_that_are_text() -> None:
    row = {"valid_from": "2024-03-01T00:00:00Z", "valid_until": None, "content": "2024-03-01T00:00:00Z",
           "recorded_at": datetime(2024, 1, 1, tzinfo=UTC)}
    assert parsed(row, ("valid_from", "valid_until", "recorded_at", "due_at")) == {
        "valid_from": datetime(2024, 3, 1, tzinfo=UTC), "valid_until": None,
        "content": "2024-03-01T00:00:00Z", "recorded_at": datetime(2024, 1, 1, tzinfo=UTC)}


def test_the_projection_names_each_instant_as_itself() -> None:
    assert as_text("m", ["valid_from", "due_at"]) == (
        "valid_from: toString(m.valid_from), due_at: toString(m.due_at)")
