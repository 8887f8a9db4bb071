import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The built `viewfinder` executable, run as a child process.
enum Tool {
    /// The executable's path: `VIEWFINDER` when set, otherwise beside the test bundle in the build products.
    static let path = BuiltProduct.path(of: "viewfinder")

    /// Runs the tool with `arguments` to its end.
    static func run(_ arguments: String..., timeout: Duration = .seconds(120)) throws -> ChildProcess.Result {
        try run(arguments, timeout: timeout)
    }

    /// Runs the tool with `arguments` to its end.
    static func run(_ arguments: [String], timeout: Duration = .seconds(120)) throws -> ChildProcess.Result {
        guard access(path, X_OK) == 0 else {
            throw TestFailure("no viewfinder executable at \(path); build it with 'swift build --product viewfinder'")
        }
        return try ChildProcess.run(path, arguments, timeout: timeout)
    }

    /// Starts the tool with `arguments` and waits until its standard output contains `text`.
    static func start(_ arguments: [String], waitingFor text: String) throws -> ChildProcess {
        let process = try ChildProcess(path, arguments)
        guard process.waitForOutput(timeout: .seconds(60), until: { $0.contains(text) }) else {
            throw TestFailure(
                "viewfinder \(arguments.joined(separator: " ")) never printed '\(text)'\n"
                    + "--- stdout:\n\(process.standardOutput)\n--- stderr:\n\(process.standardError)")
        }
        return process
    }
}
