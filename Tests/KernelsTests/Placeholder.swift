import Testing
@testable import Kernels
