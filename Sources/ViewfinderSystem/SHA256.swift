/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104): a few bytes at once, or a file's bytes as they stream by.
///
/// ```swift
/// var hash = SHA256()
/// for chunk in chunks { hash.update(chunk) }
/// let digest = hash.finalize()     // 32 bytes
/// ```
package struct SHA256: Sendable {
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

    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// The bytes of a block not yet complete.
    private var pending: [UInt8] = []
    /// How many bytes were hashed.
    private var length: UInt64 = 0

    /// A hash of no bytes yet.
    package init() {
        pending.reserveCapacity(64)
    }

    /// Hashes `bytes` after those given before.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(64 - pending.count)
            pending += taken
            rest = rest.dropFirst(taken.count)
            guard pending.count == 64 else { return }
            let block = pending
            pending.removeAll(keepingCapacity: true)
            compress(block[...])
        }
        let whole = rest.count / 64 * 64
        if whole > 0 {
            let blocks = Array(rest.prefix(whole))
            for start in stride(from: 0, to: whole, by: 64) {
                compress(blocks[start..<start + 64])
            }
        }
        pending += rest.dropFirst(whole)
    }

    /// The 32-byte digest of every byte given.
    package consuming func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = pending + [0x80]
        tail += [UInt8](repeating: 0, count: (64 + 56 - tail.count % 64) % 64)
        withUnsafeBytes(of: bits.bigEndian) { tail += $0 }
        for start in stride(from: 0, to: tail.count, by: 64) {
            compress(tail[start..<start + 64])
        }
        return state.flatMap { word in withUnsafeBytes(of: word.bigEndian, Array.init) }
    }

    /// Mixes one 64-byte block into the state.
    private mutating func compress(_ block: ArraySlice<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
            block.withUnsafeBufferPointer { bytes in
                for index in 0..<16 {
                    let at = 4 * index
                    words[index] =
                        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
                        | UInt32(bytes[at + 3])
                }
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
            Self.roundConstants.withUnsafeBufferPointer { constants in
                for index in 0..<64 {
                    let big1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let first = h &+ big1 &+ choice &+ constants[index] &+ words[index]
                    let big0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ big0 &+ majority)
                }
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
        }
    }

    /// The 32-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(message)
        return hash.finalize()
    }

    /// HMAC-SHA256 of `message` under `key`.
    package static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        return digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// `digest` in lower-case hexadecimal, as `sha256sum` prints it.
    package static func hexadecimal(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        self >> count | self << (32 - count)
    }
}
