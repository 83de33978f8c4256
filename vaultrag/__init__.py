"""vaultrag: ask a Markdown vault questions offline, and see why each note was or wasn't found."""

import os as _os

# Nothing leaves the app's own folders: onnxruntime (which runs e5) otherwise writes a device id and a telemetry
# event queue under ~/.cache/Microsoft. Set before any import of onnxruntime, in every process (workers inherit it).
_os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

__version__ = "0.1.0"
