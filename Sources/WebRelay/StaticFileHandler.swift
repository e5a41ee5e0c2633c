import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Answers plain HTTP requests: the token, Host and Origin are checked first
/// (`WebAccessPolicy`), then the path is looked up in the `AssetCatalog`. Every answer carries
/// the security headers; only GET and HEAD are served, and `POST /login` from the launch page
/// (`WebLaunchPage`), whose form is the one request body read.
final class StaticFileHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let assets: AssetCatalog
    private let policy: WebAccessPolicy
    private let logger: Logger
    private var request: HTTPRequestHead?
    /// The body of a `POST /login`, up to `maximumLoginBody` bytes; nil for every other request.
    private var loginBody: ByteBuffer?
    /// A token form is 70 bytes; anything much longer is not one.
    static let maximumLoginBody = 4096

    init(assets: AssetCatalog, policy: WebAccessPolicy, logger: Logger) {
        self.assets = assets
        self.policy = policy
        self.logger = logger
    }

    /// The page "learn more" shows a task's web page in (js/learnmore.js): a frame of the kiosk
    /// that may be styled by the page's own `<style>` and `style` but runs no script and loads
    /// nothing but `data:` images, whoever opens it.
    static let learnMoreFramePath = "/learnmore-frame.html"

    /// The kiosk's own pages and files may load only its own files (`data:` images are the
    /// task images the protocol sends in base64, `blob:` media a task's video put together from
    /// `tasks.resource`'s pieces) and are framed by nobody.
    static let pagePolicy = "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; frame-ancestors 'none'"
    /// The learn-more frame's policy (`learnMoreFramePath`): framed by the kiosk only.
    static let learnMoreFramePolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox allow-same-origin"

    /// Headers every answer carries: its Content-Security-Policy, nothing cached, nothing sniffed.
    static func securityHeaders() -> HTTPHeaders {
        HTTPHeaders([
            ("Content-Security-Policy", pagePolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
        ])
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            loginBody = head.method == .POST && AssetCatalog.path(ofTarget: head.uri) == WebAccessPolicy.loginPath ? ByteBuffer() : nil
        case .body(var part):
            if loginBody != nil, (loginBody?.readableBytes ?? 0) + part.readableBytes <= Self.maximumLoginBody {
                loginBody?.writeBuffer(&part)
            } else {
                loginBody = nil
            }
        case .end:
            guard let head = request else { return }
            request = nil
            if head.method == .POST, AssetCatalog.path(ofTarget: head.uri) == WebAccessPolicy.loginPath {
                let body = loginBody.map { String(buffer: $0) }
                loginBody = nil
                return logIn(head: head, form: body, context: context)
            }
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = Self.securityHeaders()
        let decision = policy.decide(target: head.uri, host: head.headers.first(name: "host"),
                                     origin: head.headers.first(name: "origin"), cookies: head.headers["cookie"])
        switch decision {
        case .refuse(let status, let reason):
            logger.notice("Request refused", metadata: ["reason": "\(reason)", "path": "\(AssetCatalog.path(ofTarget: head.uri))"])
            return send(status: HTTPResponseStatus(statusCode: status), body: Data("Refused: \(reason).\n".utf8), type: "text/plain; charset=utf-8",
                        headers: headers, head: head, context: context)
        case .allow(let setCookie):
            if setCookie {
                headers.add(name: "Set-Cookie", value: policy.cookie)
            }
        }
        if AssetCatalog.path(ofTarget: head.uri) == WebRelayServer.webSocketPath,
           let key = WebAccessPolicy.queryValue("tab", in: head.uri), !RunClaims.isValidKey(key) {
            return send(status: .badRequest, body: Data("The WebSocket's tab key (tab=) is 16 to 128 letters, digits, - or _; reload the page for a new one.\n".utf8),
                        type: "text/plain; charset=utf-8", headers: headers, head: head, context: context)
        }
        if AssetCatalog.path(ofTarget: head.uri) == WebRelayServer.webSocketPath {
            // The upgrade was refused (no Origin, or not a WebSocket request).
            return send(status: .forbidden, body: Data("A WebSocket needs the page's Origin.\n".utf8), type: "text/plain; charset=utf-8",
                        headers: headers, head: head, context: context)
        }
        guard head.method == .GET || head.method == .HEAD else {
            headers.add(name: "Allow", value: "GET, HEAD")
            return send(status: .methodNotAllowed, body: Data("Only GET and HEAD.\n".utf8), type: "text/plain; charset=utf-8",
                        headers: headers, head: head, context: context)
        }
        guard let asset = assets.asset(forPath: AssetCatalog.path(ofTarget: head.uri)) else {
            return send(status: .notFound, body: Data("Not found.\n".utf8), type: "text/plain; charset=utf-8", headers: headers, head: head, context: context)
        }
        if AssetCatalog.path(ofTarget: head.uri) == Self.learnMoreFramePath {
            headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.learnMoreFramePolicy)
        }
        send(status: .ok, body: asset.data, type: asset.contentType, headers: headers, head: head, context: context)
    }

    /// The page `/login` answers with once the cookie is set: its script (a file of the UI, as
    /// the page policy wants) replaces it with `/`, so history keeps `/` only. Made for each
    /// login (one a kiosk start) rather than kept in a global: a `Data` alive at exit is what
    /// LeakSanitizer misreads as a leak (docs/testing.md, "Suppressions").
    static var loginDonePage: Data { Data("""
        <!doctype html><html><head><meta charset="utf-8"><title>activetask</title><script src="/js/login.js"></script></head><body></body></html>

        """.utf8) }

    /// `POST /login`: the launch page's form (`token=…`); `form` is nil when the body was too long.
    private func logIn(head: HTTPRequestHead, form: String?, context: ChannelHandlerContext) {
        var headers = Self.securityHeaders()
        let decision = form.map { policy.login(host: head.headers.first(name: "host"), form: $0) }
            ?? .refuse(status: 413, reason: "the login form is longer than \(Self.maximumLoginBody) bytes")
        switch decision {
        case .refuse(let status, let reason):
            logger.notice("Login refused", metadata: ["reason": "\(reason)"])
            send(status: HTTPResponseStatus(statusCode: status), body: Data("Refused: \(reason).\n".utf8), type: "text/plain; charset=utf-8",
                 headers: headers, head: head, context: context)
        case .allow:
            headers.add(name: "Set-Cookie", value: policy.cookie)
            send(status: .ok, body: Self.loginDonePage, type: "text/html; charset=utf-8", headers: headers, head: head, context: context)
        }
    }

    private func send(status: HTTPResponseStatus, body: Data, type: String, headers: HTTPHeaders,
                      head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = headers
        let buffer = ByteBuffer(bytes: body)
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(buffer.readableBytes)")
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
