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
    /// Elements beyond the tolerance that were accepted because the second implementation is as far off.
    public var excused = 0
    public var maxAbsoluteError: Float = 0
    /// The largest |error| / (absolute + relative · |expected|) over all elements: how much of the tolerance is used.
    public var largestShareOfTolerance: Float = 0
    public var worstIndex = -1
    public var worstActual: Float = 0
    public var worstExpected: Float = 0

    /// Compares `actual` with `expected` under `tolerance`.
    public init(_ actual: [Float], _ expected: [Float], tolerance: Tolerance) {
        self.init(actual, expected, tolerance: tolerance, secondImplementation: nil)
    }

    /// Compares `actual` with `expected` the way a second correct implementation would be judged: an element beyond
    /// `tolerance` is accepted only where `secondImplementation` (for a model, LiteRT-XNNPACK's output on the same
    /// input) is at least as far from `expected`. A nil or differently sized second output excuses nothing.
    public init(_ actual: [Float], _ expected: [Float], tolerance: Tolerance, secondImplementation: [Float]?) {
        count = min(actual.count, expected.count)
        if actual.count != expected.count { failures = max(actual.count, expected.count) }
        let second = secondImplementation?.count == expected.count ? secondImplementation : nil
        var worstExcess: Float = -.infinity
        for i in 0..<count {
            let (a, e) = (actual[i], expected[i])
            let error = abs(a - e)
            if error > maxAbsoluteError || error.isNaN { maxAbsoluteError = error.isNaN ? .nan : error }
            let bound = tolerance.absolute + tolerance.relative * abs(e)
            if bound > 0, !e.isNaN { largestShareOfTolerance = max(largestShareOfTolerance, error / bound) }
            if tolerance.accepts(a, e) { continue }
            if let second, !e.isNaN, error <= abs(second[i] - e) {
                excused += 1
                continue
            }
            failures += 1
            let excess = error - bound
            if excess > worstExcess || excess.isNaN {
                worstExcess = excess
                worstIndex = i
                worstActual = a
                worstExpected = e
            }
        }
    }

    public var passed: Bool { failures == 0 }

    public var description: String {
        let share = "largest share of the tolerance \(largestShareOfTolerance)"
        let excusedText = excused > 0 ? ", \(excused) beyond it where XNNPACK is as far off" : ""
        return passed
            ? "\(count) elements, max |error| \(maxAbsoluteError), \(share)\(excusedText)"
            : "\(failures)/\(count) elements out of tolerance; worst at \(worstIndex): \(worstActual) vs \(worstExpected); max |error| \(maxAbsoluteError), \(share)\(excusedText)"
    }
}
