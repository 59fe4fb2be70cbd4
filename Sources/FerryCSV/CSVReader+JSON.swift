import FerryCore

// MARK: - Design
//
// Plain rows laid out as JSON by the reader (see FerryCore's JSONLayout.swift).
// A row is plain when it ends in LF inside the bytes at hand, has as many
// fields as the header, holds no quote, CR or NUL, and each cell fits its
// column as below; everything else goes the general way, as a raw record.
//
//     header  name,price,photo        kind product
//     row     Wii,269.00,             plain: {"name": "Wii", "price": 269.0, "photo": null}
//     row     Wii,-1,                 not plain: the general way reports the negative price
//     row     "Wii, white",269,       not plain (a quote): the general way
//
// What each column takes, from `CellTyping` and `RecordValidator`:
// - no type (a field the kind does not name): any text, empty as "";
// - string or photo, optional: text, empty as null; a required string:
//   text that is not empty;
// - number: empty as null unless required; text `JSONText.printsAsWritten`
//   accepts is copied; other text is parsed as `CellTyping` parses it and
//   printed as the writer prints it, when it is at least zero;
// - integer: the same, when it parses as an integer;
// - bool: empty as null unless required; what `CellTyping.bool` accepts.
// Cells with bytes above 0x7F are checked as UTF-8 first. A kind field that
// is required and missing from the header turns the plain path off.

extension CSVReader: JSONLayingReader {
    public func settleKind() throws(FerryError) -> RecordKind? {
        if let failure { throw failure }
        do throws(FerryError) {
            if !started { try start() }
        } catch {
            failure = error
            throw error
        }
        return header == nil ? nil : context.kind
    }

    public func readLaidOut(
        into writer: any JSONLayoutWriter, raw: (RawRecord) throws(FerryError) -> Void
    ) throws(FerryError) -> Bool {
        if let failure { throw failure }
        do throws(FerryError) {
            if !started { try start() }
            guard !finished, let header else { return false }
            guard let plan = plainPlan(for: header, writer: writer) else { return try readRaw(raw) }
            var buffers = RawRecordBuffers()
            swap(&buffers, &rawBuffers)
            defer { swap(&buffers, &rawBuffers) }
            plan.anyWritten = writer.recordsWritten > 0
            var failed: FerryError?
            let columns = self.columns
            let ended = try columns.withUnsafeBufferPointer { (columns) throws(FerryError) -> Bool in
                try scanRows(
                    plain: { scanner in
                        guard plan.layOut(&scanner) else { return false }
                        self.rowIndex += 1
                        return true
                    },
                    { (scanner, fields) throws(CSVScanError) -> Bool in
                        guard let shape = try fillRow(scanner, fields, header: header, columns: columns, into: &buffers)
                        else { return true }
                        do throws(FerryError) {
                            // The rows laid out before this one go first.
                            try plan.hand(to: writer)
                            if shape.ragged { raggedRowsFixed += 1 }
                            let origin = RecordOrigin(index: rowIndex, byteOffset: scanner.baseOffset + shape.start)
                            rowIndex += 1
                            try buffers.withRecord(fields: shape.fields, origin: origin, raw)
                            plan.anyWritten = true
                            return true
                        } catch {
                            failed = error
                            return false
                        }
                    })
            }
            if let failed { throw failed }
            try plan.hand(to: writer)
            if ended { finish() }
            return !ended
        } catch {
            failure = error
            throw error
        }
    }

    /// How plain rows of `header` are laid out for `writer`; nil when a
    /// required field of the kind is not in the header.
    private func plainPlan(for header: FieldList, writer: any JSONLayoutWriter) -> PlainRowPlan? {
        if let plan = plainRows, plan.writer == ObjectIdentifier(writer) { return plan }
        let kind = context.kind ?? .generic
        for spec in kind.fields where spec.required && !header.contains(spec.name) { return nil }
        guard
            let plan = PlainRowPlan(
                writer: ObjectIdentifier(writer), layout: writer.jsonLayout(for: header),
                cells: columns.map(PlainRowPlan.Cell.init), delimiter: dialect.delimiter, quote: dialect.quote,
                maxFieldBytes: dialect.maxFieldBytes)
        else { return nil }
        plainRows = plan
        return plan
    }
}
