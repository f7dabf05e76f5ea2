"""A local HTTP receiver standing in for Discord: loopback only, it records each POST's JSON body."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Receiver:
    def __init__(self):
        self.bodies: list[dict] = []
        self.fail_next = 0  # answer 500 to this many requests first
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with receiver.lock:
                    failing = receiver.fail_next > 0
                    receiver.fail_next -= failing
                    if not failing:
                        receiver.bodies.append(body)
                self.send_response(500 if failing else 204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/api/webhooks/1/secret-token"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def texts(self) -> list[str]:
        with self.lock:
            return [body["content"] for body in self.bodies]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    receiver = Receiver()
    yield receiver
    receiver.close()
