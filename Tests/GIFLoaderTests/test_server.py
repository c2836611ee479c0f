#!/usr/bin/env python3
"""HTTP and HTTPS test server for GIFLoaderTests (Python standard library + openssl CLI).

usage: test_server.py WORKDIR

WORKDIR must hold small.gif and big.gif (written by the tests). The server makes, in
WORKDIR, a test CA (ca.pem) and a server certificate for 127.0.0.1 signed by it, plus a
second CA that is never trusted and a certificate from it, and two more certificates from
the trusted CA that fail verification for other reasons: one expired yesterday, one names
only example.com. It listens on five free ports of 127.0.0.1 (plain HTTP, HTTPS with the
trusted cert, HTTPS with the untrusted, the expired and the wrong-host cert), prints
{"http": P1, "https": P2, "untrusted": P3, "expired": P4, "wronghost": P5} on one line of
stdout, and serves until its stdin closes (the test process ended).

Routes (the first path segment picks the route; the rest of the path is free, so each
test can use its own URL; counters are kept per full path):
  /gif/…            small.gif, Content-Length, image/gif
  /big/…            big.gif
  /slow/…           waits 0.6 s before the status line, then small.gif
  /trickle/…        big.gif in 8 pieces, 60 ms apart
  /chunked/…        small.gif with Transfer-Encoding: chunked
  /close/…          big.gif with no Content-Length, ended by closing the connection
  /status/CODE/…    that status with a small HTML body; ?bare: no reason phrase
  /chain/N/…        302 → /chain/N-1/… ; /chain/0/… is small.gif
  /loop/…           302 to itself
  /tofile/…         302 to file:///etc/passwd
  /html/…           an HTML page, text/html; charset=utf-8
  /notype/…         plain bytes without a Content-Type
  /empty/…          200 with an empty body
  /huge/…           claims Content-Length 300 MiB, sends "GIF8" and closes
  /reset/…          Content-Length of big.gif, 50000 bytes, then a TCP reset
  /truncated/…      Content-Length of big.gif, 50000 bytes, then a clean close
  /hang/…           reads the request and never answers
  /etag/…           ETag + Last-Modified; 304 when If-None-Match matches
  /lastmod/…        Last-Modified only; 304 when If-Modified-Since matches
  /fresh/…          Cache-Control: max-age=3600 + ETag
  /nostore/…        Cache-Control: no-store
  /gzip/…           big.gif, gzip-encoded when the client accepts gzip
  /stats            JSON: {path: {"requests", "bodies", "headers" (of the last request)}}
"""

import gzip
import json
import os
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WORKDIR = sys.argv[1]
SMALL = open(os.path.join(WORKDIR, "small.gif"), "rb").read()
BIG = open(os.path.join(WORKDIR, "big.gif"), "rb").read()
LAST_MODIFIED = "Wed, 21 Oct 2015 07:28:00 GMT"
PARTIAL = 50000

stats_lock = threading.Lock()
stats = {}


def openssl(*args):
    subprocess.run(["openssl", *args], cwd=WORKDIR, check=True, capture_output=True)


def make_ca(name):
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", name + ".key", "-out", name + ".pem", "-days", "2",
            "-subj", "/CN=gifview " + name,
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")


def make_leaf(ca, name, san="IP:127.0.0.1,DNS:localhost", days="2"):
    ext = os.path.join(WORKDIR, name + ".ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=" + san + "\n"
                "basicConstraints=CA:FALSE\n"
                "keyUsage=critical,digitalSignature\n"
                "extendedKeyUsage=serverAuth\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=127.0.0.1")
    openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
            "-CAcreateserial", "-out", name + ".pem", "-days", days, "-extfile", ext)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def count(self, body_sent):
        with stats_lock:
            entry = stats.setdefault(self.path, {"requests": 0, "bodies": 0, "headers": {}})
            if body_sent:
                entry["bodies"] += 1
            else:
                entry["requests"] += 1
                entry["headers"] = {k.lower(): v for k, v in self.headers.items()}

    def send_body(self, body, status=200, ctype="image/gif", headers=(), reason=None):
        if reason is None:
            self.send_response(status)
        else:
            self.log_request(status)
            self.send_response_only(status, reason)
            self.send_header("Date", self.date_time_string())
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        # Counted before the bytes go out: a client that has read the whole body and then
        # asks /stats must see it counted.
        if body:
            self.count(True)
        self.wfile.write(body)
        self.wfile.flush()

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        path, _, query = self.path.partition("?")
        parts = [p for p in path.split("/") if p]
        route = parts[0] if parts else ""
        rest = "/".join(parts[1:])
        if route != "stats":
            self.count(False)

        if route == "stats":
            with stats_lock:
                body = json.dumps(stats).encode()
            self.send_body(body, ctype="application/json")
        elif route == "gif":
            self.send_body(SMALL)
        elif route == "big":
            self.send_body(BIG)
        elif route == "slow":
            time.sleep(0.6)
            self.send_body(SMALL)
        elif route == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Content-Length", str(len(BIG)))
            self.end_headers()
            step = (len(BIG) + 7) // 8
            for i in range(0, len(BIG), step):
                self.wfile.write(BIG[i:i + step])
                self.wfile.flush()
                time.sleep(0.06)
            self.count(True)
        elif route == "chunked":
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            third = len(SMALL) // 3 + 1
            for i in range(0, len(SMALL), third):
                piece = SMALL[i:i + third]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.count(True)
        elif route == "close":
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(BIG)
            self.wfile.flush()
            self.close_connection = True
            self.count(True)
        elif route == "status":
            code = int(parts[1])
            body = b"<html><body>%d</body></html>" % code
            self.send_body(body, status=code, ctype="text/html",
                           reason="" if query == "bare" else None)
        elif route == "chain":
            n = int(parts[1])
            tail = "/".join(parts[2:])
            if n > 0:
                self.redirect("/chain/%d/%s" % (n - 1, tail))
            else:
                self.send_body(SMALL)
        elif route == "loop":
            self.redirect(self.path)
        elif route == "tofile":
            self.redirect("file:///etc/passwd")
        elif route == "html":
            self.send_body(b"<!doctype html><title>x</title>GIF89a is not here",
                           ctype="text/html; charset=utf-8")
        elif route == "notype":
            self.send_body(b"hello, world\n", ctype=None)
        elif route == "empty":
            self.send_body(b"")
        elif route == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Content-Length", str(300 << 20))
            self.end_headers()
            self.wfile.write(b"GIF8")
            self.wfile.flush()
            self.close_connection = True
        elif route in ("reset", "truncated"):
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.send_header("Content-Length", str(len(BIG)))
            self.end_headers()
            self.wfile.write(BIG[:PARTIAL])
            self.wfile.flush()
            time.sleep(0.3)  # let the client read what was sent
            if route == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
            else:
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.connection.close()
            self.close_connection = True
        elif route == "hang":
            time.sleep(20)
            self.close_connection = True
        elif route == "etag":
            tag = '"v1-%s"' % rest
            headers = [("ETag", tag), ("Last-Modified", LAST_MODIFIED)]
            if self.headers.get("If-None-Match") == tag:
                self.not_modified(headers)
            else:
                self.send_body(SMALL, headers=headers)
        elif route == "lastmod":
            headers = [("Last-Modified", LAST_MODIFIED)]
            if self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                self.not_modified(headers)
            else:
                self.send_body(SMALL, headers=headers)
        elif route == "fresh":
            headers = [("ETag", '"fresh"'), ("Cache-Control", "max-age=3600")]
            if self.headers.get("If-None-Match") == '"fresh"':
                self.not_modified(headers)
            else:
                self.send_body(SMALL, headers=headers)
        elif route == "nostore":
            self.send_body(SMALL, headers=[("Cache-Control", "no-store"), ("ETag", '"ns"')])
        elif route == "gzip":
            if "gzip" in self.headers.get("Accept-Encoding", ""):
                self.send_body(gzip.compress(BIG), headers=[("Content-Encoding", "gzip")])
            else:
                self.send_body(BIG)
        else:
            self.send_body(b"no such route", status=404, ctype="text/plain")

    def not_modified(self, headers):
        self.send_response(304)
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()


class TLSServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, handler, context):
        super().__init__(address, handler)
        self.context = context

    def finish_request(self, request, client_address):
        # The handshake runs on the connection's own thread, not in the accept loop.
        try:
            tls = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        try:
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            try:
                tls.close()
            except OSError:
                pass


class PlainServer(ThreadingHTTPServer):
    daemon_threads = True


def tls_context(name):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(WORKDIR, name + ".pem"), os.path.join(WORKDIR, name + ".key"))
    return ctx


def main():
    make_ca("ca")
    make_leaf("ca", "server")
    make_ca("rogue-ca")
    make_leaf("rogue-ca", "rogue")
    make_leaf("ca", "expired", days="-1")  # notAfter a day before now
    make_leaf("ca", "wronghost", san="DNS:example.com")
    servers = {
        "http": PlainServer(("127.0.0.1", 0), Handler),
        "https": TLSServer(("127.0.0.1", 0), Handler, tls_context("server")),
        "untrusted": TLSServer(("127.0.0.1", 0), Handler, tls_context("rogue")),
        "expired": TLSServer(("127.0.0.1", 0), Handler, tls_context("expired")),
        "wronghost": TLSServer(("127.0.0.1", 0), Handler, tls_context("wronghost")),
    }
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({k: s.server_address[1] for k, s in servers.items()}), flush=True)
    sys.stdin.read()  # returns when the test process goes away
    os._exit(0)


if __name__ == "__main__":
    main()
