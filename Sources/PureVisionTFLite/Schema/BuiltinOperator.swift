/// A TFLite builtin operator code (schema `BuiltinOperator`, an `int32` enum).
///
/// Named cases cover codes 0 (`ADD`) through 161 (`RIGHT_SHIFT`); any other code, including the StableHLO range,
/// is kept verbatim as `.unknown(code)` so a model using it still parses.
public enum BuiltinOperator: Sendable, Hashable, CustomStringConvertible {
    case add
    case averagePool2D
    case concatenation
    case conv2D
    case depthwiseConv2D
    case depthToSpace
    case dequantize
    case embeddingLookup
    case floor
    case fullyConnected
    case hashtableLookup
    case l2Normalization
    case l2Pool2D
    case localResponseNormalization
    case logistic
    case lshProjection
    case lstm
    case maxPool2D
    case mul
    case relu
    case reluN1To1
    case relu6
    case reshape
    case resizeBilinear
    case rnn
    case softmax
    case spaceToDepth
    case svdf
    case tanh
    case concatEmbeddings
    case skipGram
    case call
    case custom
    case embeddingLookupSparse
    case pad
    case unidirectionalSequenceRnn
    case gather
    case batchToSpaceNd
    case spaceToBatchNd
    case transpose
    case mean
    case sub
    case div
    case squeeze
    case unidirectionalSequenceLstm
    case stridedSlice
    case bidirectionalSequenceRnn
    case exp
    case topkV2
    case split
    case logSoftmax
    case delegate
    case bidirectionalSequenceLstm
    case cast
    case prelu
    case maximum
    case argMax
    case minimum
    case less
    case neg
    case padv2
    case greater
    case greaterEqual
    case lessEqual
    case select
    case slice
    case sin
    case transposeConv
    case sparseToDense
    case tile
    case expandDims
    case equal
    case notEqual
    case log
    case sum
    case sqrt
    case rsqrt
    case shape
    case pow
    case argMin
    case fakeQuant
    case reduceProd
    case reduceMax
    case pack
    case logicalOr
    case oneHot
    case logicalAnd
    case logicalNot
    case unpack
    case reduceMin
    case floorDiv
    case reduceAny
    case square
    case zerosLike
    case fill
    case floorMod
    case range
    case resizeNearestNeighbor
    case leakyRelu
    case squaredDifference
    case mirrorPad
    case abs
    case splitV
    case unique
    case ceil
    case reverseV2
    case addN
    case gatherNd
    case cos
    case `where`
    case rank
    case elu
    case reverseSequence
    case matrixDiag
    case quantize
    case matrixSetDiag
    case round
    case hardSwish
    case `if`
    case `while`
    case nonMaxSuppressionV4
    case nonMaxSuppressionV5
    case scatterNd
    case selectV2
    case densify
    case segmentSum
    case batchMatmul
    case placeholderForGreaterOpCodes
    case cumsum
    case callOnce
    case broadcastTo
    case rfft2D
    case conv3D
    case imag
    case real
    case complexAbs
    case hashtable
    case hashtableFind
    case hashtableImport
    case hashtableSize
    case reduceAll
    case conv3DTranspose
    case varHandle
    case readVariable
    case assignVariable
    case broadcastArgs
    case randomStandardNormal
    case bucketize
    case randomUniform
    case multinomial
    case gelu
    case dynamicUpdateSlice
    case relu0To1
    case unsortedSegmentProd
    case unsortedSegmentMax
    case unsortedSegmentSum
    case atan2
    case unsortedSegmentMin
    case sign
    case bitcast
    case bitwiseXor
    case rightShift
    /// A code this reader has no name for.
    case unknown(Int32)

    /// The highest code with a named case.
    public static let lastNamedCode: Int32 = 161

    /// Creates the operator for a schema code; codes without a named case become `.unknown(code)`.
    public init(rawValue: Int32) {
        guard rawValue >= 0, rawValue <= Self.lastNamedCode else {
            self = .unknown(rawValue)
            return
        }
        self = Self.byCode[Int(rawValue)]
    }

    /// The schema code.
    public var rawValue: Int32 {
        switch self {
        case .add: 0
        case .averagePool2D: 1
        case .concatenation: 2
        case .conv2D: 3
        case .depthwiseConv2D: 4
        case .depthToSpace: 5
        case .dequantize: 6
        case .embeddingLookup: 7
        case .floor: 8
        case .fullyConnected: 9
        case .hashtableLookup: 10
        case .l2Normalization: 11
        case .l2Pool2D: 12
        case .localResponseNormalization: 13
        case .logistic: 14
        case .lshProjection: 15
        case .lstm: 16
        case .maxPool2D: 17
        case .mul: 18
        case .relu: 19
        case .reluN1To1: 20
        case .relu6: 21
        case .reshape: 22
        case .resizeBilinear: 23
        case .rnn: 24
        case .softmax: 25
        case .spaceToDepth: 26
        case .svdf: 27
        case .tanh: 28
        case .concatEmbeddings: 29
        case .skipGram: 30
        case .call: 31
        case .custom: 32
        case .embeddingLookupSparse: 33
        case .pad: 34
        case .unidirectionalSequenceRnn: 35
        case .gather: 36
        case .batchToSpaceNd: 37
        case .spaceToBatchNd: 38
        case .transpose: 39
        case .mean: 40
        case .sub: 41
        case .div: 42
        case .squeeze: 43
        case .unidirectionalSequenceLstm: 44
        case .stridedSlice: 45
        case .bidirectionalSequenceRnn: 46
        case .exp: 47
        case .topkV2: 48
        case .split: 49
        case .logSoftmax: 50
        case .delegate: 51
        case .bidirectionalSequenceLstm: 52
        case .cast: 53
        case .prelu: 54
        case .maximum: 55
        case .argMax: 56
        case .minimum: 57
        case .less: 58
        case .neg: 59
        case .padv2: 60
        case .greater: 61
        case .greaterEqual: 62
        case .lessEqual: 63
        case .select: 64
        case .slice: 65
        case .sin: 66
        case .transposeConv: 67
        case .sparseToDense: 68
        case .tile: 69
        case .expandDims: 70
        case .equal: 71
        case .notEqual: 72
        case .log: 73
        case .sum: 74
        case .sqrt: 75
        case .rsqrt: 76
        case .shape: 77
        case .pow: 78
        case .argMin: 79
        case .fakeQuant: 80
        case .reduceProd: 81
        case .reduceMax: 82
        case .pack: 83
        case .logicalOr: 84
        case .oneHot: 85
        case .logicalAnd: 86
        case .logicalNot: 87
        case .unpack: 88
        case .reduceMin: 89
        case .floorDiv: 90
        case .reduceAny: 91
        case .square: 92
        case .zerosLike: 93
        case .fill: 94
        case .floorMod: 95
        case .range: 96
        case .resizeNearestNeighbor: 97
        case .leakyRelu: 98
        case .squaredDifference: 99
        case .mirrorPad: 100
        case .abs: 101
        case .splitV: 102
        case .unique: 103
        case .ceil: 104
        case .reverseV2: 105
        case .addN: 106
        case .gatherNd: 107
        case .cos: 108
        case .where: 109
        case .rank: 110
        case .elu: 111
        case .reverseSequence: 112
        case .matrixDiag: 113
        case .quantize: 114
        case .matrixSetDiag: 115
        case .round: 116
        case .hardSwish: 117
        case .if: 118
        case .while: 119
        case .nonMaxSuppressionV4: 120
        case .nonMaxSuppressionV5: 121
        case .scatterNd: 122
        case .selectV2: 123
        case .densify: 124
        case .segmentSum: 125
        case .batchMatmul: 126
        case .placeholderForGreaterOpCodes: 127
        case .cumsum: 128
        case .callOnce: 129
        case .broadcastTo: 130
        case .rfft2D: 131
        case .conv3D: 132
        case .imag: 133
        case .real: 134
        case .complexAbs: 135
        case .hashtable: 136
        case .hashtableFind: 137
        case .hashtableImport: 138
        case .hashtableSize: 139
        case .reduceAll: 140
        case .conv3DTranspose: 141
        case .varHandle: 142
        case .readVariable: 143
        case .assignVariable: 144
        case .broadcastArgs: 145
        case .randomStandardNormal: 146
        case .bucketize: 147
        case .randomUniform: 148
        case .multinomial: 149
        case .gelu: 150
        case .dynamicUpdateSlice: 151
        case .relu0To1: 152
        case .unsortedSegmentProd: 153
        case .unsortedSegmentMax: 154
        case .unsortedSegmentSum: 155
        case .atan2: 156
        case .unsortedSegmentMin: 157
        case .sign: 158
        case .bitcast: 159
        case .bitwiseXor: 160
        case .rightShift: 161
        case .unknown(let code): code
        }
    }

    /// The schema spelling, e.g. `"CONV_2D"`; `"UNKNOWN(<code>)"` for an unnamed code.
    public var name: String {
        switch self {
        case .unknown(let code): "UNKNOWN(\(code))"
        default: Self.names[Int(rawValue)]
        }
    }

    /// The same text as `name`.
    public var description: String { name }

    private static let byCode: [BuiltinOperator] = [
        .add, .averagePool2D, .concatenation, .conv2D, .depthwiseConv2D, .depthToSpace, .dequantize, .embeddingLookup,
        .floor, .fullyConnected, .hashtableLookup, .l2Normalization, .l2Pool2D, .localResponseNormalization, .logistic,
        .lshProjection, .lstm, .maxPool2D, .mul, .relu, .reluN1To1, .relu6, .reshape, .resizeBilinear, .rnn, .softmax,
        .spaceToDepth, .svdf, .tanh, .concatEmbeddings, .skipGram, .call, .custom, .embeddingLookupSparse, .pad,
        .unidirectionalSequenceRnn, .gather, .batchToSpaceNd, .spaceToBatchNd, .transpose, .mean, .sub, .div, .squeeze,
        .unidirectionalSequenceLstm, .stridedSlice, .bidirectionalSequenceRnn, .exp, .topkV2, .split, .logSoftmax,
        .delegate, .bidirectionalSequenceLstm, .cast, .prelu, .maximum, .argMax, .minimum, .less, .neg, .padv2,
        .greater, .greaterEqual, .lessEqual, .select, .slice, .sin, .transposeConv, .sparseToDense, .tile, .expandDims,
        .equal, .notEqual, .log, .sum, .sqrt, .rsqrt, .shape, .pow, .argMin, .fakeQuant, .reduceProd, .reduceMax, .pack,
        .logicalOr, .oneHot, .logicalAnd, .logicalNot, .unpack, .reduceMin, .floorDiv, .reduceAny, .square, .zerosLike,
        .fill, .floorMod, .range, .resizeNearestNeighbor, .leakyRelu, .squaredDifference, .mirrorPad, .abs, .splitV,
        .unique, .ceil, .reverseV2, .addN, .gatherNd, .cos, .where, .rank, .elu, .reverseSequence, .matrixDiag,
        .quantize, .matrixSetDiag, .round, .hardSwish, .if, .while, .nonMaxSuppressionV4, .nonMaxSuppressionV5,
        .scatterNd, .selectV2, .densify, .segmentSum, .batchMatmul, .placeholderForGreaterOpCodes, .cumsum, .callOnce,
        .broadcastTo, .rfft2D, .conv3D, .imag, .real, .complexAbs, .hashtable, .hashtableFind, .hashtableImport,
        .hashtableSize, .reduceAll, .conv3DTranspose, .varHandle, .readVariable, .assignVariable, .broadcastArgs,
        .randomStandardNormal, .bucketize, .randomUniform, .multinomial, .gelu, .dynamicUpdateSlice, .relu0To1,
        .unsortedSegmentProd, .unsortedSegmentMax, .unsortedSegmentSum, .atan2, .unsortedSegmentMin, .sign, .bitcast,
        .bitwiseXor, .rightShift,
    ]

    private static let names: [String] = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE",
        "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
        "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU",
        "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
        "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
        "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB",
        "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP",
        "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
        "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE",
        "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT",
        "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT",
        "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL",
        "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS",
        "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU",
        "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
        "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM",
        "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D",
        "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE",
        "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE", "BROADCAST_ARGS",
        "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE",
        "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM", "ATAN2",
        "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
    ]
}
