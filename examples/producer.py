"""A minimal producer of Lore commands, with kafka-python.

    pip install kafka-python
    python examples/producer.py --bootstrap 127.0.0.1:9092

Each message is one JSON command on `lore.commands`, keyed by the user's id, so that a person's
commands stay in order. `command_id` is yours to choose: sending the same id again (a retry
after a timeout, say) takes effect once. A message Lore cannot use lands on `lore.commands.dlq`,
with the reason in the header `lore.dlq.reason`.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime

from kafka import KafkaProducer


def command(kind: str, command_id: str, user_id: str, **payload: object) -> dict[str, object]:
    return {"type": kind, "command_id": command_id, "user_id": user_id,
            "occurred_at": datetime.now(UTC).isoformat(), "payload": payload}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bootstrap", default="127.0.0.1:9092")
    parser.add_argument("--topic", default="lore.commands")
    args = parser.parse_args()

    producer = KafkaProducer(
        bootstrap_servers=args.bootstrap,
        acks="all",                 # the command is durable once send() is acknowledged
        enable_idempotence=True,    # a retried send is not written twice
        key_serializer=str.encode,
        value_serializer=lambda value: json.dumps(value).encode(),
    )
    commands = [
        command("RecordMemory", "crm-ada-1", "ada", content="Ada works at Globex", kind="fact",
                attribute="employer", value="Globex", entities=["Globex"]),
        command("RecordMemory", "crm-ada-2", "ada", content="Ada prefers answers in bullet points",
                kind="preference", importance=0.9),
        command("RecordEpisode", "chat-ada-17", "ada", session_id="2026-03-01-morning", messages=[
            {"role": "user", "content": "I start at Initech on Monday!"},
            {"role": "assistant", "content": "Congratulations!"},
        ]),
        command("RecordMemory", "crm-ada-3", "ada", content="Ada works at Initech", kind="fact",
                attribute="employer", value="Initech", entities=["Initech"]),
    ]
    for message in commands:
        producer.send(args.topic, key=str(message["user_id"]), value=message)
    producer.flush()
    producer.close()
    print(f"sent {len(commands)} commands to {args.topic}")


if __name__ == "__main__":
    main()
