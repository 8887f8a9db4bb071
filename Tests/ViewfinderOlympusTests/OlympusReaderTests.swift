import Testing
import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderOlympus

@testable import ViewfinderSimulator

/// The command list and property description readers against the answers of the simulated Olympus, which
/// olympuswifi accepts (OlympusSimulatorTests), and against answers out of form.
@Suite struct OlympusReaderTests {
    /// The simulated camera's answer to `target`, asked in `mode`.
    static func answer(_ target: String, mode: String = "play") throws -> [UInt8] {
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        simulator.state.withLock { $0.mode = mode }
        let request = SimulatedHTTPRequest(
            head: HTTPHead(startLine: "GET \(target) HTTP/1.1", fields: []), body: [], peer: "127.0.0.1")
        let answer = simulator.answer(request)
        try #require(answer.status == "200 OK")
        return answer.body
    }

    @Test func theCommandListGivesCommandsArgumentsAndValues() throws {
        let list = try OlympusCommandList(parsing: Self.answer("/get_commandlist.cgi"))
        #expect(list.versions == ["version": "4.20", "oitrackversion": "3.10"])
        #expect(list.supportedFunctions == ["web"])
        #expect(list.commands["set_camprop"]?.method == .post)
        #expect(list.commands["get_caminfo"]?.method == .get)
        #expect(list.commands["get_caminfo"]?.arguments.isEmpty == true)
        #expect(list.accepts("switch_cammode", [("mode", "shutter")]))
        #expect(list.accepts("switch_cammode", [("mode", "rec"), ("lvqty", "0640x0480")]))
        #expect(!list.accepts("switch_cammode", [("mode", "rec"), ("lvqty", "9999x9999")]))
        #expect(!list.accepts("switch_cammode", [("mode", "play"), ("lvqty", "0640x0480")]))
        #expect(list.accepts("get_imglist", [("DIR", "/DCIM/100OLYMP")]))
        #expect(list.accepts("exec_takemisc", [("com", "startliveview"), ("port", "40000")]))
        #expect(!list.accepts("exec_takemisc", [("com", "starttake")]))
        #expect(
            list.values(of: "lvqty", in: "switch_cammode", after: [("mode", "rec")]) == [
                "0320x0240", "0640x0480", "0800x0600", "1024x0768", "1280x0960",
            ])
        #expect(list.values(of: "propname", in: "get_camprop", after: [("com", "get")]).contains("wbvalue"))
    }

    @Test func thePropertyDescriptionsGiveValuesAndTheirChoices() throws {
        let descriptions = try OlympusPropertyDescription.list(
            parsing: Self.answer("/get_camprop.cgi?com=desc&propname=desclist", mode: "rec"))
        #expect(descriptions.count == 7)
        let iso = try #require(descriptions.first { $0.name == "isospeedvalue" })
        #expect(iso.isSettable)
        #expect(iso.value == "Auto")
        #expect(iso.values.prefix(3) == ["Auto", "200", "250"])
        let shutter = try #require(descriptions.first { $0.name == "shutspeedvalue" })
        #expect(shutter.values.first == "60\"")
        #expect(shutter.values.last == "4000")
    }

    @Test func theFolderListingGivesFoldersAndFilesWithTheirTimes() throws {
        let root = try OlympusFolderEntry.list(parsing: Self.answer("/get_imglist.cgi?DIR=%2FDCIM"))
        #expect(root.map(\.path) == ["/DCIM/100OLYMP"])
        #expect(root.first?.isFolder == true)
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        try simulator.addPicture()
        try simulator.addPicture()
        let request = SimulatedHTTPRequest(
            head: HTTPHead(startLine: "GET /get_imglist.cgi?DIR=/DCIM/100OLYMP HTTP/1.1", fields: []), body: [],
            peer: "127.0.0.1")
        let files = try OlympusFolderEntry.list(parsing: simulator.answer(request).body)
        #expect(files.map(\.path) == ["/DCIM/100OLYMP/PC060001.JPG", "/DCIM/100OLYMP/PC060002.JPG"])
        #expect(files.allSatisfy { !$0.isFolder && !$0.isHidden && $0.size > 1000 })
        let time = try #require(files.first?.time)
        #expect([time.year, time.month, time.day, time.hour, time.minute, time.second] == [2026, 12, 6, 12, 0, 0])
        let odd = try OlympusFolderEntry.list(
            parsing: Array("VER_100\r\n/DCIM,.hidden,0,2,0,0\r\n/DCIM,P1.JPG,5,0,21537,48059\r\n".utf8))
        #expect(odd.map(\.isHidden) == [true, false])
        #expect(odd.last?.time.second == 54)
        #expect(odd.last?.time.hour == 23)
    }

    @Test func answersOutOfFormAreRefusedWithWhatIsWrong() {
        #expect(throws: ViewfinderError.self) {
            try OlympusCommandList(parsing: Array("<oishare><cgi><http_method type=\"get\"/></cgi></oishare>".utf8))
        }
        #expect(throws: ViewfinderError.self) {
            try OlympusCommandList(
                parsing: Array("<oishare><cgi name=\"x\"><http_method type=\"put\"/></cgi></oishare>".utf8))
        }
        #expect(throws: ViewfinderError.self) { try OlympusCommandList(parsing: Array("<oishare><cgi".utf8)) }
        #expect(throws: ViewfinderError.self) {
            try OlympusPropertyDescription.list(parsing: Array("<get><value>1</value></get>".utf8))
        }
        #expect(throws: ViewfinderError.self) { try OlympusFolderEntry.list(parsing: Array("<html>".utf8)) }
        #expect(throws: ViewfinderError.self) {
            try OlympusFolderEntry.list(parsing: Array("VER_100\r\n/DCIM,P1.JPG,-5,0,0,0\r\n".utf8))
        }
        #expect(throws: ViewfinderError.self) {
            try OlympusFolderEntry.list(parsing: Array("VER_100\r\n/DCIM,P1.JPG,5,0,0\r\n".utf8))
        }
        #expect(throws: ViewfinderError.self) {
            try OlympusFolderEntry.list(parsing: Array("VER_100\r\n/DCIM,P1.JPG,5,0,70000,0\r\n".utf8))
        }
        #expect(throws: ViewfinderError.self) {
            try OlympusPropertyDescription.list(
                parsing: Array("<desclist><desc><attribute>get</attribute></desc></desclist>".utf8))
        }
        let readOnly = try? OlympusPropertyDescription.list(
            parsing: Array("<desclist><desc><propname>batt</propname><attribute>get</attribute></desc></desclist>".utf8)
        )
        #expect(readOnly?.map(\.name) == ["batt"])
        #expect(readOnly?.first?.isSettable == false)
        #expect(readOnly?.first?.values == [])
    }
}
