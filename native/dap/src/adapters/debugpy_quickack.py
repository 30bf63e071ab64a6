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
# debugpy describes the environment for its log even when nothing is logged (every installed
# package's metadata: 0.2-0.4 s here); skipped unless a log is open (debugpy_bootstrap.py does
# the same in the debuggee). Patched once debugpy.common.log is imported: importing it here
# would bind its stderr before the adapter points sys.stderr at /dev/null.
import importlib.abc, importlib.util
class _QuietEnvironment(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "debugpy.common.log":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module
        def exec_module(log):
            run(log)
            if hasattr(log, "_levels") and hasattr(log, "describe_environment"):
                describe = log.describe_environment
                log.describe_environment = lambda header: "info" in log._levels and describe(header)
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, _QuietEnvironment())
runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)
