import CTurboJPEG
import ViewfinderCore

extension JPEGDecoder {
    /// A fraction a JPEG image is scaled by while it is decoded: the decoder's fast path for previews.
    ///
    /// Decoding at a quarter of the size skips most of the work, which makes small live-view previews cheap.
    /// TurboJPEG offers the eighths from 1/8 to 16/8; ``supported`` lists the reducing ones and ``all`` every one,
    /// largest first.
    public struct Scale: Hashable, Sendable, CustomStringConvertible {
        /// The numerator of the fraction.
        public let numerator: Int
        /// The denominator of the fraction.
        public let denominator: Int

        private init(uncheckedNumerator numerator: Int, denominator: Int) {
            self.numerator = numerator
            self.denominator = denominator
        }

        /// Full size.
        public static let full = Scale(uncheckedNumerator: 1, denominator: 1)
        /// Half the width and height.
        public static let half = Scale(uncheckedNumerator: 1, denominator: 2)
        /// A quarter of the width and height.
        public static let quarter = Scale(uncheckedNumerator: 1, denominator: 4)
        /// An eighth of the width and height.
        public static let eighth = Scale(uncheckedNumerator: 1, denominator: 8)

        /// Every reducing scale TurboJPEG offers, largest first.
        public static let supported: [Scale] = {
            var count: Int32 = 0
            guard let factors = tjGetScalingFactors(&count) else { return [.full] }
            var scales: [Scale] = []
            for index in 0..<Int(count) where factors[index].num <= factors[index].denom {
                scales.append(
                    Scale(uncheckedNumerator: Int(factors[index].num), denominator: Int(factors[index].denom)))
            }
            return scales.sorted { $0.numerator * $1.denominator > $1.numerator * $0.denominator }
        }()

        /// Every scale TurboJPEG offers, enlarging ones (up to 2/1) included, largest first.
        ///
        /// Decoding at an enlarging scale interpolates in the JPEG's own transform: sharper than bilinear scaling
        /// afterwards, though libjpeg-turbo's enlarging transforms (plain C) take longer than decoding at full size
        /// and scaling up.
        public static let all: [Scale] = {
            var count: Int32 = 0
            guard let factors = tjGetScalingFactors(&count) else { return [.full] }
            let scales = (0..<Int(count)).map {
                Scale(uncheckedNumerator: Int(factors[$0].num), denominator: Int(factors[$0].denom))
            }
            return scales.sorted { $0.numerator * $1.denominator > $1.numerator * $0.denominator }
        }()

        /// The largest scale, enlarging ones included, at which an image of `dimensions` fits in `bounds`, or
        /// ``eighth`` when none does.
        ///
        /// ```swift
        /// let scale = JPEGDecoder.Scale.largest(for: header.dimensions, fittingIn: Dimensions(width: 1280, height: 720))
        /// ```
        public static func largest(for dimensions: Dimensions, fittingIn bounds: Dimensions) -> Scale {
            all.first {
                $0.apply(to: dimensions.width) <= bounds.width && $0.apply(to: dimensions.height) <= bounds.height
            } ?? .eighth
        }

        /// The scale `numerator`/`denominator`, or `nil` when TurboJPEG cannot decode at it.
        public init?(numerator: Int, denominator: Int) {
            guard
                let match = Self.all.first(where: {
                    $0.numerator * denominator == numerator * $0.denominator
                })
            else { return nil }
            self = match
        }

        /// The smallest reduction that makes an image of `dimensions` fit in `bounds`, or ``eighth`` when none does.
        ///
        /// ```swift
        /// let header = try decoder.header(of: jpeg)
        /// let scale = JPEGDecoder.Scale.fitting(header.dimensions, in: Dimensions(width: 640, height: 480))
        /// ```
        public static func fitting(_ dimensions: Dimensions, in bounds: Dimensions) -> Scale {
            supported.first {
                $0.apply(to: dimensions.width) <= bounds.width && $0.apply(to: dimensions.height) <= bounds.height
            } ?? supported.last ?? .eighth
        }

        /// A length in pixels at this scale, rounded up as the decoder does.
        public func apply(to length: Int) -> Int {
            (length * numerator + denominator - 1) / denominator
        }

        /// The fraction, such as `1/4`.
        public var description: String { "\(numerator)/\(denominator)" }
    }
}
