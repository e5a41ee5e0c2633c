/// The order the hand sections run in, from the `handSelection` answer, as MotorControl's hand
/// selection step records it (docs/task-format.md, "Hands"): one hand runs alone; `both` runs
/// left then right or right then left, by a coin.
public enum HandOrder {
    /// The hands to run for `selection`; `leftFirst` decides the order of `both`.
    public static func order(for selection: Hand, leftFirst: Bool) -> [Hand] {
        switch selection {
        case .left, .right: [selection]
        case .both: leftFirst ? [.left, .right] : [.right, .left]
        }
    }

    /// Whether MotorControl skips the section `identifier` when it comes up, given the hand
    /// order and the sections that already have a result. Sections not named after a hand, and
    /// every section when no order was recorded, are never skipped.
    public static func skipsSection(_ identifier: String, order: [Hand]?, sectionsWithResults: Set<String>) -> Bool {
        guard let order, let hand = Hand(rawValue: identifier) else { return false }
        if order.first == hand { return sectionsWithResults.contains(identifier) }
        if order.last == hand, let opposite = hand.opposite {
            return !sectionsWithResults.contains(opposite.rawValue)
        }
        return true
    }

    /// Where MotorControl goes after the hand section `identifier`: to the second hand's
    /// section when this was the first hand and the second has not run yet; else nil (the
    /// next step in order).
    public static func target(after identifier: String, order: [Hand]?, sectionsWithResults: Set<String>) -> String? {
        guard let order, let hand = Hand(rawValue: identifier), let last = order.last,
              order.first == hand, last != hand, !sectionsWithResults.contains(last.rawValue) else { return nil }
        return last.rawValue
    }

    /// The hand a step's texts name (MotorControl's `whichHand()`): the hand of the section
    /// holding the step, else the next hand to run (`nextHand()`): the second hand once the
    /// first hand's section has a result, the first hand before. Nil without an order outside
    /// a hand section.
    public static func hand(sectionIdentifier: String?, order: [Hand]?, sectionsWithResults: Set<String>) -> Hand? {
        if let sectionIdentifier, let hand = Hand(rawValue: sectionIdentifier) { return hand }
        guard let order, let first = order.first else { return nil }
        return sectionsWithResults.contains(first.rawValue) ? order.last : first
    }
}
