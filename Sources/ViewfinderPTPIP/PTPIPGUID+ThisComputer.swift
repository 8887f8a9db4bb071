import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension PTPIPGUID {
    /// This computer's identifier for this user, the same in every run, so a camera paired with this computer knows
    /// it again.
    ///
    /// It is a keyed hash of the machine's identity (`/etc/machine-id`), as machine-id(5) asks of anything that needs
    /// a stable identifier: HMAC-SHA256 keyed with the machine ID over an identifier of Viewfinder's PTP/IP client and
    /// the user, so the machine ID itself never leaves the computer and cannot be told from the GUID. A machine
    /// without an identity gets a random GUID kept in `viewfinder/ptpip-client-guid` under the user's configuration
    /// directory (`$XDG_CONFIG_HOME`, or `~/.config`), made on first use; where that cannot be written either, a
    /// random GUID for this run.
    public static var thisComputer: PTPIPGUID { computedForThisComputer }

    private static let computedForThisComputer: PTPIPGUID = {
        // Each file is read once (a lazy compactMap's `first` reads the one it finds twice, and traps if the second
        // read fails).
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let identity = hexadecimalIdentifier(at: path) {
                return keyed(machineIdentity: identity, user: getuid())
            }
        }
        return configurationDirectory().flatMap { kept(in: $0) } ?? .random()
    }()

    /// The application-specific key machine-id(5) asks for: a fixed random identifier of Viewfinder's PTP/IP client.
    private static let applicationIdentifier: [UInt8] = [
        0x5b, 0x0e, 0x7c, 0xd1, 0x93, 0x4a, 0x4f, 0x2e, 0xa6, 0x21, 0x0c, 0x8f, 0x3d, 0x77, 0xe4, 0x19,
    ]

    /// The GUID for `user` on the machine whose 16-byte identity is `machineIdentity`: the first 16 bytes of
    /// HMAC-SHA256 keyed with the identity over ``applicationIdentifier`` and the user's number, as a version 4 UUID
    /// (as systemd's `sd_id128_get_machine_app_specific` makes them).
    static func keyed(machineIdentity: [UInt8], user: uid_t) -> PTPIPGUID {
        var message = applicationIdentifier
        withUnsafeBytes(of: UInt32(user).bigEndian) { message += $0 }
        let code = SHA256.authenticationCode(key: machineIdentity, message: message)
        let high = code[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        let low = code[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
        // Version 4 in byte 6's high nibble, the RFC 4122 variant in byte 8's top bits.
        return PTPIPGUID(high: high & ~0xF000 | 0x4000, low: low & ~(0xC0 << 56) | 0x80 << 56)
    }

    /// The 16 bytes a file holds as 32 hexadecimal digits and a newline, as a machine-id file does; `nil` when the
    /// file is missing, is a symbolic link, or holds anything else, such as the `uninitialized` of a machine whose
    /// first boot is not over.
    static func hexadecimalIdentifier(at path: String) -> [UInt8]? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW),
            let bytes = try? file.readAll(limit: 4096)
        else { return nil }
        return hexadecimalIdentifier(bytes)
    }

    /// The 16 bytes written as 32 hexadecimal digits, with or without a newline after them.
    private static func hexadecimalIdentifier(_ text: [UInt8]) -> [UInt8]? {
        let digits = text.last == UInt8(ascii: "\n") ? text.dropLast() : text[...]
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            guard let high = hexadecimalValue(digits[index]), let low = hexadecimalValue(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexadecimalValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The user's configuration directory: `$XDG_CONFIG_HOME` when it is an absolute path, else `$HOME/.config`.
    private static func configurationDirectory() -> String? {
        if let base = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), base.hasPrefix("/") { return base }
        guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return nil }
        return home + "/.config"
    }

    /// The GUID kept in `viewfinder/ptpip-client-guid` under `directory`, made and written there first when there is
    /// none; `nil` when it can be neither read nor written.
    ///
    /// The file is only ever made whole: a new GUID is written to a file of its own (`O_EXCL | O_NOFOLLOW`, readable
    /// by the user alone) and linked to the name, so two programs starting at once agree on the first one linked,
    /// and a symbolic link at the name is never followed.
    static func kept(in directory: String) -> PTPIPGUID? {
        let folder = directory + "/viewfinder"
        let path = folder + "/ptpip-client-guid"
        if let kept = hexadecimalIdentifier(at: path) { return try? PTPIPGUID(bytes: kept) }
        _ = mkdir(directory, 0o700)
        _ = mkdir(folder, 0o700)
        let guid = PTPIPGUID.random()
        let text = guid.bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\n"
        let draft = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        guard let file = try? FileDescriptor.open(draft, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o600)
        else { return nil }
        defer { unlink(draft) }
        guard (try? file.writeAll(Array(text.utf8))) != nil, (try? file.close()) != nil else { return nil }
        if link(draft, path) == 0 { return guid }
        // Another program linked its GUID first, or a file that holds something else has the name.
        if errno == EEXIST, let kept = hexadecimalIdentifier(at: path) { return try? PTPIPGUID(bytes: kept) }
        return rename(draft, path) == 0 ? guid : nil
    }
}
