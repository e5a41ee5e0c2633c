import ArgumentParser
import Foundation
import TaskModel

/// `--type-aliases FILE`: a `{"typeAliases": {...}}` table mapping custom step and task types
/// onto built-in ones before decoding.
struct RegistryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A JSON file {\"typeAliases\": {\"handInstruction\": \"instruction\", ...}} mapping custom types onto built-in ones.",
        valueName: "file"))
    var typeAliases: String?

    /// The standard registry with the aliases applied.
    func registry() throws -> TypeRegistry {
        var registry = TypeRegistry()
        guard let typeAliases else { return registry }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: typeAliases))
        } catch {
            throw ValidationError("\(typeAliases): the type alias table cannot be read; check the path.")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            try registry.apply(try decoder.decode(TypeAliasTable.self, from: data))
        } catch let error as TypeRegistryError {
            throw ValidationError("\(typeAliases): \(error)")
        } catch {
            throw ValidationError("\(typeAliases): expected {\"typeAliases\": {\"customType\": \"builtInType\"}} (\(error)).")
        }
        return registry
    }
}
