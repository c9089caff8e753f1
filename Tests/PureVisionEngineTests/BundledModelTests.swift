import Foundation
import PureVisionTestSupport
import Testing

/// The files in `Models/` are exactly the ones `Models/README.md` documents.
@Suite struct BundledModelTests {
    /// (file, sha256) pairs read from the README's table, so the README and the files cannot drift apart.
    static func documentedDigests() throws -> [(String, String)] {
        let readme = String(
            decoding: try Fixtures.bytes(atPath: Fixtures.packageRoot().path + "/Models/README.md"), as: UTF8.self)
        var pairs: [(String, String)] = []
        for line in readme.split(separator: "\n") {
            let words = line.split(whereSeparator: { " |`".contains($0) }).map(String.init)
            guard let file = words.first(where: { $0.hasSuffix(".tflite") || $0.hasSuffix(".task") }),
                let digest = words.first(where: { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
            else { continue }
            pairs.append((file, digest))
        }
        return pairs
    }

    @Test func everyBundledModelMatchesItsDocumentedDigest() throws {
        let documented = try Self.documentedDigests()
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.packageRoot().path + "/Models")
            .filter { $0.hasSuffix(".tflite") || $0.hasSuffix(".task") }
        #expect(files.count >= 12)
        #expect(Set(documented.map(\.0)) == Set(files), "README table and Models/ differ")
        for (file, digest) in documented {
            let bytes = try Fixtures.bytes(atPath: Fixtures.model(file))
            #expect(SHA256.hexDigest(bytes) == digest, "\(file)")
        }
    }

    @Test func sha256KnownAnswers() {
        #expect(SHA256.hexDigest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
