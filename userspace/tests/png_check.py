#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Decode the PNGs written by png-selftest with nothing but the standard
library and compare them with the pattern they should hold."""
import os
import struct
import subprocess
import sys
import zlib


def pattern(x, y, c):
    # Keep in sync with pattern() in png-selftest.c.
    return (x * (c + 1) * 37 + y * (c + 3) * 11 + c * 71 + x * y) & 255


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("bad signature")
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        ctype = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if len(body) != length:
            raise ValueError("truncated %r chunk" % ctype)
        if zlib.crc32(ctype + body) != crc:
            raise ValueError("bad CRC in %r chunk" % ctype)
        chunks.append((ctype, body))
        pos += 12 + length
    types = [t for t, _ in chunks]
    if types[0] != b"IHDR" or types[-1] != b"IEND" or b"IDAT" not in types:
        raise ValueError("bad chunk order %r" % types)
    w, h, depth, ctype, comp, filt, inter = struct.unpack(">IIBBBBB", chunks[0][1])
    if (depth, comp, filt, inter) != (8, 0, 0, 0) or ctype not in (2, 6):
        raise ValueError("unexpected IHDR %r" % (chunks[0][1],))
    ch = 3 if ctype == 2 else 4
    # zlib checks the adler32 trailer and every stored block's LEN/NLEN.
    z = zlib.decompressobj()
    raw = z.decompress(b"".join(b for t, b in chunks if t == b"IDAT"))
    if not z.eof or z.unused_data:
        raise ValueError("zlib stream truncated or followed by junk")
    row = 1 + w * ch
    if len(raw) != h * row:
        raise ValueError("IDAT holds %d bytes, want %d" % (len(raw), h * row))
    rows = []
    for y in range(h):
        if raw[y * row] != 0:
            raise ValueError("row %d uses filter %d" % (y, raw[y * row]))
        rows.append(raw[y * row + 1:(y + 1) * row])
    return w, h, ch, rows


def check(path, w, h, ch):
    gw, gh, gch, rows = decode(path)
    if (gw, gh, gch) != (w, h, ch):
        raise ValueError("size %dx%dx%d, want %dx%dx%d" % (gw, gh, gch, w, h, ch))
    for y, r in enumerate(rows):
        want = bytes(pattern(x, y, c) for x in range(w) for c in range(ch))
        if r != want:
            x = next(i for i in range(len(r)) if r[i] != want[i]) // ch
            raise ValueError("pixel (%d,%d) differs" % (x, y))


def main():
    binary, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    run = subprocess.run([binary, outdir], stdout=subprocess.PIPE, text=True)
    passed = failed = 0
    if run.returncode == 0:
        passed += 1
    else:
        print("FAIL %s exited %d" % (binary, run.returncode))
        failed += 1
    for line in run.stdout.splitlines():
        path, w, h, ch = line.split()
        try:
            check(path, int(w), int(h), int(ch))
            print("ok   %s" % path)
            passed += 1
        except ValueError as e:
            print("FAIL %s: %s" % (path, e))
            failed += 1
    print("png-check: %d passed, %d failed" % (passed, failed))
    return 1 if failed or passed < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
