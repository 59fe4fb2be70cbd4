"""Workbooks for FerryXLSXTests, written by openpyxl and XlsxWriter, and
the values openpyxl reads back from them.

    python make-workbooks.py write FOLDER      writes openpyxl.xlsx, xlsxwriter.xlsx, inline.xlsx
    python make-workbooks.py read FILE SHEET   prints the sheet's rows as JSON Lines of typed cells
    python make-workbooks.py hostile FOLDER    writes the hostile packages (bomb.xlsx, …)
    python make-workbooks.py seeds FOLDER      writes the fuzz seeds: packages (first byte 0), sheets (1)
"""
import datetime
import json
import sys


def write(folder):
    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Products"
    sheet.append(["name", "price", "added", "in_stock", "note"])
    sheet.append(["Wii", 19.99, datetime.date(2024, 1, 15), True, "plain"])
    sheet.append(["Dune & <Co>", 7, datetime.datetime(2024, 2, 29, 13, 45, 30), False,
                  CellRichText("bold ", TextBlock(InlineFont(b=True), "part"))])
    sheet["E3"].number_format = "General"
    sheet.append(["Early", 0.1, datetime.date(1900, 1, 1), None, "#N/A"])
    sheet["E4"].data_type = "e"
    sheet["A6"] = "Sparse"
    sheet["C6"] = datetime.date(1900, 3, 1)
    sheet["A7"] = "Merged"
    sheet.merge_cells("A7:B7")
    sheet["C7"] = datetime.time(18, 30)
    sheet.row_dimensions[3].hidden = True
    for cell in ("C2", "C4", "C6"):
        sheet[cell].number_format = "yyyy-mm-dd"
    sheet["C3"].number_format = "yyyy-mm-dd hh:mm:ss"
    sheet["C7"].number_format = "hh:mm"
    books = book.create_sheet("Books")
    books.append(["title", "pages"])
    books.append(["Dune", 412])
    books.sheet_state = "hidden"
    book.save(folder + "/openpyxl.xlsx")

    import xlsxwriter
    book = xlsxwriter.Workbook(folder + "/xlsxwriter.xlsx", {"date_1904": True})
    dates = book.add_format({"num_format": "yyyy-mm-dd"})
    stamps = book.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
    first = book.add_worksheet("First")
    first.write_row(0, 0, ["name", "price", "added", "in_stock", "total", "label"])
    first.write_string(1, 0, "Wii")
    first.write_number(1, 1, 19.99)
    first.write_datetime(1, 2, datetime.datetime(2024, 1, 15), dates)
    first.write_boolean(1, 3, True)
    first.write_formula(1, 4, "=B2*2", None, 39.98)
    first.write_formula(1, 5, '="a"&"b"', None, "ab")
    first.write_string(2, 0, "Tab\there")
    first.write_number(2, 1, 12345678901234567890)
    first.write_datetime(2, 2, datetime.datetime(1904, 1, 2, 6, 0), stamps)
    first.write_boolean(2, 3, False)
    first.write_formula(2, 4, "=B3*2", None, 0)
    first.write_string(4, 1, "sparse")
    second = book.add_worksheet("Second")
    second.write_row(0, 0, ["title", "pages"])
    second.write_row(1, 0, ["Dune", 412])
    book.close()

    book = xlsxwriter.Workbook(folder + "/inline.xlsx", {"constant_memory": True})
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["name", "price", "photo", "sku"])
    sheet.write_row(1, 0, ["Wii & <co>", 19.99, "wii.jpg", "A-1"])
    sheet.write_row(2, 0, ["Über", -3.5, "", "B-2"])
    book.close()


def typed(cell):
    value = cell.value
    if value is None or cell.data_type == "e":
        return None
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, (int, float)):
        return {"number": repr(value)}
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0) and not any(c in cell.number_format for c in "hs"):
            return {"string": value.date().isoformat()}
        return {"string": value.isoformat()}
    if isinstance(value, (datetime.date, datetime.time)):
        return {"string": value.isoformat()}
    return {"string": str(value)}


def read(path, name):
    import openpyxl
    book = openpyxl.load_workbook(path, data_only=True, rich_text=False)
    sheet = book[name]
    rows = [[typed(cell) for cell in row] for row in sheet.iter_rows()]
    rows = [row for row in rows if any(cell is not None for cell in row)]
    width = len(rows[0])
    while width > 0 and rows[0][width - 1] is None:
        width -= 1
    for row in rows:
        print(json.dumps((row + [None] * width)[:width]))


PACKAGE = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}

SHEET = ('<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
         '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>'
         '<row r="2"><c r="A2" t="inlineStr"><is><t>Wii</t></is></c></row></sheetData></worksheet>')


def package(path, sheet=SHEET, leave_out=(), stored=False):
    import zipfile
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, text in PACKAGE.items():
            if name not in leave_out:
                archive.writestr(name, text)
        if "xl/worksheets/sheet1.xml" not in leave_out:
            archive.writestr("xl/worksheets/sheet1.xml", sheet)


def patch(path, old, new, count=1):
    data = open(path, "rb").read()
    assert data.count(old) >= count, (path, old)
    open(path, "wb").write(data.replace(old, new, count))


def hostile(folder):
    import struct
    package(folder + "/good.xlsx")
    package(folder + "/stored.xlsx", stored=True)
    # 200 MB of blanks inside the sheet: about 1,000 times its compressed size.
    blanks = SHEET.replace("<sheetData>", "<sheetData>" + " " * (200 << 20))
    package(folder + "/bomb.xlsx", sheet=blanks)
    # The same, its sizes in both headers made to say 4,096 bytes.
    package(folder + "/lyingbomb.xlsx", sheet=blanks)
    data = bytearray(open(folder + "/lyingbomb.xlsx", "rb").read())
    real = struct.pack("<I", len(blanks.encode()))
    for at in range(len(data) - 4):
        if data[at:at + 4] == real:
            data[at:at + 4] = struct.pack("<I", 4096)
    open(folder + "/lyingbomb.xlsx", "wb").write(bytes(data))
    # The local header names another part than the central directory.
    package(folder + "/mismatch.xlsx")
    patch(folder + "/mismatch.xlsx", b"xl/worksheets/sheet1.xml", b"xl/worksheets/sheetX.xml")
    good = open(folder + "/good.xlsx", "rb").read()
    open(folder + "/truncated.xlsx", "wb").write(good[:len(good) // 2])
    package(folder + "/nosheet.xlsx", leave_out=("xl/worksheets/sheet1.xml",))
    package(folder + "/entity.xlsx", sheet=SHEET.replace(
        '<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol">]>'))
    package(folder + "/crc.xlsx", stored=True)
    patch(folder + "/crc.xlsx", b"<t>Wii</t>", b"<t>Wij</t>")
    # Zip64 local headers (sizes 0xFFFFFFFF and a zip64 extra field).
    import zipfile
    with zipfile.ZipFile(folder + "/zip64.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in PACKAGE.items():
            archive.writestr(name, text)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(SHEET.encode())
    package(folder + "/malformed.xlsx", sheet=SHEET.replace("<row r=\"2\">", "<row r=\"2\"\n <c"))


def seeds(folder):
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        for name, arguments in (("good", {}), ("stored", {"stored": True}),
                                ("entity", {"sheet": SHEET.replace("<sheetData>", "<!DOCTYPE x><sheetData>")})):
            package(scratch + "/" + name, **arguments)
            with open(folder + "/" + name + ".seed", "wb") as out:
                out.write(b"\0" + open(scratch + "/" + name, "rb").read())
    sheets = {
        "cells": SHEET,
        "typed": '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>d</t></is></c>'
                 '<c r="C1" t="b"><v>1</v></c></row><row r="3"><c r="A3" t="s"><v>1</v></c><c r="B3" s="1"><v>45306.5</v></c>'
                 '<c r="C3" t="e"><v>#N/A</v></c><c r="E3" s="2"><v>60</v></c><c r="F3" t="str"><f>A1</f><v>a&amp;b&#x41;</v></c>'
                 '</row></sheetData><mergeCells><mergeCell ref="A1:B1"/></mergeCells></worksheet>',
    }
    for name, text in sheets.items():
        with open(folder + "/" + name + ".seed", "wb") as out:
            out.write(b"\1" + text.encode())


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "hostile":
        hostile(sys.argv[2])
    elif sys.argv[1] == "seeds":
        seeds(sys.argv[2])
    else:
        read(sys.argv[2], sys.argv[3])
