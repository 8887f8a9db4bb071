import ViewfinderCore

extension Dimensions {
    /// The largest size with the same aspect ratio that fits in `bounds`, never larger than this size.
    ///
    /// Bounds below one pixel count as one pixel; a size without area is returned as it is.
    ///
    /// ```swift
    /// Dimensions(width: 6000, height: 4000).fitted(into: Dimensions(width: 160, height: 120))   // 160x107
    /// ```
    public func fitted(into bounds: Dimensions) -> Dimensions {
        let bounds = Dimensions(width: Swift.max(bounds.width, 1), height: Swift.max(bounds.height, 1))
        guard width > 0, height > 0, width > bounds.width || height > bounds.height else { return self }
        let scale = min(Double(bounds.width) / Double(width), Double(bounds.height) / Double(height))
        return Dimensions(
            width: Swift.min(bounds.width, Swift.max(1, Int((Double(width) * scale).rounded()))),
            height: Swift.min(bounds.height, Swift.max(1, Int((Double(height) * scale).rounded()))))
    }
}
