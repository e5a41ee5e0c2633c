import Foundation
public import TaskModel

/// Encodes an `Encodable` straight into a `JSONValue`: the value `JSONValue.encoding(_:)` gives
/// (which writes Foundation JSON text and parses it back), without the text. Dates are
/// SageResearch timestamps, URLs their absolute string, `Data` base64, as `ResultCoding` does;
/// a whole number, written as a `Double`, becomes an integer, as it does after the round trip.
/// The daemon encodes every answer with it (docs/daemon.md, "Control latency").
public enum JSONValueEncoder {
    /// The JSON of `value`.
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try root.encode(value, codingPath: [])
        return root.value
    }

    /// A finite `value`'s JSON; JSON has no infinities or NaN.
    fileprivate static func checked(_ value: Double, _ path: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        return Node.number(value)
    }

    /// One value under construction; containers hold their children by reference, so that a
    /// nested container keeps filling the node its parent already holds.
    fileprivate final class Node {
        /// Exactly one of the three is set once something is encoded.
        private var scalar: JSONValue?
        private var members: [String: Node]?
        private var elements: [Node]?

        var value: JSONValue {
            if let members { return .object(members.mapValues(\.value)) }
            if let elements { return .array(elements.map(\.value)) }
            return scalar ?? .object([:])
        }

        func set(_ value: JSONValue) {
            scalar = value
            members = nil
            elements = nil
        }

        func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
            if T.self == JSONValue.self {
                set(value as! JSONValue)
            } else if T.self == Date.self {
                set(.string(Timestamp.string(from: value as! Date)))
            } else if T.self == URL.self {
                set(.string((value as! URL).absoluteString))
            } else if T.self == Data.self {
                set(.string((value as! Data).base64EncodedString()))
            } else {
                try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
            }
        }

        func makeObject() {
            if members == nil { set(.null); scalar = nil; members = [:] }
        }

        func makeArray() {
            if elements == nil { set(.null); scalar = nil; elements = [] }
        }

        func child(forKey key: String) -> Node {
            makeObject()
            if let node = members![key] { return node }
            let node = Node()
            members![key] = node
            return node
        }

        func append() -> Node {
            makeArray()
            let node = Node()
            elements!.append(node)
            return node
        }

        var count: Int { elements?.count ?? 0 }

        static func number(_ value: Double) -> JSONValue {
            if value == value.rounded(), abs(value) < 9.2e18 { return .integer(Int64(value)) }
            return .number(value)
        }

        static func number(_ value: Float) -> JSONValue {
            // Foundation writes a Float's own shortest digits, then reads them back as a Double.
            number(Double(value.description) ?? Double(value))
        }

        static func number<I: BinaryInteger>(_ value: I) -> JSONValue {
            if let exact = Int64(exactly: value) { return .integer(exact) }
            return .number(Double(value))
        }
    }

    private struct NodeEncoder: Encoder {
        let node: Node
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.makeObject()
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.makeArray()
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleContainer(node: node, codingPath: codingPath)
        }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]

        private func set(_ value: JSONValue, _ key: Key) { node.child(forKey: key.stringValue).set(value) }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONValueEncoder.checked(value, codingPath + [key]), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            _ = try JSONValueEncoder.checked(Double(value), codingPath + [key])
            set(Node.number(value), key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(Node.number(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(Node.number(value), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = node.child(forKey: key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(forKey: key.stringValue)
            child.makeArray()
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer, ScalarSink {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int { node.count }

        func put(_ value: JSONValue) { node.append().set(value) }
        var valuePath: [any CodingKey] { codingPath + [nextKey] }
        private var nextKey: any CodingKey { IndexKey(intValue: count) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = valuePath
            try node.append().encode(value, codingPath: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let path = valuePath
            let child = node.append()
            child.makeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = valuePath
            let child = node.append()
            child.makeArray()
            return UnkeyedContainer(node: child, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let path = valuePath
            return NodeEncoder(node: node.append(), codingPath: path)
        }
    }

    private struct SingleContainer: SingleValueEncodingContainer, ScalarSink {
        let node: Node
        var codingPath: [any CodingKey]

        func put(_ value: JSONValue) { node.set(value) }
        var valuePath: [any CodingKey] { codingPath }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try node.encode(value, codingPath: codingPath)
        }
    }

    /// The scalars an unkeyed and a single-value container write alike: each puts one value
    /// where it writes (`put`), at `valuePath`.
    fileprivate protocol ScalarSink {
        func put(_ value: JSONValue)
        var valuePath: [any CodingKey] { get }
    }

    private struct IndexKey: CodingKey {
        var stringValue: String { "Index \(intValue ?? 0)" }
        var intValue: Int?
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
}

extension JSONValueEncoder.ScalarSink {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try JSONValueEncoder.checked(value, valuePath)) }
    mutating func encode(_ value: Float) throws {
        _ = try JSONValueEncoder.checked(Double(value), valuePath)
        put(JSONValueEncoder.Node.number(value))
    }
    mutating func encode(_ value: Int) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: Int8) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: Int16) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: Int32) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: Int64) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: UInt) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: UInt8) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: UInt16) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: UInt32) throws { put(JSONValueEncoder.Node.number(value)) }
    mutating func encode(_ value: UInt64) throws { put(JSONValueEncoder.Node.number(value)) }
}
