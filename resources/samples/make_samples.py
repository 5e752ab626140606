#!/usr/bin/env python3
"""Writes the small sample files bundled with Strata (standard library only).

    python3 make_samples.py [OUTPUT_DIR]      # default: the folder of this script
    python3 make_samples.py --check [DIR]     # re-read the samples and check every rule

sample.zs  a ZS 0.10 file: 49 sorted "word<TAB>count" records in three deflate data blocks,
           one root index block, metadata as a JSON object.
sample.zt  a zTensor 1.0 file: two dense float32 tensors with crc32c digests.
sample.sidx  a Shardlake shard (version 1): 4 dimensions, one centroid, six vectors.
sample.ozdf  a standalone OZDF document with plain blocks, a comment and a list block.

The output is deterministic for a given zlib, so the committed files can be regenerated and
compared byte for byte.
"""

import hashlib
import json
import struct
import sys
import zlib
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# Checksums


def _reflected_table(poly):
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC64_XZ_TABLE = _reflected_table(0xC96C5795D7870F42)
_CRC32C_TABLE = _reflected_table(0x82F63B78)


def crc64_xz(data):
    crc = 0xFFFFFFFFFFFFFFFF
    for b in data:
        crc = _CRC64_XZ_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFFFFFFFFFF


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC32C_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


assert crc64_xz(b"123456789") == 0x995DC9BBDF1939FA
assert crc32c(b"123456789") == 0xE3069283

# ---------------------------------------------------------------------------------------------
# ZS 0.10

ZS_MAGIC = b"\xabZSfiLe\x01"

# Sorted by bytes (the ZS order), each with a made-up corpus count.
WORDS = """
able 1412 about 9210 above 1874 across 1203 after 6402 again 3307 against 1950 almost 1120
along 1388 already 1009 also 7420 always 2210 among 930 another 2411 answer 804 around 2655
away 2380 back 4870 because 5120 become 1290 before 3960 began 1011 behind 876 being 3301
below 702 best 2004 better 2310 between 2970 both 2533 bring 790 brought 811 call 1660
came 3012 can 8840 cannot 1005 carry 512 change 1720 children 1560 city 1330 close 1190
come 3880 could 6620 country 1430 course 1502 cover 640 cross 488 cut 910 dark 770 day 4410
""".split()
ZS_RECORDS = [f"{w}\t{c}".encode("ascii") for w, c in zip(WORDS[0::2], WORDS[1::2])]
ZS_RECORDS_PER_BLOCK = 20
ZS_METADATA = {
    "description": "Strata sample: English words with made-up counts",
    "record-format": "word<TAB>count",
}


def uleb128(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def read_uleb128(buf, pos):
    value = shift = 0
    start = pos
    while True:
        if pos >= len(buf):
            raise ValueError("uleb128 runs off the end")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if byte == 0 and pos - start > 1:
                raise ValueError("non-shortest uleb128")
            return value, pos
        if shift > 63:
            raise ValueError("uleb128 too long")


def deflate_raw(data):
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def zs_block(level, payload):
    """One block: uleb128 length, level byte, compressed payload, CRC-64-xz."""
    body = bytes([level]) + deflate_raw(payload)
    return uleb128(len(body)) + body + struct.pack("<Q", crc64_xz(body))


def make_zs():
    metadata = json.dumps(ZS_METADATA, ensure_ascii=True).encode("ascii")
    codec = b"deflate".ljust(16, b"\0")
    header_length = 8 * 3 + 32 + 16 + 8 + len(metadata)
    first_block = 8 + 8 + header_length + 8

    blocks = bytearray()
    data_hash = hashlib.sha256()
    index_entries = []
    for start in range(0, len(ZS_RECORDS), ZS_RECORDS_PER_BLOCK):
        records = ZS_RECORDS[start:start + ZS_RECORDS_PER_BLOCK]
        payload = b"".join(uleb128(len(r)) + r for r in records)
        data_hash.update(payload)
        block = zs_block(0, payload)
        index_entries.append((records[0], first_block + len(blocks), len(block)))
        blocks += block

    index_payload = b"".join(
        uleb128(len(key)) + key + uleb128(offset) + uleb128(length)
        for key, offset, length in index_entries)
    root = zs_block(1, index_payload)
    root_offset = first_block + len(blocks)
    blocks += root
    total_length = root_offset + len(root)

    header = struct.pack("<QQQ", root_offset, len(root), total_length)
    header += data_hash.digest() + codec + struct.pack("<Q", len(metadata)) + metadata
    assert len(header) == header_length
    out = ZS_MAGIC + struct.pack("<Q", header_length) + header
    out += struct.pack("<Q", crc64_xz(header)) + blocks
    assert len(out) == total_length
    return bytes(out)


def check_zs(buf):
    """Re-reads a ZS file and asserts every rule of the format that applies to it."""
    assert buf[:8] == ZS_MAGIC, "magic"
    (header_length,) = struct.unpack_from("<Q", buf, 8)
    header = buf[16:16 + header_length]
    (header_crc,) = struct.unpack_from("<Q", buf, 16 + header_length)
    assert crc64_xz(header) == header_crc, "header CRC"
    root_offset, root_length, total_length = struct.unpack_from("<QQQ", header, 0)
    assert total_length == len(buf), "total file length"
    data_sha256 = header[24:56]
    assert header[56:72].rstrip(b"\0") == b"deflate", "codec"
    (metadata_length,) = struct.unpack_from("<Q", header, 72)
    assert 80 + metadata_length <= header_length, "metadata inside the header"
    assert isinstance(json.loads(header[80:80 + metadata_length].decode("utf-8")), dict)

    blocks = {}  # offset -> (level, decompressed payload, total length)
    pos = 16 + header_length + 8
    while pos < len(buf):
        body_length, body_start = read_uleb128(buf, pos)
        body = buf[body_start:body_start + body_length]
        (crc,) = struct.unpack_from("<Q", buf, body_start + body_length)
        assert crc64_xz(body) == crc, f"block CRC at {pos}"
        decompressor = zlib.decompressobj(-15)
        payload = decompressor.decompress(body[1:]) + decompressor.flush()
        assert decompressor.eof and not decompressor.unused_data, f"deflate stream at {pos}"
        blocks[pos] = (body[0], payload, body_start + body_length + 8 - pos)
        pos = body_start + body_length + 8
    assert pos == len(buf), "blocks end at EOF"

    def entries(payload, is_index):
        p, out = 0, []
        while p < len(payload):
            n, p = read_uleb128(payload, p)
            assert p + n <= len(payload), "record extends past block"
            item = payload[p:p + n]
            p += n
            if is_index:
                offset, p = read_uleb128(payload, p)
                length, p = read_uleb128(payload, p)
                item = (item, offset, length)
            out.append(item)
        assert out, "empty block"
        return out

    data_hash = hashlib.sha256()
    records = []
    for level, payload, _ in blocks.values():
        if level == 0:
            data_hash.update(payload)
            block_records = entries(payload, False)
            assert block_records == sorted(block_records), "records sorted in block"
            records += block_records
    assert data_hash.digest() == data_sha256, "data SHA-256"
    assert records == sorted(records), "records sorted across blocks"

    level, payload, length = blocks[root_offset]
    assert level == 1 and length == root_length, "root index block"
    previous_last = b""
    for key, offset, child_length in entries(payload, True):
        child_level, child_payload, actual_length = blocks[offset]
        child_records = entries(child_payload, False)
        assert child_level == 0 and child_length == actual_length, "index entry"
        assert offset < root_offset, "children before their index block"
        assert previous_last <= key <= child_records[0], "index key order"
        previous_last = child_records[-1]
    assert records == ZS_RECORDS
    return len(records)


# ---------------------------------------------------------------------------------------------
# zTensor 1.0 with a hand-written CBOR encoder (Python has none built in)

ZT_MAGIC = b"ZTEN1000"
ZT_ALIGN = 64


def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for extra, size in ((24, "B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if value < 1 << (8 * struct.calcsize(size)):
            return bytes([major << 5 | extra]) + struct.pack(size, value)
    raise ValueError("integer too large for CBOR")


def cbor(value):
    """Definite-length CBOR for the few types a manifest needs; maps keep insertion order."""
    if isinstance(value, bool) or value is None:
        raise TypeError("not needed in a manifest")
    if isinstance(value, int):
        return cbor_head(0, value) if value >= 0 else cbor_head(1, -1 - value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return cbor_head(3, len(data)) + data
    if isinstance(value, list):
        return cbor_head(4, len(value)) + b"".join(cbor(v) for v in value)
    if isinstance(value, dict):
        return cbor_head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value).__name__)


# name -> (shape, row-major values); written in this order.
ZT_TENSORS = {
    "layer.weight": ([3, 4], [0.5 * i - 2.0 for i in range(12)]),
    "layer.bias": ([4], [0.25, -0.5, 1.0, 0.0]),
}


def make_zt():
    out = bytearray(ZT_MAGIC)
    tensors = {}
    for name, (shape, values) in ZT_TENSORS.items():
        out += bytes(-len(out) % ZT_ALIGN)
        data = struct.pack(f"<{len(values)}f", *values)
        component = {
            "offset": len(out),
            "length": len(data),
            "digest": f"crc32c:0x{crc32c(data):08X}",
        }
        out += data
        tensors[name] = {
            "dtype": "float32",
            "shape": shape,
            "format": "dense",
            "components": {"data": component},
        }
    manifest = cbor({
        "version": "1.0",
        "generator": "Strata make_samples.py",
        "attributes": {
            "description": "Strata sample: one dense layer",
            "license": "CC0-1.0",
        },
        "tensors": dict(sorted(tensors.items())),
    })
    out += manifest + struct.pack("<Q", len(manifest))
    return bytes(out)


def check_zt(buf):
    """Checks the layout rules of the sample zTensor file (the manifest is our own encoding)."""
    assert buf[:8] == ZT_MAGIC
    (manifest_size,) = struct.unpack_from("<Q", buf, len(buf) - 8)
    assert manifest_size < len(buf) - 16
    manifest_start = len(buf) - 8 - manifest_size
    assert buf[manifest_start:len(buf) - 8] == make_zt()[manifest_start:len(buf) - 8]
    end = 8
    for name, (shape, values) in ZT_TENSORS.items():
        offset = -(-end // ZT_ALIGN) * ZT_ALIGN
        assert buf[end:offset] == bytes(offset - end), f"zero padding before {name}"
        end = offset + 4 * len(values)
        assert list(struct.unpack_from(f"<{len(values)}f", buf, offset)) == values
        count = 1
        for dim in shape:
            count *= dim
        assert count == len(values)
    assert end == manifest_start, "manifest follows the last component"
    return len(ZT_TENSORS)


# ---------------------------------------------------------------------------------------------
# Shardlake shard, format version 1 (raw f32 records)

SIDX_MAGIC = b"SLKIDX\0\0"
SIDX_DIMS = 4
SIDX_CENTROID = [0.5, 0.25, -0.25, 0.0]
SIDX_VECTORS = [
    (101, [1.0, 0.0, 0.0, 0.0]),
    (102, [0.0, 1.0, 0.0, 0.0]),
    (103, [0.0, 0.0, 1.0, 0.0]),
    (104, [0.5, 0.5, 0.0, 0.0]),
    (105, [0.75, -0.25, 0.5, 0.125]),
    (106, [-1.0, 0.5, -0.5, 0.25]),
]


def make_sidx():
    out = SIDX_MAGIC + struct.pack("<IIIIQ", 1, 0, SIDX_DIMS, 1, len(SIDX_VECTORS))
    out += struct.pack(f"<{SIDX_DIMS}f", *SIDX_CENTROID)
    for vector_id, values in SIDX_VECTORS:
        out += struct.pack(f"<Q{SIDX_DIMS}f", vector_id, *values)
    return out


def check_sidx(buf):
    assert buf[:8] == SIDX_MAGIC
    version, _, dims, centroids, count = struct.unpack_from("<IIIIQ", buf, 8)
    assert version == 1 and centroids == 1
    assert len(buf) == 32 + centroids * dims * 4 + count * (8 + dims * 4), "exact length"
    return count


# ---------------------------------------------------------------------------------------------
# OZDF: a standalone document (UTF-8, no BOM, no line may start with ### or ===
# except the headers)

OZDF_TEXT = """#### TITLE
A Walk Through the Layers

#### AUTHOR
The Strata developers

#### COMMENT
This document is one of the samples bundled with Strata.

#### [CHAPTERS]
==== BEDROCK
At the bottom lies the oldest layer. Everything else rests on it, and
nothing above can be read without first knowing where it begins.

Paragraphs are separated by blank lines; line breaks inside a paragraph
are only for the eye.

==== SEDIMENT
Each new layer settles on the last one, in order, never in between.

====
An unnamed list item is allowed as well.
"""


def make_ozdf():
    return OZDF_TEXT.encode("utf-8")


def check_ozdf(buf):
    text = buf.decode("utf-8")
    assert not text.startswith("\ufeff"), "no byte order mark"
    headers = [line for line in text.split("\n") if line.startswith(("###", "==="))]
    for line in headers:
        assert line.startswith(("#### ", "====")), f"header {line!r}"
    assert text.split("\n", 1)[0].startswith("#### "), "content before the first header"
    return len(headers)


# ---------------------------------------------------------------------------------------------

SAMPLES = {
    "sample.zs": (make_zs, check_zs),
    "sample.zt": (make_zt, check_zt),
    "sample.sidx": (make_sidx, check_sidx),
    "sample.ozdf": (make_ozdf, check_ozdf),
}


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    folder = Path(args[0]) if args else Path(__file__).resolve().parent
    for name, (make, verify) in SAMPLES.items():
        path = folder / name
        if check:
            data = path.read_bytes()
            count = verify(data)
            same = "identical to" if data == make() else "differs from"
            print(f"{path}: ok ({count} items; {same} a fresh build)")
        else:
            data = make()
            verify(data)
            path.write_bytes(data)
            print(f"{path}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
