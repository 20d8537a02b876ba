#!/usr/bin/env python3
"""Write the hostile `.eval` seeds of the inspect_eval fuzz target (issue 14;
docs/fuzzing.md): small versions of the zip bombs of
crates/gapscope-data/tests/hostile_eval.rs. Deterministic; run from fuzz/:

    python3 make_eval_bombs.py   # writes corpus/inspect_eval/bomb-*.eval
"""
import struct
import zlib

HEADER = b'{"version": 2, "eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "match", "scorer": "match"}]}}'


def sample(i, value):
    return ('{"id": "%s", "epoch": 1, "messages": [{"role": "user", "content": "hi"}], '
            '"scores": {"match": {"value": "%s"}}}' % (i, value)).encode()


def member(name, method, raw, size, crc):
    return dict(name=name.encode(), method=method, raw=raw, size=size, crc=crc)


def stored(name, data):
    return member(name, 0, data, len(data), zlib.crc32(data))


def deflate(name, data, declared=None, crc=None):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = c.compress(data) + c.flush()
    return member(name, 8, raw, len(data) if declared is None else declared,
                  zlib.crc32(data) if crc is None else crc)


def zstd_header(content_size, single=False):
    if single:  # single segment: the window is the content size
        return b"\x28\xb5\x2f\xfd" + bytes([0xE0]) + struct.pack("<Q", content_size)
    return b"\x28\xb5\x2f\xfd" + bytes([0xC0, 7 << 3]) + struct.pack("<Q", content_size)


def block(last, kind, size):
    v = int(last) | (kind << 1) | (size << 3)
    return bytes([v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF])


def zstd_raw(name, data, crc=None):
    raw = zstd_header(len(data)) + block(True, 0, len(data)) + data
    return member(name, 93, raw, len(data), zlib.crc32(data) if crc is None else crc)


def zstd_zeros(name, declared, frame_size, actual, single=False):
    raw = zstd_header(frame_size, single)
    left = actual
    while True:
        n = min(left, 1 << 17)
        left -= n
        raw += block(left == 0, 1, n) + b"\x00"
        if left == 0:
            break
    return member(name, 93, raw, declared, 0)


def archive(members, aliases=()):
    out, offsets = b"", []
    for m in members:
        offsets.append(len(out))
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, m["method"], 0, 0x21,
                           m["crc"], len(m["raw"]), m["size"], len(m["name"]), 0)
        out += m["name"] + m["raw"]
    cd = len(out)
    entries = [(m["name"], k) for k, m in enumerate(members)] + [(n.encode(), k) for n, k in aliases]
    for name, k in entries:
        m = members[k]
        out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, m["method"], 0, 0x21,
                           m["crc"], len(m["raw"]), m["size"], len(name), 0, 0, 0, 0, 0, offsets[k])
        out += name
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(out) - cd, cd, 0)
    return out


h = stored("header.json", HEADER)
ok = stored("samples/2_epoch_1.json", sample("2", "C"))
seeds = {
    # 8 sample entries on one 1 MiB deflate member.
    "bomb-overlap.eval": archive(
        [h, deflate("samples/0_epoch_1.json", bytes(1 << 20))],
        [("samples/%d_epoch_1.json" % k, 1) for k in range(1, 8)]),
    # The entry declares 1,000 bytes; the stream inflates to 16 MiB.
    "bomb-deflate.eval": archive([h, deflate("samples/1_epoch_1.json", bytes(16 << 20), 1000, 0), ok]),
    # A zstd frame declaring 1 GiB: holding 100 bytes; single segment (window 1 GiB);
    # 64 MiB of RLE blocks that the entry also declares (ratio 32,000:1).
    "bomb-zstd-1gib.eval": archive([h, zstd_zeros("samples/1_epoch_1.json", 100, 1 << 30, 100), ok]),
    "bomb-zstd-window.eval": archive([h, zstd_zeros("samples/1_epoch_1.json", 100, 1 << 30, 100, True), ok]),
    "bomb-zstd-ratio.eval": archive([h, zstd_zeros("samples/1_epoch_1.json", 64 << 20, 64 << 20, 64 << 20), ok]),
    # A zstd member whose score "I" became "C", its entry's CRC that of "I".
    "bomb-zstd-crc.eval": archive([h, zstd_raw("samples/1_epoch_1.json", sample("1", "C"),
                                               zlib.crc32(sample("1", "I"))), ok]),
}
for name, data in seeds.items():
    with open("corpus/inspect_eval/" + name, "wb") as f:
        f.write(data)
    print(name, len(data))
