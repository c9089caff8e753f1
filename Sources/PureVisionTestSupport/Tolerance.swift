/// A named tolerance: |actual − expected| ≤ absolute + relative · |expected|.
public struct Tolerance: Sendable, CustomStringConvertible {
    public var absolute: Float
    public var relative: Float

    public init(absolute: Float, relative: Float) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The model-parity contract with LiteRT: 1e-4 + 1e-3 · |reference|.
    public static let modelParity = Tolerance(absolute: 1e-4, relative: 1e-3)
    /// Optimized kernel against its scalar twin on float32.
    public static let kernelParity = Tolerance(absolute: 1e-5, relative: 1e-5)

    public func accepts(_ actual: Float, _ expected: Float) -> Bool {
        if expected.isNaN { return actual.isNaN }
        return abs(actual - expected) <= absolute + relative * abs(expected)
    }

    public var description: String { "\(absolute) + \(relative)·|ref|" }
}

/// The result of comparing two arrays element by element.
public struct Comparison: Sendable, CustomStringConvertible {
    public var count = 0
    public var failures = 0
    public var maxAbsoluteError: Float = 0
    public var worstIndex = -1
    public var worstActual: Float = 0
    public var worstExpected: Float = 0

    /// Compares `actual` with `expected` under `tolerance`.
    public init(_ actual: [Float], _ expected: [Float], tolerance: Tolerance) {
        count = min(actual.count, expected.count)
        if actual.count != expected.count { failures = max(actual.count, expected.count) }
        var worstExcess: Float = -.infinity
        for i in 0..<count {
            let (a, e) = (actual[i], expected[i])
            let error = abs(a - e)
            if error > maxAbsoluteError || error.isNaN { maxAbsoluteError = error.isNaN ? .nan : error }
            if !tolerance.accepts(a, e) {
                failures += 1
                let excess = error - (tolerance.absolute + tolerance.relative * abs(e))
                if excess > worstExcess || excess.isNaN {
                    worstExcess = excess
                    worstIndex = i
                    worstActual = a
                    worstExpected = e
                }
            }
        }
    }

    public var passed: Bool { failures == 0 }

    public var description: String {
        passed
            ? "\(count) elements, max |error| \(maxAbsoluteError)"
            : "\(failures)/\(count) elements out of tolerance; worst at \(worstIndex): \(worstActual) vs \(worstExpected); max |error| \(maxAbsoluteError)"
    }
}
