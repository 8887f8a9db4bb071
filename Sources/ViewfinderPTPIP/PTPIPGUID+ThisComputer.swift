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
        let identity = ["/etc/machine-id", "/var/lib/dbus/machine-id"].lazy.compactMap(hexadecimalIdentifier(at:)).first
        if let identity { return keyed(machineIdentity: identity, user: getuid()) }
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

/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the few bytes the client's identity hashes.
enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The 32-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (64 + 56 - padded.count % 64) % 64)
        withUnsafeBytes(of: (UInt64(message.count) * 8).bigEndian) { padded += $0 }
        var words = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                words[index] = padded[block + 4 * index..<block + 4 * index + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for index in 16..<64 {
                let early = words[index - 15]
                let late = words[index - 2]
                let small0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
                let small1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
                words[index] = words[index - 16] &+ small0 &+ words[index - 7] &+ small1
            }
            var (a, b, c, d, e, f, g, h) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            for index in 0..<64 {
                let big1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let first = h &+ big1 &+ choice &+ roundConstants[index] &+ words[index]
                let big0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ big0 &+ majority)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
        }
        return state.flatMap { word in withUnsafeBytes(of: word.bigEndian, Array.init) }
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        return digest(block.map { $0 ^ 0x5c } + inner)
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        self >> count | self << (32 - count)
    }
}
