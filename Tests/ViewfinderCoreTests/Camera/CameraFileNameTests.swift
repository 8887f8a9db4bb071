import Testing
import ViewfinderCore

@Suite struct CameraFileNameTests {
    private func item(_ name: String) -> CameraFileItem {
        CameraFileItem(id: 7, storageID: 0x0001_0001, parentID: nil, name: name, kind: .jpegImage, byteCount: 1)
    }

    @Test func onlyPlainNamesArePlain() {
        #expect(CameraFileItem.isPlainFileName("DSC_0001.JPG"))
        #expect(CameraFileItem.isPlainFileName(".hidden"))
        for name in ["", ".", "..", "../up.jpg", "DCIM/x.jpg", "/etc/passwd", "bell\u{7}.jpg", "line\n.jpg"] {
            #expect(!CameraFileItem.isPlainFileName(name), "\(name)")
        }
    }

    @Test func aPlainNameIsKept() {
        #expect(item("DSC_0001.JPG").safeFileName == "DSC_0001.JPG")
        #expect(item(".hidden").safeFileName == ".hidden")
        #expect(item("Ünïcode Name.JPG").safeFileName == "Ünïcode Name.JPG")
    }

    @Test func anyOtherNameCannotLeaveTheFolder() {
        #expect(item("../../etc/passwd").safeFileName == "_.._etc_passwd")
        #expect(item("/etc/passwd").safeFileName == "_etc_passwd")
        #expect(item("DCIM/x.jpg").safeFileName == "DCIM_x.jpg")
        #expect(item("bell\u{7}.jpg").safeFileName == "bell_.jpg")
        #expect(item("nul\u{0}.jpg").safeFileName == "nul_.jpg")
        #expect(item("..").safeFileName == "file-7")
        #expect(item(".").safeFileName == "file-7")
        #expect(item("").safeFileName == "file-7")
    }
}
