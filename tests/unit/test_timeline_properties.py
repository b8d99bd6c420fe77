"""Whatever order values arrive in, every slot's timeline has no overlaps and no gaps."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.commands import ForgetMemory, RecordMemory, RestoreMemory
from domain.decide import decide
from domain.errors import DomainError
from domain.state import UserState, evolve

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

record = st.builds(
    lambda slot, value, day: ("record", slot, value, day),
    st.sampled_from(["color", "city", "employer"]),
    st.sampled_from(["a", "b", "c", "d"]),
    st.integers(0, 60),
)
forget_or_restore = st.builds(lambda op, pick: (op, pick), st.sampled_from(["forget", "restore"]),
                              st.integers(0, 1000))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(record, record, forget_or_restore), max_size=40))
def test_slot_timelines_never_overlap_and_never_gap(steps: list[tuple]) -> None:
    state = UserState("u")
    for n, step in enumerate(steps):
        common = {"command_id": f"c{n}", "user_id": "u", "occurred_at": EPOCH}
        if step[0] == "record":
            _, slot, value, day = step
            command = RecordMemory(**common, content=f"{slot} is {value}", attribute=slot,
                                   value=value, valid_from=EPOCH + timedelta(days=day))
        elif state.memories:
            ids = sorted(state.memories)
            memory_id = ids[step[1] % len(ids)]
            command = (ForgetMemory if step[0] == "forget" else RestoreMemory)(**common, memory_id=memory_id)
        else:
            continue
        with contextlib.suppress(DomainError):
            evolve(state, decide(state, command, EPOCH))

    for slot in state.slots:
        timeline = state.timeline(slot)
        assert timeline[-1].valid_until is None, "the latest value is open-ended"
        for earlier, later in zip(timeline, timeline[1:], strict=False):
            assert earlier.valid_until == later.valid_from, "no gap and no overlap"
            assert earlier.superseded_by == later.memory_id
        for moment_day in range(-1, 62):
            moment = EPOCH + timedelta(days=moment_day, hours=12)
            assert sum(m.holds_at(moment) for m in timeline) <= 1
