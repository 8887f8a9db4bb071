#if canImport(Glibc)
import Glibc
#endif

/// The simulated camera in a child process of its own, so that its rendering and encoding stay out of the figures
/// of the process under measurement.
///
/// The child is this executable with the `serve` argument; it prints its port, and serves until its standard input
/// closes.
final class CameraProcess {
    let pid: pid_t
    let port: UInt16
    private let control: Int32

    /// Starts the camera and reads its port.
    init(executable: String) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw BenchmarkError("cannot create pipes") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for descriptor in toChild + fromChild {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = [strdup(executable), strdup("serve"), nil]
        defer {
            for argument in argv { free(argument) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else { throw BenchmarkError("cannot start the camera: \(String(cString: strerror(status)))") }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fromChild[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        close(fromChild[0])
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 2, words[0] == "port", let port = UInt16(words[1]) else {
            throw BenchmarkError("the camera did not start: \(String(decoding: line, as: UTF8.self))")
        }
        self.pid = pid
        self.port = port
        control = toChild[1]
    }

    /// Closes the camera's standard input and waits for it to exit.
    func stop() {
        close(control)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}

/// A failure that stops the benchmark.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
