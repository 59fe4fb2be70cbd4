// The library an app imports: `import Ferry`.
//
// It re-exports the public face of Ferry's modules and nothing else: the
// model (`Record`, `Value`, `RecordKind`, `Schema`, `FerryError`), the
// coders (`FerryDecoder`, `FerryEncoder`, `FerryFormat`), the commands
// (`Converter`, `Validator`, `Merger`, `Inspector`, `Linter`), the
// registry and every built-in codec, so that a plugin codec can be written
// against it too. The tuning types those modules share among themselves
// (buffers, windows, spools, key logs, raw records) are `package`, so they
// are not part of it; ARCHITECTURE.md ("The public surface") counts what is.
@_exported import FerryCore
@_exported import FerryKit
