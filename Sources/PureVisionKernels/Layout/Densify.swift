/// How one level of a sparse tensor's traversal is stored (TFLite's `DimensionMetadata`).
public enum SparseDimension: Sendable, Hashable {
    /// Every index `0..<size` is present.
    case dense(size: Int)
    /// Compressed sparse row: the children of parent position `p` are `indices[segments[p]..<segments[p + 1]]`.
    case sparseCSR(segments: [Int], indices: [Int])
}

/// A TFLite sparsity description (`SparsityParameters`): how a sparse tensor's values are laid out.
///
/// The tensor of rank `R` is first expanded to `R + blockMap.count` dimensions: dimension `blockMap[k]` of the dense
/// shape is split into a block index (dimension `blockMap[k]`, extent `dense / blockSize`) and a position within the
/// block (dimension `R + k`, extent `blockSize`). The stored values are the leaves of a traversal of the expanded
/// dimensions in `traversalOrder`; `dimensions[level]` describes level `level` of that traversal (dimension
/// `traversalOrder[level]`). Block dimensions are dense and their dense size is the block size.
public struct SparseFormat: Sendable, Hashable {
    /// The order in which the expanded dimensions are traversed, outermost first: a permutation of
    /// `0..<(R + blockMap.count)` whose first `R` entries are the original dimensions.
    public var traversalOrder: [Int]
    /// For each block dimension `k`, the original dimension it splits (strictly increasing).
    public var blockMap: [Int]
    /// The storage of each traversal level, in traversal order.
    public var dimensions: [SparseDimension]

    /// Creates a sparsity description from its parts.
    public init(traversalOrder: [Int], blockMap: [Int], dimensions: [SparseDimension]) {
        self.traversalOrder = traversalOrder
        self.blockMap = blockMap
        self.dimensions = dimensions
    }
}

/// Why a sparse tensor cannot be densified: its format, read from a model file, is inconsistent.
public enum DensifyError: Error, Equatable, CustomStringConvertible {
    /// The dense shape has a negative extent, or its byte size overflows.
    case invalidDenseShape([Int])
    /// The element width is not positive.
    case invalidElementByteWidth(Int)
    /// `traversalOrder` and `dimensions` must both have one entry per expanded dimension.
    case levelCountMismatch(expected: Int, traversalOrder: Int, dimensions: Int)
    /// `traversalOrder` is not a permutation with the original dimensions first.
    case invalidTraversalOrder([Int])
    /// `blockMap` names a dimension outside the dense shape, or is not strictly increasing.
    case invalidBlockMap([Int])
    /// The traversal level of a block dimension is not dense, or its block size is not positive.
    case invalidBlockDimension(level: Int)
    /// A block size does not divide the dimension it splits.
    case blockSizeDoesNotDivide(dimension: Int, extent: Int, blockSize: Int)
    /// A dense level's size disagrees with the extent of the dimension it traverses.
    case denseSizeMismatch(level: Int, expected: Int, actual: Int)
    /// A sparse level's segment array does not have one entry per parent position plus one.
    case segmentCountMismatch(level: Int, expected: Int, actual: Int)
    /// A sparse level's segments do not start at 0, decrease, or do not end at the number of indices.
    case invalidSegments(level: Int)
    /// A sparse level's index lies outside the extent of the dimension it traverses.
    case indexOutOfRange(level: Int, index: Int, extent: Int)
    /// The format describes a different number of stored values than were supplied.
    case valueCountMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .invalidDenseShape(let shape): "invalid dense shape \(shape)"
        case .invalidElementByteWidth(let width): "invalid element width \(width) bytes"
        case .levelCountMismatch(let expected, let order, let dimensions):
            "sparsity needs \(expected) levels, traversal order has \(order), dimension metadata has \(dimensions)"
        case .invalidTraversalOrder(let order): "invalid traversal order \(order)"
        case .invalidBlockMap(let map): "invalid block map \(map)"
        case .invalidBlockDimension(let level): "block dimension at traversal level \(level) is not dense and ≥ 1"
        case .blockSizeDoesNotDivide(let dimension, let extent, let blockSize):
            "block size \(blockSize) does not divide dimension \(dimension) of extent \(extent)"
        case .denseSizeMismatch(let level, let expected, let actual):
            "dense level \(level) has size \(actual), its dimension has extent \(expected)"
        case .segmentCountMismatch(let level, let expected, let actual):
            "sparse level \(level) has \(actual) segments, expected \(expected)"
        case .invalidSegments(let level): "sparse level \(level) has malformed segments"
        case .indexOutOfRange(let level, let index, let extent):
            "sparse level \(level) has index \(index) outside 0..<\(extent)"
        case .valueCountMismatch(let expected, let actual): "sparsity describes \(expected) values, \(actual) given"
        }
    }
}

/// DENSIFY: expands a sparse tensor (TFLite's sparsity format, including block sparsity) into a dense row-major
/// tensor, with the semantics of TFLite's `FormatConverter::SparseToDense`.
///
/// Because the format comes from a model file, every part of it is validated before any memory is touched:
/// traversal order, block map, dense sizes, segment arrays and indices are checked against the dense shape, and
/// the number of stored values must match. Elements the format does not mention are zero bytes.
public enum Densify {
    /// Writes the dense tensor of `denseShape` (`denseShape.product * elementByteWidth` bytes) to `output`.
    /// - Parameters:
    ///   - values: the stored values, `valueCount` elements of `elementByteWidth` bytes, in traversal order.
    /// - Throws: `DensifyError` when the format is inconsistent; `output` is untouched then.
    public static func run(
        format: SparseFormat, values: UnsafeRawPointer, valueCount: Int, elementByteWidth: Int, denseShape: [Int],
        output: UnsafeMutableRawPointer
    ) throws(DensifyError) {
        let plan = try Plan(format: format, denseShape: denseShape, elementByteWidth: elementByteWidth)
        guard plan.leafCount == valueCount else {
            throw .valueCountMismatch(expected: plan.leafCount, actual: valueCount)
        }
        output.initializeMemory(as: UInt8.self, repeating: 0, count: plan.denseCount * elementByteWidth)
        var coordinates = [Int](repeating: 0, count: plan.levels.count)
        var valueIndex = 0
        plan.populate(
            level: 0, parent: 0, coordinates: &coordinates, values: values, valueIndex: &valueIndex, output: output)
    }

    /// A validated format: every index it produces lies inside the dense shape.
    private struct Plan {
        let levels: [SparseDimension]
        let traversalOrder: [Int]
        let blockMap: [Int]
        let blockSizes: [Int]
        let denseStrides: [Int]
        let denseCount: Int
        let leafCount: Int
        let width: Int

        init(format: SparseFormat, denseShape: [Int], elementByteWidth: Int) throws(DensifyError) {
            guard elementByteWidth > 0 else { throw .invalidElementByteWidth(elementByteWidth) }
            var denseCount = 1
            for extent in denseShape {
                guard extent >= 0 else { throw .invalidDenseShape(denseShape) }
                let (product, overflow) = denseCount.multipliedReportingOverflow(by: extent)
                guard !overflow else { throw .invalidDenseShape(denseShape) }
                denseCount = product
            }
            guard !denseCount.multipliedReportingOverflow(by: elementByteWidth).overflow else {
                throw .invalidDenseShape(denseShape)
            }
            let rank = denseShape.count
            let blockCount = format.blockMap.count
            let levelCount = rank + blockCount
            guard format.traversalOrder.count == levelCount, format.dimensions.count == levelCount else {
                throw .levelCountMismatch(
                    expected: levelCount, traversalOrder: format.traversalOrder.count,
                    dimensions: format.dimensions.count)
            }
            let order = format.traversalOrder
            guard order.sorted() == Array(0..<levelCount), order.prefix(rank).allSatisfy({ $0 < rank }) else {
                throw .invalidTraversalOrder(order)
            }
            for (k, dimension) in format.blockMap.enumerated() {
                guard dimension >= 0, dimension < rank, k == 0 || format.blockMap[k - 1] < dimension else {
                    throw .invalidBlockMap(format.blockMap)
                }
            }
            var extents = denseShape + [Int](repeating: 0, count: blockCount)
            var blockSizes: [Int] = []
            for k in 0..<blockCount {
                guard let level = order.firstIndex(of: rank + k) else { throw .invalidTraversalOrder(order) }
                guard case .dense(let size) = format.dimensions[level], size >= 1 else {
                    throw .invalidBlockDimension(level: level)
                }
                let dimension = format.blockMap[k]
                guard denseShape[dimension] % size == 0 else {
                    throw .blockSizeDoesNotDivide(dimension: dimension, extent: denseShape[dimension], blockSize: size)
                }
                extents[dimension] = denseShape[dimension] / size
                extents[rank + k] = size
                blockSizes.append(size)
            }
            var parents = 1
            for (level, storage) in format.dimensions.enumerated() {
                let extent = extents[order[level]]
                switch storage {
                case .dense(let size):
                    guard size == extent else { throw .denseSizeMismatch(level: level, expected: extent, actual: size) }
                    let (product, overflow) = parents.multipliedReportingOverflow(by: size)
                    guard !overflow, product <= denseCount else { throw .invalidDenseShape(denseShape) }
                    parents = product
                case .sparseCSR(let segments, let indices):
                    guard segments.count == parents + 1 else {
                        throw .segmentCountMismatch(level: level, expected: parents + 1, actual: segments.count)
                    }
                    guard segments[0] == 0, segments[parents] == indices.count else {
                        throw .invalidSegments(level: level)
                    }
                    for p in 0..<parents where segments[p] > segments[p + 1] {
                        throw .invalidSegments(level: level)
                    }
                    for index in indices where index < 0 || index >= extent {
                        throw .indexOutOfRange(level: level, index: index, extent: extent)
                    }
                    parents = indices.count
                }
            }
            self.levels = format.dimensions
            self.traversalOrder = order
            self.blockMap = format.blockMap
            self.blockSizes = blockSizes
            self.denseStrides = contiguousStrides(denseShape)
            self.denseCount = denseCount
            self.leafCount = parents
            self.width = elementByteWidth
        }

        /// Visits the children of position `parent` at `level`, copying each leaf's value to its dense position.
        func populate(
            level: Int, parent: Int, coordinates: inout [Int], values: UnsafeRawPointer, valueIndex: inout Int,
            output: UnsafeMutableRawPointer
        ) {
            if level == levels.count {
                (output + denseOffset(coordinates) * width).copyMemory(
                    from: values + valueIndex * width, byteCount: width)
                valueIndex += 1
                return
            }
            switch levels[level] {
            case .dense(let size):
                for i in 0..<size {
                    coordinates[level] = i
                    populate(
                        level: level + 1, parent: parent * size + i, coordinates: &coordinates, values: values,
                        valueIndex: &valueIndex, output: output)
                }
            case .sparseCSR(let segments, let indices):
                for position in segments[parent]..<segments[parent + 1] {
                    coordinates[level] = indices[position]
                    populate(
                        level: level + 1, parent: position, coordinates: &coordinates, values: values,
                        valueIndex: &valueIndex, output: output)
                }
            }
        }

        /// The dense element offset of a leaf given its coordinate at every traversal level.
        private func denseOffset(_ coordinates: [Int]) -> Int {
            let rank = denseStrides.count
            var original = [Int](repeating: 0, count: rank)
            for level in 0..<rank { original[traversalOrder[level]] = coordinates[level] }
            for level in rank..<levels.count {
                let block = traversalOrder[level] - rank
                original[blockMap[block]] = original[blockMap[block]] * blockSizes[block] + coordinates[level]
            }
            var offset = 0
            for axis in 0..<rank { offset += original[axis] * denseStrides[axis] }
            return offset
        }
    }
}
