import ViewfinderCore

/// What the fuzzers of a driver's readers share: an input whose first byte selects the reader, the one error a reader
/// may throw, and what every property value it maps must hold.
///
/// ```swift
/// @main enum MyFuzzer {
///     static func main() {
///         FuzzReaders.run([reply, datagram])  // selector byte 0: a reply, 1: a datagram
///     }
///     static func reply(_ bytes: [UInt8]) throws {
///         FuzzReaders.check(MyValues.iso(try MyReply(bytes).text))
///     }
/// }
/// ```
public enum FuzzReaders {
    /// A reader of the bytes after the selector, which may fail only with `ViewfinderError/Code/malformedData`.
    public typealias Reader = ([UInt8]) throws -> Void

    /// Runs the fuzz target on inputs whose first byte, modulo their count, selects one of `readers` for the rest;
    /// see ``FuzzEntry/run(_:)``.
    public static func run(_ readers: [Reader]) -> Never {
        FuzzEntry.run { input in select(input, readers) }
    }

    /// Runs the reader `input`'s first byte selects on the bytes after it; nothing for an empty input.
    static func select(_ input: [UInt8], _ readers: [Reader]) {
        guard let first = input.first, !readers.isEmpty else { return }
        do {
            try readers[Int(first) % readers.count](Array(input.dropFirst()))
        } catch let error as ViewfinderError {
            precondition(error.code == .malformedData, "a reader failed with \(error)")
        } catch {
            preconditionFailure("a reader failed with \(error), not a ViewfinderError")
        }
    }

    /// Checks that `value` is shown with some text (but an empty string's) and is never offered as unknown.
    public static func check<Value>(_ value: TypedCameraPropertyValue<Value>) {
        precondition(!value.localizedDisplayValue.isEmpty || value.rawValue == .string(""))
        precondition(!CameraPropertySettableValues([value]).contains { $0.isUnknown })
    }

    /// Maps `text` with each of `mappers`, as each property would, and checks every value (``check(_:)``).
    public static func check<each Value>(
        _ text: String, mappedBy mappers: repeat (String) -> TypedCameraPropertyValue<each Value>
    ) {
        repeat check((each mappers)(text))
    }
}
