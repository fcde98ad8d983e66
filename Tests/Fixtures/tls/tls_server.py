"""A TLS test server on 127.0.0.1 for the certificate pinning tests (not a fixture provider).

    python3 tls_server.py <max-requests>

Serves with cert.pem / key.pem beside it (a self-signed P-256 certificate for 127.0.0.1 and
localhost, valid until 2126; its pin is in README.md). Prints "LISTENING <port>" first, then
"REQUEST <method> <path> <headers as JSON> <body>" for every request it reads, before answering:
discovery, "/api..." (200 JSON), "/big..." (a 64 KiB JSON body), "/stall..." (never answered), and
400 invalid_grant for anything else.
Stops after <max-requests> requests, or when its standard input closes (the test that started it
ends it that way, or by killing it).
"""
import http.server
import json
import os
import ssl
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        print("REQUEST %s %s %s %s" % (self.command, self.path, json.dumps(headers, sort_keys=True), body.decode("utf-8", "replace")), flush=True)
        origin = "https://%s" % (self.headers.get("Host") or "127.0.0.1")
        # The token and revocation endpoints are named by the other host name of the same server,
        # so that a test can pin the two names differently.
        other = "https://localhost:%d" % server.server_address[1]
        if self.path == "/o/.well-known/openid-configuration":
            status, answer = 200, {
                "issuer": origin + "/o", "authorization_endpoint": origin + "/o/authorize/", "token_endpoint": other + "/o/token/",
                "jwks_uri": origin + "/o/jwks/", "revocation_endpoint": other + "/o/revoke/", "userinfo_endpoint": origin + "/o/userinfo/",
            }
        elif self.path.startswith("/stall"):
            # Never answers: the connection stays open until the server stops.
            stopping.wait()
            return
        elif self.path.startswith("/big"):
            status, answer = 200, {"padding": "x" * 65536}
        elif self.path.startswith("/api"):
            status, answer = 200, {"ok": True}
        else:
            status, answer = 400, {"error": "invalid_grant"}
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True
        server.served += 1
        if server.served >= server.limit:
            threading.Thread(target=server.shutdown, daemon=True).start()

    do_GET = do_POST = do_DELETE = handle_one


stopping = threading.Event()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
server.served, server.limit = 0, int(sys.argv[1]) if len(sys.argv) > 1 else 16
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(HERE, "cert.pem"), os.path.join(HERE, "key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)


def watch_input():
    sys.stdin.read()
    stopping.set()
    server.shutdown()


threading.Thread(target=watch_input, daemon=True).start()
print("LISTENING %d" % server.server_address[1], flush=True)
server.serve_forever()
