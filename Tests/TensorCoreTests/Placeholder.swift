import Testing
@testable import TensorCore
