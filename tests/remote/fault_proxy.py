#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for Strata's remote-source tests (standard library only).

Listens on 127.0.0.1 (a free port, written to --port-file) and forwards to --upstream.
A request for /f/<tag>/<fault>/<path> is forwarded as /<path> with <fault> applied;
"<fault>x<N>" applies it to the first N requests of that tag only, "<fault>a<N>" to all
requests after the first N.
Faults:
  s500 s503 s429   answer that status instead of forwarding
  drop             send the headers and half the body, then close the connection
  truncate         declare (Content-Length) and send half the body, Content-Range unchanged
  norange          drop the Range header: the upstream answers 200 with the whole file
  badrange         shift the Content-Range by one byte
  nocontentrange   remove the Content-Range header
  etag             answer with a different ETag
  novalidators     remove the ETag and Last-Modified headers
  stall            send the headers, then nothing for 60 s
  trickle          send the body one byte every 50 ms
  delay<ms>        wait before forwarding
  endless          206 with the right Content-Range, then an endless body
  hugelength       200 with Content-Length 2^63-1 to a Range request, then an endless body
With --sigv4 ACCESS:SECRET, requests signed with AWS Signature V4 are checked (as S3 does)
and refused with 403 SignatureDoesNotMatch when the signature is wrong.
"""
import argparse
import hashlib
import hmac
import http.client
import http.server
import re
import socket
import sys
import threading
import time
import urllib.parse

COUNTS = {}
COUNTS_LOCK = threading.Lock()
STOP = threading.Event()


def take(tag, fault):
    """True when the fault applies to this request of `tag`."""
    m = re.fullmatch(r"(.+?)([xa])(\d+)", fault)
    with COUNTS_LOCK:
        seen = COUNTS.get(tag, 0)
        COUNTS[tag] = seen + 1
    if not m:
        return fault, True
    n = int(m.group(3))
    return m.group(1), seen < n if m.group(2) == "x" else seen >= n


def sigv4_problem(handler, secrets):
    auth = handler.headers.get("Authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return None
    parts = dict(p.strip().split("=", 1) for p in auth[len("AWS4-HMAC-SHA256 "):].split(","))
    access, date, region, service, _ = parts["Credential"].split("/")
    if access not in secrets:
        return "InvalidAccessKeyId"
    url = urllib.parse.urlsplit(handler.path)
    query = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
    canonical_query = "&".join(
        urllib.parse.quote(k, safe="-_.~") + "=" + urllib.parse.quote(v, safe="-_.~")
        for k, v in sorted(query))
    signed = parts["SignedHeaders"].split(";")
    canonical_headers = "".join(
        h + ":" + " ".join(handler.headers.get(h, "").split()) + "\n" for h in signed)
    request = "\n".join([handler.command, url.path, canonical_query, canonical_headers,
                         parts["SignedHeaders"],
                         handler.headers.get("x-amz-content-sha256", "")])
    scope = "/".join([date, region, service, "aws4_request"])
    to_sign = "\n".join(["AWS4-HMAC-SHA256", handler.headers.get("x-amz-date", ""), scope,
                         hashlib.sha256(request.encode()).hexdigest()])
    key = ("AWS4" + secrets[access]).encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return None if hmac.compare_digest(expected, parts["Signature"]) else "SignatureDoesNotMatch"


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.handle_request()

    def do_GET(self):
        self.handle_request()

    def simple(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def own_location(self, location, prefix):
        upstream = "http://" + self.server.upstream
        if not location.startswith(upstream):
            return location
        host, port = self.server.server_address[:2]
        return "http://%s:%d%s%s" % (host, port, prefix, location[len(upstream):])

    def handle_request(self):
        path, fault = self.path, None
        m = re.match(r"/f/([^/]+)/([^/]+)(/.*)$", self.path)
        if m:
            name, applies = take(m.group(1), m.group(2))
            path, fault = m.group(3), name if applies else None
        if self.server.secrets:
            problem = sigv4_problem(self, self.server.secrets)
            if problem:
                body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code>"
                        "<Message>checked by the test proxy</Message></Error>" % problem).encode()
                return self.simple(403, body, [("Content-Type", "application/xml")])
        if fault in ("s500", "s503", "s429"):
            return self.simple(int(fault[1:]), b"injected failure\n")
        if fault and fault.startswith("delay"):
            time.sleep(int(fault[5:]) / 1000.0)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host",)}
        if fault in ("norange", "hugelength"):
            headers.pop("Range", None)
            headers.pop("If-Range", None)
        upstream = http.client.HTTPConnection(self.server.upstream, timeout=30)
        upstream.request(self.command, path, headers=headers)
        reply = upstream.getresponse()
        body = reply.read()
        upstream.close()
        out = [(k, v) for k, v in reply.getheaders()
               if k.lower() not in ("content-length", "connection", "transfer-encoding")]
        # A redirect to the upstream (nginx adding a folder's '/') comes back through this proxy
        # and its fault path, as a reverse proxy rewrites it.
        prefix = self.path[: len(self.path) - len(path)]
        out = [(k, self.own_location(v, prefix)) if k.lower() == "location" else (k, v)
               for k, v in out]
        if fault == "badrange":
            out = [(k, shift_range(v)) if k.lower() == "content-range" else (k, v)
                   for k, v in out]
        if fault == "nocontentrange":
            out = [(k, v) for k, v in out if k.lower() != "content-range"]
        if fault == "etag":
            out = [(k, '"changed-by-proxy"') if k.lower() == "etag" else (k, v) for k, v in out]
        if fault == "novalidators":
            out = [(k, v) for k, v in out if k.lower() not in ("etag", "last-modified")]
        if fault in ("endless", "hugelength"):
            return self.endless(reply.status, out, fault)
        self.send_response(reply.status)
        for k, v in out:
            self.send_header(k, v)
        declared = len(body) // 2 if fault == "truncate" else len(body)
        if self.command == "HEAD":  # no body came: pass the upstream's length on
            declared = reply.getheader("Content-Length", "0")
        self.send_header("Content-Length", str(declared))
        self.end_headers()
        if self.command == "HEAD":
            return
        if fault == "drop":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        elif fault == "truncate":
            self.wfile.write(body[:declared])
            self.close_connection = True
        elif fault == "stall":
            self.wfile.flush()
            for _ in range(600):
                if STOP.is_set():
                    break
                time.sleep(0.1)
            self.close_connection = True
        elif fault == "trickle":
            for i in range(len(body)):
                if STOP.is_set():
                    break
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
                time.sleep(0.05)
        else:
            self.wfile.write(body)

    def endless(self, status, headers, fault):
        self.send_response(200 if fault == "hugelength" else status)
        for k, v in headers:
            self.send_header(k, v)
        if fault == "hugelength":
            self.send_header("Content-Length", str(2**63 - 1))
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"\0" * 65536
        try:
            for _ in range(16384):  # at most 1 GiB, then give up
                if STOP.is_set():
                    break
                self.wfile.write(chunk)
        except OSError:
            pass
        self.close_connection = True


def shift_range(value):
    m = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+)", value)
    if not m:
        return value
    a, b, total = (int(g) for g in m.groups())
    return "bytes %d-%d/%d" % (a + 1, b + 1, total)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--sigv4", action="append", default=[])
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    server.upstream = args.upstream
    server.secrets = dict(s.split(":", 1) for s in args.sigv4)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    STOP.set()


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, lambda *a: (STOP.set(), sys.exit(0)))
    main()
