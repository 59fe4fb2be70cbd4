@_exported import FerryCore
@_exported import FerryJSON
