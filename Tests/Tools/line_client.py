"""What the measuring tools share: a free loopback port, and a client of the
line protocol that reads whole lines and skips to replies."""
import socket


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class LineClient:
    def __init__(self, port, timeout=120):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""

    def send(self, text):
        self.s.sendall(text.encode())

    def line(self):
        """The next line, without its LF."""
        while b"\n" not in self.buf:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise SystemExit("server closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace")

    def reply(self):
        """The next reply (OK, ERR, PONG, BYE), skipping S and EV lines."""
        while True:
            l = self.line()
            if l.startswith(("OK", "ERR", "PONG", "BYE")):
                return l

    def until(self, wanted):
        """Reads up to and including the line `wanted`."""
        while self.line() != wanted:
            pass
