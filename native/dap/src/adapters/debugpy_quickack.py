import runpy, socket, sys
if hasattr(socket, "TCP_QUICKACK"):
    _readinto = socket.SocketIO.readinto
    def _quickack_readinto(self, b):
        n = _readinto(self, b)
        try:
            self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        except OSError:
            pass
        return n
    socket.SocketIO.readinto = _quickack_readinto
runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)
