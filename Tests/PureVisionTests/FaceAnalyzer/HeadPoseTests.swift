import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Head Euler angles with ML Kit's signs: Z on in-plane rotations of a frontal photo, Y on a turned face and its
/// mirror image.
@Suite struct HeadPoseTests {
    /// The contract for Z.
    static let rollTolerance: Float = 5

    @Test(arguments: [-45, -30, -15, 15, 30, 45] as [Float])
    func rollFollowsInPlaneRotation(degrees: Float) throws {
        let analyzer = try FaceTestImages.analyzer()
        let photo = try FaceTestImages.photo("grace_hopper.jpg")
        let faces = try analyzer.results(in: try FaceTestImages.rotated(photo, degrees: degrees))
        try #require(faces.count == 1)
        let z = try #require(faces[0].headEulerAngleZ)
        // The photo's own head tilt (about +3°) is part of Z; the change from the upright photo is the rotation.
        let upright = try #require(try analyzer.results(in: try FaceTestImages.rotated(photo, degrees: 0)).first)
        let z0 = try #require(upright.headEulerAngleZ)
        print("grace_hopper rotated \(degrees)° counter-clockwise: headEulerAngleZ = \(z) (upright \(z0))")
        #expect(abs(z - degrees) <= Self.rollTolerance, "rotation \(degrees)°: Z = \(z)")
        #expect(abs((z - z0) - degrees) <= 1.5, "rotation \(degrees)°: Z − Z₀ = \(z - z0)")
    }

    @Test func committedRotationsHaveTheRightSign() throws {
        // tools/make_face_goldens.py made these with PIL's rotate (counter-clockwise for positive angles).
        let analyzer = try FaceTestImages.analyzer()
        for (file, degrees) in [
            ("astronaut_rotp45.png", 45), ("astronaut_rotm45.png", -45), ("grace_hopper_rotp20.png", 20),
            ("grace_hopper_rotm20.png", -20),
        ] as [(String, Float)] {
            let faces = try analyzer.results(in: try FaceTestImages.photo(file))
            try #require(faces.count == 1, "\(file)")
            let z = try #require(faces[0].headEulerAngleZ)
            print("\(file): headEulerAngleZ = \(z)")
            #expect(abs(z - degrees) <= Self.rollTolerance, "\(file): Z = \(z)")
        }
    }

    @Test func yawSignOnATurnedFaceAndItsMirrorImage() throws {
        // opencvdoc_face looks slightly towards the image's left (checked by eye); its mirror image looks right.
        let analyzer = try FaceTestImages.analyzer()
        let photo = try FaceTestImages.photo("opencvdoc_face.jpg")
        let left = try analyzer.results(in: photo)
        let right = try analyzer.results(in: try FaceTestImages.mirrored(photo))
        try #require(left.count == 1 && right.count == 1)
        let yawLeft = try #require(left[0].headEulerAngleY)
        let yawRight = try #require(right[0].headEulerAngleY)
        print("opencvdoc_face yaw \(yawLeft)°, mirrored \(yawRight)°")
        #expect(yawLeft < -5)
        #expect(yawRight > 5)
        // Mirroring flips Y and Z, not X.
        let rollLeft = try #require(left[0].headEulerAngleZ)
        let rollRight = try #require(right[0].headEulerAngleZ)
        #expect(abs(rollLeft + rollRight) < 3)
    }

    @Test func frontalPhotosLookStraightAhead() throws {
        let analyzer = try FaceTestImages.analyzer()
        for file in ["grace_hopper.jpg", "astronaut.png"] {
            let faces = try analyzer.results(in: try FaceTestImages.photo(file))
            try #require(faces.count == 1)
            let face = faces[0]
            let angles = try [
                #require(face.headEulerAngleX), #require(face.headEulerAngleY), #require(face.headEulerAngleZ),
            ]
            print("\(file): Euler X, Y, Z = \(angles)")
            #expect(angles.allSatisfy { abs($0) < 6 }, "\(file): \(angles)")
        }
    }
}
