/// Calls `body` with the bytes of `bytes`, copying them only when the collection is not contiguous.
@usableFromInline
package func withContiguousBytes<Bytes: Collection<UInt8>, Result>(
    _ bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws -> Result
) throws -> Result {
    if let result = try bytes.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return try Array(bytes).withUnsafeBytes(body)
}
