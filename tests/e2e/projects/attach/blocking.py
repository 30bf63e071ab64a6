"""A service whose every thread waits in a call: the main one in accept() without a timeout, a
worker in a long sleep. No Python code runs until a client connects."""

import socket
import threading
import time


def idle():
    time.sleep(3600)


threading.Thread(target=idle, name="idle", daemon=True).start()
server = socket.create_server(("127.0.0.1", 0))
print(f"listening on {server.getsockname()[1]}", flush=True)
while True:
    conn, _ = server.accept()
    conn.sendall(b"hello\n")
    conn.close()
