"""ports.py - loopback ports for test servers, safe when test suites run at
the same time (make check runs them together: tests/parallel.py).

    from ports import free_port
    port = free_port()     # free now, and no other test run of this machine
                           # is handed it while this process lives

Asking the kernel for a free port (bind to port 0) and closing it is not
enough once suites run together: between the close and the server's own bind,
another suite may be handed the same port, or a client connection may take
it as its local port. So the ports come from below the kernel's range of
local ports for outgoing connections (net.ipv4.ip_local_port_range), where
no connection lands, and each one is reserved with a lock on a file named
after it (in the temporary folder, ringside-test-ports/), held until this
process exits: another suite skips a locked port. Python 3 standard library
only.
"""

import errno
import fcntl
import os
import random
import socket
import tempfile

LOWEST = 10000  # below: ports that well-known services may use
_held = []  # the lock files of this process's ports, open until it exits


def _local_range():
    """The kernel's range of local ports for outgoing connections."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            lo, hi = (int(x) for x in f.read().split())
        return lo, hi
    except (OSError, ValueError):
        return 32768, 60999


def _lock_dir():
    """The shared folder of port locks, writable by everyone (sticky)."""
    d = os.path.join(tempfile.gettempdir(), "ringside-test-ports")
    try:
        os.mkdir(d)
        os.chmod(d, 0o1777)
    except FileExistsError:
        pass
    return d


def _bindable(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def _kernel_port():
    """The old way, when no port below the local range can be reserved."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def free_port():
    """A loopback TCP port that is free now and reserved for this process
    (see above) until it exits."""
    lo, _ = _local_range()
    hi = lo - 1
    if hi - LOWEST < 1000:
        return _kernel_port()
    try:
        d = _lock_dir()
    except OSError:
        return _kernel_port()
    rng = random.SystemRandom()
    for _ in range(500):
        port = rng.randint(LOWEST, hi)
        try:
            f = open(os.path.join(d, str(port)), "a")
        except OSError:
            continue  # someone else's lock file, say: another port
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            f.close()
            if e.errno in (errno.EWOULDBLOCK, errno.EACCES):
                continue
            raise
        if not _bindable(port):
            f.close()
            continue
        _held.append(f)
        return port
    return _kernel_port()
