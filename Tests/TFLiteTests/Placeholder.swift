import Testing
@testable import TFLite
