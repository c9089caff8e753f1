import Foundation
import PureVisionTestSupport

/// The built `purevision` binary (`CLI.executable()`) run as a child process from the package root (so relative
/// paths resolve), with `OPENBLAS_NUM_THREADS=1`. `run` feeds standard input and collects everything; an instance
/// lets a test write input lines and read output lines one at a time (streaming batch mode).
final class CLIProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var pending = Data()

    /// Starts `purevision ARGUMENTS`.
    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try CLI.executable())
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.packageRoot()
        var environment = ProcessInfo.processInfo.environment
        environment["OPENBLAS_NUM_THREADS"] = "1"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Runs to the end with `input` on standard input.
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> CLI.Output {
        let child = try CLIProcess(arguments)
        let writer = child.input.fileHandleForWriting
        let feeder = Thread {
            writer.write(Data(input))
            try? writer.close()
        }
        feeder.start()
        let stderr = ErrorCollector(child.errors.fileHandleForReading)
        let stdout = child.output.fileHandleForReading.readDataToEndOfFile()
        let status = child.wait()
        return CLI.Output(
            status: status, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr.wait(), as: UTF8.self), stdoutBytes: [UInt8](stdout))
    }

    /// Writes one line to the child's standard input.
    func writeLine(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Ends the child's standard input.
    func closeInput() { try? input.fileHandleForWriting.close() }

    /// The next line of standard output (blocking until it arrives), or nil when the output ends.
    func readLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            pending.append(chunk)
        }
    }

    /// Waits for the child to exit; its exit status.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Reads a pipe to its end on a thread of its own, so the child never blocks on a full standard-error pipe.
private final class ErrorCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    /// Everything the pipe carried, once it is closed.
    func wait() -> Data {
        done.wait()
        return data
    }
}
