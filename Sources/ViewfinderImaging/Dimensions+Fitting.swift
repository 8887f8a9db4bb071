import ViewfinderCore

extension Dimensions {
    /// The largest size with the same aspect ratio that fits in `bounds`, never larger than this size.
    ///
    /// ```swift
    /// Dimensions(width: 6000, height: 4000).fitted(into: Dimensions(width: 160, height: 120))   // 160x107
    /// ```
    public func fitted(into bounds: Dimensions) -> Dimensions {
        guard width > bounds.width || height > bounds.height else { return self }
        let scale = min(Double(bounds.width) / Double(width), Double(bounds.height) / Double(height))
        return Dimensions(
            width: Swift.min(bounds.width, Swift.max(1, Int((Double(width) * scale).rounded()))),
            height: Swift.min(bounds.height, Swift.max(1, Int((Double(height) * scale).rounded()))))
    }
}
