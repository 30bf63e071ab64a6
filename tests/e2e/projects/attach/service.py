"""A small HTTP service for attach tests: started outside the debugger, it keeps state across
requests (a running count of orders) and serves on a port it prints."""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

ORDERS = []
CALLS = []


def bump():
    """Counts its calls, then fails on a name nobody defines (a read runs it once)."""
    CALLS.append(1)
    return missing_name  # noqa: F821


def price(item: str, qty: int) -> int:
    unit = {"pen": 3, "book": 12}.get(item, 1)
    return unit * qty


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        query = parse_qs(urlparse(self.path).query)
        item = query.get("item", ["pen"])[0]
        qty = int(query.get("qty", ["1"])[0])
        total = price(item, qty)
        ORDERS.append((item, qty, total))
        body = json.dumps({"item": item, "total": total, "orders": len(ORDERS)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()
