"""How the worker treats a failure to apply commands, and how the API answers one.

- transient: Neo4j or Kafka away, a deadlock, a timeout. Retried with a bounded backoff until it
  passes, with an alarm (an error in the log, `/v1/health` degraded) while it lasts. The commands
  are fine and nothing is given up.
- graph: the graph cannot be written on as it is (it follows another log, or an earlier shape).
  Every command would fail the same way, so none is retried: they go to the dead-letter topic
  with the reason, which names the fix (`lore rebuild`, then `lore dlq replay`).
- command: anything else may belong to one command. The batch is split until the command that
  fails is alone; after a few tries it goes to the dead-letter topic, and the others apply.

The API answers a request that failed for a transient reason with 503 (services/api/unavailable.py):
the driver has already tried again for LORE_NEO4J_RETRY_S.
"""

from __future__ import annotations

from enum import Enum

from infra.eventlog.kafka import KafkaAppendError
from projections.graph.failures import GRAPH_ERRORS
from projections.graph.failures import transient as graph_transient
from projections.graph.projector import GraphNeedsRebuild


class Failure(Enum):
    TRANSIENT = "transient"
    GRAPH = "graph"
    COMMAND = "command"


def classify(error: BaseException) -> Failure:
    if isinstance(error, GraphNeedsRebuild):
        return Failure.GRAPH
    if isinstance(error, KafkaAppendError):
        return Failure.TRANSIENT if error.retriable else Failure.COMMAND
    if graph_transient(error) or isinstance(error, ConnectionError | TimeoutError):
        return Failure.TRANSIENT
    return Failure.COMMAND


def unavailable(error: BaseException) -> bool:
    """A request that failed this way is answered 503 (try again), not 500: the graph or the log
    is away, starting or swamped, and nothing is wrong with the request itself."""
    return classify(error) is Failure.TRANSIENT


def code_of(error: BaseException) -> str:
    """The machine-readable reason of a dead letter for a failure."""
    return error.code if isinstance(error, GraphNeedsRebuild) else "internal_error"


__all__ = ["GRAPH_ERRORS", "Failure", "classify", "code_of", "unavailable"]
