import Viewfinder

#if canImport(Glibc)
import Glibc
#endif

/// Runs the tool: parses the command line, runs the selected command, and turns failures into messages and exit
/// codes.
enum CommandRunner {
    /// Runs `root` with the process's arguments and exits with the command's status.
    static func main(root: any Command.Type) async -> Never {
        let words = Array(CommandLine.arguments.dropFirst())
        Interrupt.install()
        exit(await run(root: root, words: words))
    }

    /// Runs `root` with `words` and returns the exit status.
    static func run(root: any Command.Type, words: [String]) async -> Int32 {
        do {
            switch try CommandLineParser(root: root).parse(words) {
            case .help(let command, let path):
                Console.print(HelpFormatter(command: command, path: path).render())
                return ExitStatus.success
            case .run(let command, let arguments):
                try await command.run(arguments)
                return ExitStatus.success
            }
        } catch {
            Console.printError(error)
            return ExitStatus.of(error)
        }
    }
}

/// The exit statuses of the tool, following BSD's sysexits.h where one fits.
enum ExitStatus {
    /// The command did what was asked.
    static let success: Int32 = 0
    /// The command failed for a reason none of the others describes.
    static let failure: Int32 = 1
    /// The command line was wrong (EX_USAGE).
    static let usage: Int32 = 64
    /// A value given was not acceptable (EX_DATAERR).
    static let badValue: Int32 = 65
    /// Something named on the command line does not exist (EX_NOINPUT).
    static let notFound: Int32 = 66
    /// A camera or device could not be reached or went away (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
    /// The camera cannot do what was asked: it lacks the ability, or refused the request (EX_PROTOCOL).
    static let unsupported: Int32 = 76
    /// An output file or directory could not be created (EX_CANTCREAT).
    static let cannotCreate: Int32 = 73
    /// Reading or writing failed (EX_IOERR).
    static let ioError: Int32 = 74
    /// A wait timed out; trying again may work (EX_TEMPFAIL).
    static let timeout: Int32 = 75
    /// The system refused access (EX_NOPERM).
    static let permissionDenied: Int32 = 77
    /// The user stopped the command with Ctrl-C before it finished (128 + SIGINT, as shells report it).
    static let interrupted: Int32 = 130

    /// Each status with what it means, for the manual page.
    static let meanings: [(status: Int32, meaning: String)] = [
        (success, "The command did what was asked."),
        (failure, "The command failed for a reason none of the others describes."),
        (usage, "The command line was wrong; the message says what, and --help how to call the command."),
        (badValue, "A value given was not acceptable, such as a property value the camera does not take."),
        (notFound, "Something named on the command line does not exist: a device, a camera, a file."),
        (unavailable, "A camera or device could not be reached, was busy, or went away."),
        (cannotCreate, "An output file or directory could not be created."),
        (ioError, "Reading or writing failed."),
        (timeout, "A wait timed out; trying again may work."),
        (unsupported, "The camera cannot do what was asked: it lacks the ability, or refused the request."),
        (permissionDenied, "The system refused access, such as to a device file without a udev rule for the user."),
        (interrupted, "The command was stopped with Ctrl-C before it finished."),
    ]

    /// The status for a failure.
    static func of(_ error: any Error) -> Int32 {
        if error is UsageError { return usage }
        if let error = error as? CommandFailure { return error.exitStatus }
        guard let error = error as? ViewfinderError else { return failure }
        switch error.code {
        case .invalidArgument, .invalidPropertyValue, .unsupportedPixelFormat, .noValidFormat: return badValue
        case .notFound: return notFound
        case .notConnected, .connectionFailed, .disconnected, .deviceRemoved, .deviceBusy: return unavailable
        case .notAvailable, .protocolFailure: return unsupported
        case .timeout: return timeout
        case .permissionDenied: return permissionDenied
        case .io: return ioError
        default: return failure
        }
    }
}

/// A failure a command reports with its own message, hint and exit status.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong.
    let message: String
    /// What to try, if there is something.
    let hint: String?
    /// The status the tool exits with.
    let exitStatus: Int32

    init(_ message: String, hint: String? = nil, exitStatus: Int32 = ExitStatus.failure) {
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
    }

    var description: String { message }
}
