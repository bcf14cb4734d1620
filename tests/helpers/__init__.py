"""Helper programs the tests start as real subprocesses."""
