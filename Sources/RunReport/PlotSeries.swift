/// One line of a plot: a named channel (`x`, `roll`, `average`) with its colour and values.
public struct PlotSeries: Sendable {
    public var name: String
    public var color: String
    public var values: MinMaxDecimator

    public init(name: String, color: String, values: MinMaxDecimator) {
        self.name = name
        self.color = color
        self.values = values
    }
}
