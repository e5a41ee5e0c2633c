import Foundation
import Testing
import TestSupport
import WebRelay

/// The UI files are read once; a request's path is looked up exactly, so traversal, hidden
/// files, directories and symlinks out of the folder have nothing to match.
@Suite struct AssetCatalogTests {
    @Test func servesOnlyTheFilesInsideTheFolder() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let assets = scratch.url.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("<!doctype html>".utf8).write(to: assets.appendingPathComponent("index.html"))
        try Data("export {}".utf8).write(to: assets.appendingPathComponent("js/app.js"))
        try Data("hidden".utf8).write(to: assets.appendingPathComponent(".env.txt"))
        try Data("binary".utf8).write(to: assets.appendingPathComponent("tool.sh"))
        try Data("secret".utf8).write(to: scratch.url.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: assets.appendingPathComponent("secret.txt"),
                                                   withDestinationURL: scratch.url.appendingPathComponent("secret.txt"))
        let catalog = try AssetCatalog(directory: assets)
        #expect(Set(catalog.files.keys) == ["/index.html", "/js/app.js"])
        #expect(catalog.asset(forPath: "/")?.contentType == "text/html; charset=utf-8")
        #expect(catalog.asset(forPath: "/js/app.js")?.contentType == "text/javascript; charset=utf-8")
        for path in ["/secret.txt", "/../secret.txt", "/js/../index.html", "/js", "/js/", "//index.html", "/%2e%2e/secret.txt", "/.env.txt", "/tool.sh"] {
            #expect(catalog.asset(forPath: path) == nil, "\(path)")
        }
    }

    @Test func aFolderWithoutIndexIsRefusedWithASentence() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        #expect(throws: WebRelayError.noAssets(scratch.url.path)) { try AssetCatalog(directory: scratch.url) }
    }
}
