import Testing
import ViewfinderCore

@testable import ViewfinderPTP
@testable import ViewfinderSimulator

/// Reading gphoto2's debug logs in every shape its versions write them, and taking only what is whole.
@Suite struct GPhotoDebugLogTests {
    /// gphoto2 2.4's shape: a Writing/Reading line, then `Hexdump of N = 0xN bytes follows:`.
    @Test func oldStyleUSBContainersBecomeTransactions() throws {
        let log = """
            # https://example.invalid/old.log
            0.1 gphoto2-port(2): Writing 16=0x10 bytes to port...
            0.1 gphoto2-port(3): Hexdump of 16 = 0x10 bytes follows:
            0000  10 00 00 00 01 00 02 10-00 00 00 00 01 00 00 00  ................

            0.1 gphoto2-port(2): Reading 512=0x200 bytes from port...
            0.1 gphoto2-port(2): Could only read 12 out of 512 bytes
            0.1 gphoto2-port(3): Hexdump of 12 = 0xc bytes follows:
            0000  0c 00 00 00 03 00 1e 20-00 00 00 00              ....... ....

            0.2 gphoto2-port(2): Writing 12=0xc bytes to port...
            0.2 gphoto2-port(3): Hexdump of 12 = 0xc bytes follows:
            0000  0c 00 00 00 01 00 04 10-01 00 00 00              ............

            0.2 gphoto2-port(2): Reading 512=0x200 bytes from port...
            0.2 gphoto2-port(3): Hexdump of 20 = 0x14 bytes follows:
            0000  14 00 00 00 02 00 04 10-01 00 00 00 01 00 00 00  ................
            0010  01 00 02 00            -                         ....

            0.2 gphoto2-port(3): Hexdump of 12 = 0xc bytes follows:
            0000  0c 00 00 00 03 00 01 20-01 00 00 00              ....... ....

            """ + Self.listing(prefix: "0.3 PTP2/ptp2/library.c(2): ")
        let recording = try RecordedCamera(gphotoDebugLog: log)
        #expect(recording.source == "https://example.invalid/old.log")
        #expect(recording.transport == "usb")
        #expect(recording.transactions.count == 2)
        let open = recording.transactions[0]
        #expect(open.operation == .openSession && open.parameters == [1])
        #expect(open.response == .sessionAlreadyOpen)
        let ids = recording.transactions[1]
        #expect(ids.operation == .getStorageIDs && ids.parameters == [])
        #expect(ids.dataIn == [1, 0, 0, 0, 1, 0, 2, 0])
        #expect(ids.response == .ok)
        #expect(recording.deviceInfoIsFromListing)
        #expect(recording.deviceInfo.model == "Canon EOS 5D Mark III")
        #expect(recording.deviceInfo.vendorExtensionID == 0x0B)
        #expect(recording.deviceInfo.serialNumber == "4ff1")
        #expect(recording.deviceInfo.vendorExtensionDescription == "")
        #expect(recording.deviceInfo.operationsSupported.map(\.rawValue) == [0x1001, 0x9116])
        #expect(recording.deviceInfo.eventsSupported.map(\.rawValue) == [0xC181])
        #expect(recording.deviceInfo.devicePropertiesSupported.map(\.rawValue) == [0x5001])
    }

    /// gphoto2 2.5's shape, with and without timestamps: a data container read in pieces, put together by the
    /// length in its header; the operation named by the container when the request is not in the log.
    @Test func aDataPhaseReadInPiecesIsPutTogether() throws {
        let log = """
            Read    16 = 0x10 out of 1024 bytes from port: (hexdump of 16 bytes)
            0000  18 00 00 00 02 00 16 91-0a 00 00 00 08 00 00 00  ................

            0.39 gp_port_read                (3): Read    8 = 0x8 bytes from port: (hexdump of 8 bytes)
            0000  00 00 00 00 aa bb cc dd-                         ........

            Wrote   12 = 0xc bytes to port: (hexdump of 12 bytes)
            0000  0c 00 00 00 01 00 16 91-0b 00 00 00              ............

            """ + Self.listing(prefix: "")
        let recording = try RecordedCamera(gphotoDebugLog: log)
        #expect(recording.transactions.count == 2)
        let event = recording.transactions[0]
        #expect(event.operation == .canonEOSGetEvent && event.parameters == nil)
        #expect(event.dataIn == [8, 0, 0, 0, 0, 0, 0, 0, 0xAA, 0xBB, 0xCC, 0xDD])
        #expect(event.response == nil)
        #expect(recording.transactions[1].parameters == [])
    }

    /// A hexdump whose offsets skip, or with fewer bytes than announced, is not made whole: its transaction is
    /// dropped, and so are bytes that start no container; a hexdump whose heading was lost is still read.
    @Test func onlyWholeHexdumpsCount() throws {
        let log = """
            Read    40 = 0x28 bytes from port: (hexdump of 40 bytes)
            0000  28 00 00 00 02 00 09 10-05 00 00 00 00 00 00 00  (...............
            0020  00 00 00 00 00 00 00 00-                         ........

            Read    12 = 0xc bytes from port: (hexdump of 12 bytes)
            0000  0c 00 00 00 03 00 01 20-05 00 00 00              ....... ....

            Read    8 = 0x8 bytes from port: (hexdump of 8 bytes)
            0000  01 02 03 04 05 06 07 08-                         ........

            0000  10 00 00 00 02 00 04 10-06 00 00 00 00 00 00 00  ................

            """ + Self.listing(prefix: "")
        let recording = try RecordedCamera(gphotoDebugLog: log)
        #expect(recording.transactions.map(\.operation) == [.getStorageIDs])
        #expect(recording.transactions[0].dataIn == [0, 0, 0, 0])
        #expect(recording.notes.count == 2, "\(recording.notes)")
        #expect(recording.notes.contains { $0.hasPrefix("line 2: the hexdump is not whole") })
    }

    /// PTP/IP: a packet's header and payload dumped apart, a response stated in words, and a data phase cut short
    /// by a gap in the log, whose transaction is dropped.
    @Test func ptpipPacketsAreReadAsAStream() throws {
        let log = """
            0.1 ptp_ptpip_sendreq (3): ptpip/oprequest data: (hexdump of 18 bytes)
            0000  12 00 00 00 06 00 00 00-01 00 00 00 04 10 01 00  ................
            0010  00 00                  -                         ..

            0.1 ptp_ptpip_generic_read (3): ptpip/generic_read header: (hexdump of 8 bytes)
            0000  14 00 00 00 09 00 00 00-                         ........

            0.1 ptp_ptpip_generic_read (3): ptpip/generic_read data: (hexdump of 12 bytes)
            0000  01 00 00 00 08 00 00 00-00 00 00 00              ............

            0.1 ptp_ptpip_generic_read (3): ptpip/generic_read header: (hexdump of 8 bytes)
            0000  14 00 00 00 0c 00 00 00-                         ........

            0.1 ptp_ptpip_generic_read (3): ptpip/generic_read data: (hexdump of 12 bytes)
            0000  01 00 00 00 01 00 00 00-01 00 02 00              ............

            0.1 ptp_ptpip_getresp (2): PTPIP_CMD_RESPONSE (result=0x2001, tid=0x00000001)
            0.2 ptp_ptpip_sendreq (3): ptpip/oprequest data: (hexdump of 18 bytes)
            0000  12 00 00 00 06 00 00 00-01 00 00 00 01 10 02 00  ................
            0010  00 00                  -                         ..

            0.2 ptp_ptpip_generic_read (3): ptpip/generic_read header: (hexdump of 8 bytes)
            0000  14 00 00 00 09 00 00 00-                         ........

            0.2 ptp_ptpip_generic_read (3): ptpip/generic_read data: (hexdump of 12 bytes)
            0000  02 00 00 00 6d 01 00 00-00 00 00 00              ....m.......

            0.2 ptp_ptpip_generic_read (3): ptpip/generic_read header: (hexdump of 8 bytes)
            0000  79 01 00 00 0c 00 00 00-                         y.......

            0.2 ptp_ptpip_generic_read (3): ptpip/generic_read data: (hexdump of 369 bytes)
            0000  02 00 00 00 64 00 ff ff-ff ff 6e 00 22 4d 00 69  ....d.....n."M.i
            ### GAP
            0.2 ptp_ptpip_getresp (2): PTPIP_CMD_RESPONSE (result=0x2001, tid=0x00000002)

            """ + Self.listing(prefix: "0.2 print_debug_deviceinfo      (2): ")
        let recording = try RecordedCamera(gphotoDebugLog: log)
        #expect(recording.transport == "ptpip")
        #expect(recording.transactions.count == 1)
        let ids = recording.transactions[0]
        #expect(ids.operation == .getStorageIDs && ids.parameters == [])
        #expect(ids.dataIn == [1, 0, 0, 0, 1, 0, 2, 0])
        #expect(ids.response == .ok)
        #expect(recording.deviceInfoIsFromListing)
        #expect(recording.notes.contains { $0.contains("not whole") })
    }

    /// Listings printed in pieces (a log copied with gaps, and gphoto2's second listing after its fixups) are merged:
    /// the first value of each field, every code of each list.
    @Test func deviceInfoListingsInPiecesAreMerged() throws {
        let log = """
            0.15 print_debug_deviceinfo      (2): Device info:
            0.15 print_debug_deviceinfo      (2): Manufacturer: Nikon Corporation
            0.15 print_debug_deviceinfo      (2):   Model: Z 8
            0.15 print_debug_deviceinfo      (2):   serial number: '0005003869'
            0.15 print_debug_deviceinfo      (2): Vendor extension ID: 0xffffffff
            0.15 print_debug_deviceinfo      (2): Supported operations:
            0.15 print_debug_deviceinfo      (2):   0x1001 (Get device info)
            0.15 print_debug_deviceinfo      (2):   0x935a (Unknown PTP_OC)
            ### GAP (the rest of the list)
            0.15 print_debug_deviceinfo      (2):   0x1001 (Get device info)
            0.15 print_debug_deviceinfo      (2):   0x1002 (Open session)
            0.15 print_debug_deviceinfo      (2):   0x935a (Unknown PTP_OC)
            0.15 print_debug_deviceinfo      (2): Events Supported:
            0.15 print_debug_deviceinfo      (2):   0x4002 (ObjectAdded)
            ### GAP
            0.16 ptp_usb_getdata             (2): something else
            0.16 print_debug_deviceinfo      (2):   0x4003
            """
        let recording = try RecordedCamera(gphotoDebugLog: log)
        let info = recording.deviceInfo
        #expect(info.manufacturer == "Nikon Corporation" && info.model == "Z 8")
        #expect(info.serialNumber == "0005003869")
        #expect(info.vendorExtensionID == 0xFFFF_FFFF)
        #expect(info.operationsSupported.map(\.rawValue) == [0x1001, 0x935A, 0x1002])
        #expect(info.eventsSupported.map(\.rawValue) == [0x4002])
    }

    /// `gphoto2 --summary`'s property and storage summaries, read back into the datasets the camera sent.
    @Test func summariesGiveThePropertyDescriptionsAndStorages() throws {
        let summary = [
            "Storage Devices Summary:", "store_00010001:", "\tStorageDescription: None", "\tVolumeLabel: NIKON Z 6",
            "\tStorage Type: Removable RAM (memory card)", "\tFilesystemtype: Digital Camera Layout (DCIM)",
            "\tAccess Capability: Read Only with Object deletion", "\tMaximum Capability: 60196651008 (57408 MB)",
            "\tFree Space (Bytes): 44733136896 (42660 MB)", "\tFree Space (Images): 9751", "",
            "Device Property Summary:",
            "Battery Level(0x5001):(read only) (type=0x2) Range [1 - 100, step 1] value: 100% (100)",
            "Image Size(0x5003):(readwrite) (type=0xffff) Enumeration [", "\t'6048x4024',", "\t'3024x2016'",
            "\t] value: '6048x4024'",
            "Exposure Index (film speed ISO)(0x500f):(readwrite) (type=0x4) Enumeration [100,160,200] value: ISO 160 (160)",
            "Exposure Bias Compensation(0x5010):(readwrite) (type=0x3) Enumeration [-333,0,333] value: 0.0 stops (0)",
            "Property 0xd406:(readwrite) (type=0xffff) 'Windows/6.0'", "Property 0xd407:(read only) (type=0x6) 1",
            "Focal Length(0x5008):cannot be queried.",
            "Broken(0x5009):(readwrite) (type=0x4) Enumeration [1,x] value: 1", "",
        ]
        let recording = try RecordedCamera(
            gphotoDebugLog: Self.listing(prefix: "") + "\n" + summary.joined(separator: "\n"))
        func description(_ code: UInt16) throws -> PTPDevicePropertyDescription? {
            guard
                let bytes = recording.transactions.first(where: {
                    $0.operation == .getDevicePropDesc && $0.parameters == [UInt32(code)]
                })?.dataIn
            else { return nil }
            return try PTPDevicePropertyDescription(decoding: bytes)
        }
        let battery = try #require(try description(0x5001))
        #expect(battery.dataType == .uint8 && !battery.isSettable && battery.currentValue == .uint8(100))
        #expect(battery.form == .range(minimum: .uint8(1), maximum: .uint8(100), step: .uint8(1)))
        let size = try #require(try description(0x5003))
        #expect(size.form == .enumeration([.string("6048x4024"), .string("3024x2016")]))
        #expect(size.currentValue == .string("6048x4024"))
        let iso = try #require(try description(0x500F))
        #expect(iso.isSettable && iso.currentValue == .uint16(160))
        #expect(iso.form == .enumeration([.uint16(100), .uint16(160), .uint16(200)]))
        #expect(try description(0x5010)?.form == .enumeration([.int16(-333), .int16(0), .int16(333)]))
        #expect(try description(0xD406)?.currentValue == .string("Windows/6.0"))
        #expect(try description(0xD407)?.currentValue == .uint32(1))
        #expect(try description(0x5008) == nil)
        #expect(try description(0x5009) == nil)
        let ids = try #require(recording.transactions.first { $0.operation == .getStorageIDs }?.dataIn)
        #expect(ids == [1, 0, 0, 0, 0x01, 0x00, 0x01, 0x00])
        let info = try PTPStorageInfo(
            decoding: try #require(recording.transactions.first { $0.operation == .getStorageInfo }?.dataIn))
        #expect(info.storageType == 4 && info.filesystemType == 3 && info.accessCapability == 2)
        #expect(info.maximumCapacity == 60_196_651_008 && info.freeSpaceInBytes == 44_733_136_896)
        #expect(info.freeSpaceInImages == 9751 && info.volumeLabel == "NIKON Z 6" && info.storageDescription.isEmpty)
    }

    @Test func aLogWithoutADeviceInfoIsAClearError() {
        #expect(throws: ViewfinderError.self) { try RecordedCamera(gphotoDebugLog: "") }
        #expect(throws: ViewfinderError.self) {
            try RecordedCamera(gphotoDebugLog: "Device info:\nManufacturer: Canon Inc.\n")
        }
        #expect(throws: ViewfinderError.self) {
            try RecordedCamera(gphotoDebugLogAtPath: "/nonexistent/viewfinder-trace.log")
        }
    }

    /// The replay answers from the recording: recorded answers in order, the last again after that; polls in
    /// order, then empty; anything else refused.
    @Test func theReplayAnswersAsTheRecordingSays() throws {
        let recording = RecordedCamera(
            deviceInfo: try RecordedCamera(gphotoDebugLog: Self.listing(prefix: "")).deviceInfo,
            transactions: [
                RecordedTransaction(operation: .canonEOSGetEvent, parameters: nil, dataIn: [1], line: 1),
                RecordedTransaction(operation: .canonEOSGetEvent, parameters: [], dataIn: [2], line: 2),
                RecordedTransaction(
                    operation: .getStorageIDs, parameters: [], dataIn: [3], response: .ok, line: 3),
                RecordedTransaction(
                    operation: .getStorageIDs, parameters: [], dataIn: [4], response: .deviceBusy, line: 4),
                RecordedTransaction(
                    operation: .getStorageInfo, parameters: [0x0001_0001, 0, 0], dataIn: [5], line: 5),
            ])
        let responder = try ReplayResponder(recording: recording)
        let context = NoContext()
        func ask(_ code: PTPOperationCode, _ parameters: [UInt32] = []) -> (PTPResponseCode, [UInt8]?) {
            let reply = responder.respond(
                to: SimulatorRequest(code: code, transactionID: 9, parameters: parameters, data: nil), in: context)
            guard case .bytes(let bytes)? = reply.data else { return (reply.code, nil) }
            return (reply.code, bytes)
        }
        #expect(ask(.canonEOSGetEvent).1 == [1])
        #expect(ask(.canonEOSGetEvent).1 == [2])
        #expect(ask(.canonEOSGetEvent).1 == [8, 0, 0, 0, 0, 0, 0, 0])
        #expect(ask(.getStorageIDs) == (.ok, [3]))
        #expect(ask(.getStorageIDs) == (.deviceBusy, [4]))
        #expect(ask(.getStorageIDs) == (.deviceBusy, [4]))
        #expect(ask(.getStorageInfo, [0x0001_0001]).1 == [5])
        #expect(ask(.getStorageInfo, [0x0001_0002]).0 == .operationNotSupported)
        #expect(ask(.initiateCapture).0 == .operationNotSupported)
        #expect(try PTPDeviceInfo(decoding: try #require(ask(.getDeviceInfo).1)).model == "Canon EOS 5D Mark III")
        // A new session, whether a new connection or another OpenSession on the same USB device, plays the
        // recording from its start.
        #expect(ask(.openSession, [1]).0 == .ok)
        #expect(ask(.canonEOSGetEvent).1 == [1])
        #expect(ask(.getStorageIDs) == (.ok, [3]))
        responder.endSession()
        #expect(ask(.canonEOSGetEvent).1 == [1])
        #expect(responder.played.withLock { $0.refused[.initiateCapture] } == 1)
    }

    /// A listing as gphoto2 prints it, each line after `prefix`.
    static func listing(prefix: String) -> String {
        [
            "Device info:", "Manufacturer: Canon Inc.", "  Model: Canon EOS 5D Mark III", "  device version: 3-1.2.1",
            "  serial number: '4ff1'", "Vendor extension ID: 0x0000000b", "Vendor extension version: 100",
            "Vendor extension description: (null)", "Functional Mode: 0x0000", "PTP Standard Version: 100",
            "Supported operations:", "  0x1001", "  0x9116 (PTP_OC_CANON_EOS_GetEvent)", "Events Supported:",
            "  0xc181",
            "Device Properties Supported:", "  0x5001", "",
        ].map { prefix + $0 }.joined(separator: "\n")
    }

    private struct NoContext: SimulatorSessionContext {
        func schedule(after delay: Duration, _ job: @escaping @Sendable () -> [PTPEvent]) {}
    }
}
