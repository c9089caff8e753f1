import PureVisionCore
import Testing

@Suite struct NumpyFileTests {
    @Test(arguments: [ElementType.float32, .float16, .float64, .int8, .uint8, .int16, .int32, .int64, .bool])
    func roundTripsEveryType(_ type: ElementType) throws {
        let shape: TensorShape = [2, 3, 5]
        let bytes = (0..<(shape.elementCount * type.byteWidth)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let tensor = try Tensor(shape: shape, elementType: type, bytes: bytes)
        let encoded = NumpyFile.encode(tensor)
        // The header is padded so that the payload starts on a 64-byte boundary.
        #expect((encoded.count - bytes.count) % 64 == 0)
        #expect(try NumpyFile.decode(encoded) == tensor)
    }

    @Test func roundTripsScalarsAndVectors() throws {
        for shape in [TensorShape([]), TensorShape([1]), TensorShape([7])] {
            let tensor = try Tensor(shape: shape, floats: (0..<shape.elementCount).map(Float.init))
            #expect(try NumpyFile.decode(NumpyFile.encode(tensor)) == tensor)
        }
    }

    /// A header written by NumPy 2.x itself (`np.save` of `np.zeros((2, 3), '<f4')`).
    @Test func readsNumpysOwnHeader() throws {
        var file: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, 118, 0]
        let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
        file += Array(header.utf8) + [UInt8](repeating: 0x20, count: 118 - header.utf8.count - 1) + [0x0A]
        file += [UInt8](repeating: 0, count: 24)
        let tensor = try NumpyFile.decode(file)
        #expect(tensor.shape == [2, 3])
        #expect(tensor.elementType == .float32)
        #expect(tensor.floats == [0, 0, 0, 0, 0, 0])
    }

    @Test func rejectsMalformedFiles() throws {
        let good = NumpyFile.encode(try Tensor(shape: [4], floats: [1, 2, 3, 4]))
        #expect(throws: NumpyFileError.notNumpy) { try NumpyFile.decode(Array("hello world".utf8)) }
        #expect(throws: NumpyFileError.truncated) { try NumpyFile.decode(Array(good.dropLast())) }
        for length in 0..<good.count - 1 {
            #expect(throws: NumpyFileError.self) { try NumpyFile.decode(Array(good.prefix(length))) }
        }
        var fortran = good
        let falseAt = try #require(Self.offset(of: "False", in: good))
        fortran.replaceSubrange(falseAt..<falseAt + 5, with: Array("True ".utf8))
        #expect(throws: NumpyFileError.unsupported("Fortran-order arrays")) { try NumpyFile.decode(fortran) }
        var bigEndian = good
        let descrAt = try #require(Self.offset(of: "<f4", in: good))
        bigEndian[descrAt] = UInt8(ascii: ">")
        #expect(throws: NumpyFileError.unsupported("big-endian dtype '>f4'")) { try NumpyFile.decode(bigEndian) }
    }

    /// The byte offset of the first occurrence of `text` in `bytes`.
    static func offset(of text: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(text.utf8)
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

@Suite struct TensorCoreValueTests {
    @Test func float16ConversionIsExact() {
        #expect(Float16Bits.toFloat(0x3C00) == 1)
        #expect(Float16Bits.toFloat(0xC000) == -2)
        #expect(Float16Bits.toFloat(0x7BFF) == 65504)
        #expect(Float16Bits.toFloat(0x0001) == Float(sign: .plus, exponent: -24, significand: 1))
        #expect(Float16Bits.toFloat(0x03FF) == Float(0x3FF) * Float(sign: .plus, exponent: -24, significand: 1))
        #expect(Float16Bits.toFloat(0x7C00) == .infinity)
        #expect(Float16Bits.toFloat(0x7E00).isNaN)
        #expect(Float16Bits.toFloat(0x8000).sign == .minus)
    }

    @Test func shapeArithmetic() {
        let shape: TensorShape = [2, 3, 4]
        #expect(shape.elementCount == 24)
        #expect(shape.strides == [12, 4, 1])
        #expect(TensorShape([]).elementCount == 1)
        #expect(TensorShape([Int.max, 2]).checkedElementCount == nil)
        #expect(TensorShape([3, -1]).checkedElementCount == nil)
    }

    @Test func tensorRejectsInconsistentParts() {
        #expect(throws: TensorError.self) { try Tensor(shape: [2, 2], floats: [1, 2, 3]) }
        #expect(throws: TensorError.self) { try Tensor(shape: [2], elementType: .int32, bytes: [0, 0, 0]) }
    }
}
