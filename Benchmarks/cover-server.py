#!/usr/bin/env python3
"""A loopback HTTP server with N deterministic cover images in memory, for bench-downloads.sh.

Usage: cover-server.py [--count N] [--port P] [--seed S] [--latency MS]

  GET /covers/<i>.png   (0 <= i < N) a valid PNG of 100-200 KB (RGB noise, stored so that its
                        size is what the benchmark says), with Content-Length, ETag and
                        Last-Modified; If-None-Match gives 304.
  GET /stats            {"requests": R, "bytes": B}: the cover requests and body bytes so far.

--latency MS waits MS milliseconds before answering each cover request, as a distant host
would (a round trip and a CDN's time to first byte); the default, 0, answers at once.

Prints the port on the first line of standard output once it listens (P = 0, the default, picks
a free one), then serves until killed. Multi-threaded (one thread per connection) and HTTP/1.1
keep-alive, so clients may reuse connections as browsers and curl do. The images are generated
from a seeded RNG before the port is printed, so every run serves the same bytes.
"""

import argparse
import http.server
import json
import random
import struct
import sys
import threading
import time
import zlib

LAST_MODIFIED = "Wed, 21 Oct 2015 07:28:00 GMT"


def png(width: int, height: int, rng: random.Random) -> bytes:
    """A valid RGB PNG of noise: it does not compress, so its size is about 3·width·height."""
    rows = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b""))


def make_covers(count: int, seed: int):
    rng = random.Random(seed)
    covers = []
    for index in range(count):
        side = rng.randrange(183, 259)  # 3·side² ≈ 100-200 KB
        body = png(side, side, rng)
        covers.append((body, '"%08x"' % zlib.crc32(body)))
    return covers


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    covers = []
    lock = threading.Lock()
    requests = 0
    sent = 0
    latency = 0.0

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def do_GET(self):  # noqa: N802 - the base class's name
        path = self.path.split("?", 1)[0]
        if path == "/stats":
            with Handler.lock:
                body = json.dumps({"requests": Handler.requests, "bytes": Handler.sent}).encode()
            return self.reply(200, body, "application/json")
        name = path[len("/covers/"):] if path.startswith("/covers/") else ""
        number = name[:-len(".png")] if name.endswith(".png") else ""
        if not number.isdigit() or int(number) >= len(self.covers):
            return self.reply(404, b"no such cover\n", "text/plain")
        body, etag = self.covers[int(number)]
        with Handler.lock:
            Handler.requests += 1
        if Handler.latency > 0:
            time.sleep(Handler.latency)
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return None
        with Handler.lock:
            Handler.sent += len(body)
        return self.reply(200, body, "image/png", etag)

    def reply(self, status, body, content_type, etag=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", LAST_MODIFIED)
        self.end_headers()
        self.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=20250101)
    parser.add_argument("--latency", type=float, default=0, help="milliseconds before each cover's answer")
    options = parser.parse_args()
    Handler.latency = options.latency / 1000
    Handler.covers = make_covers(options.count, options.seed)
    server = Server(("127.0.0.1", options.port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
