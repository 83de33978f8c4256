"""What the embedding backends share: unit vectors, the thread count, a package's version for the model id."""

from __future__ import annotations

import importlib.metadata
import os

import numpy as np


def default_threads() -> int:
    """One thread per core, at most 4: more oversubscribes BLAS/OpenMP on small machines (MODELS.md)."""
    return max(1, min(4, os.cpu_count() or 1))


def version(dist: str) -> str:
    """The installed version of the distribution `dist` ("?" when it is not installed)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def normalized(v: np.ndarray) -> np.ndarray:
    """`v` as float32 rows of length 1 (a zero row stays zero)."""
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms == 0, 1, norms)
