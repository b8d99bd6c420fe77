"""Which Kafka client for which job: the rate of kafka-python and of confluent-kafka (librdkafka) at
the two jobs Lore gives a client outside the worker, measured the same way on the same broker.

    python -m bench.kafka_clients                       # 50,000 records of 600 bytes, 3 rounds
    python -m bench.kafka_clients --records 2000 --rounds 1    # smoke (CI)

- produce: records sent as Lore appends its log (idempotent, acks=all, keyed by person), from
  the first send until every one is acknowledged;
- read: the same records read back from the start of the topic by a consumer with no group, as
  Lore reads its log (a rebuild, a change stream).

Each round writes a topic of its own. The figures are records per second, the median of the
rounds, and the ratio of the two clients. Runs on a Kafka of its own (bench/stack.py) or on
--kafka-bootstrap (topics of its own, left there).
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime

from confluent_kafka import Consumer, Producer, TopicPartition
from kafka import KafkaConsumer, KafkaProducer
from kafka import TopicPartition as PyTopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from rich.console import Console
from rich.table import Table

from bench import stack

console = Console(width=120)
PARTITIONS = 4
PEOPLE = 1000


def _records(count: int, size: int) -> list[tuple[bytes, bytes]]:
    body = b"x" * size
    return [(f"person-{n % PEOPLE}".encode(), body) for n in range(count)]


def _topic(bootstrap: str) -> str:
    topic = f"bench.clients.{uuid.uuid4().hex[:10]}"
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, PARTITIONS, 1)])
    finally:
        admin.close()
    return topic


def produce_kafka_python(bootstrap: str, topic: str, records: list[tuple[bytes, bytes]]) -> float:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", enable_idempotence=True,
                             linger_ms=2, max_in_flight_requests_per_connection=5)
    try:
        started = time.perf_counter()
        for key, value in records:
            producer.send(topic, key=key, value=value)
        producer.flush()
        return time.perf_counter() - started
    finally:
        producer.close()


def produce_confluent(bootstrap: str, topic: str, records: list[tuple[bytes, bytes]]) -> float:
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                         "linger.ms": 2, "partitioner": "murmur2_random"})
    started = time.perf_counter()
    for key, value in records:
        while True:
            try:
                producer.produce(topic, key=key, value=value)
                break
            except BufferError:  # the local queue is full: let deliveries drain it
                producer.poll(0.05)
        producer.poll(0)
    producer.flush()
    return time.perf_counter() - started


def read_kafka_python(bootstrap: str, topic: str, count: int) -> float:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                             max_partition_fetch_bytes=8 * 1024 * 1024, fetch_max_bytes=64 * 1024 * 1024)
    try:
        partitions = [PyTopicPartition(topic, p) for p in range(PARTITIONS)]
        started = time.perf_counter()
        consumer.assign(partitions)
        consumer.seek_to_beginning(*partitions)
        read = 0
        while read < count:
            for batch in consumer.poll(timeout_ms=1000, max_records=10_000).values():
                read += len(batch)
        return time.perf_counter() - started
    finally:
        consumer.close()


def read_confluent(bootstrap: str, topic: str, count: int) -> float:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{uuid.uuid4().hex[:8]}",
                         "enable.auto.commit": False})
    try:
        started = time.perf_counter()
        consumer.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
        read = 0
        while read < count:
            # Asked for no more than are left: consume() waits its full timeout for a batch it cannot fill.
            for message in consumer.consume(min(10_000, count - read), 1.0):
                if message.error() is None:
                    read += 1
        return time.perf_counter() - started
    finally:
        consumer.close()


Producing = Callable[[str, str, list[tuple[bytes, bytes]]], float]
Reading = Callable[[str, str, int], float]
CLIENTS: dict[str, tuple[Producing, Reading]] = {
    "kafka-python": (produce_kafka_python, read_kafka_python),
    "confluent-kafka": (produce_confluent, read_confluent),
}


def measure(bootstrap: str, records: list[tuple[bytes, bytes]], rounds: int) -> dict[str, dict[str, float]]:
    """Records per second (median of the rounds), by client and job."""
    rates: dict[str, dict[str, list[float]]] = {name: {"produce": [], "read": []} for name in CLIENTS}
    for round_ in range(rounds):
        for name, (produce, read) in CLIENTS.items():
            topic = _topic(bootstrap)
            rates[name]["produce"].append(len(records) / produce(bootstrap, topic, records))
            rates[name]["read"].append(len(records) / read(bootstrap, topic, len(records)))
            console.log(f"round {round_ + 1}: {name} produce {rates[name]['produce'][-1]:,.0f}/s, "
                        f"read {rates[name]['read'][-1]:,.0f}/s")
    return {name: {job: statistics.median(values) for job, values in jobs.items()}
            for name, jobs in rates.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=50_000, help="records a round writes and reads")
    parser.add_argument("--size", type=int, default=600, help="bytes of each record's value")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported")
    parser.add_argument("--kafka-bootstrap", default=None,
                        help="use this Kafka (topics of its own) instead of starting one")
    parser.add_argument("--keep-stack", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    records = _records(args.records, args.size)
    with ExitStack() as servers:
        bootstrap = args.kafka_bootstrap
        if bootstrap is None:
            own = servers.enter_context(stack.own_stack("kafka-clients", kafka=True, keep=False))
            bootstrap = own.kafka_bootstrap
        assert bootstrap is not None
        rates = measure(bootstrap, records, args.rounds)
    table = Table(title=f"{args.records:,} records of {args.size} B, {PARTITIONS} partitions, median of "
                  f"{args.rounds}, {datetime.now():%Y-%m-%d %H:%M}")
    for column in ("job", *CLIENTS, "confluent / kafka-python"):
        table.add_column(column, justify="left" if column == "job" else "right")
    for job in ("produce", "read"):
        python, confluent = rates["kafka-python"][job], rates["confluent-kafka"][job]
        table.add_row(f"{job} (records/s)", f"{python:,.0f}", f"{confluent:,.0f}",
                      f"{confluent / python:.1f}×")
    console.print(table)


if __name__ == "__main__":
    main()
