#!/usr/bin/env python3
"""Writes Examples/Products: the three sample products as the GameStore app
saved them with NSKeyedArchiver.archiveRootObject(products, toFile:).

The layout is the one iOS writes for a Swift array of NSCoding objects: the
root is an NSArray; each Product (module GameStoreiOS) encodes `name` (an
NSString), `photo` (a UIImage) and `price` (a double stored in place); each
UIImage holds its PNG bytes under UIImageData with UIKit's UIScale,
UIImageOrientation and UIKitDidEncode beside them. It is built with
plistlib's UID type, independently of Ferry, so it can test Ferry's reader.
"""
import os
import plistlib
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "Examples")
PRODUCTS = [
    ("Xbox 360", "xbox-360.png", 299.00),
    ("Wii", "wii.png", 269.00),
    ("Wireless Controller", "wireless-controller.png", 19.99),
]


def archive(products):
    objects = ["$null", None]  # 1 is the root array, filled in below
    def add(value):
        objects.append(value)
        return plistlib.UID(len(objects) - 1)

    product_class = add({"$classname": "GameStoreiOS.Product", "$classes": ["GameStoreiOS.Product", "NSObject"]})
    image_class = add({"$classname": "UIImage", "$classes": ["UIImage", "NSObject"]})
    elements = []
    for name, photo, price in products:
        with open(os.path.join(EXAMPLES, "photos", photo), "rb") as file:
            data = add(file.read())
        image = add({"UIImageData": data, "UIScale": 1.0, "UIImageOrientation": 0,
                     "UIKitDidEncode": True, "$class": image_class})
        elements.append(add({"name": add(name), "photo": image, "price": price, "$class": product_class}))
    array_class = add({"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]})
    objects[1] = {"NS.objects": elements, "$class": array_class}
    return {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": plistlib.UID(1)},
            "$objects": objects}


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(EXAMPLES, "Products")
    with open(target, "wb") as file:
        plistlib.dump(archive(PRODUCTS), file, fmt=plistlib.FMT_BINARY, sort_keys=False)
    print(target)
