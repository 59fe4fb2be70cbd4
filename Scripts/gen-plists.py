#!/usr/bin/env python3
"""Generate the plist datasets of Ferry's benchmarks, deterministically.

    python3 Scripts/gen-plists.py plist   --count 1000000 --out products.plist
    python3 Scripts/gen-plists.py archive --count 100000  --out products.archive

- `plist`: a binary plist (plistlib, FMT_BINARY) whose root is an array of
  the product dicts of Scripts/gen-products.py (name, price, photo, sku,
  currency; same seed, same records). Plists cannot hold null, so a null
  photo is left out of its dict. 1M products is about 66 MB.
- `archive`: an NSKeyedArchiver archive laid out as
  Scripts/make-legacy-archive.py lays out the GameStore app's file: the root
  is an NSArray of GameStoreiOS.Product objects, each with `name` (UID of a
  string), `photo` (UID of a UIImage, or of `$null` when the product has no
  photo) and `price` (a real stored in place). A UIImage holds a tiny PNG
  (1x1 pixel, a different colour for every product, about 70 bytes) under
  UIImageData, with UIScale, UIImageOrientation and UIKitDidEncode. The
  products are gen-products.py's; the even-numbered ones of those with a photo
  there keep one, about 30%, which puts 100k products near the 10.8 MB
  archive of ../shared/ANCHORS.md.

Both are built with the standard library's plistlib and its UID type,
independently of Ferry. The bytes are the same on every run: the records come
from a seeded generator, the PNGs are written with stored (uncompressed)
deflate blocks, and dict keys keep their insertion order.
"""

import argparse
import importlib.util
import os
import plistlib
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_gen_products():
    spec = importlib.util.spec_from_file_location("gen_products", os.path.join(HERE, "gen-products.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_products = _load_gen_products()


# MARK: - Binary plist of product dicts

def plist_records(count, seed):
    """gen-products.py's records, without their null values."""
    for record in gen_products.products(count, seed):
        yield {key: value for key, value in record.items() if value is not None}


# MARK: - NSKeyedArchiver archive

def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def tiny_png(index):
    """A valid 1x1 RGB PNG whose colour is `index` (so every photo differs),
    its IDAT a stored deflate block, so the bytes do not depend on zlib."""
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    raw = b"\x00" + (index & 0xFFFFFF).to_bytes(3, "big")            # filter byte + RGB
    stored = b"\x01" + struct.pack("<HH", len(raw), len(raw) ^ 0xFFFF) + raw
    idat = b"\x78\x01" + stored + struct.pack(">I", zlib.adler32(raw))
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def archive(count, seed):
    """The keyed archive of `count` products, as a plistlib object tree."""
    objects = ["$null", None]  # 1 is the root array, filled in at the end
    uids = {}

    def uid(index):
        # One UID instance per index: plistlib writes each UID instance once,
        # as Apple's writer uniques equal UIDs.
        found = uids.get(index)
        if found is None:
            found = uids[index] = plistlib.UID(index)
        return found

    def add(value):
        objects.append(value)
        return uid(len(objects) - 1)

    product_class = add({"$classname": "GameStoreiOS.Product", "$classes": ["GameStoreiOS.Product", "NSObject"]})
    image_class = add({"$classname": "UIImage", "$classes": ["UIImage", "NSObject"]})
    null = uid(0)
    elements = []
    for index, record in enumerate(gen_products.products(count, seed), start=1):
        photo = null
        if record["photo"] is not None and index % 2 == 0:
            data = add(tiny_png(index))
            photo = add({"UIImageData": data, "UIScale": 1.0, "UIImageOrientation": 0,
                         "UIKitDidEncode": True, "$class": image_class})
        name = add(record["name"])
        elements.append(add({"name": name, "photo": photo, "price": float(record["price"]), "$class": product_class}))
    array_class = add({"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]})
    objects[1] = {"NS.objects": elements, "$class": array_class}
    return {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": uid(1)}, "$objects": objects}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["plist", "archive"])
    parser.add_argument("--count", type=int, help="number of products (default 1000000 for plist, 100000 for archive)")
    parser.add_argument("--out", required=True, help="output file")
    parser.add_argument("--seed", type=int, default=gen_products.SEED, help=argparse.SUPPRESS)
    args = parser.parse_args()
    count = args.count if args.count is not None else (1_000_000 if args.what == "plist" else 100_000)
    if count < 0:
        parser.error("--count must be >= 0")

    if args.what == "plist":
        root = list(plist_records(count, args.seed))
    else:
        root = archive(count, args.seed)
    with open(args.out, "wb") as file:
        plistlib.dump(root, file, fmt=plistlib.FMT_BINARY, sort_keys=False)


if __name__ == "__main__":
    sys.exit(main())
