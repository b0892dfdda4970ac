#!/usr/bin/env python3
"""Telnet players beside a relay under load (issue 30), and memory per telnet player.

    python3 Tests/Tools/telnet_load.py --puzzle .build/release/puzzle [--players 20] [--bots 100] [--pairs 3]

Each pair is two runs on fresh servers, interleaved: `puzzle bench --bots N`
alone, then the same with P telnet players in the bench's room, each a raw
socket that answers the negotiation as netkit telnet does (120x40,
xterm-256color), logs in, /joins the room and reads everything it is sent.
Prints the bench's drags/s for both and their ratio, the telnet players' frame
times as the server logs them at each session's end (median and p99 of all
sessions' medians; CPU time of the session's thread), and the bytes a
telnet player received per second. `--rate N` paces the bench (drags/s in
all) instead of its flat-out default.

Memory: a fresh server with its lobby, RSS before and after P telnet players
have joined (and drawn their first frames), divided by P.
One JSON line per run, then a summary line."""
import argparse, json, os, re, socket, statistics, subprocess, sys, tempfile, threading, time

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
NAWS, TTYPE = 31, 24


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024


class TelnetPlayer(threading.Thread):
    """A raw telnet client: answers yes to every offer, reports 120x40 and a type, reads all."""

    def __init__(self, port, name, room, width=120, height=40):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.name, self.room, self.width, self.height = name, room, width, height
        self.received = 0
        self.text = bytearray()
        self.stop = False
        self.logged_in = threading.Event()

    def answer(self, data):
        out = bytearray()
        i = 0
        while i < len(data):
            if data[i] == IAC and i + 2 < len(data) and data[i + 1] in (DO, WILL):
                verb, opt = data[i + 1], data[i + 2]
                out += bytes([IAC, WILL if verb == DO else DO, opt])
                if verb == DO and opt == NAWS:
                    out += bytes([IAC, SB, NAWS, 0, self.width, 0, self.height, IAC, SE])
                i += 3
            elif data[i] == IAC and data[i + 1:i + 4] == bytes([SB, TTYPE, 1]):
                out += bytes([IAC, SB, TTYPE, 0]) + b"xterm-256color" + bytes([IAC, SE])
                i += 6
            else:
                i += 1
        if out:
            self.sock.sendall(bytes(out))

    def run(self):
        self.sock.settimeout(0.5)
        while not self.stop:
            try:
                data = self.sock.recv(1 << 16)
            except socket.timeout:
                continue
            except OSError:
                return
            if not data:
                return
            self.received += len(data)
            if not self.logged_in.is_set() or self.received < 200_000:
                self.answer(data)
                self.text += data
                # Only what changed is drawn: blanks between words may be skipped.
                if not self.logged_in.is_set() and b"name:" in self.text:
                    self.logged_in.set()
                    self.sock.sendall(self.name.encode() + b"\r")
                    if self.room:
                        self.sock.sendall(f"/join {self.room}\r".encode())
                self.text = self.text[-4096:]

    def close(self):
        self.stop = True
        try:
            self.sock.close()
        except OSError:
            pass


def start_server(puzzle, extra=()):
    data = tempfile.mkdtemp(prefix="telnet-load-")
    p = subprocess.Popen([puzzle, "serve", "--port", "0", "--bind", "127.0.0.1", "--data", data, "--drag-rate", "0",
                          "--log-level", "info", "--max-connections", "12000", "--max-per-address", "0",
                          "--idle-timeout", "0", "--telnet-port", "0", "--telnet-max", "200", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = telnet = None
    while port is None or telnet is None:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("server did not start: " + p.stderr.read())
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
        m = re.search(r"telnet 127\.0\.0\.1 (\d+)", line)
        if m:
            telnet = int(m.group(1))
    log = []
    threading.Thread(target=lambda: [log.append(l) for l in p.stderr], daemon=True).start()
    return p, port, telnet, log


def rooms(port):
    """The server's rooms and the players in each (ROOMS)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"ROOMS\n")
    buf = b""
    while b"OK rooms" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
    s.close()
    return {m[0]: int(m[1]) for m in re.findall(r"^S room (\S+) .*?players=(\d+)", buf.decode(), re.M)}


def wait_players(port, room, count, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if rooms(port).get(room, 0) >= count:
            return True
        time.sleep(0.05)
    print(f"{room}: fewer than {count} players after {seconds} s: {rooms(port)}", file=sys.stderr)
    return False


def run(puzzle, bots, players, duration, warmup, rate):
    server, port, telnet, log = start_server(puzzle)
    bench = subprocess.Popen([puzzle, "bench", "--server", f"127.0.0.1:{port}", "--server-pid", str(server.pid), "--json",
                              "--no-progress", "--bots", str(bots), "--duration", str(duration), "--warmup", str(warmup), "--rate", rate],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients = []
    if players:
        deadline = time.time() + 10
        room = None
        while room is None and time.time() < deadline:
            room = next((r for r in rooms(port) if r != "lobby"), None)
            time.sleep(0.05)
        for i in range(players):
            c = TelnetPlayer(telnet, f"t{i}", room)
            c.start()
            clients.append(c)
        wait_players(port, room, bots + players, warmup)
        counted = [c.received for c in clients]
        t0 = time.time()
    out, err = bench.communicate()
    result = json.loads(out.strip().splitlines()[-1])
    row = {"telnet_players": players, "drags_per_sec": result["drags_per_sec"], "passed": result["passed"],
           "broadcast_p99_us": result["broadcast_latency_us"]["p99"]}
    if players:
        elapsed = time.time() - t0
        row["telnet_bytes_per_sec_each"] = int(statistics.median((c.received - n) / elapsed for c, n in zip(clients, counted)))
        for c in clients:
            c.close()
        deadline = time.time() + 10
        while sum("telnet" in l and "frames" in l for l in log) < players and time.time() < deadline:
            time.sleep(0.05)
        medians = [float(m) for l in log for m in re.findall(r"frames, median ([\d.]+) ms", l)]
        p99s = [float(m) for l in log for m in re.findall(r"p99 ([\d.]+) ms", l)]
        row["frame_median_ms"] = {"median": statistics.median(medians), "max": max(medians)} if medians else None
        row["frame_p99_ms_max"] = max(p99s) if p99s else None
        row["frames"] = sum(int(m) for l in log for m in re.findall(r"(\d+) frames", l))
    server.terminate()
    server.wait()
    return row


def memory(puzzle, players):
    server, port, telnet, _ = start_server(puzzle)
    time.sleep(0.5)
    before = rss(server.pid)
    clients = [TelnetPlayer(telnet, f"m{i}", None) for i in range(players)]
    for c in clients:
        c.start()
    wait_players(port, "lobby", players, 10)
    time.sleep(2)  # their first frames drawn
    after = rss(server.pid)
    for c in clients:
        c.close()
    server.terminate()
    server.wait()
    return {"memory_players": players, "rss_before": before, "rss_after": after, "bytes_per_player": (after - before) // players}


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--puzzle", default=".build/release/puzzle")
    a.add_argument("--players", type=int, default=20)
    a.add_argument("--bots", type=int, default=100)
    a.add_argument("--pairs", type=int, default=3)
    a.add_argument("--duration", type=int, default=10)
    a.add_argument("--warmup", type=int, default=7)
    a.add_argument("--rate", default="max", help="the bench's total drags/s (max, or paced: N)")
    o = a.parse_args()
    ratios = []
    for _ in range(o.pairs):
        base = run(o.puzzle, o.bots, 0, o.duration, o.warmup, o.rate)
        print(json.dumps(base), flush=True)
        tel = run(o.puzzle, o.bots, o.players, o.duration, o.warmup, o.rate)
        print(json.dumps(tel), flush=True)
        ratios.append(tel["drags_per_sec"] / base["drags_per_sec"])
    mem = memory(o.puzzle, o.players)
    print(json.dumps(mem), flush=True)
    print(json.dumps({"drag_ratio_median": round(statistics.median(ratios), 3), "ratios": [round(r, 3) for r in ratios],
                      "bytes_per_telnet_player": mem["bytes_per_player"]}))


if __name__ == "__main__":
    main()
