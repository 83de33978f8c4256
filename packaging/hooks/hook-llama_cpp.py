# llama-cpp-python loads libllama/libggml with ctypes from llama_cpp/lib beside its own file: ship them there.
from PyInstaller.utils.hooks import collect_dynamic_libs

binaries = collect_dynamic_libs("llama_cpp")
