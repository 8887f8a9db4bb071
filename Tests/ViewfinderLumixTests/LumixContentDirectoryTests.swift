import Testing
import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderTestSupport

@testable import ViewfinderLumix

/// The content directory's answers, as the TZ90 gave its card's listing.
@Suite struct LumixContentDirectoryTests {
    /// A Browse answer whose Result is `didl`, escaped as a SOAP answer carries it.
    static func browseAnswer(_ didl: [UInt8], returned: Int) -> [UInt8] {
        Array(
            ("<?xml version=\"1.0\"?><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
                + "<u:BrowseResponse xmlns:u=\"urn:schemas-upnp-org:service:ContentDirectory:1\"><Result>"
                + XMLElements.escaped(String(decoding: didl, as: UTF8.self)) + "</Result><NumberReturned>\(returned)"
                + "</NumberReturned></u:BrowseResponse></s:Body></s:Envelope>").utf8)
    }

    @Test func theTZ90sListingGivesItsPicturesAndThumbnails() throws {
        let didl = try readFile(RecordedTZ90.fixtures + "CDS_control-browse.txt")
        let page = try LumixContentDirectory.files(inBrowseAnswer: Self.browseAnswer(didl, returned: 50))
        #expect(page.returned == 50)
        #expect(page.files.count == 50)
        let first = try #require(page.files.first)
        #expect(first.item.name == "DO1030094.JPG")
        #expect(first.item.id == 1_030_094)
        #expect(first.item.kind == .jpegImage)
        // The TZ90 gives no sizes in its listing.
        #expect(!first.item.isByteCountKnown)
        #expect(first.url == "http://192.168.54.1:50001/DO1030094.JPG")
        #expect(first.thumbnailURL == "http://192.168.54.1:50001/DT1030094.JPG")
        #expect(Set(page.files.map(\.item.id)).count == page.files.count)
    }

    @Test func anAnswerWithoutAResultIsRefused() {
        let error = #expect(throws: ViewfinderError.self) {
            try LumixContentDirectory.files(inBrowseAnswer: Array("<s:Envelope><s:Body/></s:Envelope>".utf8))
        }
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("without a Result") == true, "\(String(describing: error))")
        let nested = #expect(throws: ViewfinderError.self) {
            try LumixContentDirectory.files(
                inBrowseAnswer: Self.browseAnswer(Array("<DIDL-Lite><item".utf8), returned: 1))
        }
        #expect(nested?.code == .malformedData)
    }
}
