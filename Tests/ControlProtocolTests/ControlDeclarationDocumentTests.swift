import TaskModel
import ControlProtocol
import Testing

/// The OpenRPC document derives from the declarations: every declared method is in it with its
/// summary, params, result and errors, and every declared event kind with its payload's members.
@Suite struct ControlDeclarationDocumentTests {
    static let document = OpenRPCDocument.document

    static func documented(_ name: String) -> JSONValue? {
        guard case .array(let methods)? = document["methods"] else { return nil }
        return methods.first { $0["name"] == .string(name) }
    }

    @Test(arguments: ControlMethods.all.map(\.name))
    func everyDeclaredMethodIsDocumentedFromItsDeclaration(name: String) throws {
        let method = try #require(ControlMethods.named(name))
        let entry = try #require(Self.documented(name), "\(name) is not in the document")
        #expect(entry["summary"] == .string(method.summary))
        #expect(entry["result"] == method.resultType.contentDescriptor)
        guard case .object(let properties, let required) = method.paramsType.schema, case .array(let params)? = entry["params"] else {
            Issue.record("\(name)'s params are not an object schema documented as an array.")
            return
        }
        #expect(params.map { $0["name"] } == properties.map { .string($0.name) })
        for (param, property) in zip(params, properties) {
            #expect(param["schema"] == property.schema.jsonValue)
            #expect(param["required"] == .bool(required.contains(property.name)))
        }
        let errors = method.errors.map { JSONValue.object(["$ref": .string("#/components/errors/\($0.name)")]) }
        #expect(entry["errors"] == (errors.isEmpty ? nil : .array(errors)))
        if let type = method.resultType as? any ControlSchemaDescribing.Type {
            #expect(Self.document["components"]?["schemas"]?[type.schemaName] == type.schema.jsonValue)
        }
    }

    @Test func everyDeclaredEventKindIsDocumentedWithItsPayload() throws {
        guard case .array(let variants)? = Self.document["components"]?["schemas"]?["ControlEvent"]?["oneOf"] else {
            Issue.record("ControlEvent has no oneOf.")
            return
        }
        #expect(variants.count == ControlEventKind.allCases.count)
        for (kind, variant) in zip(ControlEventKind.allCases, variants) {
            #expect(variant["properties"]?["kind"]?["enum"] == .array([.string(kind.rawValue)]))
            guard case .object(let properties, _) = kind.payloadType.schema else {
                Issue.record("\(kind)'s payload is not an object schema.")
                continue
            }
            for property in properties {
                #expect(variant["properties"]?[property.name] == property.schema.jsonValue, "\(kind).\(property.name)")
            }
            #expect(ControlEventKind(rawValue: kind.rawValue) == kind)
            #expect(!kind.summary.isEmpty)
        }
        #expect(Set(ControlEventKind.allCases.map(\.rawValue)).count == ControlEventKind.allCases.count)
    }
}
