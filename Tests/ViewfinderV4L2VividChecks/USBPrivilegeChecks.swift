import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Checks that `viewfinder simulate --usb`, once its gadget is made, serves as nobody: every thread of the process
/// has given up root for good (real, effective, saved and file-system user and group IDs 65534, its only group
/// nogroup), and the gadget's FunctionFS files are nobody's, so that it can serve them. (That the process it left as
/// root removes the gadget when it ends, Scripts/vivid-vm.sh checks once it has ended.)
///
/// The threads are read one by one: the main thread of a Swift program that awaits on Linux has ended (Dispatch's
/// main queue runs without it), and `/proc/PID/status`, which is that thread's, shows its IDs from before.
///
/// - Parameters:
///   - identity: The identity the simulator runs as, which names its gadget.
///   - simulator: The simulator's process ID.
func runUSBPrivilegeCheck(_ runner: CheckRunner, identity: String, simulator: pid_t) async {
    await runner.run("usb-\(identity)-privileges") {
        var running = 0
        for thread in Directory.names(in: "/proc/\(simulator)/task") {
            let status = try require(
                try? FileDescriptor.open("/proc/\(simulator)/task/\(thread)/status", O_RDONLY).readAll(limit: 1 << 16),
                "cannot read the status of thread \(thread) of process \(simulator)")
            let lines = String(decoding: status, as: UTF8.self).split(separator: "\n")
            func fields(_ name: String) -> [String] {
                guard let line = lines.first(where: { $0.hasPrefix(name + ":") }) else { return [] }
                return line.dropFirst(name.count + 1).split { $0 == "\t" || $0 == " " }.map(String.init)
            }
            guard fields("State").first != "Z" else { continue }
            running += 1
            let nobody = Array(repeating: "65534", count: 4)
            try expect(fields("Uid") == nobody, "thread \(thread)'s user IDs are \(fields("Uid"))")
            try expect(fields("Gid") == nobody, "thread \(thread)'s group IDs are \(fields("Gid"))")
            try expect(fields("Groups").allSatisfy { $0 == "65534" }, "thread \(thread) keeps \(fields("Groups"))")
        }
        try expect(running > 0, "process \(simulator) has no running thread")
        var info = stat()
        let endpoints = "/dev/ffs-viewfinder-\(identity)"
        for file in ["ep0", "ep1", "ep2", "ep3"] {
            try expect(stat("\(endpoints)/\(file)", &info) == 0, "there is no \(endpoints)/\(file)")
            try expect(
                info.st_uid == 65534 && info.st_gid == 65534,
                "\(endpoints)/\(file) belongs to \(info.st_uid):\(info.st_gid), not to nobody")
        }
        return "its \(running) threads serve as nobody (user and group 65534), its FunctionFS files nobody's"
    }
}
