// Soaks the PTP/IP camera: live view at a steady pace plus a property change every few hundred milliseconds against
// the simulated Nikon camera in this process, printing resident memory, open file descriptors and threads at
// intervals, then a verdict: resident memory may grow less than 5 MiB after the warm-up, the descriptor count stays
// flat and returns to where it was once the camera disconnects. Exits 1 when a limit does not hold.
//
// Usage: soak [--duration SECONDS] [--interval SECONDS] [--warm-up SECONDS]
//        (build with -c release; `make test-soak` runs 60 s, `make soak` 10 minutes)

import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#endif

/// The command line's form, for messages.
let usage = "soak [--duration SECONDS] [--interval SECONDS] [--warm-up SECONDS]"

/// The options from the command line, or `nil` after printing what is wrong with it.
func parseOptions(_ arguments: ArraySlice<String>) -> Soak.Options? {
    var options = Soak.Options()
    var rest = arguments
    while let name = rest.popFirst() {
        if name == "--help" {
            say("usage: \(usage)")
            exit(0)
        }
        guard let text = rest.popFirst(), let value = Double(text), value > 0 else {
            say("soak: \(name) needs a number of seconds above zero")
            return nil
        }
        switch name {
        case "--duration": options.duration = value
        case "--interval": options.interval = value
        case "--warm-up": options.warmUp = value
        default:
            say("soak: unknown option \(name); usage: \(usage)")
            return nil
        }
    }
    guard options.warmUp + options.interval <= options.duration else {
        say("soak: the duration must leave at least one interval after the warm-up")
        return nil
    }
    return options
}

guard let options = parseOptions(CommandLine.arguments.dropFirst()) else { exit(64) }
do {
    exit(try await Soak(options: options).run() ? 0 : 1)
} catch {
    say("soak: \(error)")
    exit(1)
}
