#!/usr/bin/env python3
"""A loopback HTTP server for gallery's end-to-end cover tests.

Serves the files of a folder with ETag and Last-Modified, answers conditional requests with 304,
and records every request so a test can count them: one JSON line per request is appended to the
log file named by the second argument (read as a file, so counting needs no HTTP client).
Once listening on a free port of 127.0.0.1, writes that port number to the file named by the third
argument (through a temporary file and a rename, so a reader never sees half a number).
"""
import hashlib
import http.server
import json
import os
import urllib.parse
import signal
import sys
import threading

# A child inherits the signal mask of the thread that spawned it, and a test's worker thread blocks
# SIGTERM; unblock everything so Process.terminate() stops this server.
signal.pthread_sigmask(signal.SIG_SETMASK, set())

ROOT = sys.argv[1]
LOG_PATH = sys.argv[2]
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        entry = {"path": self.path, "if_none_match": self.headers.get("If-None-Match"),
                 "if_modified_since": self.headers.get("If-Modified-Since"),
                 "user_agent": self.headers.get("User-Agent")}
        with LOCK, open(LOG_PATH, "a") as log:
            log.write(json.dumps(entry) + "\n")
        # As a web server names files: the path without its query, percent-decoded.
        path = os.path.join(ROOT, urllib.parse.unquote(self.path.split("?")[0]).lstrip("/"))
        if not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with open(path, "rb") as f:
            body = f.read()
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        modified = "Sat, 01 Nov 2025 00:00:00 GMT"
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/svg+xml" if path.endswith(".svg") else "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
PORT_PATH = sys.argv[3]
with open(PORT_PATH + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORT_PATH + ".tmp", PORT_PATH)
server.serve_forever()
