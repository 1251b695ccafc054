"""The coarse scan of a big matrix: its rows' 4-bit codes on their top principal directions, scored in onnxruntime.

Only the best few times `limit` rows are then scored exactly (`retrieve.dense`). The codes are packed as
onnxruntime's `MatMulNBits` holds them (numpy has no fast int4 product), which is also how the dense index's
cache keeps them (`retrieve.sidecar`). docs/retrieval.md, "Coarse-to-fine dense scan", has the measurements.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class CoarseScan:
    """Approximate ranking scores of every row: 4-bit codes of its coordinates on the principal directions
    (each over its spread in the fitting sample), on one step per row (its largest / 7). Rows are frozen in
    blocks of up to `block`, each an onnxruntime `MatMulNBits` session holding the codes as a constant; later
    rows are scored in numpy until `block` of them are frozen together."""

    def __init__(self, basis: np.ndarray, spread: np.ndarray, block: int, threads: int) -> None:
        self.basis, self.spread, self.block, self.threads = basis, spread, block, threads  # (`fit`)
        # (sessions of the frozen blocks in row order, the later rows decoded, their steps): replaced whole and
        # never changed in place, so that a search reads one consistent state while another thread appends
        self.state: tuple[tuple[Any, ...], np.ndarray, np.ndarray] = (
            (), np.zeros((0, basis.shape[1]), np.float32), np.zeros(0, np.float32))
        self._decoded, self._steps = self.state[1], self.state[2]  # buffers behind the views in `state`

    @classmethod
    def from_codes(cls, basis: np.ndarray, spread: np.ndarray, packed: np.ndarray, steps: np.ndarray, block: int,
                   threads: int) -> CoarseScan:
        """The scan of rows coded before (`code_rows`), all frozen as `_UserMatrix.reduce` leaves them."""
        scan = cls(basis, spread, block, threads)
        blocks = tuple(_int4_session_packed(np.asarray(packed[start : start + block]),
                                            np.asarray(steps[start : start + block]), basis.shape[1], threads)
                       for start in range(0, len(packed), block))
        scan.state = (blocks, *scan.state[1:])
        return scan

    def append(self, rows: np.ndarray, *, freeze: bool = False) -> None:
        """Code `rows`; whenever `block` rows are waiting they are frozen, and with `freeze` the rest too."""
        blocks, decoded, steps = self.state
        done, need = len(decoded), len(decoded) + len(rows)
        if need > len(self._decoded):  # grow geometrically: appends stay amortised O(1)
            self._decoded = grow(self._decoded, max(need, 2 * len(self._decoded)), done)
            self._steps = np.concatenate([self._steps[:done], np.empty(len(self._decoded) - done, np.float32)])
        if len(rows):  # written past what any reader sees
            coords, step = _coordinates(rows, self.basis, self.spread)
            self._decoded[done:need] = np.rint(coords / step[:, None]) * step[:, None]
            self._steps[done:need] = step
        decoded, steps = self._decoded[:need], self._steps[:need]
        if need >= self.block or (freeze and need):
            while len(decoded) >= self.block or (freeze and len(decoded)):
                codes = np.rint(decoded[: self.block] / steps[: self.block, None]).astype(np.int8)
                blocks = (*blocks, _int4_session(codes, steps[: self.block], self.threads))
                decoded, steps = decoded[self.block :], steps[self.block :]
            # the rest moves to new buffers: readers may still hold views of the old ones
            self._decoded, self._steps = decoded, steps = decoded.copy(), steps.copy()
        self.state = (blocks, decoded, steps)

    def scores(self, query: np.ndarray, n: int) -> np.ndarray:
        """float32 scores of the first `n` rows against `query` (a vector in the rows' space)."""
        blocks, decoded, _ = self.state
        weights = ((query @ self.basis) * self.spread).astype(np.float32)
        feed = {"weights": weights[None]}
        parts = [session.run(None, feed)[0][0] for session in blocks]
        parts.append(decoded @ weights)
        return np.concatenate(parts)[:n]


def fit(picked: np.ndarray, dims: int, basis: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(principal directions, the spread of `picked`'s coordinates on each) of a sample of rows: its top `dims`
    directions, or `basis` (fitted before on much the same rows)."""
    if basis is None:
        centred = picked - picked.mean(axis=0)
        _, directions = np.linalg.eigh(centred.T @ centred)  # ascending eigenvalues
        basis = np.ascontiguousarray(directions[:, ::-1][:, :dims], dtype=np.float32)
    spread = (picked @ basis).std(axis=0).astype(np.float32)
    spread[spread == 0] = 1.0
    return basis, spread


def _coordinates(rows: np.ndarray, basis: np.ndarray, spread: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows' coordinates on `basis` over `spread`, and each row's step (its largest coordinate / 7)."""
    coords = (rows @ basis) / spread
    step = np.abs(coords).max(axis=1) / 7
    step[step == 0] = 1.0
    return coords, step


def code_width(r: int) -> int:
    """Bytes of packed 4-bit codes per row for `r` directions (r rounded up to a power of two, at least 16)."""
    return max(16, 1 << (r - 1).bit_length()) // 2


def pack_codes(codes: np.ndarray) -> np.ndarray:
    """4-bit `codes` (n, r) in -8..7 as `MatMulNBits` holds them: (n, code_width(r)) bytes, low nibble first."""
    n, r = codes.shape
    width = 2 * code_width(r)
    nibbles = np.full((n, width), 8, np.uint8)  # stored as code + 8; the padding decodes to 0
    nibbles[:, :r] = codes + 8
    return nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)


def code_rows(rows: np.ndarray, basis: np.ndarray, spread: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(packed 4-bit codes, steps) of `rows`, exactly as `CoarseScan.append` then a freeze code them."""
    coords, step = _coordinates(rows, basis, spread)
    return pack_codes(np.rint(coords / step[:, None]).astype(np.int8)), step.astype(np.float32)


def _int4_session(codes: np.ndarray, steps: np.ndarray, threads: int) -> Any:
    """An onnxruntime session scoring rows held as 4-bit `codes` (n, r) in -8..7 times `steps` (n,) against float
    weights (1, r): one `MatMulNBits` block per row (block_size: r rounded up to a power of two, at least 16)."""
    return _int4_session_packed(pack_codes(codes), steps, codes.shape[1], threads)


def _int4_session_packed(packed: np.ndarray, steps: np.ndarray, r: int, threads: int) -> Any:
    """`_int4_session` of codes packed by `pack_codes`."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # idle between searches
    options.enable_cpu_mem_arena = False  # an arena per block would keep twice the codes' size (measured)
    return ort.InferenceSession(_matmul_nbits_model(packed, steps, r), options, providers=["CPUExecutionProvider"])


def _matmul_nbits_model(packed: np.ndarray, steps: np.ndarray, r: int) -> bytes:
    """The serialized ONNX model of one `MatMulNBits` node: scores (1, n) = weights (1, r) × the rows' 4-bit
    codes (block_size: the packed width) times their steps, both constants; written as protobuf directly
    (importing `onnx` cost a first recall seconds: docs/retrieval.md)."""
    n, half = packed.shape
    width = 2 * half
    Parts = list[bytes | memoryview]

    def message(field: int, parts: Parts) -> Parts:
        return [_varint(field << 3 | 2) + _varint(sum(len(p) for p in parts)), *parts]

    def string(field: int, value: bytes | memoryview) -> Parts:
        return message(field, [value])

    def integer(field: int, value: int) -> Parts:
        return [_varint(field << 3) + _varint(value)]

    def attribute(name: str, value: int) -> Parts:  # AttributeProto: name, i, type INT
        return message(5, [*string(1, name.encode()), *integer(3, value), *integer(20, 2)])

    def tensor(name: str, data_type: int, dims: tuple[int, ...], raw: memoryview) -> Parts:  # TensorProto
        return message(5, [*[p for d in dims for p in integer(1, d)], *integer(2, data_type),
                           *string(8, name.encode()), *string(9, raw)])

    def value_info(field: int, name: str, dims: tuple[int, ...]) -> Parts:  # ValueInfoProto of a float tensor
        shape = [p for d in dims for p in message(1, integer(1, d))]
        return message(field, [*string(1, name.encode()),
                               *message(2, message(1, [*integer(1, 1), *message(2, shape)]))])

    node = message(1, [*string(1, b"weights"), *string(1, b"codes"), *string(1, b"steps"), *string(2, b"scores"),
                       *string(4, b"MatMulNBits"), *attribute("K", r), *attribute("N", n),
                       *attribute("accuracy_level", 4), *attribute("bits", 4),  # 4: int8 arithmetic
                       *attribute("block_size", width), *string(7, b"com.microsoft")])
    codes = np.ascontiguousarray(packed, np.uint8).data.cast("B")  # the arrays' own bytes, not copies
    scales = np.ascontiguousarray(steps, np.float32).data.cast("B")
    graph = message(7, [*node, *string(2, b"coarse"), *tensor("codes", 2, (n, 1, half), codes),  # 2: UINT8
                        *tensor("steps", 1, (n,), scales),  # 1: FLOAT
                        *value_info(11, "weights", (1, r)), *value_info(12, "scores", (1, n))])
    opsets = [*message(8, [*string(1, b""), *integer(2, 13)]), *message(8, [*string(1, b"com.microsoft"),
                                                                            *integer(2, 1)])]
    return b"".join([*integer(1, 8), *graph, *opsets])  # ir_version 8


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def grow(array: np.ndarray, capacity: int, size: int) -> np.ndarray:
    """`array` with room for `capacity` rows, its first `size` rows kept."""
    if len(array) >= capacity:
        return array
    grown = np.empty((capacity, array.shape[1]), array.dtype)
    grown[:size] = array[:size]
    return grown

