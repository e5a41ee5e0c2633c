import Foundation

/// The page the kiosk opens instead of a URL with the token (docs/kiosk.md, "Security"), as
/// Jupyter's launch file: written beside the token file (`token` → `token.html`), mode 0600, so
/// only the UI's user reads it. It posts the token to `/login` as a form, which sets the cookie
/// and replaces itself with `/`: the token is in no command line, no URL and no history entry.
public enum WebLaunchPage {
    /// Where the page goes for a token file.
    public static func path(forTokenFile tokenFile: String) -> String {
        tokenFile + ".html"
    }

    /// The page: a form posting `token` to `origin`'s `/login`, sent as the page loads.
    static func html(token: String, origin: String) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>activetask</title></head>
        <body><form method="post" action="\(origin)\(WebAccessPolicy.loginPath)"><input type="hidden" name="token" value="\(token)"><noscript><button>Open activetask</button></noscript></form>
        <script>document.forms[0].submit();</script></body></html>

        """
    }

    /// Writes the page for `token`, posting to `origin` (`http://127.0.0.1:8470`, the first
    /// address listened on), beside `tokenFile`, replacing the one of an earlier start.
    public static func write(token: String, origin: String, besideTokenFile tokenFile: String) throws(WebRelayError) {
        try WebToken.writePrivate(Data(html(token: token, origin: origin).utf8), to: path(forTokenFile: tokenFile))
    }
}
