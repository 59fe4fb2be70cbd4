#!/usr/bin/env python3
"""Draw the three example product photos as small PNG files.

Also rewrites Examples/products-inline.json from Examples/products.json, with
each photo embedded as a `data:image/png;base64,...` URL, so the two files
never drift apart.

Uses only the standard library (zlib + struct), so it runs anywhere Python 3
does. Output is deterministic: the same script writes the same bytes.

    python3 Scripts/make-example-photos.py            # writes Examples/photos/
    python3 Scripts/make-example-photos.py OUT_DIR
"""

import base64
import json
import os
import struct
import sys
import zlib

SIZE = 48  # every photo is SIZE x SIZE, 8-bit RGB


# MARK: - Canvas

class Canvas:
    """A tiny RGB raster with just enough shapes for a product icon."""

    def __init__(self, size, background):
        self.size = size
        self.pixels = [[background] * size for _ in range(size)]

    def plot(self, x, y, color):
        if 0 <= x < self.size and 0 <= y < self.size:
            self.pixels[y][x] = color

    def rect(self, x0, y0, x1, y1, color):
        """Fill the rectangle with corners (x0, y0) and (x1, y1), inclusive."""
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.plot(x, y, color)

    def ellipse(self, cx, cy, rx, ry, color):
        """Fill an axis-aligned ellipse centred on (cx, cy)."""
        for y in range(int(cy - ry) - 1, int(cy + ry) + 2):
            for x in range(int(cx - rx) - 1, int(cx + rx) + 2):
                dx, dy = (x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry
                if dx * dx + dy * dy <= 1.0:
                    self.plot(x, y, color)

    def circle(self, cx, cy, r, color):
        self.ellipse(cx, cy, r, r, color)

    def rounded_rect(self, x0, y0, x1, y1, r, color):
        """Fill a rectangle whose corners are rounded with radius r."""
        self.rect(x0 + r, y0, x1 - r, y1, color)
        self.rect(x0, y0 + r, x1, y1 - r, color)
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r),
                       (x0 + r, y1 - r), (x1 - r, y1 - r)):
            self.circle(cx + 0.5, cy + 0.5, r + 0.5, color)

    def line(self, x0, y0, x1, y1, width, color):
        """Draw a thick straight line by stamping small discs along it."""
        steps = max(abs(x1 - x0), abs(y1 - y0)) * 2 or 1
        for i in range(steps + 1):
            t = i / steps
            self.circle(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, width / 2, color)

    # MARK: - PNG encoding

    def png(self):
        """Encode as a PNG: signature, IHDR, one IDAT, IEND."""
        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        # Each scanline starts with filter type 0 (None).
        raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in self.pixels)
        ihdr = struct.pack(">IIBBBBB", self.size, self.size, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# MARK: - Drawings

def xbox_360():
    """A green orb with a white X, on a charcoal background."""
    c = Canvas(SIZE, (40, 44, 52))
    c.circle(24, 24, 19, (200, 204, 208))   # silver ring
    c.circle(24, 24, 16, (16, 124, 16))     # Xbox green
    c.circle(20, 19, 6, (60, 170, 60))      # highlight
    c.line(15, 15, 33, 33, 5, (245, 245, 245))
    c.line(33, 15, 15, 33, 5, (245, 245, 245))
    return c


def wii():
    """A slim white console standing upright, blue disc-slot light, sky background."""
    c = Canvas(SIZE, (170, 215, 245))
    c.rect(10, 40, 38, 43, (120, 150, 170))              # shadow/stand
    c.rounded_rect(17, 5, 31, 41, 3, (250, 250, 250))    # console body
    c.rect(30, 7, 31, 39, (205, 210, 215))               # side shading
    c.rect(23, 9, 25, 33, (40, 120, 230))                # glowing disc slot
    c.rect(20, 36, 22, 37, (150, 150, 150))              # buttons
    c.rect(26, 36, 28, 37, (150, 150, 150))
    return c


def wireless_controller():
    """A dark gamepad with a D-pad and four coloured face buttons, on white."""
    c = Canvas(SIZE, (255, 255, 255))
    body = (45, 45, 50)
    c.ellipse(13, 31, 8, 11, body)                       # left grip
    c.ellipse(35, 31, 8, 11, body)                       # right grip
    c.rounded_rect(6, 14, 41, 32, 7, body)               # main body
    c.rect(9, 21, 17, 23, (200, 200, 200))               # D-pad
    c.rect(12, 18, 14, 26, (200, 200, 200))
    c.circle(34.5, 17.5, 2.2, (250, 200, 20))                # Y
    c.circle(30.5, 21.5, 2.2, (30, 110, 230))                # X
    c.circle(38.5, 21.5, 2.2, (220, 40, 40))                 # B
    c.circle(34.5, 25.5, 2.2, (40, 180, 60))                 # A
    c.circle(24.5, 19.5, 2.6, (16, 124, 16))                 # guide button
    return c


PHOTOS = {
    "xbox-360.png": xbox_360,
    "wii.png": wii,
    "wireless-controller.png": wireless_controller,
}


# MARK: - Inline products

def write_inline_products(examples_dir):
    """Copy products.json to products-inline.json with photos as data URLs."""
    with open(os.path.join(examples_dir, "products.json"), encoding="utf-8") as f:
        products = json.load(f)
    for product in products:
        with open(os.path.join(examples_dir, product["photo"]), "rb") as f:
            product["photo"] = "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")
    path = os.path.join(examples_dir, "products-inline.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(products, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {os.path.normpath(path)}")


def main():
    examples_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Examples")
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(examples_dir, "photos")
    os.makedirs(out_dir, exist_ok=True)
    for name, draw in PHOTOS.items():
        path = os.path.join(out_dir, name)
        with open(path, "wb") as f:
            f.write(draw().png())
        print(f"wrote {os.path.normpath(path)}")
    if len(sys.argv) <= 1:
        write_inline_products(examples_dir)


if __name__ == "__main__":
    main()
