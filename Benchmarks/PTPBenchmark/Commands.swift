import ViewfinderTestSupport

/// Runs a command line to its end, standard error merged into its output, as the benchmark measures commands.
func runCommand(_ command: [String], timeout: Duration = .seconds(600)) throws -> ChildProcess.Result {
    try ChildProcess.run(command[0], Array(command.dropFirst()), mergingErrors: true, timeout: timeout)
}

/// A failure that stops the benchmark.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
