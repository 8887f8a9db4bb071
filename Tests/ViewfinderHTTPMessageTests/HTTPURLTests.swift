import Testing
import ViewfinderHTTPMessage

/// `http://` URLs as the description fetch and the rig's file fetches read them.
@Suite struct HTTPURLTests {
    @Test func aURLIsReadAsHostPortAndTarget() throws {
        let file = try #require(HTTPURL("http://10.0.0.2:4000/files/t/a.jpg"))
        #expect((file.host, file.port, file.target) == ("10.0.0.2", 4000, "/files/t/a.jpg"))
        let bracketed = try #require(HTTPURL("http://[fd00::2]:81/x"))
        #expect((bracketed.host, bracketed.port, bracketed.target) == ("fd00::2", 81, "/x"))
        let bare = try #require(HTTPURL("HTTP://h"))
        #expect((bare.host, bare.port, bare.target) == ("h", 80, "/"))
    }

    @Test func aGETRequestNamesTheHostAndPortAndTheFieldsGiven() throws {
        let url = try #require(HTTPURL("http://[fd00::2]:81/files/a.jpg?x=1"))
        let request = url.getRequest(with: [.init("X-Viewfinder-Token", "t")])
        #expect(
            request.encoded()
                == Array(
                    ("GET /files/a.jpg?x=1 HTTP/1.1\r\nHost: [fd00::2]:81\r\nX-Viewfinder-Token: t\r\n"
                        + "Connection: close\r\nUser-Agent: Viewfinder\r\n\r\n").utf8))
        #expect(try #require(HTTPURL("http://h/")).getRequest()["host"] == "h:80")
    }

    @Test func anythingButAnHTTPURLWithAHostAndANumericPortIsRefused() {
        for url in ["https://h/", "http://h:port/", "http://:80/", "http:///x", "http://h:70000/", "ftp://h/"] {
            #expect(HTTPURL(url) == nil, "\(url)")
        }
    }
}
