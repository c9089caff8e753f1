extension ImageToTensorResult {
    /// Maps a tensor-normalized point (0…1 across the whole tensor) to image-normalized coordinates with `matrix`,
    /// in MediaPipe's `DetectionProjectionCalculator` order: `x' = x·m0 + y·m1 + m3`, `y' = x·m4 + y·m5 + m7`.
    public func projectToImage(x: Float, y: Float) -> (x: Float, y: Float) {
        (x * matrix[0] + y * matrix[1] + matrix[3], x * matrix[4] + y * matrix[5] + matrix[7])
    }

    /// Maps a tensor-normalized box to the axis-aligned image-normalized box that bounds its four projected corners
    /// (MediaPipe's detection projection; a rotated crop gives a larger box).
    public func projectBoxToImage(
        xMin: Float, yMin: Float, width: Float, height: Float
    ) -> (xMin: Float, yMin: Float, width: Float, height: Float) {
        var bounds = PointBounds.empty
        bounds.include(projectToImage(x: xMin, y: yMin))
        bounds.include(projectToImage(x: xMin + width, y: yMin))
        bounds.include(projectToImage(x: xMin + width, y: yMin + height))
        bounds.include(projectToImage(x: xMin, y: yMin + height))
        return (bounds.minX, bounds.minY, bounds.maxX - bounds.minX, bounds.maxY - bounds.minY)
    }

    /// Removes the letterbox from a tensor-normalized landmark, as MediaPipe's `LandmarkLetterboxRemovalCalculator`:
    /// `x' = (x − l) / (1 − (l + r))`, `y' = (y − t) / (1 − (t + b))`, `z' = z / (1 − (l + r))`. The result is
    /// normalized to the (unpadded) ROI.
    public func removingLetterbox(x: Float, y: Float, z: Float = 0) -> (x: Float, y: Float, z: Float) {
        let padding = letterboxPadding
        let leftAndRight = padding.left + padding.right
        let topAndBottom = padding.top + padding.bottom
        return ((x - padding.left) / (1 - leftAndRight), (y - padding.top) / (1 - topAndBottom), z / (1 - leftAndRight))
    }
}
