import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

@Suite("URL query strings")
struct URLQueryTests {
    @Test(
        "reserved characters in names and values are percent-encoded, unreserved ones kept",
        arguments: [
            ("AZaz09-._~", "AZaz09-._~"),
            ("a b&c=d+e/f?g#h%i", "a%20b%26c%3Dd%2Be%2Ff%3Fg%23h%25i"),
            ("identityflow-test://callback", "identityflow-test%3A%2F%2Fcallback"),
            ("é🔑", "%C3%A9%F0%9F%94%91"),
            ("[]@!$'()*,;:\"<>\\^`{|}", "%5B%5D%40%21%24%27%28%29%2A%2C%3B%3A%22%3C%3E%5C%5E%60%7B%7C%7D"),
            ("", ""),
        ])
    func encoding(text: String, encoded: String) {
        #expect(URLQuery.encode(text) == encoded)
    }

    @Test(
        "items are read as URLComponents.queryItems reads them",
        arguments: [
            "app://cb?code=C&state=s", "app://cb", "app://cb?", "app://cb?a", "app://cb?a=", "app://cb?=b", "app://cb?a=b=c",
            "app://cb?a&&b", "app://cb?%41%62=%43+d%20e", "app://cb?state=1&state=2#frag", "https://h:8443/p/?x=%E2%9C%93",
            "app://cb?bad=%E2%28", "app://cb?%FF=v", "app://cb?a=%4&b=%zz&c=%", "app://cb?%C3%A9=%f0%9f%94%91",
        ])
    func readsLikeURLComponents(string: String) throws {
        let url = try #require(URL(string: string))
        let expected = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems.map { items in
            items.map { "\($0.name)=\($0.value ?? "<nil>")" }
        }
        #expect(URLQuery.items(of: url).map { items in items.map { "\($0.name)=\($0.value ?? "<nil>")" } } == expected)
    }

    @Test("appended values come back unchanged; an existing query and fragment are kept")
    func appendRoundTrip() throws {
        let values = ["a b&c=d+e/f?g#h%i", "é🔑", "", "identityflow-test://callback?x=1"]
        for base in ["app://cb", "app://cb?", "app://cb?keep=1", "app://cb?keep=1#frag", "https://h:8443/a/b/#f"] {
            let url = try #require(URLQuery.url(URL(string: base)!, appending: values.enumerated().map { ("n\($0.offset) ?", $0.element) }))
            let items = try #require(URLQuery.items(of: url))
            let kept = base.contains("keep=1") ? [("keep", "1")] : []
            #expect(items.map(\.name) == kept.map(\.0) + values.indices.map { "n\($0) ?" })
            #expect(items.map(\.value) == kept.map(\.1) + values)
            #expect(url.fragment == URL(string: base)!.fragment)
            #expect(url.host() == URL(string: base)!.host())
        }
    }

    @Test("a relative URL's query is its own, not its base's")
    func relativeURL() throws {
        let base = URL(string: "app://cb?code=C&state=s")!
        #expect(URLQuery.items(of: try #require(URL(string: "other", relativeTo: base))) == nil)
        #expect(URLQuery.items(of: try #require(URL(string: "?x=1", relativeTo: base)))?.map(\.name) == ["x"])
    }
}
