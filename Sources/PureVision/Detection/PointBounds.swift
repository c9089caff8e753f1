/// The axis-aligned bounds of points, grown one point at a time with `std::min` and `std::max` (``cppMin(_:_:)``,
/// ``cppMax(_:_:)``), as MediaPipe's calculators compute them.
///
/// The starting maxima differ between calculators and change the result when every point is negative or zero:
/// most start them at `−FLT_MAX` (``empty``), the landmark calculators at `FLT_MIN`, the smallest positive normal
/// float (``emptyFromFLTMin``).
struct PointBounds {
    /// The smallest x seen.
    var minX: Float
    /// The smallest y seen.
    var minY: Float
    /// The largest x seen.
    var maxX: Float
    /// The largest y seen.
    var maxY: Float

    /// No point yet: minima at `FLT_MAX`, maxima at `−FLT_MAX`.
    static let empty = PointBounds(maximaStart: -.greatestFiniteMagnitude)
    /// No point yet: minima at `FLT_MAX`, maxima at `FLT_MIN` (MediaPipe's landmark calculators).
    static let emptyFromFLTMin = PointBounds(maximaStart: .leastNormalMagnitude)

    private init(maximaStart: Float) {
        minX = .greatestFiniteMagnitude
        minY = .greatestFiniteMagnitude
        maxX = maximaStart
        maxY = maximaStart
    }

    /// Widens the bounds to the point (`x`, `y`).
    @inline(__always)
    mutating func include(x: Float, y: Float) {
        minX = cppMin(minX, x)
        minY = cppMin(minY, y)
        maxX = cppMax(maxX, x)
        maxY = cppMax(maxY, y)
    }

    /// Widens the bounds to `point`.
    @inline(__always)
    mutating func include(_ point: (x: Float, y: Float)) {
        include(x: point.x, y: point.y)
    }

    /// The bounds of `landmarks`' x and y, starting from `start`.
    static func of(_ landmarks: some Sequence<NormalizedLandmark>, from start: PointBounds) -> PointBounds {
        var bounds = start
        for landmark in landmarks { bounds.include(x: landmark.x, y: landmark.y) }
        return bounds
    }
}
