import os
import signal

print("about to be killed", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
