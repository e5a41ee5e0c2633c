import Testing
@testable import Upload

/// S3's XML answers read by Foundation's XMLParser (`S3XMLElement`): listings, errors, and what
/// a body cut short becomes (docs/upload.md, "Integrity, multipart and resuming").
@Suite struct S3XMLElementTests {
    static let listParts = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket>
          <IsTruncated>true</IsTruncated><NextPartNumberMarker>2</NextPartNumberMarker>
          <Part><PartNumber>1</PartNumber><ETag>&quot;a1&quot;</ETag><Size>5242880</Size><ChecksumSHA256>x=</ChecksumSHA256></Part>
          <Part><PartNumber>2</PartNumber><ETag>"b2"</ETag><Size>17</Size></Part>
        </ListPartsResult>
        """

    @Test func aListingPage() throws {
        let page = try #require(S3XMLElement.parse(Self.listParts))
        #expect(page.name == "ListPartsResult")
        #expect(page.value("IsTruncated") == "true" && page.value("NextPartNumberMarker") == "2")
        let parts = page.children(named: "Part")
        #expect(parts.map { $0.value("ETag") } == ["\"a1\"", "\"b2\""])
        #expect(parts.map { $0.value("ChecksumSHA256") } == ["x=", nil])
        // A child's own children are not the page's.
        #expect(page.value("PartNumber") == nil)
    }

    @Test func anError() throws {
        let error = try #require(S3XMLElement.parse("<Error><Code>SlowDown</Code><Message>Reduce &amp; retry</Message></Error>"))
        #expect(error.name == "Error" && error.value("Code") == "SlowDown" && error.value("Message") == "Reduce & retry")
    }

    @Test("Bodies that are no whole document are nothing, with the reason", arguments: [
        "", "  \n", String(listParts.prefix(200)), "<html><body>Bad gateway", "not xml at all", "<a></b>",
    ])
    func notADocument(_ body: String) {
        let (root, reason) = S3XMLElement.parse(Array(body.utf8))
        #expect(root == nil, "\(body.prefix(40)) was read as \(String(describing: root))")
        #expect(!reason.isEmpty)
    }

    @Test func escapesForARequestBody() {
        #expect(S3XMLElement.escape("\"a&b<c>\"") == "&quot;a&amp;b&lt;c&gt;&quot;")
    }
}
