import Testing
@testable import Engine
