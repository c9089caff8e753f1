/// The bench's command line.
struct BenchOptions {
    var json = false
    var filter: String?
    var runs = 50
    var warmup = 5
    var threadCounts = [1, 2]
    var modelsDirectory = "Models"

    static let usage = """
        usage: bench [--json] [--filter NAME] [--runs N] [--warmup N] [--threads 1,2] [--models-dir DIR]
        """

    init<S: Sequence<String>>(_ arguments: S) throws {
        var iterator = arguments.makeIterator()
        func value(_ name: String) throws -> String {
            guard let next = iterator.next() else { throw BenchError("\(name) needs a value\n\(Self.usage)") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--json": json = true
            case "--filter": filter = try value(argument)
            case "--runs":
                guard let n = Int(try value(argument)), n >= 1 else { throw BenchError("--runs must be ≥ 1") }
                runs = n
            case "--warmup":
                guard let n = Int(try value(argument)), n >= 0 else { throw BenchError("--warmup must be ≥ 0") }
                warmup = n
            case "--threads":
                let list = try value(argument).split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ $0 >= 1 && $0 <= 64 }) else {
                    throw BenchError("--threads takes a list such as 1,2")
                }
                threadCounts = list
            case "--models-dir": modelsDirectory = try value(argument)
            case "-h", "--help":
                print(Self.usage)
                throw BenchError("")
            default: throw BenchError("unknown argument \(argument)\n\(Self.usage)")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
