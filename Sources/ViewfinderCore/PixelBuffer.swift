/// An image in memory: its size, its pixel format and one base address per plane.
///
/// A pixel buffer never changes once it has been handed out, so frames can be shared across threads freely. Its
/// memory comes from one of three places:
/// - owned: ``init(width:height:format:rowAlignment:initializingWith:)`` allocates it and frees it with the buffer;
/// - pooled: a ``PixelBufferPool`` hands out buffers of one geometry and reuses each once no copy of it is left;
/// - borrowed: a backend wraps memory it owns, such as a V4L2 driver buffer, with
///   ``init(width:height:format:borrowing:onRelease:)`` and gets its callback when the last copy goes.
///
/// Copies of a `PixelBuffer` share one image; it is a reference-counted handle.
public struct PixelBuffer: Sendable {
    /// One plane of a buffer, for reading.
    public struct Plane: @unchecked Sendable {
        /// The first byte of the plane, valid while the buffer it came from is alive.
        public let baseAddress: UnsafeRawPointer
        /// The distance in bytes from one row to the next; at least the row's bytes.
        public let bytesPerRow: Int
        /// The number of elements in a row (see ``PixelFormat/Plane``).
        public let width: Int
        /// The number of rows.
        public let height: Int
        /// The number of bytes the plane spans; for compressed data, the size of the data.
        public let byteCount: Int

        /// Describes a plane of memory; the owner of the memory keeps it valid.
        public init(baseAddress: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int, byteCount: Int) {
            self.baseAddress = baseAddress
            self.bytesPerRow = bytesPerRow
            self.width = width
            self.height = height
            self.byteCount = byteCount
        }

        /// The plane's bytes.
        public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: baseAddress, count: byteCount) }
    }

    /// One plane of a buffer that is being filled, before it is handed out.
    public struct MutablePlane {
        /// The first byte of the plane.
        public let baseAddress: UnsafeMutableRawPointer
        /// The distance in bytes from one row to the next.
        public let bytesPerRow: Int
        /// The number of elements in a row (see ``PixelFormat/Plane``).
        public let width: Int
        /// The number of rows.
        public let height: Int

        /// The plane's bytes, `bytesPerRow × height` of them.
        public var bytes: UnsafeMutableRawBufferPointer {
            UnsafeMutableRawBufferPointer(start: baseAddress, count: bytesPerRow * height)
        }
    }

    /// The planes of a buffer that is being filled, indexed from zero in the format's plane order.
    public struct MutablePlanes {
        let storage: PixelBufferStorage

        /// The number of planes.
        public var count: Int { storage.planes.count }

        /// The plane at `index`.
        public subscript(index: Int) -> MutablePlane {
            let plane = storage.planes[index]
            return MutablePlane(
                baseAddress: UnsafeMutableRawPointer(mutating: plane.baseAddress),
                bytesPerRow: plane.bytesPerRow, width: plane.width, height: plane.height)
        }
    }

    let storage: PixelBufferStorage

    init(storage: PixelBufferStorage) {
        self.storage = storage
    }

    /// The width in pixels.
    public var width: Int { storage.width }
    /// The height in pixels.
    public var height: Int { storage.height }
    /// The pixel format.
    public var format: PixelFormat { storage.format }
    /// The number of planes; 1 for compressed data.
    public var planeCount: Int { storage.planes.count }

    /// Calls `body` with the planes, keeping the buffer's memory alive meanwhile.
    ///
    /// The pointers are valid only inside `body`; the memory is read-only.
    public func withUnsafePlanes<Result, Failure: Error>(
        _ body: ([Plane]) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(storage) {} }
        return try body(storage.planes)
    }

    /// Calls `body` with the bytes of one plane, keeping the buffer's memory alive meanwhile.
    public func withUnsafeBytes<Result, Failure: Error>(
        ofPlane index: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(storage) {} }
        return try body(storage.planes[index].bytes)
    }

    /// Whether two values are copies of one buffer.
    public func isSameBuffer(as other: PixelBuffer) -> Bool {
        storage === other.storage
    }
}

extension PixelBuffer {
    /// Allocates a buffer and fills it with `initialize` before anyone else can see it.
    ///
    /// ```swift
    /// let gray = try PixelBuffer(width: 64, height: 48, format: .nv12FullRange) { planes in
    ///     planes[0].bytes.initializeMemory(as: UInt8.self, repeating: 128)
    ///     planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 128)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - width: The width in pixels, at least 1.
    ///   - height: The height in pixels, at least 1.
    ///   - format: An uncompressed pixel format.
    ///   - rowAlignment: Each row's bytes are rounded up to a multiple of this, a power of two.
    ///   - initialize: Writes the pixels.
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for an empty size, a compressed format or a bad alignment,
    ///   and whatever `initialize` throws.
    public init(
        width: Int, height: Int, format: PixelFormat, rowAlignment: Int = 16,
        initializingWith initialize: (MutablePlanes) throws -> Void
    ) throws {
        let storage = try PixelBufferStorage(width: width, height: height, format: format, rowAlignment: rowAlignment)
        try initialize(MutablePlanes(storage: storage))
        self.init(storage: storage)
    }

    /// Copies compressed data, such as a JPEG image, into a new buffer.
    ///
    /// - Parameters:
    ///   - bytes: The data.
    ///   - width: The image's width in pixels, as its header says.
    ///   - height: The image's height in pixels, as its header says.
    ///   - format: A compressed format, such as ``PixelFormat/jpeg``.
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for empty data, an empty size or an uncompressed format.
    public init(compressed bytes: some Collection<UInt8>, width: Int, height: Int, format: PixelFormat = .jpeg) throws {
        guard format.isCompressed else {
            throw ViewfinderError(.invalidArgument, "\(format) is not a compressed format")
        }
        guard !bytes.isEmpty, width > 0, height > 0 else {
            throw ViewfinderError(.invalidArgument, "compressed data needs bytes and a size, got \(bytes.count) bytes")
        }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        _ = memory.initializeMemory(as: UInt8.self, from: bytes)
        let plane = Plane(
            baseAddress: UnsafeRawPointer(memory.baseAddress!), bytesPerRow: bytes.count, width: bytes.count,
            height: 1, byteCount: bytes.count)
        self.init(
            storage: PixelBufferStorage(
                width: width, height: height, format: format, planes: [plane],
                release: .deallocate(memory.baseAddress!)))
    }

    /// Wraps memory that a backend owns, such as a driver's buffer, without copying it.
    ///
    /// The memory must stay valid and unchanged until `onRelease` runs, which happens once, on whichever thread
    /// lets go of the last copy of the buffer.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - format: The pixel format of the memory.
    ///   - planes: One plane per plane of `format` (one for compressed data), in the format's order.
    ///   - onRelease: Called when the last copy of the buffer goes.
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` when the planes do not fit the size and format.
    public init(
        width: Int, height: Int, format: PixelFormat, borrowing planes: [Plane],
        onRelease: @escaping @Sendable () -> Void
    ) throws {
        try PixelBufferStorage.validate(width: width, height: height, format: format, planes: planes)
        self.init(
            storage: PixelBufferStorage(
                width: width, height: height, format: format, planes: planes, release: .callback(onRelease)))
    }
}

/// The memory behind a ``PixelBuffer`` and what to do with it when the last copy goes.
final class PixelBufferStorage: @unchecked Sendable {
    // Unchecked: every stored property is immutable, and the memory behind `planes` is written only before the
    // storage is first handed out, or again by a pool while the pool holds the only reference.

    enum Release {
        case deallocate(UnsafeMutableRawPointer)
        case callback(@Sendable () -> Void)
    }

    let width: Int
    let height: Int
    let format: PixelFormat
    let planes: [PixelBuffer.Plane]
    private let release: Release

    init(width: Int, height: Int, format: PixelFormat, planes: [PixelBuffer.Plane], release: Release) {
        self.width = width
        self.height = height
        self.format = format
        self.planes = planes
        self.release = release
    }

    /// Allocates one block for every plane of an uncompressed format.
    convenience init(width: Int, height: Int, format: PixelFormat, rowAlignment: Int) throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw ViewfinderError(
                .invalidArgument, "a pixel buffer needs a size from 1x1 to 32768x32768, not \(width)x\(height)")
        }
        guard !format.isCompressed else {
            throw ViewfinderError(.invalidArgument, "cannot allocate pixels of \(format): it is compressed")
        }
        guard rowAlignment > 0, rowAlignment.nonzeroBitCount == 1 else {
            throw ViewfinderError(.invalidArgument, "row alignment must be a power of two, not \(rowAlignment)")
        }
        var layout: [(offset: Int, bytesPerRow: Int, width: Int, rows: Int)] = []
        var total = 0
        for (index, plane) in format.planes.enumerated() {
            let rowBytes = format.bytesPerRow(ofPlane: index, width: width)
            let bytesPerRow = (rowBytes + rowAlignment - 1) & ~(rowAlignment - 1)
            let rows = plane.rows(height: height)
            layout.append((total, bytesPerRow, plane.elementsPerRow(width: width), rows))
            total += bytesPerRow * rows
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
        let planes = layout.map {
            PixelBuffer.Plane(
                baseAddress: UnsafeRawPointer(memory + $0.offset), bytesPerRow: $0.bytesPerRow, width: $0.width,
                height: $0.rows, byteCount: $0.bytesPerRow * $0.rows)
        }
        self.init(width: width, height: height, format: format, planes: planes, release: .deallocate(memory))
    }

    /// Checks that planes handed in by a caller fit the size and format.
    static func validate(width: Int, height: Int, format: PixelFormat, planes: [PixelBuffer.Plane]) throws {
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw ViewfinderError(
                .invalidArgument, "a pixel buffer needs a size from 1x1 to 65536x65536, not \(width)x\(height)")
        }
        if format.isCompressed {
            guard planes.count == 1, planes[0].byteCount > 0 else {
                throw ViewfinderError(.invalidArgument, "compressed \(format) data needs exactly one non-empty plane")
            }
            return
        }
        guard planes.count == format.planes.count else {
            throw ViewfinderError(
                .invalidArgument, "\(format) has \(format.planes.count) planes, but \(planes.count) were given")
        }
        for (index, plane) in planes.enumerated() {
            let rowBytes = format.bytesPerRow(ofPlane: index, width: width)
            let rows = format.planes[index].rows(height: height)
            // Checked arithmetic: a caller's absurd row length is a mismatch, not an overflow.
            let (before, overflow) = plane.bytesPerRow.multipliedReportingOverflow(by: rows - 1)
            guard plane.bytesPerRow >= rowBytes, plane.height >= rows, !overflow, before <= Int.max - rowBytes,
                plane.byteCount >= before + rowBytes
            else {
                throw ViewfinderError(
                    .invalidArgument,
                    "plane \(index) of a \(width)x\(height) \(format) buffer needs \(rows) rows of \(rowBytes) bytes, "
                        + "got \(plane.height) rows of \(plane.bytesPerRow) bytes in \(plane.byteCount) bytes")
            }
        }
    }

    deinit {
        switch release {
        case .deallocate(let memory): memory.deallocate()
        case .callback(let callback): callback()
        }
    }
}
