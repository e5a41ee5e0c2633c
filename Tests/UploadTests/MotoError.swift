/// The moto server could not be started or answered unexpectedly.
struct MotoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
