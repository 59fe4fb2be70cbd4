import Foundation

/// A Python that has `jsonschema`, for tests that check Ferry's output with it.
public enum PythonEnvironment {
    /// The path of a python3 that can import jsonschema: the project's venv
    /// (`.build/python-venv`, which `.ci/run` makes), else the one on PATH.
    /// - Throws: when neither can.
    public static func python() throws -> String {
        let venv = TestPaths.packageRoot.appendingPathComponent(".build/python-venv/bin/python3").path
        let probe = ["-c", "import sys, jsonschema; print(sys.executable)"]
        for (program, arguments) in [(venv, probe), ("/usr/bin/env", ["python3"] + probe)]
        where FileManager.default.isExecutableFile(atPath: program) {
            let result = try Subprocess.run(URL(fileURLWithPath: program), arguments)
            let path = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
            if result.status == 0 && !path.isEmpty { return path }
        }
        throw PythonMissing()
    }

    struct PythonMissing: Error, CustomStringConvertible {
        var description: String {
            "no python3 with jsonschema: run `python3 -m venv .build/python-venv && .build/python-venv/bin/pip install jsonschema`"
        }
    }
}
