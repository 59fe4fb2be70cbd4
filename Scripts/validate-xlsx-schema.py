"""Validates every XML part of .xlsx workbooks against the ECMA-376 schemas.

    python3 Scripts/validate-xlsx-schema.py WORKBOOK.xlsx...

Excel's "We found a problem with some content ... Do you want us to try to
recover?" comes, in most cases, from a part that breaks the schema: an
element out of its sequence's order, an attribute the type lacks, a value
outside its type. Excel does not run here; the schemas are the nearest
check we have. Each part is validated with `xmllint --schema` (Debian's
libxml2-utils) against the transitional schemas vendored in
Tests/Corpora/ecma-376-transitional (origin and licence in
Tests/Corpora/SOURCES.md):

    [Content_Types].xml                  opc-contentTypes.xsd
    *.rels                               opc-relationships.xsd
    xl/workbook.xml, xl/styles.xml,      sml.xsd (with the DrawingML
    xl/worksheets/*.xml, xl/sharedStrings.xml   schemas it imports)

One thing is taken out before validating: the `xml:space` attribute. XML
1.0 itself defines it (section 2.10) and Excel writes it on `<t>`, but the
ECMA schemas declare `<t>` as a simple type, which no attribute may carry,
so every validator of these schemas (the Open XML SDK's too) lets it
through by hand. Its value must still be `default` or `preserve`.

A part with no schema here (docProps, drawings) is an error, so that a new
part cannot go unchecked. The package is checked too: every part has a
content type (an Override or a Default for its extension), every Override
names a part, and every relationship's target is a part.

Prints one JSON object: {"parts": [names validated], "errors": [messages]};
exits 1 when there are errors, 2 when xmllint is missing or the schemas
cannot be loaded.
"""
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(ROOT, "Tests", "Corpora", "ecma-376-transitional")
CONTENT_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
SPACE = re.compile(rb'\sxml:space="([^"]*)"')


def schema_for(name):
    if name == "[Content_Types].xml":
        return "opc-contentTypes.xsd"
    if name.endswith(".rels"):
        return "opc-relationships.xsd"
    if name in ("xl/workbook.xml", "xl/styles.xml", "xl/sharedStrings.xml") or re.fullmatch(
        r"xl/worksheets/sheet\d+\.xml", name
    ):
        return "sml.xsd"
    return None


def check_package(archive, names, errors, label):
    """Content types for every part, and relationship targets that exist."""
    types = ET.fromstring(archive.read("[Content_Types].xml"))
    defaults = {e.get("Extension", "").lower() for e in types.findall(f"{{{CONTENT_TYPES}}}Default")}
    overrides = {e.get("PartName", "") for e in types.findall(f"{{{CONTENT_TYPES}}}Override")}
    for name in names:
        if name == "[Content_Types].xml" or name.endswith("/"):
            continue
        extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        if "/" + name not in overrides and extension not in defaults:
            errors.append(f"{label}: {name}: no content type")
    for part in overrides:
        if part.lstrip("/") not in names:
            errors.append(f"{label}: [Content_Types].xml: Override names {part}, which is not in the package")
    for name in names:
        if not name.endswith(".rels"):
            continue
        folder = posixpath.dirname(posixpath.dirname(name))
        for relation in ET.fromstring(archive.read(name)).findall(f"{{{RELATIONSHIPS}}}Relationship"):
            if relation.get("TargetMode") == "External":
                continue
            target = relation.get("Target", "")
            resolved = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            if resolved not in names:
                errors.append(f"{label}: {name}: {relation.get('Id')} points to {resolved}, which is not in the package")


def main(paths):
    xmllint = shutil.which("xmllint")
    if xmllint is None:
        print("xmllint not found: apt-get install libxml2-utils", file=sys.stderr)
        return 2
    report = {"parts": [], "errors": []}
    with tempfile.TemporaryDirectory() as work:
        groups = {}
        for index, path in enumerate(paths):
            label = os.path.basename(path)
            with zipfile.ZipFile(path) as archive:
                names = archive.namelist()
                check_package(archive, set(names), report["errors"], label)
                for name in names:
                    schema = schema_for(name)
                    if schema is None:
                        report["errors"].append(f"{label}: {name}: no schema for this part")
                        continue
                    data = archive.read(name)
                    for value in SPACE.findall(data):
                        if value not in (b"preserve", b"default"):
                            report["errors"].append(f"{label}: {name}: xml:space=\"{value.decode()}\"")
                    copy = os.path.join(work, str(index), name)
                    os.makedirs(os.path.dirname(copy), exist_ok=True)
                    with open(copy, "wb") as file:
                        file.write(SPACE.sub(b"", data))
                    groups.setdefault(schema, []).append((copy, f"{label}:{name}"))
                    report["parts"].append(f"{label}:{name}")
        for schema, parts in sorted(groups.items()):
            result = subprocess.run(
                [xmllint, "--noout", "--nonet", "--schema", os.path.join(SCHEMAS, schema)] + [p for p, _ in parts],
                capture_output=True,
                text=True,
            )
            if result.returncode not in (0, 3):
                print(f"xmllint --schema {schema} exited {result.returncode}:\n{result.stderr}", file=sys.stderr)
                return 2
            for line in result.stderr.splitlines():
                if line.endswith(" validates"):
                    continue
                for copy, name in parts:
                    line = line.replace(copy, name)
                report["errors"].append(line)
    json.dump(report, sys.stdout, indent=1)
    print()
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
