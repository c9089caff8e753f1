import PureVision
import PureVisionTestSupport
import Testing

private func variance(_ values: [Float]) -> Float {
    let mean = values.reduce(0, +) / Float(values.count)
    return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(values.count)
}

@Suite struct OneEuroFilterTests {
    @Test(arguments: [Float(0.37), 0, -12.5, 1e-20])
    func constantInputPassesThroughUnchanged(value: Float) throws {
        var filter = try OneEuroFilter()
        for frame in 0..<30 {
            #expect(try filter.filter(value, timestampMilliseconds: Int64(frame) * 33) == value)
        }
    }

    @Test func firstStepMatchesTheFormula() throws {
        // β = 0: a plain low-pass at 1 Hz. Tₑ = 0.1 s, r = 2π·1·0.1, α = r / (1 + r) ≈ 0.385869.
        var filter = try OneEuroFilter(parameters: OneEuroFilterParameters(minCutoff: 1, beta: 0))
        #expect(try filter.filter(0, timestampMilliseconds: 1000) == 0)
        let output = try filter.filter(1, timestampMilliseconds: 1100)
        let r = 2 * Double.pi * 0.1
        #expect(abs(Double(output) - r / (1 + r)) <= 1e-6)
    }

    @Test func stepIsSmoothedMonotonically() throws {
        var filter = try OneEuroFilter()
        var outputs: [Float] = []
        for frame in 0..<120 {
            outputs.append(try filter.filter(frame < 10 ? 0 : 1, timestampMilliseconds: Int64(frame) * 33))
        }
        #expect(outputs[..<10].allSatisfy { $0 == 0 })
        #expect(outputs[10] > 0 && outputs[10] < 1)
        #expect(zip(outputs[10...], outputs[11...]).allSatisfy { $0 <= $1 && $1 <= 1 })
        #expect(outputs[119] > 0.99)
    }

    @Test func betaReducesLagOnFastMotion() throws {
        var slow = try OneEuroFilter(parameters: OneEuroFilterParameters(beta: 0))
        var fast = try OneEuroFilter(parameters: OneEuroFilterParameters(beta: 10))
        var slowOutput: Float = 0
        var fastOutput: Float = 0
        for frame in 0..<15 {
            let value = Float(frame) * 0.05
            slowOutput = try slow.filter(value, timestampMilliseconds: Int64(frame) * 33)
            fastOutput = try fast.filter(value, timestampMilliseconds: Int64(frame) * 33)
        }
        #expect(0.7 - fastOutput < (0.7 - slowOutput) / 2)
    }

    @Test func jitterVarianceDrops() throws {
        var random = SplitMix64(seed: 11)
        var filter = try OneEuroFilter()
        var inputs: [Float] = []
        var outputs: [Float] = []
        for frame in 0..<300 {
            let value = 0.5 + 0.005 * random.nextSignedUnitFloat()
            inputs.append(value)
            outputs.append(try filter.filter(value, timestampMilliseconds: Int64(frame) * 33))
        }
        #expect(variance(Array(outputs[30...])) < variance(Array(inputs[30...])) / 4)
    }

    @Test(arguments: [Int64(1000), 999, -5])
    func timestampsMustIncrease(next: Int64) throws {
        var filter = try OneEuroFilter()
        _ = try filter.filter(0, timestampMilliseconds: 900)
        let previous = try filter.filter(1, timestampMilliseconds: 1000)
        #expect(
            throws: LandmarkSmoothingError.timestampNotIncreasing(
                previousMilliseconds: 1000, currentMilliseconds: next)
        ) {
            _ = try filter.filter(5, timestampMilliseconds: next)
        }
        // The failed call left the state alone: the next valid sample continues from `previous`.
        var reference = try OneEuroFilter()
        _ = try reference.filter(0, timestampMilliseconds: 900)
        #expect(try reference.filter(1, timestampMilliseconds: 1000) == previous)
        #expect(try filter.filter(1, timestampMilliseconds: 1033) == reference.filter(1, timestampMilliseconds: 1033))
    }

    @Test func resetAndNonFiniteSamplesStartAfresh() throws {
        var filter = try OneEuroFilter()
        _ = try filter.filter(0, timestampMilliseconds: 0)
        #expect(try filter.filter(.nan, timestampMilliseconds: 33).isNaN)
        #expect(try filter.filter(0.8, timestampMilliseconds: 66) == 0.8)
        filter.reset()
        #expect(try filter.filter(0.2, timestampMilliseconds: 10) == 0.2)
    }

    @Test(arguments: [
        OneEuroFilterParameters(minCutoff: 0), OneEuroFilterParameters(minCutoff: -1),
        OneEuroFilterParameters(minCutoff: .infinity), OneEuroFilterParameters(beta: -0.1),
        OneEuroFilterParameters(beta: .nan), OneEuroFilterParameters(derivativeCutoff: 0),
    ])
    func invalidParametersThrow(parameters: OneEuroFilterParameters) {
        #expect(throws: LandmarkSmoothingError.self) { try OneEuroFilter(parameters: parameters) }
        #expect(throws: LandmarkSmoothingError.self) { try HandLandmarkSmoother(parameters: parameters) }
    }
}

@Suite struct HandLandmarkSmootherTests {
    private func hand(x: Float, y: Float, z: Float = 0) -> [NormalizedLandmark] {
        (0..<21).map { index in NormalizedLandmark(x: x + Float(index) / 64, y: y, z: z) }
    }

    @Test func stillHandsPassThroughUnchanged() throws {
        var smoother = try HandLandmarkSmoother()
        let hands = [1: hand(x: 0.2, y: 0.3, z: -0.05), 2: hand(x: 0.6, y: 0.7)]
        for frame in 0..<10 {
            #expect(try smoother.smooth(hands, timestampMilliseconds: Int64(frame) * 33) == hands)
        }
        #expect(smoother.trackIDs == [1, 2])
    }

    @Test func coordinatesAreFilteredSeparately() throws {
        var smoother = try HandLandmarkSmoother()
        _ = try smoother.smooth([7: hand(x: 0.2, y: 0.3)], timestampMilliseconds: 0)
        let moved = try #require(try smoother.smooth([7: hand(x: 0.2, y: 0.5)], timestampMilliseconds: 33)[7])
        #expect(moved.map(\.x) == hand(x: 0.2, y: 0.5).map(\.x))
        #expect(moved.allSatisfy { $0.y > 0.3 && $0.y < 0.5 && $0.z == 0 })
    }

    @Test func vanishedTrackStartsAfresh() throws {
        var smoother = try HandLandmarkSmoother()
        _ = try smoother.smooth([1: hand(x: 0.2, y: 0.3), 2: hand(x: 0.5, y: 0.5)], timestampMilliseconds: 0)
        let onlyTwo = try smoother.smooth([2: hand(x: 0.5, y: 0.6)], timestampMilliseconds: 33)
        #expect(smoother.trackIDs == [2])
        #expect(onlyTwo[2] != hand(x: 0.5, y: 0.6))
        let back = try smoother.smooth(
            [1: hand(x: 0.8, y: 0.8), 2: hand(x: 0.5, y: 0.6)], timestampMilliseconds: 66)
        #expect(back[1] == hand(x: 0.8, y: 0.8))
    }

    @Test func changedLandmarkCountStartsAfresh() throws {
        var smoother = try HandLandmarkSmoother()
        _ = try smoother.smooth([1: hand(x: 0.2, y: 0.3)], timestampMilliseconds: 0)
        let partial = Array(hand(x: 0.4, y: 0.4).prefix(5))
        #expect(try smoother.smooth([1: partial], timestampMilliseconds: 33)[1] == partial)
    }

    @Test func nonFiniteHandIsReturnedAsIs() throws {
        var smoother = try HandLandmarkSmoother()
        _ = try smoother.smooth([1: hand(x: 0.2, y: 0.3)], timestampMilliseconds: 0)
        var broken = hand(x: 0.2, y: 0.3)
        broken[3].z = .infinity
        #expect(try smoother.smooth([1: broken], timestampMilliseconds: 33)[1] == broken)
        #expect(smoother.trackIDs.isEmpty)
    }

    @Test func timestampsMustIncreaseAcrossCalls() throws {
        var smoother = try HandLandmarkSmoother()
        _ = try smoother.smooth([:], timestampMilliseconds: 100)
        #expect(
            throws: LandmarkSmoothingError.timestampNotIncreasing(
                previousMilliseconds: 100, currentMilliseconds: 100)
        ) {
            _ = try smoother.smooth([1: hand(x: 0, y: 0)], timestampMilliseconds: 100)
        }
        #expect(smoother.trackIDs.isEmpty)
        smoother.reset()
        #expect(try smoother.smooth([1: hand(x: 0, y: 0)], timestampMilliseconds: 50)[1] == hand(x: 0, y: 0))
    }

    @Test func jitterVarianceDropsPerLandmark() throws {
        var random = SplitMix64(seed: 3)
        var smoother = try HandLandmarkSmoother()
        var inputs: [Float] = []
        var outputs: [Float] = []
        for frame in 0..<200 {
            var landmarks = hand(x: 0.3, y: 0.4)
            landmarks[8].y += 0.004 * random.nextSignedUnitFloat()
            let smoothed = try #require(
                try smoother.smooth([5: landmarks], timestampMilliseconds: Int64(frame) * 33)[5])
            if frame >= 30 {
                inputs.append(landmarks[8].y)
                outputs.append(smoothed[8].y)
            }
        }
        #expect(variance(outputs) < variance(inputs) / 4)
    }
}
