import Foundation
import Testing

/// Examples/Products, the GameStore app's archive, in its two plist forms.
public enum LegacyArchive {
    public static var path: String { TestPaths.example("Products") }

    /// The binary archive, as Scripts/make-legacy-archive.py wrote it.
    public static func binary() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The same archive as an XML plist, written by Python's plistlib (not
    /// by Ferry), with its UIDs as `CF$UID` dictionaries as CoreFoundation
    /// writes them in XML.
    public static func xml() throws -> [UInt8] {
        let script = """
            import plistlib, sys
            def xml(value):  # plistlib writes UIDs in binary plists only
                if isinstance(value, plistlib.UID): return {"CF$UID": value.data}
                if isinstance(value, dict): return {key: xml(element) for key, element in value.items()}
                if isinstance(value, list): return [xml(element) for element in value]
                return value
            with open(sys.argv[1], "rb") as f: archive = plistlib.load(f)
            sys.stdout.buffer.write(plistlib.dumps(xml(archive), fmt=plistlib.FMT_XML, sort_keys=False))
            """
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path], timeout: 60)
        try #require(result.status == 0, "python3 failed: \(result.err)")
        return result.stdout
    }
}
