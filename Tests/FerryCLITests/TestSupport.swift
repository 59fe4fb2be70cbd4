@_exported import FerryTestSupport
