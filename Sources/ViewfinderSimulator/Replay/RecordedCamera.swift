import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A real camera's answers, read from a `gphoto2 --debug` log: its DeviceInfo and the transactions the log shows,
/// for a ``CameraSimulator`` to play back to clients.
///
/// Logs of real cameras are in libgphoto2's `camlibs/ptp2/cameras/` and in its bug reports. The reader takes what
/// the log holds whole and nothing more: USB containers and PTP/IP packets put together from their hexdumps
/// (a data phase may span several reads), responses stated in words, and the DeviceInfo either from a GetDeviceInfo
/// data phase or, when that was not dumped whole, from the `Device info:` listing gphoto2 prints. A log that holds a
/// `gphoto2 --summary` (as most in `camlibs/ptp2/cameras/` do) also gives each property's description and each
/// storage's information as gphoto2 printed them. A hexdump that is
/// not whole, or bytes that start no container because the log left out where they begin, are skipped and noted
/// in ``notes``, never filled in.
///
/// ```swift
/// let recording = try RecordedCamera(gphotoDebugLog: text)
/// let simulator = try CameraSimulator(replaying: recording)
/// try simulator.start()
/// ```
public struct RecordedCamera: Sendable {
    /// Where the log comes from: its first line, when that is a comment.
    public var source: String?
    /// What the camera said about itself.
    public var deviceInfo: PTPDeviceInfo
    /// Whether the DeviceInfo comes from gphoto2's listing rather than from the camera's bytes.
    public var deviceInfoIsFromListing: Bool
    /// How the camera was reached when the log was made: `"usb"` or `"ptpip"`.
    public var transport: String
    /// The transactions the log shows whole enough to play back, in order.
    public var transactions: [RecordedTransaction]
    /// What the reader skipped, with the log's line numbers.
    public var notes: [String]

    /// Creates a recording from its parts, such as answers written by hand to try a client against.
    public init(
        deviceInfo: PTPDeviceInfo, transactions: [RecordedTransaction], source: String? = nil, transport: String = "usb"
    ) {
        self.source = source
        self.deviceInfo = deviceInfo
        deviceInfoIsFromListing = false
        self.transport = transport
        self.transactions = transactions
        notes = []
    }

    /// The largest log read from a file.
    public static let maximumLogLength = 64 << 20

    /// Reads a gphoto2 debug log from a file.
    ///
    /// - Throws: `ViewfinderError` when the file cannot be read or is larger than ``maximumLogLength``, and as
    ///   ``init(gphotoDebugLog:)`` does.
    public init(gphotoDebugLogAtPath path: String) throws(ViewfinderError) {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC).readAll(limit: Self.maximumLogLength)
        } catch {
            throw ViewfinderError(error, while: "reading \(path)")
        }
        try self.init(gphotoDebugLog: String(decoding: bytes, as: UTF8.self))
    }

    /// Reads a gphoto2 debug log.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the log holds no DeviceInfo: neither a whole
    ///   GetDeviceInfo data phase nor a `Device info:` listing with the manufacturer and model.
    public init(gphotoDebugLog text: String) throws(ViewfinderError) {
        let log = GPhotoDebugLog(text)
        source = log.source
        transport = log.framing.rawValue
        var assembler = TransactionAssembler()
        switch log.framing {
        case .usb: assembler.readUSB(log.items)
        case .ptpip: assembler.readPTPIP(log.items)
        }
        // What the summary gives comes after the wire's transactions, which the replay prefers.
        transactions = assembler.wholeTransactions + log.summary.transactions
        notes = assembler.notes
        if !log.summary.properties.isEmpty || !log.summary.storages.isEmpty {
            notes.append(
                "\(log.summary.properties.count) property descriptions and \(log.summary.storages.count) storages read "
                    + "from gphoto2's summary (its factory defaults are not printed: the current values stand for them)"
            )
        }
        let recorded = transactions.lazy.filter { $0.operation == .getDeviceInfo }.compactMap { transaction in
            transaction.dataIn.flatMap { try? PTPDeviceInfo(decoding: $0) }
        }.first
        if let recorded {
            deviceInfo = recorded
            deviceInfoIsFromListing = false
        } else if let listed = log.listing.deviceInfo {
            deviceInfo = listed
            deviceInfoIsFromListing = true
        } else {
            throw ViewfinderError(
                .malformedData,
                "the log holds no DeviceInfo: neither a whole GetDeviceInfo data phase nor gphoto2's 'Device info:' "
                    + "listing with the manufacturer and model")
        }
    }
}

/// One transaction as a log recorded it.
public struct RecordedTransaction: Sendable, Hashable {
    /// The operation.
    public var operation: PTPOperationCode
    /// The request's parameters, or `nil` when the log does not show the request (only its data phase, whose USB
    /// container names the operation).
    public var parameters: [UInt32]?
    /// The data-in phase, whole.
    public var dataIn: [UInt8]?
    /// The data-out phase, whole.
    public var dataOut: [UInt8]?
    /// The camera's response, or `nil` when the log does not show it.
    public var response: PTPResponseCode?
    /// The response's parameters.
    public var responseParameters: [UInt32]
    /// The log's line where the transaction first shows.
    public var line: Int

    /// Creates a recorded transaction.
    public init(
        operation: PTPOperationCode, parameters: [UInt32]?, dataIn: [UInt8]? = nil, dataOut: [UInt8]? = nil,
        response: PTPResponseCode? = nil, responseParameters: [UInt32] = [], line: Int
    ) {
        self.operation = operation
        self.parameters = parameters
        self.dataIn = dataIn
        self.dataOut = dataOut
        self.response = response
        self.responseParameters = responseParameters
        self.line = line
    }
}

extension GPhotoDebugLog.DeviceInfoListing {
    /// The DeviceInfo the listing describes, or `nil` without a manufacturer and a model.
    var deviceInfo: PTPDeviceInfo? {
        guard let manufacturer = fields["Manufacturer"], let model = fields["Model"] else { return nil }
        func number(_ key: String, radix: Int) -> UInt64? {
            guard var text = fields[key]?.prefix(while: { $0 != " " }) else { return nil }
            if radix == 16, text.hasPrefix("0x") { text = text.dropFirst(2) }
            return UInt64(text, radix: radix)
        }
        var serial = fields["serial number"] ?? ""
        if serial.count >= 2, serial.first == "'", serial.last == "'" { serial = String(serial.dropFirst().dropLast()) }
        let description = fields["Vendor extension description"].map { $0 == "(null)" ? "" : $0 } ?? ""
        return PTPDeviceInfo(
            standardVersion: UInt16(truncatingIfNeeded: number("PTP Standard Version", radix: 10) ?? 100),
            vendorExtensionID: UInt32(truncatingIfNeeded: number("Vendor extension ID", radix: 16) ?? 0),
            vendorExtensionVersion: UInt16(truncatingIfNeeded: number("Vendor extension version", radix: 10) ?? 0),
            vendorExtensionDescription: description,
            functionalMode: UInt16(truncatingIfNeeded: number("Functional Mode", radix: 16) ?? 0),
            operationsSupported: operations.map(PTPOperationCode.init(rawValue:)),
            eventsSupported: events.map(PTPEventCode.init(rawValue:)),
            devicePropertiesSupported: properties.map(PTPDevicePropertyCode.init(rawValue:)), captureFormats: [],
            imageFormats: [], manufacturer: manufacturer, model: model, deviceVersion: fields["device version"] ?? "",
            serialNumber: serial)
    }
}
