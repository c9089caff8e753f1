import Testing
import PureVision

@Test func placeholder() { #expect(Bool(true)) }
