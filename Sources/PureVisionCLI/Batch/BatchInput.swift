import Foundation
import PureVision

/// One unit of a subcommand's work: an image file, or a frame of a video.
struct BatchItem: Sendable {
    /// Position in the input, from 0; results are written in this order.
    let index: Int
    /// The path as given (a file), or the stream's name (a video frame).
    let name: String
    /// The frame number within a video; nil for an image file.
    let frame: Int?
    /// The frame's timestamp in video mode (from the stream's frame rate, or 33 ms apart for images); 0 otherwise.
    let timestampInMilliseconds: Int
    /// The YUV4MPEG2 frame the item is, for `--video-out`; nil for an image file.
    let videoFrame: Y4MFrame?
    /// Decodes the image (read here, on the worker that processes the item, not on the reader).
    let load: @Sendable () throws -> PixelImage

    /// The item's image; decoding errors reach the caller as they are.
    func image() throws -> PixelImage { try load() }
}

/// Where a subcommand's inputs come from, decided by its positional arguments and options:
///
/// - `IMAGE...`: image files, in order;
/// - `-` or `--paths-from FILE`: image paths, one per line, read as they arrive (a pipe sees results before the
///   input ends); blank lines are skipped;
/// - video mode: a `.y4m` file or `-` (a YUV4MPEG2 stream on standard input) gives frames with timestamps from the
///   stream's frame rate; a directory gives its image files in name order; image files are frames 33 ms apart.
enum BatchInput {
    /// The frame interval of image files read as a video: 33 ms, about 30 frames per second.
    static let imageFrameIntervalMs = 33

    /// Opened inputs: the items, one at a time, and the header of the YUV4MPEG2 stream they come from, if they do.
    struct Opened {
        /// The inputs; `next()` yields them one at a time.
        let items: AnyIterator<BatchItem>
        /// The stream's header when the input is a YUV4MPEG2 stream (video mode, a `.y4m` file or `-`).
        var videoHeader: Y4MHeader? = nil
    }

    /// Opens the inputs.
    static func open(
        command: String, positional: [String], pathsFrom: String?, mode: RunningMode
    ) throws -> Opened {
        if let pathsFrom {
            guard positional.isEmpty else {
                throw CommandLineError.usage("give either IMAGE arguments or --paths-from, not both")
            }
            guard let handle = FileHandle(forReadingAtPath: pathsFrom) else {
                throw CommandLineError.file("cannot read '\(pathsFrom)'")
            }
            return Opened(items: pathItems(LineReader(handle: handle), mode: mode))
        }
        guard !positional.isEmpty else {
            throw CommandLineError.usage("\(command) needs at least one IMAGE (or - or --paths-from FILE)")
        }
        if mode == .video, positional.count == 1 {
            let path = positional[0]
            if path == "-" {
                return try y4mItems(Y4MFileDescriptorSource(descriptor: STDIN_FILENO), name: "-")
            }
            if path.lowercased().hasSuffix(".y4m") {
                let descriptor = Foundation.open(path, O_RDONLY)
                guard descriptor >= 0 else { throw CommandLineError.file("cannot read '\(path)'") }
                return try y4mItems(Y4MFileDescriptorSource(descriptor: descriptor), name: path)
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }
                let files = names.sorted().map { (path as NSString).appendingPathComponent($0) }
                return Opened(items: pathItems(files.makeIterator(), mode: mode))
            }
        }
        if positional == ["-"] {
            return Opened(items: pathItems(LineReader(handle: FileHandle.standardInput), mode: mode))
        }
        guard !positional.contains("-") else {
            throw CommandLineError.usage("'-' (paths from standard input) cannot be mixed with IMAGE arguments")
        }
        return Opened(items: pathItems(positional.makeIterator(), mode: mode))
    }

    private static func pathItems(_ paths: some IteratorProtocol<String>, mode: RunningMode) -> AnyIterator<BatchItem> {
        var paths = paths
        var index = 0
        return AnyIterator {
            guard let path = paths.next() else { return nil }
            defer { index += 1 }
            let timestamp = mode == .video ? imageFrameIntervalMs * index : 0
            return BatchItem(
                index: index, name: path, frame: mode == .video ? index : nil, timestampInMilliseconds: timestamp,
                videoFrame: nil, load: { try PixelImage(contentsOfFile: path) })
        }
    }

    private static func y4mItems(_ source: Y4MFileDescriptorSource, name: String) throws -> Opened {
        var stream: Y4MStream<Y4MFileDescriptorSource>
        do { stream = try Y4MStream(source: source) } catch { throw CommandLineError.file("\(name): \(error)") }
        var failed = false
        let header = stream.header
        let items = AnyIterator<BatchItem> {
            guard !failed else { return nil }
            do {
                guard let frame = try stream.nextFrame() else { return nil }
                return BatchItem(
                    index: frame.index, name: name, frame: frame.index,
                    timestampInMilliseconds: frame.header.timestampInMilliseconds(ofFrame: frame.index),
                    videoFrame: frame, load: { try PixelImage(y4mFrame: frame) })
            } catch {
                // A damaged stream ends the input; the error is reported as the last item's failure.
                failed = true
                let index = stream.framesRead
                return BatchItem(
                    index: index, name: name, frame: index, timestampInMilliseconds: 0, videoFrame: nil,
                    load: { throw error })
            }
        }
        return Opened(items: items, videoHeader: header)
    }
}

/// Reads lines from a file handle as they arrive, without waiting for the end of the input.
struct LineReader: IteratorProtocol {
    private let handle: FileHandle
    private var buffer = Data()
    private var isAtEnd = false

    init(handle: FileHandle) { self.handle = handle }

    /// The next non-blank line (trailing `\r` removed), or nil at the end of the input.
    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                let text = String(decoding: line, as: UTF8.self)
                if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                return text
            }
            if isAtEnd {
                guard !buffer.isEmpty else { return nil }
                let text = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
            }
            // availableData returns what a pipe has now (blocking only while it has nothing), so a line is
            // processed as soon as it arrives.
            let chunk = handle.availableData
            if chunk.isEmpty { isAtEnd = true } else { buffer.append(chunk) }
        }
    }
}

extension BatchItem {
    /// How the item is named in human-readable output: the path, or the stream and frame number.
    var displayName: String {
        guard let frame else { return name }
        return "\(name) frame \(frame) (\(timestampInMilliseconds) ms)"
    }

    /// The file-name stem of the item's `--out` files: the image's name without extension, plus the frame number
    /// for video frames.
    var outputStem: String {
        let stem = ((name == "-" ? "stdin" : name) as NSString).lastPathComponent
        let base = (stem as NSString).deletingPathExtension
        // Frames of a stream share its name and get their number; image files keep their own names.
        guard let frame, name == "-" || name.lowercased().hasSuffix(".y4m") else { return base }
        return base + String(format: "_frame%05d", frame)
    }
}

/// The `--out DIR` of a subcommand: created up front, then one file per item and kind of output.
struct OutputDirectory: Sendable {
    /// The directory's path.
    let path: String

    /// Creates the directory when `path` is given; nil when it is not.
    init?(_ path: String?) throws {
        guard let path else { return nil }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    /// The path of the item's file `<stem>_<suffix>`.
    func file(for item: BatchItem, suffix: String) -> String {
        (path as NSString).appendingPathComponent("\(item.outputStem)_\(suffix)")
    }

    /// Writes `image`, upright, as `<stem>_<suffix>.png`.
    func write(_ image: PixelImage, for item: BatchItem, suffix: String) throws {
        // PNG has no orientation field: the file shows the image as its orientation says it is displayed.
        try image.uprightImage().writePNG(toFile: file(for: item, suffix: suffix + ".png"))
    }
}
