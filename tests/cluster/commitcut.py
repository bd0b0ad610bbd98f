"""A TCP proxy between a mautod host and one Galera node that loses the
connection exactly at COMMIT (tests/cluster/t35_commit_lost.py).

It reads the client's MySQL protocol packets (3-byte length, sequence
number, payload) and recognises COMMIT: a COM_QUERY (0x03) whose text is
COMMIT.  While cutting is on, every COMMIT is cut, in turn
  - "before": the connection is closed without sending the COMMIT, so the
    transaction is rolled back by the server, and
  - "after": the COMMIT is sent, the server's answer read, and the
    connection closed without passing it on, so the transaction committed
    and the client never learns it.
Either way the client sees error 2013 (lost connection) at COMMIT: the
outcome is unknown to it.  The counts of each kind are kept.

arm(marker, mode) also cuts one chosen transaction: the first (on any
connection) that sends a packet holding the bytes marker (a bound value:
an export id, a checksum prefix) has its next COMMIT cut the given way.
"""
import socket
import threading


def _read_exact(sock, n):
    buf = b''
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def _read_packet(sock):
    """One MySQL packet (header and payload), or None at end of stream."""
    head = _read_exact(sock, 4)
    if head is None:
        return None
    n = head[0] | head[1] << 8 | head[2] << 16
    body = _read_exact(sock, n) if n > 0 else b''
    if body is None:
        return None
    return head + body


def _is_commit(packet):
    return packet[4:5] == b'\x03' and \
        packet[5:].strip().rstrip(b';').upper() == b'COMMIT'


class CommitCutter:
    def __init__(self, node_port):
        self.node_port = node_port
        self.lock = threading.Lock()
        self.cutting = False
        self.cuts = {'before': 0, 'after': 0}
        self.commits = 0
        self.next_mode = 'before'
        self.markers = {}
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(('127.0.0.1', 0))
        self.srv.listen(64)
        self.port = self.srv.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            try:
                s = socket.create_connection(('127.0.0.1', self.node_port))
            except OSError:
                c.close()
                continue
            threading.Thread(target=self._down, args=(s, c),
                             daemon=True).start()
            threading.Thread(target=self._up, args=(c, s),
                             daemon=True).start()

    @staticmethod
    def _close(*socks):
        for x in socks:
            try:
                x.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            x.close()

    def _down(self, s, c):
        """Server to client, as is."""
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    break
                c.sendall(data)
        except OSError:
            pass
        self._close(s, c)

    def arm(self, marker, mode='after'):
        with self.lock:
            self.markers[marker] = mode

    def armed(self, marker):
        """Whether marker is still waiting for its transaction."""
        with self.lock:
            return marker in self.markers

    def _marks(self, packet):
        """How to cut the COMMIT of the transaction packet is part of,
        when it holds an armed marker (which is then used up)."""
        with self.lock:
            for m, mode in self.markers.items():
                if m in packet:
                    del self.markers[m]
                    self.cuts[mode] += 1
                    return mode
            return None

    def _mode(self, marked):
        """None to pass this COMMIT on, else how to cut it."""
        with self.lock:
            self.commits += 1
            if marked:
                return marked
            if not self.cutting or self.commits % 3 != 0:
                return None
            mode = self.next_mode
            self.next_mode = 'after' if mode == 'before' else 'before'
            self.cuts[mode] += 1
            return mode

    def _up(self, c, s):
        """Client to server, packet by packet, cutting at COMMIT."""
        marked = None
        try:
            while True:
                p = _read_packet(c)
                if p is None:
                    break
                marked = marked or self._marks(p)
                mode = _is_commit(p) and self._mode(marked)
                if mode == 'before':
                    break
                if mode == 'after':
                    # Hold the server's answer back: stop the other
                    # direction first, then send and wait for the answer.
                    self._swallow(c, s, p)
                    return
                s.sendall(p)
        except OSError:
            pass
        self._close(s, c)

    def _swallow(self, c, s, p):
        # The pump _down may be inside recv on s: closing c first makes
        # its sendall fail, so it cannot pass the answer on; the answer
        # is read here (or by _down, which then fails to forward it).
        self._close(c)
        try:
            s.sendall(p)
            s.settimeout(30)
            s.recv(65536)
        except OSError:
            pass
        self._close(s)

    def close(self):
        self._close(self.srv)
