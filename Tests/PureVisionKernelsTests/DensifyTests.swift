import PureVisionKernels
import Testing

struct DensifyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var shape: [Int]
        var format: SparseFormat
        var values: [Float]
        var expected: [Float]
        var testDescription: String { name }
    }

    /// Dense results derived by hand from each format.
    static let cases: [Case] = [
        Case(
            name: "CSR rows", shape: [3, 4],
            format: SparseFormat(
                traversalOrder: [0, 1], blockMap: [],
                dimensions: [.dense(size: 3), .sparseCSR(segments: [0, 2, 2, 3], indices: [0, 3, 1])]),
            values: [1, 2, 3], expected: [1, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0]),
        Case(
            name: "CSR by columns (traversal [1, 0])", shape: [2, 3],
            format: SparseFormat(
                traversalOrder: [1, 0], blockMap: [],
                dimensions: [.dense(size: 3), .sparseCSR(segments: [0, 1, 1, 2], indices: [1, 0])]),
            values: [7, 9], expected: [0, 0, 9, 7, 0, 0]),
        Case(
            name: "2×2 blocks over 4×4", shape: [4, 4],
            format: SparseFormat(
                traversalOrder: [0, 1, 2, 3], blockMap: [0, 1],
                dimensions: [
                    .dense(size: 2), .sparseCSR(segments: [0, 1, 2], indices: [1, 0]), .dense(size: 2),
                    .dense(size: 2),
                ]),
            values: [1, 2, 3, 4, 5, 6, 7, 8],
            expected: [0, 0, 1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 8, 0, 0]),
        Case(
            name: "1-D blocks of 4", shape: [8],
            format: SparseFormat(
                traversalOrder: [0, 1], blockMap: [0],
                dimensions: [.sparseCSR(segments: [0, 1], indices: [1]), .dense(size: 4)]),
            values: [1, 2, 3, 4], expected: [0, 0, 0, 0, 1, 2, 3, 4]),
        Case(
            name: "1×4 blocks on the column axis of 2×8", shape: [2, 8],
            format: SparseFormat(
                traversalOrder: [0, 1, 2], blockMap: [1],
                dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 3], indices: [1, 0, 1]), .dense(size: 4)]),
            values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            expected: [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
        Case(
            name: "all dense", shape: [2, 2],
            format: SparseFormat(
                traversalOrder: [0, 1], blockMap: [], dimensions: [.dense(size: 2), .dense(size: 2)]),
            values: [1, 2, 3, 4], expected: [1, 2, 3, 4]),
        Case(
            name: "model layout: OHWI with CSR input channels", shape: [3, 1, 1, 4],
            format: SparseFormat(
                traversalOrder: [0, 1, 2, 3], blockMap: [],
                dimensions: [
                    .dense(size: 3), .dense(size: 1), .dense(size: 1),
                    .sparseCSR(segments: [0, 1, 1, 4], indices: [2, 0, 1, 3]),
                ]),
            values: [5, 6, 7, 8], expected: [0, 0, 5, 0, 0, 0, 0, 0, 6, 7, 0, 8]),
    ]

    @Test(arguments: cases)
    func densifiesHandBuiltFormats(_ sparse: Case) throws {
        var output = [Float](repeating: .nan, count: sparse.expected.count)
        try sparse.values.withUnsafeBytes { values in
            try output.withUnsafeMutableBytes { destination in
                try Densify.run(
                    format: sparse.format, values: values.baseAddress!, valueCount: sparse.values.count,
                    elementByteWidth: 4, denseShape: sparse.shape, output: destination.baseAddress!)
            }
        }
        #expect(output == sparse.expected)
    }

    @Test func densifiesFloat16Bits() throws {
        // The real sparse face detector stores float16 weights: values are 2-byte elements, copied bit-exactly.
        let values: [UInt16] = [0x3C00, 0xC000, 0x7BFF]
        let format = SparseFormat(
            traversalOrder: [0, 1], blockMap: [],
            dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 2, 3], indices: [0, 2, 1])])
        var output = [UInt16](repeating: 0xFFFF, count: 6)
        try values.withUnsafeBytes { source in
            try output.withUnsafeMutableBytes { destination in
                try Densify.run(
                    format: format, values: source.baseAddress!, valueCount: 3, elementByteWidth: 2,
                    denseShape: [2, 3], output: destination.baseAddress!)
            }
        }
        #expect(output == [0x3C00, 0, 0xC000, 0, 0x7BFF, 0])
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var shape: [Int]
        var format: SparseFormat
        var valueCount: Int
        var error: DensifyError
        var testDescription: String { name }
    }

    static func csr(_ segments: [Int], _ indices: [Int]) -> SparseFormat {
        SparseFormat(
            traversalOrder: [0, 1], blockMap: [],
            dimensions: [.dense(size: 2), .sparseCSR(segments: segments, indices: indices)])
    }

    @Test(arguments: [
        Malformed(
            name: "segment past the indices", shape: [2, 4], format: csr([0, 1, 5], [0, 1]), valueCount: 2,
            error: .invalidSegments(level: 1)),
        Malformed(
            name: "decreasing segments", shape: [2, 4], format: csr([0, 2, 1], [0]), valueCount: 1,
            error: .invalidSegments(level: 1)),
        Malformed(
            name: "segments not starting at 0", shape: [2, 4], format: csr([1, 1, 2], [0, 1]), valueCount: 1,
            error: .invalidSegments(level: 1)),
        Malformed(
            name: "too few segments", shape: [2, 4], format: csr([0, 1], [0]), valueCount: 1,
            error: .segmentCountMismatch(level: 1, expected: 3, actual: 2)),
        Malformed(
            name: "index equal to the dimension", shape: [2, 4], format: csr([0, 1, 2], [0, 4]), valueCount: 2,
            error: .indexOutOfRange(level: 1, index: 4, extent: 4)),
        Malformed(
            name: "negative index", shape: [2, 4], format: csr([0, 1, 2], [-1, 0]), valueCount: 2,
            error: .indexOutOfRange(level: 1, index: -1, extent: 4)),
        Malformed(
            name: "too few values", shape: [2, 4], format: csr([0, 1, 3], [0, 1, 2]), valueCount: 2,
            error: .valueCountMismatch(expected: 3, actual: 2)),
        Malformed(
            name: "dense size disagrees", shape: [3, 4], format: csr([0, 1, 1], [0]), valueCount: 1,
            error: .denseSizeMismatch(level: 0, expected: 3, actual: 2)),
        Malformed(
            name: "traversal order repeats", shape: [2, 4],
            format: SparseFormat(
                traversalOrder: [0, 0], blockMap: [], dimensions: [.dense(size: 2), .dense(size: 4)]),
            valueCount: 8, error: .invalidTraversalOrder([0, 0])),
        Malformed(
            name: "metadata for the wrong rank", shape: [2, 4, 1], format: csr([0, 0, 0], []), valueCount: 0,
            error: .levelCountMismatch(expected: 3, traversalOrder: 2, dimensions: 2)),
        Malformed(
            name: "block map outside the shape", shape: [8],
            format: SparseFormat(
                traversalOrder: [0, 1], blockMap: [1], dimensions: [.dense(size: 2), .dense(size: 4)]),
            valueCount: 8, error: .invalidBlockMap([1])),
        Malformed(
            name: "block size not dividing", shape: [6],
            format: SparseFormat(
                traversalOrder: [0, 1], blockMap: [0], dimensions: [.dense(size: 2), .dense(size: 4)]),
            valueCount: 8, error: .blockSizeDoesNotDivide(dimension: 0, extent: 6, blockSize: 4)),
        Malformed(
            name: "sparse block dimension", shape: [8],
            format: SparseFormat(
                traversalOrder: [0, 1], blockMap: [0],
                dimensions: [.dense(size: 2), .sparseCSR(segments: [0, 1, 1], indices: [0])]),
            valueCount: 1, error: .invalidBlockDimension(level: 1)),
        Malformed(
            name: "negative dense extent", shape: [2, -4], format: csr([0, 0, 0], []), valueCount: 0,
            error: .invalidDenseShape([2, -4])),
    ])
    func rejectsMalformedFormats(_ bad: Malformed) {
        let values = [Float](repeating: 1, count: max(1, bad.valueCount))
        var output = [Float](repeating: -1, count: 64)
        let error = values.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                #expect(throws: DensifyError.self) {
                    try Densify.run(
                        format: bad.format, values: source.baseAddress!, valueCount: bad.valueCount,
                        elementByteWidth: 4, denseShape: bad.shape, output: destination.baseAddress!)
                }
            }
        }
        #expect(error == bad.error)
        #expect(output.allSatisfy { $0 == -1 }, "output untouched on error")
    }
}
