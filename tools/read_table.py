#!/usr/bin/env python3
"""A second, independent reader of solved's table files.

It was written from the format documentation alone (docs/table-format.md;
the section numbers below are its own), not from the Rust code, so that it
checks both: where it and `solved probe` agree on a position, the file and
its documentation agree too.

It reads Dodgem (a flat table or a unit directory), Tic-Tac-Chec (the full
table or its compact copy) and Dots and Boxes (the full sweep's margin
table), checks every header field and checksum the documentation lists,
and answers a position as `solved probe ... --json` does: `value` and
`distance` for Dodgem and Tic-Tac-Chec, the final score difference for
Dots and Boxes.

Module:  read_table.dodgem(data_dir, size, misere=False).lookup(text)
         read_table.tic_tac_chec(data_dir, pawn).lookup(text)
         read_table.dots_and_boxes(data_dir, rows, cols, variant).lookup(moves)
         lookup(None) is the start position (for Dots and Boxes "" too).
         Each refuses bad files and bad positions with TableError; each
         takes verify=True (False skips the CRCs over values only).
Command: read_table.py [--data-dir D] [--no-verify] GAME ... [POSITION]
         prints one JSON object; exit 2 with a one-line error otherwise.

Needs Python 3.10+ and `zstandard` (for unit files only). Whole-table
CRCs go through liblzma (Python's `lzma`), as pure Python would take
minutes over Tic-Tac-Chec's 2.5 GB; see crc_matches.
"""

import argparse
import json
import mmap
import os
import struct
import sys
import zlib
from collections import Counter, OrderedDict
from itertools import combinations
from math import comb
from pathlib import Path

try:
    import lzma
except ImportError:  # a Python built without liblzma: the pure CRC is used
    lzma = None


class TableError(Exception):
    """A file or a position this reader refuses; the message is one line."""


# ---------------------------------------------------------------------------
# CRC-64/XZ (table-format.md, "Conventions")

POLY = 0xC96C5795D7870F42
MASK64 = 0xFFFFFFFFFFFFFFFF


def _slice_tables():
    """The byte table of the docs, and seven more to take 8 bytes a step."""
    first = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ POLY if c & 1 else c >> 1
        first.append(c)
    tables = [first]
    for _ in range(7):
        prev = tables[-1]
        tables.append([(prev[i] >> 8) ^ first[prev[i] & 0xFF] for i in range(256)])
    return tables


_T = _slice_tables()


def crc64(chunks):
    """CRC-64/XZ of the concatenated chunks, in pure Python (10 to 15 MB/s)."""
    t0, t1, t2, t3, t4, t5, t6, t7 = _T
    c = MASK64
    for chunk in chunks:
        view = memoryview(chunk).cast("B")
        whole = len(view) // 8 * 8
        for (word,) in struct.iter_unpack("<Q", view[:whole]):
            c ^= word
            c = (t7[c & 0xFF] ^ t6[c >> 8 & 0xFF] ^ t5[c >> 16 & 0xFF] ^ t4[c >> 24 & 0xFF]
                 ^ t3[c >> 32 & 0xFF] ^ t2[c >> 40 & 0xFF] ^ t1[c >> 48 & 0xFF] ^ t0[c >> 56])
        for b in view[whole:]:
            c = t0[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ MASK64


def _vli(n):
    """xz's variable-length integer."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _xz_crc_matches(chunks, expected):
    """Whether the chunks' CRC-64/XZ is `expected`, asked of liblzma.

    Python has no CRC-64 of its own, and the pure one is too slow for a
    2.5 GB table. But CRC-64/XZ is xz's own check: wrap the bytes, stored
    uncompressed, in an xz stream whose check field is `expected`, and the
    decoder refuses the stream exactly when the CRC differs."""
    flags = b"\x00\x04"  # check type 4: CRC-64
    head = b"\xfd7zXZ\x00" + flags + struct.pack("<I", zlib.crc32(flags))
    # Block header: 12 bytes (size byte 12/4 - 1), no sizes, one filter:
    # LZMA2 (0x21) with one property byte, dictionary 4 KiB.
    block = bytes([2, 0, 0x21, 1, 0, 0, 0, 0])
    block += struct.pack("<I", zlib.crc32(block))
    dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    dec.decompress(head + block)
    packed, size, control = 0, 0, 1  # 1: first chunk resets the dictionary
    for chunk in chunks:
        view = memoryview(chunk).cast("B")
        for at in range(0, len(view), 65536):
            piece = view[at:at + 65536]
            # An LZMA2 uncompressed chunk: control byte, then size - 1 (u16 BE).
            dec.decompress(bytes([control]) + struct.pack(">H", len(piece) - 1))
            dec.decompress(piece)
            control, packed, size = 2, packed + 3 + len(piece), size + len(piece)
    packed += 1  # the LZMA2 end marker
    tail = b"\x00" + b"\x00" * (-packed % 4) + struct.pack("<Q", expected)
    index = b"\x00" + _vli(1) + _vli(len(block) + packed + 8) + _vli(size)
    index += b"\x00" * (-len(index) % 4)
    index += struct.pack("<I", zlib.crc32(index))
    back = struct.pack("<I", len(index) // 4 - 1) + flags
    foot = struct.pack("<I", zlib.crc32(back)) + back + b"YZ"
    try:
        dec.decompress(tail + index + foot)
    except lzma.LZMAError:
        return False
    return dec.eof


def _xz_works():
    """The xz route, tried once on the docs' check value, both ways."""
    if lzma is None:
        return False
    try:
        return (_xz_crc_matches([b"123456789"], 0x995DC9BBDF1939FA)
                and not _xz_crc_matches([b"123456789"], 0x995DC9BBDF1939FB))
    except Exception:  # noqa: BLE001 - any surprise means: use the pure CRC
        return False


_USE_XZ = None


def crc_matches(chunks, expected):
    """Whether CRC-64/XZ of the chunks (bytes-like, in order) is `expected`."""
    global _USE_XZ
    if _USE_XZ is None:
        assert crc64([b"123456789"]) == 0x995DC9BBDF1939FA
        _USE_XZ = _xz_works()
    if _USE_XZ:
        return _xz_crc_matches(chunks, expected)
    return crc64(chunks) == expected


# ---------------------------------------------------------------------------
# Headers and files (table-format.md §2, §3)

HEADER = 296
FOOTER = 48
BLOCK = 65536
BLOCK_BOUND = 65824  # zstd's compress bound of 65536 bytes
PACKED, MARGIN, COMPACT, UNIT, UNIT16 = 1, 2, 3, 5, 6


def _u64(buf, at):
    return struct.unpack_from("<Q", buf, at)[0]


def _text(buf, at):
    raw = bytes(buf[at:at + 16])
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


def parse_header(buf):
    """The header's fields, from the first 296 bytes."""
    version, encoding, index_version, facts = struct.unpack_from("<4I", buf, 8)
    return {
        "magic": bytes(buf[0:8]),
        "version": version,
        "encoding": encoding,
        "index_version": index_version,
        "facts": facts,
        "game": _text(buf, 24),
        "variant": _text(buf, 40),
        "size": _text(buf, 56),
        "positions": _u64(buf, 72),
        "tally": struct.unpack_from("<3Q", buf, 80),  # wins, losses, draws
    }


def check_header(path, buf, length, want):
    """Refuses the file unless its header is what `want` says, checking in
    the engine's order: length, magic, version, game, variant, size, index
    version, encoding, positions (if known), fact count."""
    if length < HEADER:
        raise TableError(f"{path}: short file ({length} bytes, a header is {HEADER})")
    h = parse_header(buf)
    checks = [
        ("magic", h["magic"], b"SOLVEDTB"),
        ("format version", h["version"], 1),
        ("game", h["game"], want["game"]),
        ("variant", h["variant"], want["variant"]),
        ("size", h["size"], want["size"]),
        ("index version", h["index_version"], want["index_version"]),
    ]
    for name, got, expected in checks:
        if got != expected:
            raise TableError(f"{path}: {name} is {got!r}, expected {expected!r}")
    if h["encoding"] not in want["encodings"]:
        raise TableError(f"{path}: encoding is {h['encoding']}, expected one of {sorted(want['encodings'])}")
    if want.get("positions") is not None and h["positions"] != want["positions"]:
        raise TableError(f"{path}: positions is {h['positions']}, expected {want['positions']}")
    if h["facts"] > 8:
        raise TableError(f"{path}: {h['facts']} facts, at most 8")
    return h


def payload_length(h):
    """n, the payload's length, from the encoding and the header (§3, §4)."""
    n = h["positions"]
    if h["encoding"] in (PACKED, MARGIN, UNIT):
        return n
    if h["encoding"] == UNIT16:
        return 2 * n
    if h["encoding"] == COMPACT:
        words = _compact_words(n, h["tally"][0] + h["tally"][1])
        return 8 * sum(words)
    raise TableError(f"encoding {h['encoding']} is not read here")


def _compact_words(n, decisive):
    bitmap = -(-n // 64)
    return bitmap, -(-bitmap // 8), -(-6 * decisive // 64)


def _open(path):
    try:
        return open(path, "rb")
    except OSError as e:
        raise TableError(f"{path}: cannot open: {e.strerror}") from None


class WholeTable:
    """A table with its payload in the clear (encodings 1, 2, 3; §3.1),
    mapped rather than read, since Tic-Tac-Chec's is 2.5 GB."""

    def __init__(self, path, want, verify=True):
        with _open(path) as f:
            length = os.fstat(f.fileno()).st_size
            if length < HEADER:
                raise TableError(f"{path}: short file ({length} bytes, a header is {HEADER})")
            self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.header = check_header(path, self.map, length, want)
        n = payload_length(self.header)
        if length != HEADER + n + 8:
            raise TableError(f"{path}: {length} bytes, the header says {HEADER + n + 8}")
        if verify:
            stored = _u64(self.map, HEADER + n)
            if not crc_matches(_pieces(self.map, 0, HEADER + n), stored):
                raise TableError(f"{path}: bad CRC (the file is damaged)")
        self.n = n

    def byte(self, offset):
        return self.map[HEADER + offset]

    def word(self, offset):
        return _u64(self.map, HEADER + offset)


def _pieces(buf, start, end, step=1 << 24):
    """memoryviews of buf[start:end], 16 MB at a time, so that a mapped
    file is read once, in order, and never copied whole."""
    view = memoryview(buf)
    for at in range(start, end, step):
        yield view[at:min(end, at + step)]


class BlockTable:
    """A table of zstd blocks (encodings 4, 5, 6; §3.2). Blocks are read,
    checked and decompressed when first needed, and kept."""

    def __init__(self, path, want, verify=True):
        self.path, self.verify, self.cache = path, verify, OrderedDict()
        with _open(path) as f:
            length = os.fstat(f.fileno()).st_size
            head = f.read(HEADER)
            self.header = check_header(path, head, length, want)
            if length < HEADER + FOOTER or _pread(f, length - 8, 8) != b"SOLVEDBK":
                raise TableError(f"{path}: no block footer (short file or not SOLVEDBK at the end)")
            numbers = _pread(f, length - FOOTER, 40)
            block_len, n, count, data_len, list_crc = struct.unpack("<5Q", numbers)
            if length != HEADER + data_len + 16 * count + FOOTER:
                raise TableError(f"{path}: {length} bytes, the footer says {HEADER + data_len + 16 * count + FOOTER}")
            blocks = _pread(f, length - FOOTER - 16 * count, 16 * count)
        if block_len != BLOCK or count != -(-n // BLOCK):
            raise TableError(f"{path}: bad footer (block length {block_len}, {count} blocks for {n} bytes)")
        # The list CRC covers the header, the block list and the four numbers.
        if not crc_matches([head, blocks, numbers[:32]], list_crc):
            raise TableError(f"{path}: bad block list CRC (the file is damaged)")
        self.ends = [_u64(blocks, 16 * k) for k in range(count)]
        self.crcs = [_u64(blocks, 16 * k + 8) for k in range(count)]
        previous = 0
        for end in self.ends:
            if not 1 <= end - previous <= BLOCK_BOUND:
                raise TableError(f"{path}: a block of {end - previous} bytes in the block list")
            previous = end
        if previous != data_len:
            raise TableError(f"{path}: the blocks end at {previous}, the footer says {data_len}")
        if n != payload_length(self.header):
            raise TableError(f"{path}: payload of {n} bytes, the header implies {payload_length(self.header)}")
        self.n = n

    def block(self, k):
        if k in self.cache:
            self.cache.move_to_end(k)
            return self.cache[k]
        start = self.ends[k - 1] if k else 0
        with _open(self.path) as f:
            packed = _pread(f, HEADER + start, self.ends[k] - start)
        if self.verify and not crc_matches([packed], self.crcs[k]):
            raise TableError(f"{self.path}: bad CRC in block {k} (the file is damaged)")
        want = min(BLOCK, self.n - BLOCK * k)
        data = _zstd(packed, self.path, k)
        if len(data) != want:
            raise TableError(f"{self.path}: block {k} holds {len(data)} bytes, expected {want}")
        self.cache[k] = data
        if len(self.cache) > 256:  # 16 MB of blocks a file is plenty
            self.cache.popitem(last=False)
        return data

    def byte(self, offset):
        return self.block(offset // BLOCK)[offset % BLOCK]

    def u16(self, offset):
        # A u16 at an even offset never straddles two blocks of 65536 bytes.
        block = self.block(offset // BLOCK)
        return struct.unpack_from("<H", block, offset % BLOCK)[0]


def _pread(f, offset, size):
    f.seek(offset)
    data = f.read(size)
    if len(data) != size:
        raise TableError(f"{f.name}: short file")
    return data


def _zstd(packed, path, k):
    try:
        import zstandard
    except ImportError:
        raise TableError("the Python package zstandard is needed for files of blocks "
                         "(scripts/reader-setup makes a Python with it)") from None
    try:
        return zstandard.ZstdDecompressor().decompress(packed, max_output_size=BLOCK)
    except zstandard.ZstdError as e:
        raise TableError(f"{path}: block {k} does not decompress: {e}") from None


# ---------------------------------------------------------------------------
# Cell values (§4.1, §4.2)

def packed_value(code):
    """A packed code (one byte or two) as probe's value and distance."""
    if code == 0:
        return {"value": "draw", "distance": None}
    if code & 1:
        return {"value": "win", "distance": (code - 1) // 2}
    return {"value": "loss", "distance": (code - 2) // 2}


def store_dir(data_dir):
    """The store: --data-dir, else $SOLVED_DATA_DIR, else $XDG_DATA_HOME/solved,
    else ~/.local/share/solved (§1)."""
    if data_dir:
        return Path(data_dir)
    if os.environ.get("SOLVED_DATA_DIR"):
        return Path(os.environ["SOLVED_DATA_DIR"])
    if os.environ.get("XDG_DATA_HOME"):
        return Path(os.environ["XDG_DATA_HOME"]) / "solved"
    return Path.home() / ".local" / "share" / "solved"


# ---------------------------------------------------------------------------
# Dodgem (§5, §8.1)

class DodgemNumbering:
    """The units numbering of stored (Blue to move) positions, §8.1.3 to §8.1.5.
    Squares are bits s = n*y + x (x the file, y the rank, from 0)."""

    def __init__(self, n):
        self.n, self.top = n, (n - 1) ** 2
        self.vectors = self._vectors()
        self.lists = {}  # (r, t) -> L(r, t), in the order of V
        for v in self.vectors:
            self.lists.setdefault((sum(v), self._weight(v)), []).append(v)
        self.t_cache, self.prefix_cache, self.half_cache, self.histograms = {}, {}, {}, {}
        self.classes = self._classes()
        self._units()

    def _vectors(self):
        """V: count vectors with digits adding up to at most n - 1, by code."""
        n, out = self.n, []
        for code in range(n ** n):
            v = tuple(code // n ** y % n for y in range(n))
            if sum(v) <= n - 1:
                out.append(v)
        return out

    @staticmethod
    def _weight(v):
        return sum(y * c for y, c in enumerate(v))

    def cnt(self, mask):
        n = self.n
        return tuple(bin(mask >> (n * y) & ((1 << n) - 1)).count("1") for y in range(n))

    def reflect(self, mask):
        n, out = self.n, 0
        for s in range(n * n):
            if mask >> s & 1:
                out |= 1 << (s % n * n + s // n)
        return out

    def g(self, p, v):
        out = 1
        for y in range(self.n):
            out *= comb(self.n - p[y], v[y])
        return out

    def t(self, p, r, t):
        key = (p, r, t)
        if key not in self.t_cache:
            self.t_cache[key] = sum(self.g(p, v) for v in self.lists.get((r, t), ()))
        return self.t_cache[key]

    def red(self, blue, red):
        """red(B, R) of §8.1.4: group start, then per-rank colex digits."""
        n, p, v = self.n, self.cnt(blue), self.cnt(red)
        start = 0
        for w in self.lists[(sum(v), self._weight(v))]:
            if w == v:
                break
            start += self.g(p, w)
        number, place = 0, 1
        for y in range(n):
            free = [x for x in range(n) if not blue >> (n * y + x) & 1]
            at = [i for i, x in enumerate(free) if red >> (n * y + x) & 1]
            number += sum(comb(i, j + 1) for j, i in enumerate(at)) * place
            place *= comb(len(free), len(at))
        return start + number

    def blue_rank(self, blue):
        return self.red(0, self.reflect(blue))

    def _classes(self):
        """For each class (b, sx): the profiles cnt(B') of its Blue sets, in
        blue_rank order. The docs say blue_rank is dense; it is checked."""
        n, groups = self.n, {}
        for b in range(n):
            for squares in combinations(range(n * n), b):
                mask = sum(1 << s for s in squares)
                key = (b, sum(s % n for s in squares))
                groups.setdefault(key, []).append((self.blue_rank(mask), self.cnt(mask)))
        classes = {}
        for key, members in groups.items():
            members.sort()
            if [rank for rank, _ in members] != list(range(len(members))):
                raise TableError(f"dodgem: blue_rank is not dense over class {key} (docs §8.1.5)")
            classes[key] = [p for _, p in members]
            self.histograms[key] = Counter(classes[key])
        return classes

    def before(self, b, sx, r, sy, rank):
        """Σ T(cnt(B'), r, sy) over the class's sets of blue_rank < rank."""
        key = (b, sx, r, sy)
        if key not in self.prefix_cache:
            sums = [0]
            for p in self.classes.get((b, sx), ()):
                sums.append(sums[-1] + self.t(p, r, sy))
            self.prefix_cache[key] = sums
        return self.prefix_cache[key][rank]

    def half(self, key):
        """H(b, r, sx, sy) of §8.1.5, from the class's profile counts."""
        if key not in self.half_cache:
            b, r, sx, sy = key
            counts = self.histograms.get((b, sx), {})
            self.half_cache[key] = sum(k * self.t(p, r, sy) for p, k in counts.items())
        return self.half_cache[key]

    def _units(self):
        """Units: canonical keys, sorted as §8.1.5 step 3, and their starts."""
        n, top = self.n, self.top
        canon = set()
        for b in range(n):
            for r in range(n):
                for sx in range(top + 1):
                    for sy in range(top + 1):
                        key = (b, r, sx, sy)
                        if self.half(key):
                            canon.add(min(key, mirror_key(key)))
        order = sorted(canon, key=lambda k: (k[0] + k[1], -(k[2] + k[3]), k))
        self.unit_of, self.lengths, self.starts = {}, [], []
        total = 0
        for u, c in enumerate(order):
            length = self.half(c) + (self.half(mirror_key(c)) if mirror_key(c) != c else 0)
            self.unit_of[c] = u
            self.starts.append(total)
            self.lengths.append(length)
            total += length
        self.total = total

    def locate(self, blue, red):
        """(unit, index in unit) of a stored position (§8.1.5)."""
        n = self.n
        key = (bin(blue).count("1"), bin(red).count("1"),
               sum(s % n for s in range(n * n) if blue >> s & 1),
               sum(s // n for s in range(n * n) if red >> s & 1))
        c = min(key, mirror_key(key))
        first = 0 if key == c else self.half(c)
        b, r, sx, sy = key
        in_half = self.before(b, sx, r, sy, self.blue_rank(blue)) + self.red(blue, red)
        return self.unit_of[c], first + in_half


def mirror_key(key):
    b, r, sx, sy = key
    return (r, b, sy, sx)


def dodgem_start(n):
    """Blue on a2 to an, Red on b1 to n1, Blue to move (§8.1.1)."""
    ranks = ["B" + "." * (n - 1)] * (n - 1) + ["." + "R" * (n - 1)]
    return "/".join(ranks) + " B"


def parse_dodgem(text, n):
    """(blue mask, red mask, side) of a position text `RANKS SIDE` (§8.1.1)."""
    text = text.strip()
    if " " not in text:
        raise TableError(f"dodgem position {text!r}: expected `RANKS SIDE`, e.g. {dodgem_start(n)!r}")
    ranks, side = text.split(" ", 1)
    side = side.strip()
    if side not in ("B", "R"):
        raise TableError(f"dodgem position {text!r}: the side to move is B or R, not {side!r}")
    rows = ranks.split("/")
    if len(rows) != n or any(len(row) != n for row in rows):
        raise TableError(f"dodgem position {text!r}: expected {n} ranks of {n} squares")
    blue = red = 0
    for row, rank in enumerate(rows):
        for x, ch in enumerate(rank):
            bit = 1 << (n * (n - 1 - row) + x)  # the top rank is written first
            if ch == "B":
                blue |= bit
            elif ch == "R":
                red |= bit
            elif ch != ".":
                raise TableError(f"dodgem position {text!r}: unknown square {ch!r} (B, R or .)")
    if max(bin(blue).count("1"), bin(red).count("1")) > n - 1:
        raise TableError(f"dodgem position {text!r}: a side has more than {n - 1} cars")
    if not blue and not red:
        raise TableError(f"dodgem position {text!r}: no car on the board")
    return blue, red, side


class Dodgem:
    """Dodgem values from a flat table or a unit directory (§5, §8.1.6)."""

    def __init__(self, data_dir, size, misere=False, verify=True):
        if not 2 <= size <= 6:
            raise TableError(f"dodgem: size {size} is not 2 to 6")
        self.n, self.verify = size, verify
        variant = "misere" if misere else "normal"
        store = store_dir(data_dir)
        name = f"dodgem-{variant}-{size}x{size}"
        self.want = {"game": "dodgem", "variant": variant, "index_version": 3}
        self.numbering = DodgemNumbering(size)
        flat, self.units_dir = store / f"{name}.tbl", store / f"{name}.units"
        self.flat, self.units = None, {}
        if flat.exists():
            self.flat = WholeTable(flat, dict(self.want, size=f"{size}x{size}", encodings={PACKED},
                                              positions=self.numbering.total), verify)
        elif not self.units_dir.is_dir():
            raise TableError(f"dodgem: neither {flat} nor {self.units_dir} exists")

    def unit(self, u):
        if u not in self.units:
            path = self.units_dir / f"unit-{u:05d}.unit.tbl"
            if not path.exists():
                raise TableError(f"{path}: missing (unit {u} not solved yet)")
            want = dict(self.want, size=f"{self.n}x{self.n}:{u}", encodings={UNIT, UNIT16},
                        positions=self.numbering.lengths[u])
            self.units[u] = BlockTable(path, want, self.verify)
        return self.units[u]

    def lookup(self, text):
        blue, red, side = parse_dodgem(dodgem_start(self.n) if text is None else text, self.n)
        if side == "R":  # the mirror image, Blue to move, has the same value
            blue, red = self.numbering.reflect(red), self.numbering.reflect(blue)
        u, i = self.numbering.locate(blue, red)
        if self.flat:
            return packed_value(self.flat.byte(self.numbering.starts[u] + i))
        table = self.unit(u)
        if table.header["encoding"] == UNIT16:
            return packed_value(table.u16(2 * i))
        return packed_value(table.byte(i))


def dodgem(data_dir, size, misere=False, verify=True):
    return Dodgem(data_dir, size, misere, verify)


# ---------------------------------------------------------------------------
# Tic-Tac-Chec (§8.2)

HAND = 16
SLOTS = "PNBRpnbr"  # slot 4*colour + role
OTHERS = [1, 2, 3, 5, 6, 7]  # N B R n b r
TTC_START = "..../..../..../.... w -- open"


def _arrangements(n, k):
    """P(n, k) = n! / (n - k)!"""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _ttc_tables():
    """Pawn states, pair ranks, block starts and opening starts (§8.2.2)."""
    states = [(s, d) for s in range(16) for d in (0, 1)  # d: 0 up, 1 down
              if not (s < 4 and d == 1) and not (s >= 12 and d == 0)]
    state_of = {sd: i for i, sd in enumerate(states)}
    pairs = {}
    for w in range(24):
        for b in range(24):
            if states[w][0] != states[b][0]:
                pairs[(w, b)] = len(pairs)
    starts, n = {}, 0
    for pawns, (on_board, combos) in enumerate([(0, 1), (1, 24), (1, 24), (2, 536)]):
        for others in range(64):
            starts[(pawns, others)] = n
            n += combos * _arrangements(16 - on_board, bin(others).count("1"))
    opening = [n]
    for ply in range(6):
        opening.append(opening[-1] + comb(4, (ply + 1) // 2) * comb(4, ply // 2) * _arrangements(16, ply))
    return state_of, pairs, starts, opening


TTC_STATE, TTC_PAIR, TTC_START_OF, TTC_OPENING = _ttc_tables()
TTC_POSITIONS = TTC_OPENING[-1]  # 2,476,597,610


class _Illegal(Exception):
    """Why a Tic-Tac-Chec text is refused; parse_ttc adds the text."""


def parse_ttc(text):
    """(squares by slot, pawn directions [white, black] as 0 up / 1 down,
    side, opening?) of `BOARD SIDE DIRS PHASE` (§8.2.1), refusing what
    `solved probe` refuses."""
    try:
        return _parse_ttc(text)
    except _Illegal as why:
        raise TableError(f"tic-tac-chec position {text!r}: {why}") from None


def _parse_ttc(text):
    fields = text.split()
    if len(fields) != 4:
        raise _Illegal(f"expected `BOARD SIDE DIRS PHASE`, e.g. {TTC_START!r}")
    board, side, dirs, phase = fields
    squares = _ttc_board(board)
    if side not in ("w", "b"):
        raise _Illegal("the side to move is w or b")
    if phase not in ("open", "post"):
        raise _Illegal("the phase is open or post")
    directions = _pawn_dirs(squares, dirs)
    if phase == "open":
        _check_opening(squares, directions, side)
    return squares, directions, side, phase == "open"


def _ttc_board(board):
    rows = board.split("/")
    if len(rows) != 4 or any(len(row) != 4 for row in rows):
        raise _Illegal("the board is 4 ranks of 4 squares")
    squares = [HAND] * 8
    for j, row in enumerate(rows):
        for i, ch in enumerate(row):
            if ch == ".":
                continue
            if ch not in SLOTS:
                raise _Illegal(f"unknown piece {ch!r}")
            if squares[SLOTS.index(ch)] != HAND:
                raise _Illegal(f"two pieces {ch!r}")
            squares[SLOTS.index(ch)] = 4 * (3 - j) + i  # the top rank is written first
    return squares


def _pawn_dirs(squares, dirs):
    if len(dirs) != 2 or any(c not in "ud-" for c in dirs):
        raise _Illegal("pawn directions are two of u, d, -")
    out = []
    for colour, c in enumerate(dirs):
        s = squares[4 * colour]
        if (s == HAND) != (c == "-"):
            raise _Illegal("a pawn's direction is - exactly when it is in hand")
        if s != HAND and ((s < 4 and c != "u") or (s >= 12 and c != "d")):
            raise _Illegal("a pawn on rank 1 faces up (u), on rank 4 down (d)")
        out.append(1 if c == "d" else 0)
    return out


def _check_opening(squares, dirs, side):
    # §8.2.1 gives the counts and the turn; six pieces end the opening, and a
    # pawn placed in it faces its home direction unless the turnaround rule
    # forces it (stated in an earlier draft of the docs). Probe refuses all.
    white = sum(s != HAND for s in squares[:4])
    black = sum(s != HAND for s in squares[4:])
    if white not in (black, black + 1) or white + black >= 6:
        raise _Illegal("an opening position has as many White pieces as Black, or one more, and fewer than six")
    if side != ("w" if white == black else "b"):
        raise _Illegal("in the opening, White places when the counts are equal, else Black")
    for colour, home in ((0, 0), (1, 1)):  # White's home direction is up, Black's down
        s = squares[4 * colour]
        forced = 0 if s < 4 else 1 if s >= 12 else home
        if s != HAND and dirs[colour] != forced:
            raise _Illegal("in the opening, a pawn faces its home direction")


def _below_free(s, taken):
    return sum(1 for t in range(s) if t not in taken)


def ttc_index(squares, dirs, side, opening):
    if opening:
        return _ttc_opening_index(squares)
    if side == "b":  # colour swap: the board turned, colours and directions swapped
        squares = [HAND if squares[(i + 4) % 8] == HAND else 15 - squares[(i + 4) % 8] for i in range(8)]
        dirs = [1 - dirs[1], 1 - dirs[0]]
    wp, bp = squares[0], squares[4]
    pawns = (wp != HAND) | (bp != HAND) << 1
    ws, bs = TTC_STATE.get((wp, dirs[0])), TTC_STATE.get((bp, dirs[1]))
    pawn_rank = [0, ws, bs, TTC_PAIR.get((ws, bs))][pawns]
    taken = {s for s in (wp, bp) if s != HAND}
    free = left = 16 - len(taken)
    others = placement = 0
    for bit, slot in enumerate(OTHERS):
        s = squares[slot]
        if s != HAND:
            others |= 1 << bit
            placement = placement * left + _below_free(s, taken)
            left -= 1
            taken.add(s)
    per_rank = _arrangements(free, bin(others).count("1"))
    return TTC_START_OF[(pawns, others)] + pawn_rank * per_rank + placement


def _ttc_opening_index(squares):
    white = sum(s != HAND for s in squares[:4])
    black = sum(s != HAND for s in squares[4:])
    ply = white + black

    def colex(first):  # colex rank of the roles on the board among masks of that size
        roles = [r for r in range(4) if squares[first + r] != HAND]
        return sum(comb(e, k + 1) for k, e in enumerate(roles))

    placement, left, taken = 0, 16, set()
    for s in squares:
        if s != HAND:
            placement = placement * left + _below_free(s, taken)
            left -= 1
            taken.add(s)
    subsets = colex(0) * comb(4, black) + colex(4)
    return TTC_OPENING[ply] + subsets * _arrangements(16, ply) + placement


class TicTacChec:
    """Tic-Tac-Chec values from the compact copy if there is one, else the
    full table, as a probe does (§8.2.2)."""

    def __init__(self, data_dir, pawn="travel", verify=True):
        if pawn not in ("travel", "outbound"):
            raise TableError(f"tic-tac-chec: pawn rule {pawn!r} is travel or outbound")
        store = store_dir(data_dir)
        want = {"game": "tic-tac-chec", "variant": pawn, "size": "4x4",
                "index_version": 1, "positions": TTC_POSITIONS}
        compact = store / f"tic-tac-chec-{pawn}-4x4.compact.tbl"
        full = store / f"tic-tac-chec-{pawn}-4x4.tbl"
        if compact.exists():
            self.table = WholeTable(compact, dict(want, encodings={COMPACT}), verify)
            n, decisive = TTC_POSITIONS, sum(self.table.header["tally"][:2])
            self.bitmap_words, self.directory_words, _ = _compact_words(n, decisive)
        elif full.exists():
            self.table = WholeTable(full, dict(want, encodings={PACKED}), verify)
        else:
            raise TableError(f"tic-tac-chec: neither {full} nor {compact} exists")

    def lookup(self, text):
        squares, dirs, side, opening = parse_ttc(TTC_START if text is None else text)
        i = ttc_index(squares, dirs, side, opening)
        if self.table.header["encoding"] == PACKED:
            return packed_value(self.table.byte(i))
        return self._compact(i)

    def _compact(self, i):
        """§4.4: the bitmap says decisive or not; the rank among decisive
        indices (directory + popcounts) finds the 6-bit distance."""
        t, word_i = self.table, i // 64
        word = t.word(8 * word_i)
        if not word >> (i % 64) & 1:
            return {"value": "draw", "distance": None}
        group = word_i // 8
        r = t.word(8 * (self.bitmap_words + group))
        for j in range(8 * group, word_i):
            r += t.word(8 * j).bit_count()
        r += (word & ((1 << (i % 64)) - 1)).bit_count()
        bit = 6 * r
        base = 8 * (self.bitmap_words + self.directory_words)
        low = t.word(base + 8 * (bit // 64)) >> (bit % 64)
        if bit % 64 > 58:  # straddles two words
            low |= t.word(base + 8 * (bit // 64 + 1)) << (64 - bit % 64)
        d = low & 63
        return {"value": "win" if d & 1 else "loss", "distance": d}


def tic_tac_chec(data_dir, pawn="travel", verify=True):
    return TicTacChec(data_dir, pawn, verify)


# ---------------------------------------------------------------------------
# Dots and Boxes (§8.3.1 to §8.3.3)

def is_predrawn(r, c, rows, cols, variant):
    if variant == "swedish":
        return r in (0, 2 * rows) or c in (0, 2 * cols)
    if variant == "icelandic":
        return r == 2 * rows or c == 0
    return False


class DotsAndBoxes:
    """Final scores from the full sweep's margin table (encoding 2): the
    index is the set of drawn free lines, bit k for free line k in Wilson
    order (§8.3.2)."""

    def __init__(self, data_dir, rows, cols, variant="american", verify=True):
        if variant not in ("american", "swedish", "icelandic"):
            raise TableError(f"dots-and-boxes: variant {variant!r} is american, swedish or icelandic")
        if not (1 <= rows <= 12 and 1 <= cols <= 12):
            raise TableError("dots-and-boxes: rows and cols are 1 to 12")
        self.rows, self.cols, self.variant = rows, cols, variant
        self.free = [(r, c) for r in range(2 * rows + 1) for c in range(2 * cols + 1)
                     if (r + c) % 2 == 1 and not is_predrawn(r, c, rows, cols, variant)]
        self.bit = {line: k for k, line in enumerate(self.free)}
        if len(self.free) > 30:
            raise TableError(f"dots-and-boxes {rows}x{cols} {variant}: {len(self.free)} free lines; "
                             "the full sweep's table exists only for at most 30")
        name = f"dots-and-boxes-{variant}-{rows}x{cols}.tbl"
        want = {"game": "dots-and-boxes", "variant": variant, "size": f"{rows}x{cols}",
                "index_version": 1, "encodings": {MARGIN}, "positions": 1 << len(self.free)}
        self.table = WholeTable(store_dir(data_dir) / name, want, verify)

    def drawn(self, drawn, line):
        return drawn >> self.bit[line] & 1 if line in self.bit else True

    def play(self, moves):
        """(drawn mask, A's boxes - B's so far, who is to move) after the moves."""
        drawn, score, turn = 0, 0, "A"
        names = [m.strip() for m in moves.split(",")] if moves.strip() else []
        for number, name in enumerate(names, 1):
            line = self._line(name, number)
            # The variant's lines count as drawn, so naming one is refused too.
            if self.drawn(drawn, line):
                raise TableError(f"dots-and-boxes: move {number}: {name} is drawn already")
            drawn |= 1 << self.bit[line]
            taken = sum(1 for box in self._boxes(line)
                        if all(self.drawn(drawn, side) for side in box_sides(*box)))
            score += taken if turn == "A" else -taken
            if not taken:  # a move that completes no box passes the turn
                turn = "B" if turn == "A" else "A"
        return drawn, score, turn

    def _line(self, name, number):
        """(text row, column) of a line named by two letters (§8.3.1)."""
        r, c = (ord(name[0]) - 97, ord(name[1]) - 97) if len(name) == 2 else (-1, -1)
        if not (0 <= r <= 2 * self.rows and 0 <= c <= 2 * self.cols and (r + c) % 2 == 1):
            raise TableError(f"dots-and-boxes: move {number}: {name!r} is not a line of this board")
        return r, c

    def _boxes(self, line):
        r, c = line
        near = [(r // 2 - 1, c // 2), (r // 2, c // 2)] if r % 2 == 0 else [(r // 2, c // 2 - 1), (r // 2, c // 2)]
        return [(i, j) for i, j in near if 0 <= i < self.rows and 0 <= j < self.cols]

    def lookup(self, moves):
        drawn, score, turn = self.play(moves or "")
        margin = self.table.byte(drawn)
        margin -= 256 if margin > 127 else 0  # an i8
        return {"value": score + (margin if turn == "A" else -margin)}


def box_sides(i, j):
    return [(2 * i, 2 * j + 1), (2 * i + 2, 2 * j + 1), (2 * i + 1, 2 * j), (2 * i + 1, 2 * j + 2)]


def dots_and_boxes(data_dir, rows, cols, variant="american", verify=True):
    return DotsAndBoxes(data_dir, rows, cols, variant, verify)


# ---------------------------------------------------------------------------
# Command line

class Parser(argparse.ArgumentParser):
    def error(self, message):
        """A usage error in one line, exit 2, like every other refusal."""
        self.exit(2, f"read_table: error: {message} (see --help)\n")


def arguments(argv):
    parser = Parser(description="Read a position's value from solved's table files.")
    parser.add_argument("--data-dir", help="the store (default: $SOLVED_DATA_DIR, else "
                                           "$XDG_DATA_HOME/solved, else ~/.local/share/solved)")
    parser.add_argument("--no-verify", action="store_true",
                        help="skip the CRCs over values (the header is still checked)")
    games = parser.add_subparsers(dest="game", required=True)
    d = games.add_parser("dodgem")
    d.add_argument("--size", type=int, required=True)
    d.add_argument("--misere", action="store_true")
    d.add_argument("position", nargs="?", help="e.g. 'B.../B.../B.../.RRR B' (default: the start)")
    t = games.add_parser("tic-tac-chec")
    t.add_argument("--pawn", default="travel", choices=["travel", "outbound"])
    t.add_argument("position", nargs="?", help=f"e.g. {TTC_START!r} (the default: the start)")
    b = games.add_parser("dots-and-boxes")
    b.add_argument("--rows", type=int, required=True)
    b.add_argument("--cols", type=int, required=True)
    b.add_argument("--variant", default="american", choices=["american", "swedish", "icelandic"])
    b.add_argument("moves", nargs="?", default="", help="lines drawn so far, e.g. ab,ba (default: none)")
    return parser.parse_args(argv)


def main(argv=None):
    args = arguments(argv)
    verify = not args.no_verify
    try:
        if args.game == "dodgem":
            answer = dodgem(args.data_dir, args.size, args.misere, verify).lookup(args.position)
        elif args.game == "tic-tac-chec":
            answer = tic_tac_chec(args.data_dir, args.pawn, verify).lookup(args.position)
        else:
            answer = dots_and_boxes(args.data_dir, args.rows, args.cols, args.variant, verify).lookup(args.moves)
    except TableError as e:
        print(f"read_table: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
