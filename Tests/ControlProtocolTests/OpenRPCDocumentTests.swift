import TaskModel
import ControlProtocol
import Foundation
import Testing
import TestSupport

@Suite struct OpenRPCDocumentTests {
    static let committed = PackagePaths.root.appendingPathComponent("docs/openrpc.json")

    /// docs/openrpc.json is the generated document; `UPDATE_OPENRPC=1 swift test --filter
    /// OpenRPCDocumentTests` rewrites it after a change to the wire types.
    @Test func committedDocumentIsTheGeneratedOne() throws {
        let generated = try OpenRPCDocument.prettyPrinted()
        if ProcessInfo.processInfo.environment["UPDATE_OPENRPC"] == "1" {
            try Data(generated.utf8).write(to: Self.committed)
        }
        let committed = try String(contentsOf: Self.committed, encoding: .utf8)
        #expect(committed == generated, "docs/openrpc.json is out of date; run UPDATE_OPENRPC=1 swift test --filter OpenRPCDocumentTests")
    }

    @Test func everyMethodIsDocumentedOnce() throws {
        guard case .array(let methods)? = OpenRPCDocument.document["methods"] else {
            Issue.record("No methods array.")
            return
        }
        let names = methods.compactMap { $0["name"]?.stringValue }
        #expect(names == ControlMethods.all.map(\.name) + ["event"])
        #expect(Set(names).count == names.count)
    }

    @Test func everyReferenceResolves() throws {
        let document = OpenRPCDocument.document
        var references: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if case .string(let reference)? = members["$ref"] { references.append(reference) }
                members.values.forEach(collect)
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(document)
        #expect(!references.isEmpty)
        for reference in references where reference.hasPrefix("#/") {
            var node: JSONValue? = document
            for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
            #expect(node != nil, "\(reference) does not resolve")
        }
    }

    @Test func resultSchemasAreInTheComponents() {
        for method in ControlMethods.all {
            guard let type = method.resultType as? any ControlSchemaDescribing.Type else { continue }
            #expect(OpenRPCDocument.document["components"]?["schemas"]?[type.schemaName] != nil)
        }
    }
}
