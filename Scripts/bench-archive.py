#!/usr/bin/env python3
"""Python baselines for Scripts/bench.sh: NSKeyedArchiver archive -> JSON.

    python bench-archive.py bpylist2          IN.archive OUT.json
    python bench-archive.py nskeyedunarchiver IN.archive OUT.json

Each decodes the GameStore products archive (Scripts/gen-plists.py archive,
or the app's own file) into Python objects with a third-party unarchiver, then
writes the JSON `ferry convert IN.archive OUT.json` writes: an array of
{"name", "photo", "price"} where a photo is a `data:image/png;base64,` URI
and a missing one null.

- bpylist2 (pip `bpylist2`): GameStoreiOS.Product and UIImage are registered
  with `archiver.update_class_map`, each with the `decode_archive` static
  method bpylist2 calls with an ArchivedObject; NSArray is built in.
- nskeyedunarchiver (pip `NSKeyedUnArchiver`): `unserializeNSKeyedArchiver`
  turns the archive into plain dicts and lists; the UIImage dict is then
  reduced to its UIImageData.

Both run in a venv that has the package (Scripts/bench.sh makes one). The
JSON is written with json.dumps, compact, which uses the C encoder (an
indented dump runs the pure-Python one, several times slower), so the
baseline is the fastest plain use of the json module.

With FERRY_BENCH_PHASES=1 the time spent decoding and encoding is printed on
stderr.
"""

import base64
import json
import os
import sys
import time

BUFFER = 1 << 20


def data_uri(data):
    if data is None:
        return None
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


# MARK: - bpylist2

class Product:
    __slots__ = ("name", "photo", "price")

    @staticmethod
    def decode_archive(archive):
        product = Product()
        product.name = archive.decode("name")
        product.photo = archive.decode("photo")  # a UIImage's bytes, or None for $null
        product.price = archive.decode("price")
        return product


class UIImage:
    @staticmethod
    def decode_archive(archive):
        return archive.decode("UIImageData")


def decode_bpylist2(path):
    from bpylist2 import archiver
    archiver.update_class_map({"GameStoreiOS.Product": Product, "UIImage": UIImage})
    products = archiver.unarchive_file(path)
    return [{"name": p.name, "photo": data_uri(p.photo), "price": p.price} for p in products]


# MARK: - NSKeyedUnArchiver

def decode_nskeyedunarchiver(path):
    from NSKeyedUnArchiver import unserializeNSKeyedArchiver
    products = unserializeNSKeyedArchiver(path)
    records = []
    for p in products:
        photo = p.get("photo")
        if isinstance(photo, dict):
            photo = photo.get("UIImageData")
        records.append({"name": p.get("name"), "photo": data_uri(photo), "price": p.get("price")})
    return records


COMMANDS = {"bpylist2": decode_bpylist2, "nskeyedunarchiver": decode_nskeyedunarchiver}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in COMMANDS:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(COMMANDS)}}} INPUT OUTPUT")
    started = time.perf_counter()
    records = COMMANDS[sys.argv[1]](sys.argv[2])
    decoded = time.perf_counter()
    with open(sys.argv[3], "w", encoding="utf-8", buffering=BUFFER) as target:
        target.write(json.dumps(records, ensure_ascii=False, separators=(",", ":")))
        target.write("\n")
    if os.environ.get("FERRY_BENCH_PHASES"):
        print(f"decode {decoded - started:.3f}s, json {time.perf_counter() - decoded:.3f}s", file=sys.stderr)
