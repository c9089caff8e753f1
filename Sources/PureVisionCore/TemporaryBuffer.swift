/// `withUnsafeTemporaryAllocation` for a body that throws a typed error.
///
/// The standard library's own function passes typed errors through only from Swift 6.3 on (before, it `rethrows`
/// and the error arrives as `any Error`); the package builds with Swift 6.0, so the error travels in a `Result`.
@inlinable
package func withTemporaryBuffer<T, R, E: Error>(
    of type: T.Type, capacity: Int, _ body: (UnsafeMutableBufferPointer<T>) throws(E) -> R
) throws(E) -> R {
    let result: Result<R, E> = withUnsafeTemporaryAllocation(of: type, capacity: capacity) { buffer in
        Result { () throws(E) -> R in try body(buffer) }
    }
    return try result.get()
}
