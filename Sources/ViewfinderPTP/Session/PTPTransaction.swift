/// A camera's answer to an operation.
public struct PTPResponse: Hashable, Sendable {
    /// The response code; ``PTPResponseCode/ok`` on success.
    public var code: PTPResponseCode
    /// The transaction the response belongs to.
    public var transactionID: UInt32
    /// Up to five parameters whose meaning depends on the operation.
    public var parameters: [UInt32]

    /// Creates a response.
    public init(code: PTPResponseCode, transactionID: UInt32, parameters: [UInt32] = []) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }
}

/// The outcome of a transaction whose data-in phase was collected in memory.
public struct PTPTransactionResult: Sendable {
    /// The camera's response.
    public var response: PTPResponse
    /// The bytes of the data-in phase; empty when there was none.
    public var data: [UInt8]

    /// Creates a result.
    public init(response: PTPResponse, data: [UInt8]) {
        self.response = response
        self.data = data
    }
}

/// How far a data phase has come.
public struct PTPTransferProgress: Hashable, Sendable {
    /// The bytes transferred so far.
    public var completedBytes: Int
    /// The bytes the data phase announced, when it did.
    public var totalBytes: Int?

    /// Creates a progress report.
    public init(completedBytes: Int, totalBytes: Int?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }
}

/// An event a camera reported on its event connection.
public struct PTPEvent: Hashable, Sendable {
    /// What happened.
    public var code: PTPEventCode
    /// The transaction the event relates to, or `0xFFFFFFFF` when none.
    public var transactionID: UInt32
    /// Up to three parameters, such as the handle of an added object or the code of a changed property.
    public var parameters: [UInt32]

    /// Creates an event.
    public init(code: PTPEventCode, transactionID: UInt32 = 0xFFFF_FFFF, parameters: [UInt32] = []) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }
}
