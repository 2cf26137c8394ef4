#!/usr/bin/env python3
"""blackhole.py - a TCP proxy that can cut its connections off as a dead
network link does: the packets vanish, no RST, no FIN.

    p = Proxy(upstream_port)     listens on a free loopback port (p.port) and
                                 forwards each connection to 127.0.0.1:upstream_port
    p.cut()                      from now on every packet that reaches the
                                 proxy, from either end of any connection, or
                                 a new connection's SYN, is dropped before
                                 TCP sees it: nothing is acknowledged, nothing
                                 forwarded, nothing closed
    p.mend()                     forwards again, as a link that came back
    p.close()                    closes everything (the end of a test)

Why not just stop reading: the proxy's kernel would still acknowledge what
the peers send (data up to the buffer, keepalive probes), so a peer's
keepalives and TCP_USER_TIMEOUT would never fire, unlike on a real cut. A
classic BPF socket filter (SO_ATTACH_FILTER) that returns 0 drops each
segment before TCP processes it, on this process's own sockets only: the
peers see silence, exactly as on a cut. It needs no privilege and touches
nothing outside the proxy (no firewall rule, no qdisc).

Also a tool: python3 tests/e2e/blackhole.py UPSTREAM_PORT prints the port it
listens on, then reads commands from stdin: "cut", "mend", "quit".

Python 3 standard library only (ctypes for the filter's address), Linux.
"""

import ctypes
import select
import socket
import struct
import sys
import threading

SO_ATTACH_FILTER = 26
SO_DETACH_FILTER = 27
# One instruction: BPF_RET | BPF_K with k = 0, "keep 0 bytes": drop.
_DROP = ctypes.create_string_buffer(struct.pack("HBBI", 0x06, 0, 0, 0))
# struct sock_fprog { unsigned short len; struct sock_filter *filter; }
_DROP_PROG = struct.pack("HxxxxxxQ", 1, ctypes.addressof(_DROP))


def _drop_all(sock):
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, _DROP_PROG)


def _pass_all(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_DETACH_FILTER, 0)
    except OSError:
        pass  # no filter attached (a connection made while mended)


class Proxy:
    """A loopback TCP proxy to 127.0.0.1:upstream_port that can be cut off."""

    def __init__(self, upstream_port, port=0):
        self.upstream = upstream_port
        self.lock = threading.Lock()
        self.cutoff = False
        self.closed = False
        self.pairs = []  # [client socket, upstream socket]
        self.accepted = 0
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.wake_r, self.wake_w = socket.socketpair()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.listener.accept()
            except OSError:
                return
            try:
                u = socket.create_connection(("127.0.0.1", self.upstream), timeout=10)
                u.settimeout(None)
            except OSError:
                c.close()  # the upstream is down: as it would refuse
                continue
            with self.lock:
                if self.closed:
                    c.close()
                    u.close()
                    return
                if self.cutoff:  # accepted just before the cut
                    _drop_all(c)
                    _drop_all(u)
                self.pairs.append([c, u])
                self.accepted += 1
            threading.Thread(target=self._pump, args=(c, u), daemon=True).start()

    def _pump(self, c, u):
        """Forwards both ways until either end closes; while cut off it
        neither reads nor writes (what is in flight stays where it is)."""
        peer = {c: u, u: c}
        while True:
            with self.lock:
                cut, closed = self.cutoff, self.closed
            if closed:
                break
            if cut:
                select.select([self.wake_r], [], [], 0.2)
                continue
            try:
                ready, _, _ = select.select([c, u], [], [], 0.2)
            except (OSError, ValueError):
                break
            done = False
            for s in ready:
                try:
                    data = s.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    done = True
                    break
                try:
                    peer[s].sendall(data)
                except OSError:
                    done = True
                    break
            if done:
                break
        with self.lock:
            if [c, u] in self.pairs:
                self.pairs.remove([c, u])
        for s in (c, u):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def cut(self):
        """Every packet to the proxy is dropped from now on: new
        connections' SYNs, and everything on the live ones, both ways."""
        with self.lock:
            self.cutoff = True
            _drop_all(self.listener)
            for c, u in self.pairs:
                _drop_all(c)
                _drop_all(u)

    def mend(self):
        """Forwards again: what was held back on either side flows on."""
        with self.lock:
            self.cutoff = False
            _pass_all(self.listener)
            for c, u in self.pairs:
                _pass_all(c)
                _pass_all(u)

    def close(self):
        with self.lock:
            self.closed = True
            try:
                self.listener.close()
            except OSError:
                pass


def main(argv):
    if len(argv) != 2 or not argv[1].isdigit():
        print("usage: python3 tests/e2e/blackhole.py UPSTREAM_PORT (then cut, mend or quit on "
              "stdin)", file=sys.stderr)
        return 2
    p = Proxy(int(argv[1]))
    print(p.port, flush=True)
    for line in sys.stdin:
        word = line.strip()
        if word == "cut":
            p.cut()
        elif word == "mend":
            p.mend()
        elif word == "quit":
            break
        elif word:
            print("unknown command %r: cut, mend or quit" % word, file=sys.stderr)
            continue
        print(word, flush=True)
    p.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
