r"""Validates every XML part of .xlsx workbooks against the ECMA-376 schemas.

    python3 Scripts/validate-xlsx-schema.py WORKBOOK.xlsx...

Excel's "We found a problem with some content ... Do you want us to try to
recover?" comes, as a rule, from a part that breaks the schema: an
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
so a validator of these schemas has to let it through by hand. Its value
must still be `default` or `preserve`.

Then the rules Excel holds that the schemas cannot say (its limits, and
the order and references its own files keep; not each one has been seen to
make Excel repair a file, as there is no Excel here): rows and their cells in ascending order, each
cell in its row; at most 1,048,576 rows and 16,384 columns (XFD); the
`<dimension>` covering every cell; a number cell's `<v>` written as Excel
writes numbers (JSON's grammar: the schema allows any xsd:double, but Excel
2013 called a workbook corrupt for `<v>+41…</v>`, xlsx.js issue 30), a
bool's 0 or 1; text of at most 32,767 characters (UTF-16
units); a style index inside `cellXfs`; `<col>` ranges ascending, apart,
and at most 255 wide; in styles.xml, each list's `count` its number of
items, and every font, fill, border and number format an `xf` names
present; a sheet name Excel takes (1 to 31 characters, none of []:*?/\).

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


MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
# Numbers as Excel writes them (JSON's grammar): no "+", no leading zeros, a digit each side of the point.
NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?")
REFERENCE = re.compile(r"([A-Z]{1,3})([1-9]\d*)")
BUILT_IN_FORMATS = set(range(0, 50))


def column_number(letters):
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


def utf16_length(text):
    return sum(2 if ord(char) > 0xFFFF else 1 for char in text)


def check_styles(root, errors, where):
    """Counts that agree with their lists, and indexes that point inside them; returns the cellXfs count."""
    sizes = {}
    for name in ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs"):
        element = root.find(MAIN + name)
        if element is None:
            continue
        sizes[name] = len(element)
        if element.get("count") is not None and int(element.get("count")) != len(element):
            errors.append(f"{where}: <{name} count=\"{element.get('count')}\"> has {len(element)} items")
    formats = BUILT_IN_FORMATS | {int(f.get("numFmtId")) for f in root.iter(MAIN + "numFmt")}
    for list_name in ("cellStyleXfs", "cellXfs"):
        for element in root.iter(MAIN + list_name):
            for number, xf in enumerate(element):
                for attribute, target in (("fontId", "fonts"), ("fillId", "fills"), ("borderId", "borders")):
                    if int(xf.get(attribute, "0")) >= sizes.get(target, 0):
                        errors.append(f"{where}: {list_name} xf {number}: {attribute} {xf.get(attribute)} past <{target}>")
                if int(xf.get("numFmtId", "0")) not in formats:
                    errors.append(f"{where}: {list_name} xf {number}: numFmtId {xf.get('numFmtId')} is not defined")
                if list_name == "cellXfs" and int(xf.get("xfId", "0")) >= sizes.get("cellStyleXfs", 1):
                    errors.append(f"{where}: cellXfs xf {number}: xfId {xf.get('xfId')} past <cellStyleXfs>")
    return sizes.get("cellXfs", 0)


def check_sheet(root, styles, errors, where):
    """Excel's rules for rows, cells, values, the dimension and the columns."""
    last_row, used = 0, None
    for row in root.iter(MAIN + "row"):
        number = int(row.get("r", last_row + 1))
        if number <= last_row or number > 1_048_576:
            errors.append(f"{where}: row {number} after row {last_row}")
        last_row, last_column = number, 0
        for cell in row.findall(MAIN + "c"):
            match = REFERENCE.fullmatch(cell.get("r", ""))
            if match is None or int(match[2]) != number:
                errors.append(f"{where}: cell {cell.get('r')!r} in row {number}")
                continue
            column = column_number(match[1])
            if column <= last_column or column > 16_384:
                errors.append(f"{where}: cell {cell.get('r')} out of order or past XFD")
            last_column = column
            used = (min(used[0], number), min(used[1], column), max(used[2], number), max(used[3], column)) if used else (number, column, number, column)
            kind, value = cell.get("t", "n"), cell.find(MAIN + "v")
            if int(cell.get("s", "0")) >= max(styles, 1):
                errors.append(f"{where}: cell {cell.get('r')}: style {cell.get('s')} past cellXfs")
            if kind == "n" and value is not None and not NUMBER.fullmatch(value.text or ""):
                errors.append(f"{where}: cell {cell.get('r')}: number {value.text!r} is not written as Excel writes numbers")
            if kind == "b" and (value is None or value.text not in ("0", "1")):
                errors.append(f"{where}: cell {cell.get('r')}: bool {None if value is None else value.text!r}")
            if kind == "inlineStr":
                text = "".join(t.text or "" for t in cell.iter(MAIN + "t"))
                if utf16_length(text) > 32_767:
                    errors.append(f"{where}: cell {cell.get('r')}: {utf16_length(text)} characters, past 32,767")
    dimension = root.find(MAIN + "dimension")
    if used and dimension is not None:
        parts = [REFERENCE.fullmatch(p) for p in dimension.get("ref", "").split(":")]
        if None in parts:
            errors.append(f"{where}: dimension {dimension.get('ref')!r}")
        else:
            top, bottom = parts[0], parts[-1]
            box = (int(top[2]), column_number(top[1]), int(bottom[2]), column_number(bottom[1]))
            if box[0] > used[0] or box[1] > used[1] or box[2] < used[2] or box[3] < used[3]:
                errors.append(f"{where}: dimension {dimension.get('ref')} does not cover the cells used")
    last_max = 0
    for col in root.iter(MAIN + "col"):
        low, high, width = int(col.get("min")), int(col.get("max")), float(col.get("width", "0"))
        if low <= last_max or high < low or high > 16_384 or not 0 <= width <= 255:
            errors.append(f"{where}: <col min=\"{low}\" max=\"{high}\" width=\"{width}\">")
        last_max = high


def check_excel_rules(archive, names, errors, label):
    styles = 0
    if "xl/styles.xml" in names:
        styles = check_styles(ET.fromstring(archive.read("xl/styles.xml")), errors, f"{label}: xl/styles.xml")
    if "xl/workbook.xml" in names:
        for sheet in ET.fromstring(archive.read("xl/workbook.xml")).iter(MAIN + "sheet"):
            name = sheet.get("name", "")
            if not 1 <= utf16_length(name) <= 31 or any(c in name for c in "[]:*?/\\") or name[:1] == "'" or name[-1:] == "'":
                errors.append(f"{label}: xl/workbook.xml: sheet name {name!r}")
    for name in sorted(names):
        if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", name):
            check_sheet(ET.fromstring(archive.read(name)), styles, errors, f"{label}: {name}")


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
                try:
                    check_excel_rules(archive, set(names), report["errors"], label)
                except (ValueError, ET.ParseError) as error:
                    report["errors"].append(f"{label}: Excel's rules could not be checked: {error}")
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
            # 1: a part is not well-formed XML; 3: it breaks the schema; 5: the schema did not load.
            if result.returncode not in (0, 1, 3):
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
