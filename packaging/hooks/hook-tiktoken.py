# tiktoken finds its encodings through the tiktoken_ext namespace package, which a static scan misses
hiddenimports = ["tiktoken_ext.openai_public", "tiktoken_ext"]
