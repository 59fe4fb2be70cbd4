@_exported import FerryCore
@_exported import FerryJSON
@_exported import FerryCSV
@_exported import FerryCSVToJSON
@_exported import FerryGzip
@_exported import FerryBundle
@_exported import FerryPlist
@_exported import FerryXLSX
