# The debuggee's start under debugger-mcp (debugpy.rs, `DEBUGPY_BOOTSTRAP`), given to debugpy's
# launcher as `pythonArgs: [-X, frozen_modules=off, <this file>]`: it runs what
# `python <debugpy dir> --connect ... program` runs (debugpy/__main__.py: the same sys.path
# steps, then debugpy.server.cli.main), with one change: debugpy's description of the
# environment, which it computes for its log even when nothing is logged (every installed
# package's metadata, twice in this process), is skipped unless a log is open.
import sys

del sys.argv[0]  # this file
while sys.argv[:1] == ["-X"]:  # the launcher's interpreter options, given before this file too
    del sys.argv[:2]
sys.path[0] = sys.argv[0] + "/../"  # this file's directory, as debugpy's replaces its own
import debugpy  # noqa: E402,F401

del sys.path[0]
from debugpy.common import log  # noqa: E402

if hasattr(log, "_levels") and hasattr(log, "describe_environment"):
    describe = log.describe_environment
    log.describe_environment = lambda header: "info" in log._levels and describe(header)
from debugpy.server import cli  # noqa: E402

cli.main()
