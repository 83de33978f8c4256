# PyInstaller does not collect vec0.so on Linux (its patterns only match lib*.so); ship it as a binary.
from PyInstaller.utils.hooks import collect_dynamic_libs

binaries = collect_dynamic_libs("sqlite_vec", search_patterns=["vec0.*"])
