/// The dimensions of a tensor, outermost first (NHWC for images: batch, height, width, channels).
///
/// A `TensorShape` is a plain value; it does not own memory. A rank-0 shape (`[]`) describes a scalar with one element.
public struct TensorShape: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The extent of each dimension, outermost first. Every extent is ≥ 0.
    public var dimensions: [Int]

    /// Creates a shape from its dimensions, outermost first.
    public init(_ dimensions: [Int]) {
        self.dimensions = dimensions
    }

    public init(arrayLiteral elements: Int...) {
        self.dimensions = elements
    }

    /// The number of dimensions.
    public var rank: Int { dimensions.count }

    /// The number of elements (the product of the dimensions; 1 for a scalar).
    public var elementCount: Int { dimensions.reduce(1, *) }

    /// The extent of dimension `axis`.
    public subscript(axis: Int) -> Int {
        get { dimensions[axis] }
        set { dimensions[axis] = newValue }
    }

    /// Row-major strides in elements: `strides[i]` is the distance between consecutive indices of dimension `i`.
    public var strides: [Int] {
        var result = [Int](repeating: 1, count: rank)
        var running = 1
        for axis in stride(from: rank - 1, through: 0, by: -1) {
            result[axis] = running
            running *= dimensions[axis]
        }
        return result
    }

    /// The element count, or `nil` when a dimension is negative or the product overflows `Int`.
    public var checkedElementCount: Int? {
        var product = 1
        for dimension in dimensions {
            guard dimension >= 0 else { return nil }
            let (next, overflow) = product.multipliedReportingOverflow(by: dimension)
            if overflow { return nil }
            product = next
        }
        return product
    }

    public var description: String { "[" + dimensions.map(String.init).joined(separator: ", ") + "]" }
}
