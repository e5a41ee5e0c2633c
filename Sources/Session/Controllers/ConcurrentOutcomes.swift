// This file uses nothing but the standard library on purpose: Tests/SessionTests'
// OptimizerShapeTests compiles it with `swiftc -O` and checks what the optimizer makes of it
// (docs/testing.md, "The install build").

/// Runs `operation` on every item at once and hands back each outcome at its item's position.
///
/// A child task builds its outcome in a local variable and only then returns it with its index.
/// The obvious shape, `do { return (index, .success(try await f())) } catch { return (index,
/// .failure(error)) }`, is miscompiled by Swift 6.3.1 with -O: LLVM drops the store of `index`
/// into the child's result, made before the suspension, because the catch path stores that
/// element again; the success path then returns index 0 (or whatever the memory held), which
/// crashed every release build at the first recorder stop ("Index out of range").
func concurrentOutcomes<Item: Sendable, Value: Sendable>(
    of items: [Item], _ operation: @escaping @Sendable (Item) async throws -> Value
) async -> [Result<Value, any Error>] {
    await withTaskGroup(of: IndexedOutcome<Value>.self) { group in
        for (index, item) in items.enumerated() {
            group.addTask {
                let outcome: Result<Value, any Error>
                do {
                    outcome = .success(try await operation(item))
                } catch {
                    outcome = .failure(error)
                }
                return IndexedOutcome(index: index, outcome: outcome)
            }
        }
        var ordered = [Result<Value, any Error>?](repeating: nil, count: items.count)
        for await finished in group {
            ordered[finished.index] = finished.outcome
        }
        return ordered.map { $0 ?? .failure(MissingOutcome()) }
    }
}

/// One child task's outcome with the position of its item.
struct IndexedOutcome<Value: Sendable>: Sendable {
    var index: Int
    var outcome: Result<Value, any Error>
}

/// A child task that handed back no outcome: a task group always yields one per child, so this
/// only appears if that promise is broken.
struct MissingOutcome: Error, CustomStringConvertible {
    var description: String { "A concurrent operation ended without an outcome." }
}
