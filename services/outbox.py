"""How this process's own jobs send commands (maintenance runs, re-embedding, recorded use): to its
own command handler in embedded mode (it is the one writer), or onto `lore.commands` for the workers
in Kafka mode, sealed with each person's key."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import Command
from domain.sealing import Sealer
from infra.kafka_publish import KafkaPublisher
from infra.settings import Settings
from projections.outcomes import OutcomeQueries
from services.commands import CommandHandler
from services.lifecycle.send import direct, through_kafka
from services.wire import to_sealed_message


class CommandOutbox:
    def __init__(self, settings: Settings, handler: CommandHandler, outcomes: OutcomeQueries,
                 sealer: Sealer | None) -> None:
        self.settings = settings
        self.handler = handler
        self.outcomes = outcomes
        self.sealer = sealer
        # Made on first use (Kafka mode) and shared by every job of this process.
        self._publisher: KafkaPublisher | None = None

    def _kafka(self) -> KafkaPublisher | None:
        if not self.settings.uses_kafka_log:
            return None
        if self._publisher is None:
            assert self.settings.kafka_bootstrap is not None
            self._publisher = KafkaPublisher(self.settings.kafka_access, self.settings.commands_topic)
        return self._publisher

    def send_and_wait(self, commands: Sequence[Command]) -> None:
        """Send, and return once every command has taken effect."""
        publisher = self._kafka()
        if publisher is None:
            direct(self.handler)(commands)
        else:
            through_kafka(publisher.publish, publisher.flush, self.outcomes.outcomes,
                          sealer=self.sealer)(commands)

    def send(self, commands: Sequence[Command]) -> None:
        """Send, and return once the log or the command topic has them (Kafka: not yet applied)."""
        publisher = self._kafka()
        if publisher is None:
            self.handler.handle(list(commands))
            return
        for command in commands:
            publisher.publish(to_sealed_message(command, self.sealer), command.user_id)
        publisher.flush()

    def close(self) -> None:
        if self._publisher is not None:
            self._publisher.close()
