"""A TCP tunnel for the attach tests: `python3 tunnel.py HOST:PORT` listens on a free loopback port,
prints `listening on N`, and forwards every connection to HOST:PORT. It stands for what sits between
an agent and a debug port on another host or in a container (ssh -L, docker-proxy, kubectl
port-forward): the process listening on this machine is the tunnel, not the debugger."""

import socket
import sys
import threading


def pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main() -> None:
    host, port = sys.argv[1].rsplit(":", 1)
    lsock = socket.create_server(("127.0.0.1", 0))
    print(f"listening on {lsock.getsockname()[1]}", flush=True)
    while True:
        client, _ = lsock.accept()
        try:
            upstream = socket.create_connection((host, int(port)))
        except OSError:
            client.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True).start()


if __name__ == "__main__":
    main()
