#!/usr/bin/env python3
"""Writes seed inputs for the bundle fuzzer into the folder given: small
uncompressed tars laid out as Formats/bundle.md says (manifest, records,
media), in the ustar, pax and GNU formats, plus one with a symbolic link."""
import io
import json
import os
import sys
import tarfile
import zlib

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489")


def bundle(fmt, extra=None):
    records = b'{"name":"Wii","price":269.0,"photo":"media/wii.png"}\n{"name":"Pad","price":19.99}\n'
    manifest = {"format": "ferry-bundle", "version": 1, "kind": "product", "records": "records.jsonl",
                "count": 2, "created": "2026-11-30T00:00:00Z",
                "media": [{"path": "media/wii.png", "bytes": len(PNG), "crc32": zlib.crc32(PNG)}]}
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=fmt) as tar:
        for name, data in [("manifest.json", json.dumps(manifest).encode()), ("records.jsonl", records),
                           ("media/wii.png", PNG)]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        if extra:
            tar.addfile(extra)
    return out.getvalue()


if __name__ == "__main__":
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name, fmt in [("ustar", tarfile.USTAR_FORMAT), ("pax", tarfile.PAX_FORMAT), ("gnu", tarfile.GNU_FORMAT)]:
        with open(os.path.join(folder, f"bundle-{name}.tar"), "wb") as file:
            file.write(bundle(fmt))
    link = tarfile.TarInfo("media/link.png")
    link.type = tarfile.SYMTYPE
    link.linkname = "../../etc/passwd"
    with open(os.path.join(folder, "bundle-symlink.tar"), "wb") as file:
        file.write(bundle(tarfile.PAX_FORMAT, link))
