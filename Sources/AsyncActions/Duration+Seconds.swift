extension Duration {
    /// The duration in seconds, for messages and for clocks kept as `Double`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
