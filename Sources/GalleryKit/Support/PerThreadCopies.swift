import Synchronization

/// Copies of a value for work that runs on several threads at once, each piece of work borrowing
/// one no other thread uses meanwhile: at most as many copies are made as pieces ever ran at
/// once, and each is reused by later pieces.
///
/// For values whose reference counts would otherwise be shared between cores (see
/// ``TemplateSet/isolated()``).
final class PerThreadCopies<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let free: Mutex<[Value]>

    /// Copies made with `make` when every one made so far is borrowed.
    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        free = Mutex([])
    }

    /// How many copies are free now.
    var freeCount: Int { free.withLock { $0.count } }

    /// Calls `body` with a copy no other call is using, and takes it back afterwards.
    func withCopy<T>(_ body: (Value) throws -> T) rethrows -> T {
        let copy = free.withLock { $0.popLast() } ?? make()
        defer { free.withLock { $0.append(copy) } }
        return try body(copy)
    }
}
