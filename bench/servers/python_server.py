"""Python's http.server as `python3 -m http.server` runs it (ThreadingHTTPServer, HTTP/1.0: a
connection per request), answering "ok" and counting what it answered from its own side: requests,
and the connections that carried them. GET /__count reads the count as JSON, GET /__zero starts
over; neither is counted. Usage: python3 python_server.py PORT."""
import http.server
import sys
import threading

lock = threading.Lock()
count = {"requests": 0, "connections": set()}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path in ("/__count", "/__zero"):
            with lock:
                if self.path == "/__zero":
                    count["requests"] = 0
                    count["connections"] = set()
                body = '{"requests":%d,"connections":%d}' % (count["requests"], len(count["connections"]))
        else:
            with lock:
                count["requests"] += 1
                count["connections"].add(self.client_address)
            body = "ok"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
print("listening", sys.argv[1], flush=True)
server.serve_forever()
