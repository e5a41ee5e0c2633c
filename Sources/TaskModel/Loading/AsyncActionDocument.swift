/// Decodes a lone async action configuration through the registry in `userInfo`.
struct AsyncActionDocument: Decodable {
    var configuration: any AsyncActionConfiguration

    init(from decoder: any Decoder) throws {
        configuration = try TypeRegistry.current(decoder).decodeAsyncAction(from: decoder)
    }
}
