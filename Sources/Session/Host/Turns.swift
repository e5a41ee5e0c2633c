/// One turn at a time among an actor's callers, in arrival order: what the actor alone does
/// not give (it lets callers interleave at their awaits). A plain struct the actor keeps
/// (`TaskSession.oneAtATime`): a caller takes the turn if it is free, else waits for it; the
/// caller done passes it to the first waiting, who holds it from then on.
struct Turns {
    /// The turn: free, or held with the callers waiting for it, first to come first.
    private enum State {
        case free
        case taken(waiting: [CheckedContinuation<Void, Never>])
    }

    private var state = State.free

    /// Whether someone holds the turn.
    var isTaken: Bool {
        if case .taken = state { return true }
        return false
    }

    /// Takes the free turn.
    mutating func take() {
        precondition(!isTaken, "A turn was taken while held; wait for it instead.")
        state = .taken(waiting: [])
    }

    /// Waits for the held turn: `continuation` resumes holding it.
    mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        guard case .taken(var waiting) = state else {
            state = .taken(waiting: [])
            continuation.resume()
            return
        }
        waiting.append(continuation)
        state = .taken(waiting: waiting)
    }

    /// The holder is done: the first waiting caller holds the turn now, or it is free.
    mutating func pass() {
        guard case .taken(var waiting) = state, !waiting.isEmpty else {
            state = .free
            return
        }
        let next = waiting.removeFirst()
        state = .taken(waiting: waiting)
        next.resume()
    }
}
