import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Checks that `viewfinder simulate --usb`, once its gadget is made, serves as nobody: the process has given up root
/// for good (its real, effective, saved and file-system user and group IDs are 65534, its only group nogroup), and
/// the gadget's FunctionFS files are nobody's, so that it can serve them. (That the process it left as root removes
/// the gadget when it ends, Scripts/vivid-vm.sh checks once it has ended.)
///
/// - Parameters:
///   - identity: The identity the simulator runs as, which names its gadget.
///   - simulator: The simulator's process ID.
func runUSBPrivilegeCheck(_ runner: CheckRunner, identity: String, simulator: pid_t) async {
    await runner.run("usb-\(identity)-privileges") {
        let status = try require(
            try? FileDescriptor.open("/proc/\(simulator)/status", O_RDONLY).readAll(limit: 1 << 16),
            "cannot read the status of process \(simulator)")
        let lines = String(decoding: status, as: UTF8.self).split(separator: "\n")
        func ids(_ field: String) -> [String] {
            guard let line = lines.first(where: { $0.hasPrefix(field + ":") }) else { return [] }
            return line.dropFirst(field.count + 1).split { $0 == "\t" || $0 == " " }.map(String.init)
        }
        let users = ids("Uid")
        let groups = ids("Gid")
        let supplementary = ids("Groups")
        try expect(users == ["65534", "65534", "65534", "65534"], "the simulator's user IDs are \(users)")
        try expect(groups == ["65534", "65534", "65534", "65534"], "the simulator's group IDs are \(groups)")
        try expect(supplementary.allSatisfy { $0 == "65534" }, "the simulator keeps the groups \(supplementary)")
        var info = stat()
        let endpoints = "/dev/ffs-viewfinder-\(identity)"
        for file in ["ep0", "ep1", "ep2", "ep3"] {
            try expect(stat("\(endpoints)/\(file)", &info) == 0, "there is no \(endpoints)/\(file)")
            try expect(
                info.st_uid == 65534 && info.st_gid == 65534,
                "\(endpoints)/\(file) belongs to \(info.st_uid):\(info.st_gid), not to nobody")
        }
        return "serves as nobody (user and group IDs \(users.joined(separator: ","))), its FunctionFS files nobody's"
    }
}
