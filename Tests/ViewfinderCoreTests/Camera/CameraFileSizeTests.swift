import Testing
import ViewfinderCore

/// A file's size as a camera gives it: exactly, only as "4 GiB or more", or not at all.
@Suite struct CameraFileSizeTests {
    private func item(_ byteCount: UInt64?) -> CameraFileItem {
        CameraFileItem(id: 1, storageID: 1, parentID: nil, name: "P1.JPG", kind: .jpegImage, byteCount: byteCount)
    }

    @Test func aGivenSizeIsKnown() {
        #expect(item(2_400_000).isByteCountKnown)
        #expect(item(2_400_000).knownByteCount == 2_400_000)
        #expect(item(0).knownByteCount == 0)
    }

    @Test func fourGiBOrMoreAndNoSizeAreUnknownAndTellApart() {
        let large = item(CameraFileItem.sizeOf4GiBOrMore)
        let unsaid = item(nil)
        #expect(!large.isByteCountKnown && large.knownByteCount == nil)
        #expect(!unsaid.isByteCountKnown && unsaid.knownByteCount == nil)
        #expect(large.byteCount == CameraFileItem.sizeOf4GiBOrMore)
        #expect(unsaid.byteCount == nil)
        #expect(large != unsaid)
    }
}
