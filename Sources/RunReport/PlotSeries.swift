/// One line of a plot: a named channel (`x`, `roll`, `average`) with its colour and values.
struct PlotSeries: Sendable {
    var name: String
    var color: String
    var values: MinMaxDecimator

    init(name: String, color: String, values: MinMaxDecimator) {
        self.name = name
        self.color = color
        self.values = values
    }
}
