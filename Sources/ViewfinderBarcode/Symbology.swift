/// A kind of barcode: a matrix code such as QR or Data Matrix, or a linear code such as EAN-13 or Code 128.
public enum Symbology: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// QR Code (ISO/IEC 18004).
    case qr
    /// Micro QR Code, the small form of QR, read when it is alone and upright on a plain background.
    case microQR
    /// Data Matrix (ISO/IEC 16022), ECC 200.
    case dataMatrix
    /// Aztec Code (ISO/IEC 24778).
    case aztec
    /// PDF417 (ISO/IEC 15438), the stacked code on driving licences and boarding passes.
    case pdf417
    /// MaxiCode (ISO/IEC 16023), on parcels, read when it is alone, upright and unspoiled.
    case maxiCode
    /// EAN-13 and UPC-A, the retail codes of 13 and 12 digits.
    case ean13UPCA
    /// EAN-8, the short retail code.
    case ean8
    /// UPC-E, the zero-suppressed UPC code.
    case upce
    /// Code 128 (ISO/IEC 15417), including GS1-128.
    case code128
    /// Code 39 (ISO/IEC 16388).
    case code39
    /// Code 93.
    case code93
    /// Interleaved 2 of 5 (ISO/IEC 16390).
    case itf
    /// Codabar.
    case codabar
    /// GS1 DataBar (formerly RSS-14).
    case dataBar
    /// GS1 DataBar Expanded.
    case dataBarExpanded

    /// The symbology's usual name, such as "QR" or "EAN-13/UPC-A".
    public var description: String {
        switch self {
        case .qr: "QR"
        case .microQR: "Micro QR"
        case .dataMatrix: "Data Matrix"
        case .aztec: "Aztec"
        case .pdf417: "PDF417"
        case .maxiCode: "MaxiCode"
        case .ean13UPCA: "EAN-13/UPC-A"
        case .ean8: "EAN-8"
        case .upce: "UPC-E"
        case .code128: "Code 128"
        case .code39: "Code 39"
        case .code93: "Code 93"
        case .itf: "ITF"
        case .codabar: "Codabar"
        case .dataBar: "DataBar"
        case .dataBarExpanded: "DataBar Expanded"
        }
    }

    /// Whether the symbology is a two-dimensional code, read at any rotation; linear codes are read across bars.
    public var isMatrix: Bool {
        switch self {
        case .qr, .microQR, .dataMatrix, .aztec, .pdf417, .maxiCode: true
        default: false
        }
    }

    /// The symbology for a name as people and the `viewfinder` tool write it: "qr", "ean13", "EAN-13/UPC-A",
    /// "code128", "datamatrix", letters and digits compared without case, spaces, hyphens or slashes.
    public init?(name: String) {
        let key = Self.key(name)
        let aliases: [String: Symbology] = ["ean13": .ean13UPCA, "upca": .ean13UPCA, "qrcode": .qr, "rss14": .dataBar]
        guard let found = aliases[key] ?? Self.allCases.first(where: { Self.key($0.rawValue) == key }) else {
            return nil
        }
        self = found
    }

    private static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// zxing-cpp's BarcodeFormat bits for the symbology.
    package var zxingFormats: UInt32 {
        switch self {
        case .aztec: 1 << 0
        case .codabar: 1 << 1
        case .code39: 1 << 2
        case .code93: 1 << 3
        case .code128: 1 << 4
        case .dataBar: 1 << 5
        case .dataBarExpanded: 1 << 6
        case .dataMatrix: 1 << 7
        case .ean8: 1 << 8
        case .ean13UPCA: 1 << 9 | 1 << 14
        case .itf: 1 << 10
        case .maxiCode: 1 << 11
        case .pdf417: 1 << 12
        case .qr: 1 << 13
        case .upce: 1 << 15
        case .microQR: 1 << 16
        }
    }

    /// The symbology of one zxing-cpp BarcodeFormat bit.
    init?(zxingFormat: UInt32) {
        guard let found = Self.allCases.first(where: { $0.zxingFormats & zxingFormat != 0 }) else { return nil }
        self = found
    }
}
