/// Assigns every run-time tensor an offset in one arena so that tensors alive at the same time never overlap.
///
/// Lifetimes are operator-index intervals: a tensor is live from the step that writes it (−1 for graph inputs) to
/// the last step that reads it (`Int.max` for graph outputs). Tensors are placed largest first, each at the lowest
/// 64-byte aligned offset that does not collide with an already placed tensor whose lifetime overlaps — the
/// "greedy by size" strategy TFLite's arena planner also uses.
struct MemoryPlanner {
    struct Request {
        let tensor: Int
        let byteCount: Int
        let firstUse: Int
        let lastUse: Int
    }

    static let alignment = 64

    /// Returns tensor → offset and the arena size in bytes.
    static func plan(_ requests: [Request]) -> (offsets: [Int: Int], arenaBytes: Int) {
        let order = requests.indices.sorted {
            let a = requests[$0]
            let b = requests[$1]
            return a.byteCount != b.byteCount ? a.byteCount > b.byteCount : a.tensor < b.tensor
        }
        var placed: [(offset: Int, end: Int, first: Int, last: Int)] = []
        var offsets: [Int: Int] = [:]
        var arena = 0
        for index in order {
            let request = requests[index]
            let size = align(max(request.byteCount, 1))
            let conflicts = placed.filter { $0.first <= request.lastUse && request.firstUse <= $0.last }
                .sorted { $0.offset < $1.offset }
            var candidate = 0
            for block in conflicts {
                if candidate + size <= block.offset { break }
                candidate = max(candidate, block.end)
            }
            offsets[request.tensor] = candidate
            placed.append((candidate, candidate + size, request.firstUse, request.lastUse))
            arena = max(arena, candidate + size)
        }
        return (offsets, arena)
    }

    static func align(_ bytes: Int) -> Int { (bytes + alignment - 1) / alignment * alignment }
}
