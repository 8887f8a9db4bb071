import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// The PTP/IP client's GUID: a keyed hash of the machine's identity, or a random one kept in the user's configuration
/// directory, never the machine ID itself.
@Suite struct ClientGUIDTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// FIPS 180-4's examples and RFC 4231's test cases 2 and 6 (a key longer than a block).
    @Test func sha256AndHMACMatchThePublishedVectors() {
        #expect(
            Self.hex(SHA256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Self.hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Self.hex(
                SHA256.authenticationCode(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            Self.hex(SHA256.authenticationCode(key: longKey, message: message))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// The same machine and user always give the same GUID, another machine or user another one, and the GUID is a
    /// version 4 UUID that does not contain the machine ID.
    @Test func theGUIDIsAKeyedHashOfTheMachineAndUser() {
        let machine = Array(0..<16).map(UInt8.init)
        let guid = PTPIPGUID.keyed(machineIdentity: machine, user: 1000)
        #expect(guid == PTPIPGUID.keyed(machineIdentity: machine, user: 1000))
        #expect(guid != PTPIPGUID.keyed(machineIdentity: machine, user: 1001))
        #expect(guid != PTPIPGUID.keyed(machineIdentity: machine.reversed(), user: 1000))
        #expect(guid.bytes[6] >> 4 == 4)
        #expect(guid.bytes[8] >> 6 == 0b10)
        #expect(guid.bytes != machine)
        #expect(PTPIPGUID.thisComputer == PTPIPGUID.thisComputer)
    }

    @Test func aMachineIDFileIsReadOnlyWhenItHoldsAnIdentity() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/machine-id"
        try directory.write("0123456789abcdef0123456789ABCDEF\n", to: "machine-id")
        let half: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]
        #expect(PTPIPGUID.hexadecimalIdentifier(at: path) == half + half)
        try directory.write("uninitialized\n", to: "machine-id")
        #expect(PTPIPGUID.hexadecimalIdentifier(at: path) == nil)
        try directory.write("0123456789abcdef0123456789abcdeg\n", to: "machine-id")
        #expect(PTPIPGUID.hexadecimalIdentifier(at: path) == nil)
        #expect(PTPIPGUID.hexadecimalIdentifier(at: directory.path + "/missing") == nil)
    }

    /// Without a machine identity, a random GUID is made once and kept, readable by the user alone; the next run
    /// reads the same one.
    @Test func aGUIDWithoutAMachineIdentityIsKeptInTheConfigurationDirectory() throws {
        let directory = try TemporaryDirectory()
        let first = try #require(PTPIPGUID.kept(in: directory.path))
        #expect(PTPIPGUID.kept(in: directory.path) == first)
        var status = stat()
        #expect(lstat(directory.path + "/viewfinder/ptpip-client-guid", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600)
        #expect(status.st_size == 33)
        #expect(lstat(directory.path + "/viewfinder", &status) == 0 && status.st_mode & 0o777 == 0o700)
    }

    /// A symbolic link put where the GUID is kept is neither read nor written through: the file it points to stays
    /// as it was, and a file of the GUID's own takes the link's place.
    @Test func aSymbolicLinkInPlaceOfTheKeptGUIDIsNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let target = "00112233445566778899aabbccddeeff\n"
        try directory.write(target, to: "elsewhere")
        #expect(mkdir(directory.path + "/viewfinder", 0o700) == 0)
        #expect(symlink(directory.path + "/elsewhere", directory.path + "/viewfinder/ptpip-client-guid") == 0)
        let guid = try #require(PTPIPGUID.kept(in: directory.path))
        #expect(Self.hex(guid.bytes) + "\n" != target)
        #expect(try directory.read("elsewhere") == target)
        var status = stat()
        #expect(lstat(directory.path + "/viewfinder/ptpip-client-guid", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        #expect(PTPIPGUID.kept(in: directory.path) == guid)
    }
}
