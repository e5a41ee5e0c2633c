import Session
import Testing

@Suite("Session event hub")
struct SessionEventHubTests {
    @Test("every subscriber sees every event in order")
    func order() async {
        let hub = SessionEventHub(capacity: 100)
        let first = hub.subscribe()
        let second = hub.subscribe()
        for index in 0..<10 { hub.publish(.warning(message: "\(index)", identifier: nil)) }
        hub.finish()
        for subscription in [first, second] {
            var sequences: [UInt64] = []
            for await event in subscription { sequences.append(event.sequence) }
            #expect(sequences == Array(1...10))
        }
    }

    @Test("a slow subscriber loses its oldest events and is told how many; others keep all")
    func bounded() async {
        let hub = SessionEventHub(capacity: 4)
        let slow = hub.subscribe()
        for index in 0..<10 { hub.publish(.warning(message: "\(index)", identifier: nil)) }
        hub.finish()
        var kinds: [String] = []
        for await event in slow {
            switch event.kind {
            case .eventsLost(let count): kinds.append("lost \(count) up to \(event.sequence)")
            default: kinds.append("\(event.sequence)")
            }
        }
        #expect(kinds == ["lost 6 up to 6", "7", "8", "9", "10"])
    }

    @Test("publishing never waits for a subscriber that does not read")
    func neverBlocks() {
        let hub = SessionEventHub(capacity: 8)
        let idle = hub.subscribe()
        for index in 0..<100_000 { hub.publish(.warning(message: "\(index)", identifier: nil)) }
        idle.cancel()
        hub.publish(.warning(message: "after", identifier: nil))
        #expect(hub.publish(.warning(message: "last", identifier: nil)).sequence == 100_002)
    }
}
