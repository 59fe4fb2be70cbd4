#!/usr/bin/env python3
"""Generate a large, deterministic products dataset for Ferry's benchmarks.

Each product has the GameStore fields (name, price, photo) plus `sku` and
`currency`. A realistic minority of names carry the characters that break
naive converters: commas, double quotes, embedded newlines, backslashes and
non-ASCII text (accents, CJK, emoji). Photos are null in about 40% of records.

    python3 Scripts/gen-products.py                          # 1,000,000 as JSON on stdout
    python3 Scripts/gen-products.py --count 20000 --format jsonl --out p.jsonl
    python3 Scripts/gen-products.py --format csv --out products.csv
    python3 Scripts/gen-products.py --format csv --photos missing --out p.csv
    python3 Scripts/gen-products.py --format jsonl --spaced --crlf   # as json.dumps writes, CR LF

--photos says what the other 60% hold: `folder` (the default) names
`photos/p<N>.png`, in a folder that is not there; `missing` names
`p<N>.jpg`, beside the file, where no such file is (the usual case in CI,
where the photos live elsewhere); `null` makes every photo null. The other
fields are the same bytes whatever the choice.

Output is streamed (records are never all held in memory) and is the same
bytes on every run and every Python 3 version, because only `random()` of a
seeded `random.Random` is used. 1M products is about 95.6 MB of JSON
and 43.9 MB of CSV.
"""

import argparse
import csv
import json
import os
import random
import sys

SEED = 20090318  # fixed, so every machine benchmarks the same bytes
BATCH = 5000     # records formatted per write() call

# MARK: - Vocabulary

BASES = [
    "Xbox 360", "Wii", "Wireless Controller", "Wii Remote", "Nunchuk", "Halo 3",
    "Gears of War", "Mario Kart", "Wii Sports", "Zelda", "Fable II", "Rock Band",
    "Guitar Hero", "Headset", "HDMI Cable", "Memory Card", "Hard Drive", "Kinect",
    "Balance Board", "Zapper", "Forza 3", "Skate", "Fallout 3", "Bioshock",
    "Sonic", "Portal", "Tetris", "Charger", "Arcade", "Wii Fit", "Minecraft",
]
SUFFIXES = ["Pro", "Elite", "Bundle", "Black", "White", "2", "Deluxe", "Slim"]

# Tricky variants: (probability, function of the name). Each is independent,
# so a few records combine several of them.
TRICKS = [
    (0.030, lambda n: n + ", Black"),                  # comma
    (0.010, lambda n: n + ' 12"'),                      # lone double quote (inches)
    (0.008, lambda n: 'The "' + n + '"'),               # quoted words
    (0.005, lambda n: n + "\nLimited"),                 # embedded newline
    (0.003, lambda n: n + " C:\\Saves"),                # backslash
    (0.015, lambda n: n + " Pokémon"),                  # 2-byte UTF-8
    (0.008, lambda n: "Über " + n),                     # 2-byte UTF-8
    (0.006, lambda n: n + " 日本版"),                    # 3-byte UTF-8 (CJK)
    (0.004, lambda n: n + " 🎮"),                        # 4-byte UTF-8 (emoji)
]

# Weighted currencies: cumulative probability, code.
CURRENCIES = [(0.70, "USD"), (0.85, "EUR"), (0.93, "GBP"), (0.97, "JPY"), (1.0, "CAD")]
CENTS = [99, 99, 95, 49, 50, 89, 25, 75]


# MARK: - Records

PHOTOS = {
    "folder": lambda i: f"photos/p{i}.png",
    "missing": lambda i: f"p{i}.jpg",
    "null": lambda i: None,
}


def products(count, seed=SEED, photos="folder"):
    """Yield `count` product dicts, keys in the order name, price, photo, sku, currency."""
    photo_name = PHOTOS[photos]
    rnd = random.Random(seed).random

    def pick(seq):
        return seq[int(rnd() * len(seq))]

    for i in range(1, count + 1):
        name = pick(BASES)
        if rnd() < 0.25:
            name += " " + pick(SUFFIXES)
        for probability, trick in TRICKS:
            if rnd() < probability:
                name = trick(name)

        r = rnd()
        if r < 0.01:
            price = 0.0                                     # free
        elif r < 0.30:
            price = float(int(rnd() * 500) + 1)             # integral: 299.0
        else:
            price = int(rnd() * 100) + pick(CENTS) / 100    # 19.99
            price = round(price, 2)

        photo = photo_name(i) if rnd() < 0.60 else None
        c = rnd()
        currency = next(code for limit, code in CURRENCIES if c < limit)
        yield {"name": name, "price": price, "photo": photo,
               "sku": f"GS-{i:07d}", "currency": currency}


# MARK: - Writers

def write_json(out, records, lines_only, spaced=False, newline="\n"):
    """JSON array with one compact object per line, or JSON Lines.

    `spaced` writes each object as Python's `json.dumps` does by default
    (`", "` and `": "` separators, non-ASCII text as `\\u` escapes);
    `newline` ends each JSON Lines line (`"\\r\\n"` for CRLF).
    """
    if spaced:
        encode = json.JSONEncoder().encode
    else:
        encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    if lines_only:
        batch = []
        for record in records:
            batch.append(encode(record))
            if len(batch) == BATCH:
                out.write(newline.join(batch) + newline)
                batch.clear()
        if batch:
            out.write(newline.join(batch) + newline)
        return

    out.write("[\n")
    batch, first = [], True
    for record in records:
        batch.append(encode(record))
        if len(batch) == BATCH:
            out.write(("" if first else ",\n") + ",\n".join(batch))
            batch.clear()
            first = False
    if batch:
        out.write(("" if first else ",\n") + ",\n".join(batch))
        first = False
    out.write("]\n" if first else "\n]\n")


def write_csv(out, records):
    """RFC 4180 CSV with a header row; null photo is an empty field, lines end in LF."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", "price", "photo", "sku", "currency"])
    for r in records:
        writer.writerow([r["name"], repr(r["price"]), r["photo"] or "", r["sku"], r["currency"]])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="number of products (default 1000000)")
    parser.add_argument("--format", choices=["json", "jsonl", "csv"], default="json")
    parser.add_argument("--out", help="output file (default: stdout)")
    parser.add_argument("--photos", choices=sorted(PHOTOS), default="folder",
                        help="what the photo references name (default folder: photos/p<N>.png)")
    parser.add_argument("--spaced", action="store_true",
                        help="JSON and JSON Lines as Python's json.dumps writes them by default")
    parser.add_argument("--crlf", action="store_true", help="end JSON Lines lines with CR LF")
    parser.add_argument("--seed", type=int, default=SEED, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count < 0:
        parser.error("--count must be >= 0")

    # Text layer over the file or over fd 1 directly: large buffer, UTF-8, no newline translation.
    target = args.out if args.out else sys.stdout.fileno()
    out = open(target, "w", encoding="utf-8", newline="", buffering=1 << 20, closefd=bool(args.out))
    try:
        with out:
            records = products(args.count, args.seed, args.photos)
            if args.format == "csv":
                write_csv(out, records)
            else:
                write_json(out, records, lines_only=args.format == "jsonl", spaced=args.spaced,
                           newline="\r\n" if args.crlf else "\n")
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped early: leave quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.exit(141)


if __name__ == "__main__":
    main()
