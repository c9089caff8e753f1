import PureVisionEngine
import PureVisionTestSupport
import Testing

/// `InterpreterOptions.memoryLimit` at its edge: a model loads with exactly the memory it plans, and one byte less
/// is `.limitExceeded` at load.
@Suite struct InterpreterLimitsTests {
    @Test(arguments: ["face_detection_short_range.tflite", "hand_landmark_full.tflite"])
    func memoryLimitIsExact(_ name: String) throws {
        let path = Fixtures.model(name)
        let needed = try Interpreter(contentsOf: path).arenaByteCount
        let exact = try Interpreter(contentsOf: path, options: InterpreterOptions(memoryLimit: needed))
        #expect(exact.arenaByteCount == needed)
        #expect {
            try Interpreter(contentsOf: path, options: InterpreterOptions(memoryLimit: needed - 1))
        } throws: { error in
            guard case .limitExceeded = error as? InterpreterError else { return false }
            return true
        }
    }

    @Test func defaultLimitIsTwoGibibytes() {
        #expect(InterpreterOptions().memoryLimit == InterpreterLimits.defaultMemoryLimit)
        #expect(InterpreterLimits.defaultMemoryLimit == 1 << 31)
    }
}
